import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { directSql, openDirectDb } from '../support/fixtures';
import { castOf, newGame, stored, type Cast, type TestGame } from '../support/liveSocket';
import { applyRevert, applyRoll, precheckTeamAction } from '../../server/games/play';
import { listTeamStates } from '../../server/games/repository';
import { openDatabase, type DbHandle } from '../../server/db/connect';
import { arrivalState } from '../../contract/submission';
import type { TeamAction } from '../../contract/socket';

// Counts the statements of the handle opened with this counter (connect.ts calls it for each,
// Kysely's and the synchronous SQLite ones alike).
const countDbQuery = vi.fn();

/**
 * A roll's one transaction (server/games/play.ts applyRoll, inGame; docs/server.md §5), on SQLite
 * and, with TEST_DATABASE_URL, PostgreSQL, driven in this process against the suite's database:
 * - a roll whose precheck still holds: on SQLite one synchronous transaction of 7 statements
 *   (BEGIN IMMEDIATE, claim, read, team state, move, log, COMMIT), on PostgreSQL 5 (BEGIN, claim,
 *   read, the writes sent as one statement, COMMIT); its progress, log, move and version are what
 *   is stored;
 * - a roll whose claim was lost to a roll of another connection (another process) still applies
 *   once, after the other, in the same transaction (the version read under the lock and claimed);
 * - the task state written is contract arrivalState of the square arrived on, for a square with
 *   a task, a special square, an unassigned one and one without a tier;
 * - the roll's Discord announcement is queued exactly when the event's webhook announces rolls;
 * - a revert and a winning roll (status, winners, results) take the awaited transaction (a revert
 *   withdraws pending proof, a win's announcements read the standings).
 */

const countCalls = () => countDbQuery.mock.calls.length;

describe.each(backends())('a roll in one go (%s)', (backend) => {
  // The announcement worker stays idle: the test reads the outbox itself.
  const suite = useServerSuite(backend, { BOARD_SEED: '2727', DISCORD_POLL_MS: '3600000' });
  let cast: Cast;
  /** Opened with the countDbQuery counter: its statements are counted. */
  let counted: DbHandle;
  /** Another connection to the same database, standing for another process. */
  let other: DbHandle;

  beforeAll(async () => {
    cast = await castOf(suite.url, `once-${backend}`);
    counted = await openDatabase({ databaseUrl: suite.env.DATABASE_URL ?? null, sqliteFile: suite.env.SQLITE_FILE ?? '', countQuery: countDbQuery });
    other = await openDirectDb(suite.env);
  });
  afterAll(async () => {
    await counted.close();
    await other.close();
  });

  const sidOf = () => cast.owner.cookies.get('sid')!;
  const rollOf = (game: TestGame): TeamAction => ({ game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
  const versionOf = async (game: TestGame) => Number((await directSql(suite.env, 'SELECT version FROM games WHERE id = ?', [game.gameId]))[0].version);
  const precheck = async (game: TestGame, kind: 'roll' | 'revert' = 'roll') => {
    const pre = await precheckTeamAction(counted.db, kind, rollOf(game), sidOf());
    expect(pre).not.toBeNull();
    return pre!;
  };
  /** Applies `kind` with `pre` on the counted handle (applyRoll or applyRevert); answers the result and how many statements it ran. */
  const apply = async (game: TestGame, pre: Awaited<ReturnType<typeof precheck>>, kind: 'roll' | 'revert' = 'roll') => {
    const before = countCalls();
    const applied = await (kind === 'roll' ? applyRoll : applyRevert)(counted.db, counted.dialect, rollOf(game), pre);
    return { applied, statements: countCalls() - before };
  };
  const expectStored = async (game: TestGame, applied: Awaited<ReturnType<typeof apply>>['applied']) => {
    expect(applied.progress.team_states).toEqual(await listTeamStates(counted.db, game.gameId));
    expect(applied.progress.version).toBe(await versionOf(game));
    const full = await stored(cast, game);
    expect(full.log_entries.slice(0, applied.log.length)).toEqual([...applied.log].reverse());
  };

  it('a roll whose precheck still holds runs in one transaction, and its progress, log and move are stored', async () => {
    const game = await newGame(cast);
    const before = await versionOf(game);
    const { applied, statements } = await apply(game, await precheck(game));
    expect(statements).toBe(backend === 'sqlite' ? 7 : 5);
    expect(applied.progress.version).toBe(before + 1);
    await expectStored(game, applied);
    const moves = await directSql(suite.env, 'SELECT roll_index, die, from_square, to_square, kind FROM game_moves WHERE game_id = ?', [game.gameId]);
    expect(moves).toHaveLength(1);
    expect(applied.progress.last_move).toMatchObject({ team_id: game.team1, from: 1, to: Number(moves[0].to_square), die: Number(moves[0].die) });
    expect(applied.log[0]).toMatchObject({ roll_index: 1, die: Number(moves[0].die) });
    expect(moves[0].kind).toBe('roll');
  });

  it('a claim lost to a roll of another process is claimed again at the version read, and both rolls apply once', async () => {
    const game = await newGame(cast);
    const before = await versionOf(game);
    const first = await precheck(game);
    const second = await precheck(game);
    // The other connection wins the version both prechecks read.
    const won = await applyRoll(other.db, other.dialect, rollOf(game), first);
    const { applied, statements } = await apply(game, second);
    // BEGIN, the lost claim, the version (PostgreSQL: locked), the claim, read, the square (the team
    // ends elsewhere than the stale precheck expected), then SQLite: state, move, log; PostgreSQL:
    // those three as one statement; COMMIT.
    expect(statements).toBe(backend === 'sqlite' ? 10 : 8);
    expect([won.progress.version, applied.progress.version]).toEqual([before + 1, before + 2]);
    await expectStored(game, applied);
    const moves = await directSql(suite.env, 'SELECT roll_index, from_square, to_square FROM game_moves WHERE game_id = ? ORDER BY id', [game.gameId]);
    expect(moves.map((m) => Number(m.roll_index))).toEqual([1, 2]);
    expect(Number(moves[1].from_square)).toBe(Number(moves[0].to_square));
    const logs = await directSql(suite.env, 'SELECT roll_index FROM game_log WHERE game_id = ? AND roll_index IS NOT NULL ORDER BY id', [game.gameId]);
    expect(logs.map((l) => Number(l.roll_index))).toEqual([1, 2]);
  });

  it('the task state written is arrivalState of the square arrived on', async () => {
    const game = await newGame(cast);
    const boards: [string, string | null][] = [['Kill 5 goblins', 'easy'], ['Snake', 'easy'], ['', 'easy'], ['Kill 5 goblins', null], ['Finish', 'hard']];
    for (const [description, difficulty] of boards) {
      // The board is changed underneath (no version bump), so only the read at the roll sees it.
      await directSql(suite.env, 'UPDATE board_squares SET task_description = ?, task_difficulty = ? WHERE game_id = ?', [description, difficulty, game.gameId]);
      const { applied, statements } = await apply(game, await precheck(game));
      expect(statements).toBe(backend === 'sqlite' ? 7 : 5);
      const team = (await listTeamStates(counted.db, game.gameId)).find((t) => t.team_id === game.team1)!;
      const square = (await directSql(suite.env, 'SELECT task_description, task_difficulty FROM board_squares WHERE game_id = ? AND square_index = ?', [game.gameId, team.current_position]))[0];
      const expected = arrivalState(square as { task_description: string; task_difficulty: string | null }, 'roll');
      expect(team.task_state, `${description}/${difficulty}`).toBe(expected);
      expect(applied.progress.team_states.find((t) => t.team_id === game.team1)!.task_state).toBe(expected);
    }
    const states = (await directSql(suite.env, 'SELECT task_state FROM team_states WHERE game_id = ? AND team_id = ?', [game.gameId, game.team1]));
    expect(states).toEqual([{ task_state: 'none' }]);
  });

  it("the roll's announcement is queued exactly when the event's webhook announces rolls", async () => {
    const game = await newGame(cast);
    const t = '2026-01-01T00:00:00.000Z';
    await directSql(
      suite.env,
      'INSERT INTO discord_webhooks (event_id, webhook_url, announce_status, announce_rolls, announce_reviews, announce_results, state, created_at, updated_at) VALUES (?, ?, 1, 1, 1, 1, ?, ?, ?)',
      [game.eventId, 'https://discord.com/api/webhooks/1/x', 'active', t, t],
    );
    const outbox = async () => (await directSql(suite.env, 'SELECT kind, payload FROM discord_outbox WHERE game_id = ? ORDER BY id', [game.gameId]))
      .map((r) => ({ kind: r.kind, payload: JSON.parse(String(r.payload)) as Record<string, unknown> }));
    const { applied, statements } = await apply(game, await precheck(game));
    expect(statements).toBe(backend === 'sqlite' ? 8 : 5);
    const move = applied.progress.last_move!;
    expect(await outbox()).toEqual([{
      kind: 'roll',
      payload: {
        kind: 'roll', team: { name: 'Red Team', color: '#aa0000' }, die: move.die, from: 1, landing: move.landing, to: move.to, via: move.via,
        // The version the roll set, for the board picture (docs/server.md §19).
        board: { game_id: game.gameId, version: applied.progress.version },
      },
    }]);
    for (const [state, rolls] of [['disabled', 1], ['active', 0]] as const) {
      await directSql(suite.env, 'UPDATE discord_webhooks SET state = ?, announce_rolls = ? WHERE event_id = ?', [state, rolls, game.eventId]);
      await apply(game, await precheck(game));
    }
    expect(await outbox()).toHaveLength(1);
  });

  it('a revert and a winning roll take the transaction', async () => {
    const game = await newGame(cast, { size: 25, noWin: false });
    await apply(game, await precheck(game));
    const back = await apply(game, await precheck(game, 'revert'), 'revert');
    // BEGIN, claim, read, the writes (PostgreSQL: one statement), pending submissions, COMMIT at least.
    expect(back.statements).toBeGreaterThanOrEqual(backend === 'sqlite' ? 8 : 5);
    await expectStored(game, back.applied);
    let last = await apply(game, await precheck(game));
    for (let n = 0; last.applied.progress.status !== 'finished' && n < 200; n += 1) last = await apply(game, await precheck(game));
    // The win: BEGIN, claim, read, the writes (status, state, move, log; PostgreSQL: one statement),
    // the announcements' webhook, COMMIT at least (SQLite: after the synchronous attempt rolled back).
    expect(last.statements).toBeGreaterThanOrEqual(backend === 'sqlite' ? 8 : 5);
    expect(last.applied.progress.status).toBe('finished');
    expect(last.applied.progress.winners).toEqual([{ name: 'Red Team', color: '#aa0000' }]);
    await expectStored(game, last.applied);
    expect((await stored(cast, game)).status).toBe('finished');
  });
});
