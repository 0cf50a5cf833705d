import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Deps } from '../../server/http/context';
import { ROUTE_MODULES } from '../../server/modules';
import { DISCORD_LINK_MESSAGES, SNL_TEXTS } from '../../contract/discordLink';
import { ApiClient } from '../support/api';
import { backends } from '../support/server';
import { useServerSuite, useTwoProcesses } from '../support/suite';
import { directSql } from '../support/sql';
import { castOf, connect, newGame, stored, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { DiscordCommandsStandIn, EPHEMERAL, InteractionSigner, LINK_ORIGIN as ORIGIN, devDiscordId, linkCodeOf as codeOf, newGuild, snlCommand } from '../support/discordInteractions';

/**
 * Slash commands over Discord's HTTP interactions (docs/server.md §19 "Slash commands"), against
 * the real server with a test Ed25519 key pair as the application's (DISCORD_PUBLIC_KEY): the
 * signature (missing, wrong, stale: 401), 404 while no key is set, PING, `/snl link` and the link
 * page's API (unknown, used, expired codes; non-managers; a new link replacing the old on either
 * side; GET and DELETE of a clan's guild), `/snl status` (not linked, no live games, live games),
 * `/snl roll` (the roll's log text, as the game's log has it; no site user; no Leader; the game
 * option; the roll rules' own refusals) and the per-guild limit; with TEST_REDIS_URL and
 * TEST_DATABASE_URL, a roll sent to one process reaches a spectator of the other and the limit
 * holds across both; and `npm run discord:commands` against a stand-in of Discord's API. The
 * deferral of a slow command is tests/server/discord-defer.api.test.ts.
 */

const BAD_SIGNATURE = { error: 'invalid request signature' };

/**
 * Bursts of `size` status commands of a fresh guild each (`send(guild, i)`), sent at once, until
 * one is answered within a second: then every command of it arrived within one window of the
 * limit (5 in any second). A loaded machine can spread a burst over more than a second, so at most
 * 4 bursts are sent. Answers the last burst's texts and its span in ms, and how many passed the
 * limit ('not linked') and how many were refused ('Slow down').
 */
async function burstOfCommands(size: number, send: (guild: string, i: number) => Promise<{ body: any }>) {
  let last = { texts: [] as string[], flags: [] as unknown[], spanMs: Infinity, accepted: 0, refused: 0 };
  for (let attempt = 0; attempt < 4 && last.spanMs >= 1000; attempt += 1) {
    const guild = newGuild();
    const t0 = Date.now();
    const answers = await Promise.all(Array.from({ length: size }, (_, i) => send(guild, i)));
    const texts = answers.map((a) => a.body.data.content as string);
    last = {
      texts,
      flags: answers.map((a) => a.body.data.flags),
      spanMs: Date.now() - t0,
      accepted: texts.filter((t) => t === SNL_TEXTS.notLinked).length,
      refused: texts.filter((t) => t === SNL_TEXTS.slowDown).length,
    };
  }
  return last;
}

/**
 * The guild limit over a burst of burstOfCommands: exactly 5 pass when it landed within a second;
 * else at least 5, and no more than 5 in each second of its span.
 */
function expectGuildLimit(burst: Awaited<ReturnType<typeof burstOfCommands>>, size: number): void {
  expect(burst.accepted + burst.refused, 'every answer is "not linked" or "Slow down"').toBe(size);
  if (burst.spanMs < 1000) expect(burst.accepted).toBe(5);
  else {
    expect(burst.accepted).toBeGreaterThanOrEqual(5);
    expect(burst.accepted).toBeLessThanOrEqual(5 * (Math.floor(burst.spanMs / 1000) + 1));
  }
}

describe('the interactions route answers 404 while DISCORD_PUBLIC_KEY is unset', () => {
  it('404, before any signature is looked at', async () => {
    const app = createApp({ config: loadConfig({ CLIENT_DIR: os.tmpdir() }) } as Deps, ROUTE_MODULES);
    const res = await app.request('/api/discord/interactions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":1}' });
    expect(res.status).toBe(404);
  });
});

describe.each(backends())('slash commands (%s)', (backend) => {
  const signer = new InteractionSigner();
  const suite = useServerSuite(backend, { DISCORD_PUBLIC_KEY: signer.publicKeyHex, PUBLIC_ORIGIN: ORIGIN });
  let cast: Cast;
  let game: TestGame;
  const ownerName = `sock-owner-snl-${backend}`;
  const memberName = `sock-member-snl-${backend}`;
  const send = (payload: unknown, opts?: Parameters<InteractionSigner['post']>[2]) => signer.post(suite.url, payload, opts);
  /** `/snl link` in `guild`, then the link of its code by `who` to `clanId`. */
  const linkAs = async (who: ApiClient, guild: string, clanId: number) => {
    const code = codeOf((await send(snlCommand('link', guild, '500000000000000001'))).body.data.content);
    return who.post(`/api/discord/links/${code}`, { clan_id: clanId });
  };

  beforeAll(async () => {
    cast = await castOf(suite.url, `snl-${backend}`);
    game = await newGame(cast);
  });

  it('refuses a missing, wrong or stale signature with 401, and answers a signed PING with PONG', async () => {
    const ping = { id: '1', application_id: '1', type: 1, token: 't', version: 1 };
    expect(await send(ping, { signature: null })).toEqual({ status: 401, body: BAD_SIGNATURE });
    const other = signer.headers('{"type":2}')['x-signature-ed25519'];
    expect(await send(ping, { signature: other })).toEqual({ status: 401, body: BAD_SIGNATURE });
    const stale = String(Math.floor(Date.now() / 1000) - 301);
    expect(await send(ping, { timestamp: stale })).toEqual({ status: 401, body: BAD_SIGNATURE });
    // A minute past the 5-minute window: the second is floored here and the server reads its
    // clock later, so +301 would fall back inside the window on a loaded machine.
    const ahead = String(Math.floor(Date.now() / 1000) + 360);
    expect(await send(ping, { timestamp: ahead })).toEqual({ status: 401, body: BAD_SIGNATURE });
    // Another key pair's signature of the same bytes is no signature of the application's key.
    expect(await new InteractionSigner().post(suite.url, ping)).toEqual({ status: 401, body: BAD_SIGNATURE });
    expect(await send(ping)).toEqual({ status: 200, body: { type: 1 } });
  });

  it('/snl link answers a one-time URL to the caller only; the link page links the guild for a manager of the clan', async () => {
    const guild = newGuild();
    const answer = await send(snlCommand('link', guild, '500000000000000001'));
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe(4);
    expect(answer.body.data.flags).toBe(EPHEMERAL);
    const code = codeOf(answer.body.data.content);
    expect(answer.body.data.content).toBe(SNL_TEXTS.link(`${ORIGIN}/discord/link/${code}`));

    const anon = suite.client();
    expect((await anon.post(`/api/discord/links/${code}`, { clan_id: cast.clanId })).status).toBe(401);
    expect(await cast.member.post(`/api/discord/links/${code}`, { clan_id: cast.clanId })).toMatchObject({ status: 403, body: { error: DISCORD_LINK_MESSAGES.notManager } });
    expect(await cast.owner.post('/api/discord/links/AAAAAAAAAAAAAAAAAAAAAA', { clan_id: cast.clanId })).toMatchObject({ status: 404, body: { error: DISCORD_LINK_MESSAGES.unknownCode } });
    expect(await cast.owner.post(`/api/discord/links/${code}`, { clan_id: cast.clanId })).toMatchObject({ status: 200, body: { guild_id: guild, clan_id: cast.clanId } });
    // Used: once only.
    expect(await cast.owner.post(`/api/discord/links/${code}`, { clan_id: cast.clanId })).toMatchObject({ status: 404, body: { error: DISCORD_LINK_MESSAGES.unknownCode } });
    expect(await cast.owner.get(`/api/clan/${cast.clanId}/discord-guild`)).toMatchObject({ status: 200, body: { guild_id: guild } });
    expect((await cast.member.get(`/api/clan/${cast.clanId}/discord-guild`)).status).toBe(403);

    // Expired: a code past its 15 minutes.
    const late = codeOf((await send(snlCommand('link', newGuild(), '500000000000000001'))).body.data.content);
    await directSql(suite.env, 'UPDATE discord_link_codes SET expires_at = ? WHERE code = ?', [new Date(Date.now() - 1000).toISOString(), late]);
    expect(await cast.owner.post(`/api/discord/links/${late}`, { clan_id: cast.clanId })).toMatchObject({ status: 404, body: { error: DISCORD_LINK_MESSAGES.unknownCode } });
  });

  it('a new link replaces the old one on either side; DELETE unlinks', async () => {
    const first = newGuild();
    const second = newGuild();
    expect((await linkAs(cast.owner, first, cast.clanId)).status).toBe(200);
    // The same clan in another guild: the first guild is no longer linked.
    expect((await linkAs(cast.owner, second, cast.clanId)).body).toEqual({ guild_id: second, clan_id: cast.clanId });
    expect((await cast.owner.get(`/api/clan/${cast.clanId}/discord-guild`)).body).toEqual({ guild_id: second });
    expect((await send(snlCommand('status', first, '500000000000000001'))).body.data).toEqual({ content: SNL_TEXTS.notLinked, flags: EPHEMERAL });
    // The same guild for another clan: the clan before loses it.
    const other = new ApiClient(suite.url);
    const me = await other.onboard(`snl-other-owner-${backend}`, ['OtherOwner'], { role: 'Owner', clan_name: `Quiet Clan ${backend}` });
    const otherClan = me.clan_memberships_list[0].clan_id as number;
    expect((await linkAs(other, second, otherClan)).body).toEqual({ guild_id: second, clan_id: otherClan });
    expect((await cast.owner.get(`/api/clan/${cast.clanId}/discord-guild`)).body).toEqual({ guild_id: null });
    expect((await other.get(`/api/clan/${otherClan}/discord-guild`)).body).toEqual({ guild_id: second });
    // A clan without live games.
    expect((await send(snlCommand('status', second, '500000000000000001'))).body).toEqual({ type: 4, data: { content: SNL_TEXTS.noLiveGames(`Quiet Clan ${backend}`) } });
    expect(await other.del(`/api/clan/${otherClan}/discord-guild`)).toMatchObject({ status: 200, body: { guild_id: null } });
    expect((await send(snlCommand('status', second, '500000000000000001'))).body.data).toEqual({ content: SNL_TEXTS.notLinked, flags: EPHEMERAL });
  });

  it('/snl status shows each live game: event name, status, every team\'s square and task, the board picture', async () => {
    const guild = newGuild();
    expect((await linkAs(cast.owner, guild, cast.clanId)).status).toBe(200);
    const now = await stored(cast, game);
    const answer = await send(snlCommand('status', guild, '500000000000000002'));
    expect(answer.body.type).toBe(4);
    expect(answer.body.data.flags).toBeUndefined();
    const embed = answer.body.data.embeds.find((e: { image?: { url: string } }) => e.image?.url.includes(`/game/${game.gameId}/`));
    expect(embed.title).toBe(now.event_name);
    const lines = (embed.description as string).split('\n');
    expect(lines[0]).toBe('Status: in-progress');
    for (const t of now.team_states) expect(lines).toContain(`${t.team_name}: square ${t.current_position}, task ${t.task_state}`);
    expect(embed.image.url).toBe(`${ORIGIN}/api/public/game/${game.gameId}/board.png?v=${now.version}`);
  });

  it('/snl roll is the Leader\'s roll: answered with its log text; refusals go to the caller only', async () => {
    let guild = newGuild();
    expect((await linkAs(cast.owner, guild, cast.clanId)).status).toBe(200);
    // No site user with that Discord id.
    expect((await send(snlCommand('roll', guild, '700000000000000007'))).body.data).toEqual({ content: SNL_TEXTS.signInFirst(ORIGIN), flags: EPHEMERAL });
    // A site user who leads no team of a live game of the clan.
    expect((await send(snlCommand('roll', guild, devDiscordId(memberName)))).body.data).toEqual({ content: SNL_TEXTS.leaderOnly, flags: EPHEMERAL });

    const before = await stored(cast, game);
    const rolled = await send(snlCommand('roll', guild, devDiscordId(ownerName)));
    expect(rolled.status).toBe(200);
    expect(rolled.body.type).toBe(4);
    expect(rolled.body.data.flags).toBeUndefined();
    const after = await stored(cast, game);
    expect(after.version).toBe(before.version + 1);
    const added = after.log_entries.filter((e) => !before.log_entries.some((b) => b.id === e.id)).sort((a, b) => a.id - b.id);
    expect(added.length).toBeGreaterThan(0);
    expect(rolled.body.data.content).toBe(added.map((e) => e.message).join('\n'));
    expect(added[0].message).toMatch(/^Red Team rolled a [1-6] and moved from 1 to \d+\.$/);
    const red = after.team_states.find((t) => t.team_id === game.team1)!;
    expect(red.current_position).toBeGreaterThan(1);

    // A second live game led by the same user: the game option picks one. (From a new guild,
    // linked in the old one's place: the old one has used its 5 commands of this second.)
    const game2 = await newGame(cast);
    guild = newGuild();
    expect((await linkAs(cast.owner, guild, cast.clanId)).status).toBe(200);
    expect((await send(snlCommand('roll', guild, devDiscordId(ownerName)))).body.data).toEqual({ content: SNL_TEXTS.whichGame([game.gameId, game2.gameId]), flags: EPHEMERAL });
    const picked = await send(snlCommand('roll', guild, devDiscordId(ownerName), [{ name: 'game', type: 4, value: game2.gameId }]));
    expect(picked.body.data.content).toMatch(/^Red Team rolled a [1-6] and moved from 1 to \d+\.$/);
    expect((await stored(cast, game2)).team_states.find((t) => t.team_id === game2.team1)!.current_position).toBeGreaterThan(1);
    expect((await send(snlCommand('roll', guild, devDiscordId(ownerName), [{ name: 'game', type: 4, value: 99999999 }]))).body.data).toEqual({ content: SNL_TEXTS.leaderOnly, flags: EPHEMERAL });

    // The roll's own rules and texts: a paused game refuses as roll_dice does.
    expect((await cast.owner.put(`${game2.path}/status`, { status: 'paused' })).status).toBe(200);
    expect((await send(snlCommand('roll', guild, devDiscordId(ownerName), [{ name: 'game', type: 4, value: game2.gameId }]))).body.data).toEqual({ content: 'Game is paused. No actions available.', flags: EPHEMERAL });
  });

  it('at most 5 commands of one guild in any second; other guilds are not held back', async () => {
    const burst = await burstOfCommands(10, (guild) => send(snlCommand('status', guild, '500000000000000003')));
    expectGuildLimit(burst, 10);
    for (const flags of burst.flags) expect(flags).toBe(EPHEMERAL);
    expect((await send(snlCommand('status', newGuild(), '500000000000000003'))).body.data.content).toBe(SNL_TEXTS.notLinked);
  });
});

describe('slash commands across two server processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl || !process.env.TEST_DATABASE_URL) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const signer = new InteractionSigner();
  const site = useTwoProcesses(redisUrl, { DISCORD_PUBLIC_KEY: signer.publicKeyHex, PUBLIC_ORIGIN: ORIGIN });
  const open: Watcher[] = [];
  afterAll(() => {
    for (const w of open) w.close();
  });

  it('a /snl roll sent to process A moves a spectator watching on process B; the guild limit holds across both', async () => {
    const cast = await castOf(site.a.url, 'snl-two');
    const game = await newGame(cast);
    const guild = newGuild();
    const code = codeOf((await signer.post(site.a.url, snlCommand('link', guild, '500000000000000001'))).body.data.content);
    expect((await cast.owner.post(`/api/discord/links/${code}`, { clan_id: cast.clanId })).status).toBe(200);
    const spectator = await connect(site.b.url, 'spectator@b');
    open.push(spectator);
    const held = await spectator.join(game.gameId);
    const rolled = await signer.post(site.a.url, snlCommand('roll', guild, devDiscordId('sock-owner-snl-two')));
    expect(rolled.body.data.content).toMatch(/^Red Team rolled a [1-6] and moved from 1 to \d+\.$/);
    const seen = await spectator.version(held.version + 1);
    const red = seen.team_states.find((t) => t.team_id === game.team1)!;
    expect(rolled.body.data.content).toContain(`to ${red.current_position}.`);
    // The log entry may come as a message of its own after the update that moved the pawn.
    await expect.poll(() => spectator.log.some((e) => e.message === rolled.body.data.content)).toBe(true);

    // 8 commands of one guild at once over both processes: the limit (5 in any second) is shared,
    // so 3 are refused when all 8 land within one second.
    const burst = await burstOfCommands(8, (guild, i) => signer.post(i % 2 === 0 ? site.a.url : site.b.url, snlCommand('status', guild, '500000000000000003')));
    expectGuildLimit(burst, 8);
  });
});

describe('npm run discord:commands', () => {
  const discord = new DiscordCommandsStandIn();
  beforeAll(() => discord.start());
  afterAll(() => discord.stop());

  /** Runs the script with `env` (on top of a clean one), resolving with its exit code and output. */
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'discordCommands.ts')], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('close', (code) => resolve({ code, out, err }));
    });

  it('PUTs /snl with link, status and roll (integer option game) with the bot token, and prints the answer', async () => {
    const r = await run({ DISCORD_API_URL: discord.url, DISCORD_APPLICATION_ID: '1234567890123456789', DISCORD_BOT_TOKEN: 'test-bot-token' });
    expect(r.code, r.err).toBe(0);
    expect(discord.registrations).toHaveLength(1);
    const [sent] = discord.registrations;
    expect(sent).toMatchObject({ method: 'PUT', path: '/applications/1234567890123456789/commands', authorization: 'Bot test-bot-token' });
    const [snl] = sent.body as { name: string; type: number; options: { name: string; type: number; options?: { name: string; type: number; required?: boolean }[] }[] }[];
    expect(snl.name).toBe('snl');
    expect(snl.type).toBe(1);
    expect(snl.options.map((o) => [o.name, o.type])).toEqual([['link', 1], ['status', 1], ['roll', 1]]);
    expect(snl.options[2].options).toEqual([expect.objectContaining({ name: 'game', type: 4, required: false })]);
    expect(r.out).toContain('Discord answered 200');
    expect(r.out).toContain('"application_id": "1234567890123456789"');
  });

  it('exits 1 with Discord\'s answer on a refusal, and with one line when a setting is missing', async () => {
    const refused = await run({ DISCORD_API_URL: discord.url, DISCORD_APPLICATION_ID: '1234567890123456789', DISCORD_BOT_TOKEN: 'wrong' });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('Discord answered 401');
    const missing = await run({ DISCORD_API_URL: discord.url });
    expect(missing.code).toBe(1);
    expect(missing.err.trim()).toBe("discord:commands: set DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN (the Discord application's id and bot token).");
  });
});
