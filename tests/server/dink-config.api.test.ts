import { describe, it, expect, beforeAll } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { directSql } from '../support/fixtures';
import { castOf, newGame, stored, type Cast, type TestGame } from '../support/liveSocket';
import { DINK_MESSAGES } from '../../contract/dink';
import { FAST, fillPool, expectError } from './dinkSupport';

/**
 * One-link Dink set-up over real HTTP on both databases (docs/server.md §13 "One-link set-up"):
 * GET /api/dink/{token}/config answers exactly Dink's keys for the notifiers the rules on the
 * event's board use (a relief substitute's rule from when it is drawn), with no sign-in; an
 * unknown, malformed, rotated or revoked token answers 404.
 */
describe.each(backends())('Dink one-link set-up (%s)', (backend) => {
  const suite = useServerSuite(backend, FAST);
  let cast: Cast;

  beforeAll(async () => {
    cast = await castOf(suite.url, `dinkcfg-${backend}`);
    await fillPool(cast.owner, cast.clanId);
  });

  const dinkPath = (game: TestGame) => `/api/clan/${cast.clanId}/events/${game.eventId}/dink`;
  const configOf = async (url: string) => {
    const res = await fetch(`${url.replace(/^https?:\/\/[^/]+/, suite.url)}/config`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, cache: res.headers.get('cache-control') };
  };

  /** Puts `rule` on the task of the n-th task square of the game's board; answers that task's id. */
  async function ruleOnSquare(game: TestGame, n: number, rule: unknown): Promise<number> {
    const squares = (await stored(cast, game)).board_squares.filter((s) => s.task_id !== null && s.task_difficulty !== null);
    const square = squares[n];
    const r = await cast.owner.put(`/api/clan/${cast.clanId}/tasks/${square.task_id}`, { description: square.task_description, difficulty: square.task_difficulty, auto_rule: rule });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return square.task_id!;
  }

  it("answers Dink's keys for the board's rules only, with no sign-in; a relief substitute's rule counts once drawn", async () => {
    const game = await newGame(cast, { start: false });
    const made = await cast.owner.post(dinkPath(game));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const webhook = made.body.dink.url as string;

    // No rule on the board yet: the webhook alone.
    const bare = await configOf(webhook);
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual({ discordWebhook: webhook });
    expect(bare.cache).toBe('no-store');

    await ruleOnSquare(game, 0, { type: 'LOOT', names: ["Zulrah's scales"], min: null });
    await ruleOnSquare(game, 1, { type: 'KILL_COUNT', names: ['Zulrah'], min: 50 });
    await ruleOnSquare(game, 2, { type: 'LOOT', names: ['Tanzanite fang', "Zulrah's scales"], min: 1 });
    await ruleOnSquare(game, 3, { type: 'COMBAT_ACHIEVEMENT', names: ['Snake Rebound'], min: null });
    // A task of the clan's pool that is on no square of this board adds nothing.
    const onBoard = new Set((await stored(cast, game)).board_squares.map((s) => s.task_id));
    const pool: { id: number; description: string; difficulty: string }[] = (await cast.owner.get(`/api/clan/${cast.clanId}/tasks`)).body.tasks;
    const offBoard = pool.find((t) => !onBoard.has(t.id))!;
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/tasks/${offBoard.id}`, { description: offBoard.description, difficulty: offBoard.difficulty, auto_rule: { type: 'PET', names: ['Pet snakeling'], min: null } })).status).toBe(200);

    const withRules = await configOf(webhook);
    // The allowlist names each LOOT name once, one a line (Dink reads it as a set).
    expect(String(withRules.body.lootItemAllowlist).split('\n').sort()).toEqual(["Tanzanite fang", "Zulrah's scales"]);
    expect(withRules.body).toEqual({
      discordWebhook: webhook,
      lootEnabled: true,
      lootSendImage: true,
      lootItemAllowlist: withRules.body.lootItemAllowlist,
      killCountEnabled: true,
      killCountSendImage: true,
      killCountInterval: 1,
      combatTaskEnabled: true,
      combatTaskSendImage: true,
    });

    // The off-board task drawn as a relief substitute: its rule counts from the draw.
    await directSql(suite.env, 'INSERT INTO relief_draws (game_id, team_id, k, square_index, at, candidate_ids, task_id, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      game.gameId, game.team1, 1, 1, new Date().toISOString(), JSON.stringify([offBoard.id]), offBoard.id, offBoard.description,
    ]);
    const withRelief = await configOf(webhook);
    expect(withRelief.body).toMatchObject({ petEnabled: true, petSendImage: true });
    expect(Object.keys(withRelief.body).sort()).toEqual([...Object.keys(withRules.body), 'petEnabled', 'petSendImage'].sort());
  });

  it('404 for an unknown or malformed token, and at once after rotation and after revocation', async () => {
    const game = await newGame(cast, { start: false });
    const first = (await cast.owner.post(dinkPath(game))).body.dink.url as string;
    expect((await configOf(first)).status).toBe(200);
    const rotated = (await cast.owner.post(dinkPath(game))).body.dink.url as string;
    expect(rotated).not.toBe(first);
    const old = await configOf(first);
    expect(old.status).toBe(404);
    expect(old.body).toEqual({ error: DINK_MESSAGES.notFound });
    expect((await configOf(rotated)).body.discordWebhook).toBe(rotated);
    expect((await cast.owner.del(dinkPath(game))).status).toBe(200);
    expect((await configOf(rotated)).status).toBe(404);
    expectError(await new ApiClient(suite.url).get(`/api/dink/${'A'.repeat(43)}/config`), 404, DINK_MESSAGES.notFound);
    expectError(await new ApiClient(suite.url).get('/api/dink/short/config'), 404, DINK_MESSAGES.notFound);
  });
});
