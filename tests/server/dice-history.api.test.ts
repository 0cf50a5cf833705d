import { describe, it, expect, afterAll, beforeAll } from 'vitest';
import * as v from 'valibot';
import sharp from 'sharp';
import { parse } from 'csv-parse/sync';
import { backends } from '../support/server';
import { ApiClient } from '../support/api';
import { useServerSuite, useTwoProcesses } from '../support/suite';
import { act, castOf, connect, newGame, stored, watchersOf, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { GameAnswerSchema, PublicGameAnswerSchema, type LogEntry } from '../../contract/gameApi';
import { GameHistorySchema, HISTORY_CSV_COLUMNS, type GameHistory } from '../../contract/history';
import { commitmentOf, dieFor, isDiceHex, sha256Hex } from '../../contract/game/dice';
import { validateBoard } from '../../contract/game/validate';

/**
 * Verifiable dice and the game history over real HTTP and real sockets (docs/game-rules.md §9; docs/server.md
 * §12), on SQLite and, with TEST_DATABASE_URL, PostgreSQL: the commitment from creation, the
 * seed hidden until the game finishes and then hashing to the commitment, every die recomputed
 * with the shared contract function (dieFor) from log_entries, new_log_entry and the history, the
 * BOARD_SEED rule, a reset revealing the old seed and committing a new one, the history and CSV
 * carrying every move in order, an inert CSV cell for a team named =HYPERLINK("x"), reviews in
 * the history of a game with proof, and rolls fired at once (from two sockets, and with
 * TEST_REDIS_URL at two processes) numbered 1..n exactly once, each with its seed's die.
 */

const BOARD_SEED = '4242';
/** These suites roll as fast as they can; the limits of docs/server.md §8 are tested elsewhere. */
const FAST = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };
/** A 25-square board with one snake and one ladder, so moves go 'via' both. */
const SNAKES: [number, number][] = [[19, 4]];
const LADDERS: [number, number][] = [[3, 14]];
const SEED_TEXT = /^Dice seed of the previous round: ([0-9a-f]{64}) \(commitment ([0-9a-f]{64})\)\.$/;


/** The seed BOARD_SEED gives round `round` of `gameId`: SHA-256 of "{BOARD_SEED}:{game_id}:{round}". */
const seedOf = (gameId: number, round: number) => sha256Hex(`${BOARD_SEED}:${gameId}:${round}`);

/**
 * Rolls fired at once are numbered 1..n with no gap or repeat, each with the die the seed gives
 * for its number, and each team's moves chain from square to square (nothing applied on a stale state).
 */
async function expectSerializedRolls(h: GameHistory, n: number): Promise<void> {
  const seed = await seedOf(h.game.id, 1);
  expect(h.moves).toHaveLength(n);
  expect(h.moves.map((m) => m.roll_index)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  const at = new Map<number, number>();
  for (const m of h.moves) {
    expect(m.die).toBe(await dieFor(seed, h.game.id, m.roll_index!));
    expect(m.from).toBe(at.get(m.team_id) ?? 1);
    at.set(m.team_id, m.to);
  }
}

describe.each(backends())('verifiable dice and history (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED, ...FAST });
  const { open, watcher } = watchersOf(() => suite.url);
  let cast: Cast;

  beforeAll(async () => {
    cast = await castOf(suite.url, `dice-${backend}`);
  });
  afterAll(() => {
    for (const w of open) w.close();
  });

  const history = async (gameId: number): Promise<GameHistory> => {
    const r = await suite.client().get(`/api/public/game/${gameId}/history`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return v.parse(GameHistorySchema, r.body);
  };
  const csvOf = async (gameId: number): Promise<{ text: string; rows: string[][] }> => {
    const res = await fetch(`${suite.url}/api/public/game/${gameId}/history.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="game-${gameId}-history.csv"`);
    const text = await res.text();
    return { text, rows: parse(text) as string[][] };
  };
  it('commits to the dice at creation, hides the seed until the winner, and every die recomputes from it', async () => {
    expect(validateBoard(25, SNAKES, LADDERS)).toBeNull();
    const game = await newGame(cast, { size: 25, noWin: false, start: false, reverts: 5 });
    expect((await cast.owner.put(`${game.path}/board`, { snakes_config: SNAKES, ladders_config: LADDERS })).status).toBe(200);

    // From creation: the commitment in the members' and the public shape, the seed null.
    const created = await stored(cast, game);
    expect(isDiceHex(created.dice_commitment)).toBe(true);
    expect(created.dice_seed).toBeNull();
    expect(created.dice_commitment).toBe(await commitmentOf(await seedOf(game.gameId, 1)));
    const pub = v.parse(PublicGameAnswerSchema, (await suite.client().get(`/api/public/game/${game.gameId}`)).body).game;
    expect([pub.dice_commitment, pub.dice_seed]).toEqual([created.dice_commitment, null]);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);

    const red = await watcher('red', cast.owner);
    const blue = await watcher('blue', cast.leader2);
    const anon = await watcher('anon');
    for (const w of [red, blue, anon]) await w.join(game.gameId);
    const mark = anon.got.length;

    // Play to the winner, the two Leaders in turn; Red reverts its second roll once.
    let actions = 0;
    let reverted = false;
    for (let turn = 0; (await stored(cast, game)).status !== 'finished'; turn += 1) {
      expect(turn, 'the game should finish within 300 turns').toBeLessThan(300);
      const [w, team, ign] = turn % 2 === 0 ? [red, game.team1, cast.ign.ownerA] : [blue, game.team2, cast.ign.leader2];
      expect(await act(w, 'roll_dice', game, team, ign)).toBeNull();
      actions += 1;
      const g = await stored(cast, game);
      if (!reverted && turn === 2 && g.status !== 'finished') {
        expect(await act(red, 'revert_roll', game, game.team1, cast.ign.ownerA)).toBeNull();
        actions += 1;
        reverted = true;
      }
    }
    expect(reverted).toBe(true);
    const finished = v.parse(GameAnswerSchema, (await cast.owner.get(game.path)).body).game;
    await anon.version(finished.version);

    // The seed is revealed and hashes to the commitment shown from the start.
    expect(finished.status).toBe('finished');
    expect(finished.dice_commitment).toBe(created.dice_commitment);
    expect(finished.dice_seed).toBe(await seedOf(game.gameId, 1));
    const seed = finished.dice_seed!;
    expect(await commitmentOf(seed)).toBe(created.dice_commitment);

    // Roll entries (log_entries and new_log_entry alike) carry roll_index 1, 2, ... and the die dieFor gives.
    const rollEntries = (entries: LogEntry[]) => entries.filter((e) => / rolled a \d and moved from /.test(e.message));
    const fromLog = rollEntries([...finished.log_entries].reverse());
    const live = rollEntries(anon.got.slice(mark).flatMap((g) => (g.event === 'new_log_entry' ? [g.payload.log_entry] : [])));
    expect(live).toEqual(fromLog);
    expect(fromLog.map((e) => e.roll_index)).toEqual(fromLog.map((_, i) => i + 1));
    for (const e of fromLog) {
      expect(e.die, e.message).toBe(await dieFor(seed, game.gameId, e.roll_index!));
      expect(e.message).toContain(`rolled a ${e.die} and moved`);
    }
    // Other entries carry neither.
    for (const e of finished.log_entries.filter((x) => !fromLog.some((r) => r.id === x.id))) {
      expect(e).not.toHaveProperty('roll_index');
      expect(e).not.toHaveProperty('die');
    }

    // The history carries every move in order, chained per team, and agrees with the log and the board.
    const h = await history(game.gameId);
    expect(h.game).toEqual({
      id: game.gameId, event_name: finished.event_name, clan_name: finished.clan_name, board_size: 25, status: 'finished',
      winners: finished.winners, dice_commitment: finished.dice_commitment, dice_seed: seed,
    });
    expect(h.teams).toEqual([{ team_id: game.team1, name: 'Red Team', color: '#aa0000' }, { team_id: game.team2, name: 'Blue Team', color: '#0000aa' }]);
    expect(h.reviews).toEqual([]);
    expect(h.moves).toHaveLength(actions);
    expect(h.moves.filter((m) => m.kind === 'revert')).toHaveLength(1);
    const rolls = h.moves.filter((m) => m.kind === 'roll');
    expect(rolls.map((m) => [m.roll_index, m.die])).toEqual(fromLog.map((e) => [e.roll_index, e.die]));
    const at = new Map<number, number>([[game.team1, 1], [game.team2, 1]]);
    const history1: Record<number, number[]> = { [game.team1]: [1], [game.team2]: [1] };
    for (const [i, m] of h.moves.entries()) {
      expect(m.from, `move ${i}`).toBe(at.get(m.team_id));
      if (m.kind === 'roll') {
        expect(m.die).toBe(await dieFor(seed, game.gameId, m.roll_index!));
        expect(m.landing).toBe(Math.min(m.from + m.die!, 25));
        const connection = [...SNAKES, ...LADDERS].find(([s]) => s === m.landing);
        expect(m.via).toBe(connection ? (connection[0] > connection[1] ? 'snake' : 'ladder') : null);
        expect(m.to).toBe(connection ? connection[1] : m.landing);
        history1[m.team_id].push(m.to);
      } else {
        expect([m.roll_index, m.die, m.landing, m.via]).toEqual([null, null, null, null]);
        history1[m.team_id].pop();
        expect(m.to).toBe(history1[m.team_id].at(-1));
      }
      at.set(m.team_id, m.to);
      if (i > 0) expect(m.at >= h.moves[i - 1].at).toBe(true);
    }
    for (const t of finished.team_states) expect(t.position_history).toEqual(history1[t.team_id]);
    expect(h.moves.at(-1)!.to).toBe(25);

    // The CSV: the header, then one row per move in the same order.
    const { text, rows } = await csvOf(game.gameId);
    expect(text.split('\r\n')[0]).toBe('at,team,kind,roll_index,die,from,landing,to,via');
    expect(rows[0]).toEqual([...HISTORY_CSV_COLUMNS]);
    const names = new Map(h.teams.map((t) => [t.team_id, t.name]));
    expect(rows.slice(1)).toEqual(h.moves.map((m) =>
      [m.at, names.get(m.team_id)!, m.kind, m.roll_index ?? '', m.die ?? '', m.from, m.landing ?? '', m.to, m.via ?? ''].map(String)));
  });

  it('a reset reveals the old seed in the log, commits a new one, and starts the roll count again', async () => {
    const game = await newGame(cast);
    const red = await watcher('red-reset', cast.owner);
    await red.join(game.gameId);
    for (let i = 0; i < 3; i += 1) expect(await act(red, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const before = await stored(cast, game);
    expect(before.dice_seed).toBeNull();
    expect((await history(game.gameId)).game.dice_seed).toBeNull();
    expect((await history(game.gameId)).moves).toHaveLength(3);

    expect((await cast.owner.put(`${game.path}/reset`)).status).toBe(200);
    const after = await stored(cast, game);
    const revealed = after.log_entries.map((e) => SEED_TEXT.exec(e.message)).find((m) => m !== null);
    expect(revealed, JSON.stringify(after.log_entries)).toBeTruthy();
    const [, oldSeed, oldCommitment] = revealed!;
    expect(oldCommitment).toBe(before.dice_commitment);
    expect(await commitmentOf(oldSeed)).toBe(before.dice_commitment);
    expect(oldSeed).toBe(await seedOf(game.gameId, 1));
    // The revealed seed explains the rolls of the round before.
    for (const e of before.log_entries.filter((x) => x.roll_index !== undefined)) expect(e.die).toBe(await dieFor(oldSeed, game.gameId, e.roll_index!));
    expect(after.log_entries.find((e) => SEED_TEXT.test(e.message))).toMatchObject({ team_name: 'Server', team_color: null });

    // A new round: a new commitment (BOARD_SEED round 2), the seed hidden, no moves, k from 1 again.
    expect(after.dice_commitment).not.toBe(before.dice_commitment);
    expect(after.dice_commitment).toBe(await commitmentOf(await seedOf(game.gameId, 2)));
    expect(after.dice_seed).toBeNull();
    const h = await history(game.gameId);
    expect([h.game.dice_commitment, h.game.dice_seed, h.moves]).toEqual([after.dice_commitment, null, []]);
    expect((await csvOf(game.gameId)).rows).toEqual([[...HISTORY_CSV_COLUMNS]]);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    await red.join(game.gameId);
    expect(await act(red, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const [first] = (await history(game.gameId)).moves;
    expect(first.roll_index).toBe(1);
    expect(first.die).toBe(await dieFor(await seedOf(game.gameId, 2), game.gameId, 1));
  });

  it('rolls fired at once from two sockets take the roll indexes 1..n in turn, each with its own die', async () => {
    const game = await newGame(cast);
    const one = await watcher('red-burst-1', cast.owner);
    const two = await watcher('red-burst-2', cast.owner);
    const blue = await watcher('blue-burst', cast.leader2);
    for (const w of [one, two, blue]) await w.join(game.gameId);
    const before = await stored(cast, game);
    for (let i = 0; i < 8; i += 1) {
      for (const w of [one, two]) w.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
      blue.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team2, performer_ign_id: cast.ign.leader2 });
    }
    await one.version(before.version + 24, 20_000);
    expect(one.count('action_error') + two.count('action_error') + blue.count('action_error')).toBe(0);
    await expectSerializedRolls(await history(game.gameId), 24);
  });

  it('exports a team named =HYPERLINK("x") as an inert cell', async () => {
    const game = await newGame(cast);
    const name = '=HYPERLINK("x")';
    const renamed = await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team1}`, { name, color: '#aa0000' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const red = await watcher('red-csv', cast.owner);
    await red.join(game.gameId);
    expect(await act(red, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    expect((await history(game.gameId)).teams[0].name).toBe(name);
    const { text, rows } = await csvOf(game.gameId);
    expect(rows[1][1]).toBe(`'${name}`);
    expect(text).toContain(`,"'=HYPERLINK(""x"")",roll,`);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it('lists the referees\' decisions of a game with proof, and answers 400/404 for bad or unknown games', async () => {
    const rows = ['description,difficulty', ...['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'].flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} history task ${i + 1},${t}`))];
    const form = new FormData();
    form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
    expect((await cast.owner.call('POST', `/api/clan/${cast.clanId}/tasks/upload_csv`, form)).status).toBe(200);
    const game = await newGame(cast, { proof: true });
    const red = await watcher('red-proof', cast.owner);
    await red.join(game.gameId);
    expect(await act(red, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const square = (await stored(cast, game)).team_states.find((t) => t.team_id === game.team1)!.current_position;
    const proof = new FormData();
    proof.append('team_id', String(game.team1));
    proof.append('image', new Blob([new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c83232' } }).png().toBuffer())], { type: 'image/png' }), 'proof.png');
    const sent = await cast.member.call('POST', `${game.path}/submissions`, proof);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect((await history(game.gameId)).reviews).toEqual([]);
    const reviewed = await cast.owner.put(`/api/clan/${cast.clanId}/submissions/${sent.body.submission.id}/review`, { decision: 'approve' });
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    const h = await history(game.gameId);
    expect(h.reviews).toEqual([{ at: reviewed.body.submission.reviewed_at, team_id: game.team1, square_index: square, decision: 'approve' }]);

    const anon = suite.client();
    for (const path of ['history', 'history.csv']) {
      expect((await anon.get(`/api/public/game/abc/${path}`)).status).toBe(400);
      const missing = await anon.get(`/api/public/game/987654/${path}`);
      expect([missing.status, missing.body]).toEqual([404, { error: 'Game not found.' }]);
    }
  });
});

describe('roll indexes across two server processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl || !process.env.TEST_DATABASE_URL) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const site = useTwoProcesses(redisUrl, { BOARD_SEED, ...FAST });
  const open: Watcher[] = [];
  afterAll(() => {
    for (const w of open) w.close();
  });

  it('rolls fired at both processes at once are numbered 1..n exactly once, each die from the seed', async () => {
    const cast = await castOf(site.a.url, 'dice-two');
    const game = await newGame(cast);
    const onA = await connect(site.a.url, 'red@a', cast.owner);
    const onB = await connect(site.b.url, 'red@b', cast.owner);
    const blue = await connect(site.b.url, 'blue@b', cast.leader2);
    open.push(onA, onB, blue);
    for (const w of [onA, onB, blue]) await w.join(game.gameId);
    const before = await stored(cast, game);
    for (let i = 0; i < 10; i += 1) {
      onA.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
      onB.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
      if (i % 2 === 0) blue.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team2, performer_ign_id: cast.ign.leader2 });
    }
    await expect.poll(async () => (await stored(cast, game)).version, { timeout: 30_000 }).toBe(before.version + 25);
    expect(onA.count('action_error') + onB.count('action_error') + blue.count('action_error')).toBe(0);
    const r = await new ApiClient(site.b.url).get(`/api/public/game/${game.gameId}/history`);
    await expectSerializedRolls(v.parse(GameHistorySchema, r.body), 25);
  });
});
