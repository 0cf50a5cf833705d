import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNL_TEXTS } from '../../contract/discordLink';
import { useServerSuite } from '../support/suite';
import { castOf, newGame, stored } from '../support/liveSocket';
import { DiscordCommandsStandIn, EPHEMERAL, InteractionSigner, LINK_ORIGIN as ORIGIN, devDiscordId, linkCodeOf as codeOf, newGuild, snlCommand } from '../support/discordInteractions';

/**
 * A slash command slower than DISCORD_DEFER_MS (docs/server.md §19 "Slash commands"): on
 * PostgreSQL, a roll held by another connection's row lock answers {type: 5} within Discord's 3 s
 * and its log text follows as the edit of the original response at a stand-in of Discord's API;
 * a command answered in time sends no edit. Its bound is wall time, so it runs in the timed group
 * (vite.config.ts TIMED), after the rest of the suite's load. The other slash-command tests are
 * tests/server/discord-interactions.api.test.ts.
 */

describe('a command slower than DISCORD_DEFER_MS is deferred and its answer follows as an edit (PostgreSQL)', () => {
  if (!process.env.TEST_DATABASE_URL) {
    it.skip('skipped: set TEST_DATABASE_URL to run it (the roll is held by a row lock of another connection)', () => {});
    return;
  }
  const signer = new InteractionSigner();
  const discord = new DiscordCommandsStandIn();
  // The stand-in's address is known once it listens: filled in before the server starts (hooks run in order).
  const env: Record<string, string> = { DISCORD_PUBLIC_KEY: signer.publicKeyHex, PUBLIC_ORIGIN: ORIGIN, DISCORD_DEFER_MS: '2000' };
  beforeAll(async () => {
    await discord.start();
    env.DISCORD_API_URL = discord.url;
  });
  afterAll(() => discord.stop());
  const suite = useServerSuite('postgres', env);

  it('a roll held past 2 s answers {type: 5} within 3 s; the roll\'s log text then arrives as the edit of @original', async () => {
    const cast = await castOf(suite.url, 'snl-defer');
    const game = await newGame(cast);
    const guild = newGuild();
    const code = codeOf((await signer.post(suite.url, snlCommand('link', guild, '500000000000000001'))).body.data.content);
    expect((await cast.owner.post(`/api/discord/links/${code}`, { clan_id: cast.clanId })).status).toBe(200);
    const before = await stored(cast, game);

    // Another connection holds the game's row, as a slow transaction would: the roll (which locks
    // that row first) waits for it.
    const holder = new pg.Client({ connectionString: suite.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM games WHERE id = $1 FOR UPDATE', [game.gameId]);
      const command = snlCommand('roll', guild, devDiscordId('sock-owner-snl-defer'));
      const sent = performance.now();
      const answer = await signer.post(suite.url, command);
      const took = performance.now() - sent;
      expect(answer).toEqual({ status: 200, body: { type: 5 } });
      expect(took).toBeGreaterThanOrEqual(1900);
      expect(took).toBeLessThan(3000);
      // Nothing is sent while the roll waits.
      expect(discord.edits).toHaveLength(0);
      expect((await stored(cast, game)).version).toBe(before.version);
      await holder.query('COMMIT');

      const edit = await discord.nextEdit(1);
      expect(edit.applicationId).toBe(command.application_id);
      expect(edit.token).toBe(command.token);
      const after = await stored(cast, game);
      expect(after.version).toBe(before.version + 1);
      const added = after.log_entries.filter((e) => !before.log_entries.some((b) => b.id === e.id)).sort((a, b) => a.id - b.id);
      expect(edit.body).toEqual({ content: added.map((e) => e.message).join('\n'), embeds: [], allowed_mentions: { parse: [] } });
      expect(edit.body.content).toMatch(/^Red Team rolled a [1-6] and moved from 1 to \d+\./);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  });

  it('a command answered in time is not deferred and sends no edit', async () => {
    const edits = discord.edits.length;
    expect((await signer.post(suite.url, snlCommand('status', newGuild(), '500000000000000001'))).body).toEqual({ type: 4, data: { content: SNL_TEXTS.notLinked, flags: EPHEMERAL } });
    expect(discord.edits).toHaveLength(edits);
  });
});
