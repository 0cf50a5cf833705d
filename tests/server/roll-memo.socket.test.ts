import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { directSql } from '../support/fixtures';
import { act, castOf, LEADER_ONLY, newGame, stored, watchersOf, type Cast, type TestGame, type Watcher } from '../support/liveSocket';

/**
 * A Leader's rolls one after another (server/games/play.ts applyRoll; docs/server.md §5): every
 * roll reads afresh (the precheck, then the read under the claim) what it decides on, so a
 * change made between two rolls of the same Leader, beside the server (no invalidation, no
 * version bump) or through the API (which invalidates), is seen by the next roll and refused
 * with its usual text. Real clients against a real server process, on each database.
 */

/** Roll limits lifted, the Discord and push senders and the Wise Old Man queue quiet (their polls would be counted with the rolls' statements). */
const ENV = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', DB_COUNT_QUERIES: '1', DISCORD_POLL_MS: '3600000', PUSH_POLL_MS: '3600000', WOM_QUEUE_POLL_MS: '3600000' };
const SIGN_IN = 'You must be signed in to play.';

describe.each(backends())('rolls one after another (%s)', (backend) => {
  const suite = useServerSuite(backend, ENV);
  let cast: Cast;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, `memo-${backend}`);
  });

  afterAll(() => {
    for (const w of open) w.close();
  });

  /** A started game, its Leader's socket joined, and one roll of team 1 made. */
  async function warmGame(): Promise<{ game: TestGame; leader: Watcher }> {
    const game = await newGame(cast, { proof: false });
    const leader = await watcher('leader', cast.owner);
    await leader.join(game.gameId, true);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    return { game, leader };
  }

  /** A counter of the server's /metrics (db_queries_total counts with DB_COUNT_QUERIES=1). */
  async function counter(name: string): Promise<number> {
    const text = await (await fetch(`${suite.url}/metrics`)).text();
    const m = new RegExp(`^${name} (\\d+)`, 'm').exec(text);
    if (!m) throw new Error(`${name} missing from /metrics`);
    return Number(m[1]);
  }
  const statements = () => counter('db_queries_total');

  it('ten rolls in a row each apply once, in order, with the roll index counting up', async () => {
    const { game, leader } = await warmGame();
    const before = await stored(cast, game);
    for (let i = 0; i < 10; i += 1) expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const after = await stored(cast, game);
    expect(after.version).toBe(before.version + 10);
    const red = after.team_states.find((t) => t.team_id === game.team1)!;
    expect(red.position_history).toHaveLength(12);
    const rolls = after.log_entries.filter((e) => e.roll_index !== undefined && e.roll_index !== null).map((e) => e.roll_index);
    expect([...rolls].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(leader.held?.version).toBe(after.version);
  });

  it('a roll runs the precheck and one transaction: 6 statements on PostgreSQL, 8 on SQLite', async () => {
    const { game, leader } = await warmGame();
    // The scrape's own gauge reads, counted between two scrapes with nothing else going on: the
    // fewest of three such counts, since a background sweep landing in one would inflate it.
    const idles: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const idle0 = await statements();
      idles.push((await statements()) - idle0);
    }
    const idle = Math.min(...idles);
    const from = await statements();
    for (let i = 0; i < 10; i += 1) expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const ran = (await statements()) - from - idle;
    // The precheck, BEGIN, the claim, the read under it, then PostgreSQL: the writes as one
    // statement; SQLite: the team state, the move, the log entry; COMMIT. The draft clock's sweep
    // may add one or two.
    const perRoll = backend === 'postgres' ? 6 : 8;
    expect(ran).toBeGreaterThanOrEqual(10 * perRoll);
    expect(ran).toBeLessThanOrEqual(10 * perRoll + 2);
  });

  it('a session that expired since the last roll is refused: You must be signed in to play.', async () => {
    const { game, leader } = await warmGame();
    const before = await stored(cast, game);
    const [user] = await directSql(suite.env, "SELECT user_id FROM igns WHERE id = ?", [cast.ign.ownerA]);
    await directSql(suite.env, "UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = ?", [user.user_id]);
    try {
      expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBe(SIGN_IN);
      expect((await stored(cast, game).catch(() => null))?.version ?? before.version).toBe(before.version);
    } finally {
      await directSql(suite.env, "UPDATE sessions SET expires_at = '2100-01-01T00:00:00.000Z' WHERE user_id = ?", [user.user_id]);
    }
    expect((await stored(cast, game)).version).toBe(before.version);
  });

  it('a Leader demoted beside the server is refused with the Leader text, and nothing is written', async () => {
    const { game, leader } = await warmGame();
    const before = await stored(cast, game);
    await directSql(suite.env, "UPDATE team_members SET role = 'Member' WHERE team_id = ? AND ign_id = ?", [game.team1, cast.ign.ownerA]);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBe(LEADER_ONLY);
    expect((await stored(cast, game)).version).toBe(before.version);
  });

  it('a game paused beside the server (no version bump) is refused with the status text', async () => {
    const { game, leader } = await warmGame();
    const before = await stored(cast, game);
    await directSql(suite.env, "UPDATE games SET status = 'paused' WHERE id = ?", [game.gameId]);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBe('Game is paused. No actions available.');
    const after = await stored(cast, game);
    expect(after.version).toBe(before.version);
    expect(after.team_states).toEqual(before.team_states);
  });

  it('a change beside the server that bumps the version makes the next roll read afresh: it applies once, after it', async () => {
    const { game, leader } = await warmGame();
    const before = await stored(cast, game);
    await directSql(suite.env, 'UPDATE games SET version = version + 5 WHERE id = ?', [game.gameId]);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const after = await stored(cast, game);
    expect(after.version).toBe(before.version + 6);
    const red = (g: typeof after) => g.team_states.find((t) => t.team_id === game.team1)!;
    expect(red(after).position_history).toEqual([...red(before).position_history, red(after).current_position]);
  });

  it('a team renamed through the API between two rolls: the next roll is logged under the new name', async () => {
    const { game, leader } = await warmGame();
    const renamed = await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team1}`, { name: 'Crimson Team', color: '#aa0000' });
    expect(renamed.status).toBe(200);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const newest = (await stored(cast, game)).log_entries[0];
    expect(newest.message).toMatch(/^Crimson Team rolled a \d and moved from \d+ to \d+\.$/);
    expect(newest.team_name).toBe('Crimson Team');
  });
});
