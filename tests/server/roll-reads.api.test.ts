import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { directSql, openDirectDb } from '../support/fixtures';
import { castOf, newGame, stored, watchersOf, type Cast, type TestGame } from '../support/liveSocket';
import { ActionRefused, PLAY_MESSAGES, applyRevert, applyRoll, precheckTeamAction } from '../../server/games/play';
import { listTeamStates } from '../../server/games/repository';
import { hashSessionId } from '../../server/auth/sessions';
import type { DbHandle } from '../../server/db/connect';
import { dieFor } from '../../contract/game/dice';
import type { TeamAction } from '../../contract/socket';

/**
 * What a roll reads and when (docs/server.md §5, §8), on SQLite and, with TEST_DATABASE_URL,
 * PostgreSQL: the precheck's rows (read outside the queue) are handed to the transaction, which
 * claims the game's version and reads again under the claim. Driven in this process against the
 * suite's database (server/games/play.ts) and through a real socket for the session check:
 * - a precheck gone stale (another roll applied since) still applies on the current state, with
 *   the next roll index and its seed's die, and its progress equals the stored team states;
 * - a revert's progress equals the stored team states too;
 * - a Leader demoted between precheck and transaction is refused, and the claim is undone;
 * - an unknown or expired session prechecks as signed out, and a socket whose session expired
 *   gets 'You must be signed in to play.' with nothing changed.
 */

describe.each(backends())('a roll\'s reads (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED: '2727' });
  const { open, watcher } = watchersOf(() => suite.url);
  let cast: Cast;
  let handle: DbHandle;
  let tag = '';

  beforeAll(async () => {
    tag = `reads-${backend}`;
    cast = await castOf(suite.url, tag);
    handle = await openDirectDb(suite.env);
  });
  afterAll(async () => {
    for (const w of open) w.close();
    await handle.close();
  });

  const sidOf = () => cast.owner.cookies.get('sid')!;
  const rollOf = (game: TestGame): TeamAction => ({ game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
  const versionOf = async (game: TestGame) => Number((await directSql(suite.env, 'SELECT version FROM games WHERE id = ?', [game.gameId]))[0].version);

  it('a precheck gone stale still applies on the current state, with the next roll index and its die', async () => {
    const game = await newGame(cast);
    const before = await versionOf(game);
    const first = await precheckTeamAction(handle.db, 'roll', rollOf(game), sidOf());
    const second = await precheckTeamAction(handle.db, 'roll', rollOf(game), sidOf());
    expect(first && second).toBeTruthy();
    expect(second!.game.version).toBe(before);
    const a = await applyRoll(handle.db, handle.dialect, rollOf(game), first!);
    // `second` still holds the version and square 1 that `a` changed.
    const b = await applyRoll(handle.db, handle.dialect, rollOf(game), second!);
    expect([a.progress.version, b.progress.version]).toEqual([before + 1, before + 2]);
    expect(await versionOf(game)).toBe(before + 2);
    const seed = String((await directSql(suite.env, 'SELECT dice_seed FROM games WHERE id = ?', [game.gameId]))[0].dice_seed);
    const moves = await directSql(suite.env, 'SELECT roll_index, die, from_square, to_square FROM game_moves WHERE game_id = ? ORDER BY id', [game.gameId]);
    expect(moves.map((m) => Number(m.roll_index))).toEqual([1, 2]);
    for (const m of moves) expect(Number(m.die)).toBe(await dieFor(seed, game.gameId, Number(m.roll_index)));
    expect(Number(moves[1].from_square)).toBe(Number(moves[0].to_square));
    expect(b.log.map((e) => e.roll_index)).toEqual([2]);
    expect(b.progress.last_move).toMatchObject({ team_id: game.team1, from: Number(moves[0].to_square), to: Number(moves[1].to_square) });
    // The progress's team states (derived from the rows read under the claim) are what is stored.
    expect(b.progress.team_states).toEqual(await listTeamStates(handle.db, game.gameId));
    const full = await stored(cast, game);
    expect(b.progress.team_states).toEqual(full.team_states);
    expect(full.log_entries.slice(0, 2).map((e) => e.id)).toEqual([...b.log, ...a.log].map((e) => e.id));
  });

  it("a revert's progress is the stored team states", async () => {
    const game = await newGame(cast);
    const pre = await precheckTeamAction(handle.db, 'roll', rollOf(game), sidOf());
    await applyRoll(handle.db, handle.dialect, rollOf(game), pre!);
    const back = await precheckTeamAction(handle.db, 'revert', rollOf(game), sidOf());
    const reverted = await applyRevert(handle.db, handle.dialect, rollOf(game), back!);
    const states = await listTeamStates(handle.db, game.gameId);
    expect(reverted.progress.team_states).toEqual(states);
    expect(states.find((t) => t.team_id === game.team1)).toMatchObject({ current_position: 1, revert_count: 1, position_history: [1] });
    expect(reverted.progress.last_move).toBeNull();
  });

  it('a Leader demoted between the precheck and the transaction is refused, and the claim is undone', async () => {
    const game = await newGame(cast);
    const before = await versionOf(game);
    const pre = await precheckTeamAction(handle.db, 'roll', rollOf(game), sidOf());
    expect(pre).not.toBeNull();
    const demote = (role: string) => directSql(suite.env, 'UPDATE team_members SET role = ? WHERE team_id = ? AND ign_id = ?', [role, game.team1, cast.ign.ownerA]);
    await demote('Member');
    try {
      const refused = await applyRoll(handle.db, handle.dialect, rollOf(game), pre!).then(() => null, (err: unknown) => err);
      expect(refused).toBeInstanceOf(ActionRefused);
      expect((refused as Error).message).toBe(PLAY_MESSAGES.leaderOnly);
      expect(await versionOf(game)).toBe(before);
      expect(await directSql(suite.env, 'SELECT id FROM game_moves WHERE game_id = ?', [game.gameId])).toEqual([]);
    } finally {
      await demote('Leader');
    }
  });

  it('an unknown or expired session prechecks as signed out; a socket whose session expired cannot roll', async () => {
    const game = await newGame(cast);
    expect(await precheckTeamAction(handle.db, 'roll', rollOf(game), 'no-such-session')).toBeNull();
    const second = suite.client();
    await second.devLogin(`sock-owner-${tag}`);
    const sid = second.cookies.get('sid')!;
    expect(await precheckTeamAction(handle.db, 'roll', rollOf(game), sid)).not.toBeNull();
    const leader = await watcher('expiring', second);
    await leader.join(game.gameId);
    const before = await versionOf(game);
    await directSql(suite.env, 'UPDATE sessions SET expires_at = ? WHERE id = ?', ['2000-01-01T00:00:00.000Z', hashSessionId(sid)]);
    expect(await precheckTeamAction(handle.db, 'roll', rollOf(game), sid)).toBeNull();
    const since = leader.got.length;
    leader.socket.emit('roll_dice', rollOf(game));
    expect(await leader.errorWithin(5000, since)).toBe(PLAY_MESSAGES.signIn);
    expect(await versionOf(game)).toBe(before);
  });
});
