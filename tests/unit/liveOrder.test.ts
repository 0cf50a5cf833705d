import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import { applyInOrder, mergeLogEntries, type OrderedResult, ORDER_PENDING_LIMIT, ORDER_WAIT_MS, prependLogEntry, type GameProgress, type HeldGame } from '../../contract/socket';
import type { Game, LogEntry } from '../../contract/gameApi';
import { liveGameMachine } from '../../machines/liveGame.machine';
import { gamePlayMachine } from '../../machines/gamePlay.machine';
import * as sel from '../../machines/gamePlay.selectors';
import { gameSocketActor } from '../../src/realtime/gameSocket';
import { FakeSocket } from '../support/fakeSocket';
import { fixtureGame, progressOf } from '../support/gameFixtures';

/**
 * Order of live updates (docs/server.md §6 "Order"): with several processes a watcher
 * may receive version n + 1 before version n. The client applies updates in version order, never
 * steps back, waits ORDER_WAIT_MS for a missing version and then asks for the full state, and
 * keeps every log entry once, in the order written.
 */

const entry = (id: number, message = `entry ${id}`): LogEntry => ({ id, timestamp: '2025-05-01T10:01:00.000Z', team_name: 'Red Dragons', team_color: '#cc2222', message });

/** Progress updates v2..v(1 + n) of the fixture game, team 11 moving one square each, each with its log entry (id = version). */
function chain(game: Game, n: number): GameProgress[] {
  const out: GameProgress[] = [];
  let held: Game = game;
  for (let i = 0; i < n; i++) {
    const next = progressOf(held, { position: held.team_states[0].current_position + 1 });
    out.push({ ...next, new_log_entries: [entry(next.version)] });
    held = { ...held, version: next.version, team_states: next.team_states as Game['team_states'] };
  }
  return out;
}

/** Feeds `updates` one by one through applyInOrder as a client would; returns the game, the log and how many resyncs were asked. */
function feed(start: Game, updates: (GameProgress | Game)[]) {
  let game: HeldGame | null = start;
  let pending: GameProgress[] = [];
  let log = start.log_entries;
  let resyncs = 0;
  const versions: number[] = [];
  for (const update of updates) {
    const r: OrderedResult<HeldGame> = applyInOrder(game, pending, update);
    for (const step of r.steps) {
      versions.push(step.game.version);
      log = 'board_squares' in step.update ? step.game.log_entries : mergeLogEntries(log, step.update.new_log_entries);
    }
    log = mergeLogEntries(log, r.late);
    game = r.game;
    pending = r.pending;
    if (r.resync) resyncs += 1;
  }
  return { game: game!, pending, log, resyncs, versions };
}

describe('applyInOrder: the live-update reducer', () => {
  const game = fixtureGame();
  const [v2, v3, v4, v5] = chain(game, 4);

  it('applies an update that arrives before the one it follows once that one comes, in version order', () => {
    const first = applyInOrder(game, [], v3);
    expect(first.game).toBe(game);
    expect(first.steps).toEqual([]);
    expect(first.pending.map((p) => p.version)).toEqual([3]);
    expect(first.resync).toBe(false);
    const second = applyInOrder(game, first.pending, v2);
    expect(second.steps.map((s) => s.game.version)).toEqual([2, 3]);
    expect(second.game?.version).toBe(3);
    expect(second.game?.team_states[0].current_position).toBe(3);
    expect(second.pending).toEqual([]);
    // Each step carries its own update, log entries included; the held game keeps none of them.
    expect(second.steps.map((s) => (s.update as GameProgress).new_log_entries?.map((e) => e.id))).toEqual([[2], [3]]);
    expect(second.game).not.toHaveProperty('new_log_entries');
  });

  it('never steps back: a duplicate or an older update changes nothing, and its entries come back to merge by id', () => {
    const at3 = feed(game, [v2, v3]);
    const again = applyInOrder(at3.game, [], v2);
    expect(again.game).toBe(at3.game);
    expect(again.steps).toEqual([]);
    expect(again.late.map((e) => e.id)).toEqual([2]);
    expect(mergeLogEntries(at3.log, again.late)).toBe(at3.log);
    // A duplicate of a waiting version keeps one update, with the entries of both.
    const waiting = applyInOrder(at3.game, applyInOrder(at3.game, [], v5).pending, { ...v5, new_log_entries: [entry(5), entry(50)] });
    expect(waiting.pending).toHaveLength(1);
    expect(waiting.pending[0].new_log_entries?.map((e) => e.id)).toEqual([5, 50]);
  });

  it('every order of a burst ends on the last version with every entry once, newest first', () => {
    const burst = chain(game, 6);
    const orders = [
      [0, 1, 2, 3, 4, 5],
      [1, 0, 3, 2, 5, 4],
      [5, 4, 3, 2, 1, 0],
      [0, 2, 1, 1, 4, 3, 5, 0],
    ];
    for (const order of orders) {
      const out = feed(game, order.map((i) => burst[i]));
      expect(out.game.version, String(order)).toBe(7);
      expect(out.game.team_states[0].current_position).toBe(7);
      expect(out.pending).toEqual([]);
      expect(out.resyncs).toBe(0);
      expect(out.versions).toEqual([2, 3, 4, 5, 6, 7]);
      expect(out.log.map((e) => e.id)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    }
  });

  it('a full game drops the waiting updates it covers and applies the next ones; its log plus theirs, each once', () => {
    // Held v2; v4 and v5 wait (v3 missed); the join_game answer is the full game at v4.
    const at2 = feed(game, [v2]);
    const waiting = feed(at2.game as Game, [v4, v5]);
    expect(waiting.game.version).toBe(2);
    const full: Game = {
      ...game,
      version: 4,
      team_states: game.team_states.map((t) => (t.team_id === 11 ? { ...t, current_position: 4, position_history: [1, 2, 3, 4] } : t)),
      log_entries: [entry(4), entry(3), entry(2), ...game.log_entries],
    };
    const r = applyInOrder(at2.game, waiting.pending, full);
    expect(r.steps.map((s) => s.game.version)).toEqual([4, 5]);
    expect(r.game?.team_states[0].current_position).toBe(5);
    expect(r.pending).toEqual([]);
    expect(r.late.map((e) => e.id)).toEqual([4]);
    const log = mergeLogEntries(mergeLogEntries(full.log_entries, (r.steps[1].update as GameProgress).new_log_entries), r.late);
    expect(log.map((e) => e.id)).toEqual([5, 4, 3, 2, 1]);
  });

  it('asks for the full state at once when no game is held, or when more than ORDER_PENDING_LIMIT updates wait', () => {
    expect(applyInOrder(null, [], v2).resync).toBe(true);
    const burst = chain(game, ORDER_PENDING_LIMIT + 6);
    // Everything after a lost v2: asked once as the waiting updates pass the limit, not again for each one after.
    const out = feed(game, burst.slice(1));
    expect(out.game.version).toBe(game.version);
    expect(out.pending).toHaveLength(ORDER_PENDING_LIMIT + 5);
    expect(out.resyncs).toBe(1);
    // The missing one arriving after all lets every waiting one through.
    expect(feed(game, [...burst.slice(1), burst[0]]).game.version).toBe(game.version + ORDER_PENDING_LIMIT + 6);
    // Another game's update changes nothing.
    expect(applyInOrder(game, [], { ...v2, id: 99 })).toEqual({ game, steps: [], pending: [], late: [], resync: false });
  });
});

describe('the live log', () => {
  it('puts an entry in its place by id, newest first, once; an entry older than a log that was cleared is not brought back', () => {
    const log = [entry(5), entry(3)];
    expect(prependLogEntry(log, entry(4)).map((e) => e.id)).toEqual([5, 4, 3]);
    expect(prependLogEntry(log, entry(6)).map((e) => e.id)).toEqual([6, 5, 3]);
    expect(prependLogEntry(log, entry(5))).toBe(log);
    expect(prependLogEntry(log, entry(2))).toBe(log);
    expect(prependLogEntry([], entry(2)).map((e) => e.id)).toEqual([2]);
    expect(prependLogEntry([entry(9), entry(8)], entry(10), 2).map((e) => e.id)).toEqual([10, 9]);
  });
});

describe('gamePlay chart: updates out of order over the socket', () => {
  let actors: Actor<any>[] = [];
  afterEach(() => {
    actors.forEach((a) => a.stop());
    actors = [];
    vi.useRealTimers();
  });

  function started() {
    const socket = new FakeSocket();
    const logic = gamePlayMachine.provide({
      actors: {
        loadGame: fromPromise((): Promise<HeldGame> => Promise.resolve(fixtureGame())),
        liveGame: liveGameMachine.provide({ actors: { socket: gameSocketActor(() => socket) } }),
      },
    });
    const actor = createActor(logic, { input: { gameId: 5 } });
    actors.push(actor);
    actor.start();
    return { actor, socket };
  }
  const send = (socket: FakeSocket, state: GameProgress | Game) => socket.serverSends('game_state_update', { game_state: state });
  const version = (actor: Actor<typeof gamePlayMachine>) => sel.selectGame(actor.getSnapshot())?.version;
  const logIds = (actor: Actor<typeof gamePlayMachine>) => sel.selectLog(actor.getSnapshot()).map((e) => e.id);

  it('holds a compact update that came early until the one before it arrives, then shows both with their entries in order; no re-join', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { actor, socket } = started();
    await vi.advanceTimersByTimeAsync(1);
    socket.serverConnects();
    const [v2, v3, v4] = chain(fixtureGame(), 3);
    send(socket, v3);
    expect(version(actor)).toBe(1);
    expect(logIds(actor)).toEqual([1]);
    send(socket, v2);
    expect(version(actor)).toBe(3);
    expect(logIds(actor)).toEqual([3, 2, 1]);
    // A duplicate after it changes nothing; the next one applies.
    send(socket, v3);
    send(socket, v4);
    expect(version(actor)).toBe(4);
    expect(sel.selectTeamStates(actor.getSnapshot())?.[0].current_position).toBe(4);
    expect(logIds(actor)).toEqual([4, 3, 2, 1]);
    await vi.advanceTimersByTimeAsync(ORDER_WAIT_MS * 2);
    expect(socket.sentOf('join_game')).toHaveLength(1);
  });

  it('a join answer repeating the game loaded over HTTP leaves the context as it is; one of the same version with a renamed team is shown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { actor, socket } = started();
    await vi.advanceTimersByTimeAsync(1);
    socket.serverConnects();
    const before = actor.getSnapshot().context;
    expect(before.game?.version).toBe(1);
    send(socket, structuredClone(fixtureGame()));
    expect(actor.getSnapshot().context).toBe(before);
    const renamed = structuredClone(fixtureGame());
    renamed.team_states[0].team_name = 'Renamed';
    send(socket, renamed);
    expect(actor.getSnapshot().context).not.toBe(before);
    expect(sel.selectTeamStates(actor.getSnapshot())?.[0].team_name).toBe('Renamed');
    expect(version(actor)).toBe(1);
  });

  it('asks for the full state once a gap stays open ORDER_WAIT_MS; the answer and the update waiting past it make the game, every entry once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { actor, socket } = started();
    await vi.advanceTimersByTimeAsync(1);
    socket.serverConnects();
    const base = fixtureGame();
    const [v2, v3, v4] = chain(base, 3);
    send(socket, v2);
    send(socket, v4);
    expect(version(actor)).toBe(2);
    await vi.advanceTimersByTimeAsync(ORDER_WAIT_MS - 50);
    expect(socket.sentOf('join_game')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(socket.sentOf('join_game')).toHaveLength(2);
    // The join answer was read at v3 (v4 committed just after): it brings v3 and its log; v4, waiting, follows.
    const full: Game = {
      ...base,
      version: 3,
      team_states: base.team_states.map((t) => (t.team_id === 11 ? { ...t, current_position: 3, position_history: [1, 2, 3] } : t)),
      log_entries: [v3.new_log_entries![0], v2.new_log_entries![0], ...base.log_entries],
    };
    send(socket, full);
    expect(version(actor)).toBe(4);
    expect(sel.selectTeamStates(actor.getSnapshot())?.[0].current_position).toBe(4);
    expect(logIds(actor)).toEqual([4, 3, 2, 1]);
    // The missing v3 arriving late changes nothing, and no further join follows.
    send(socket, v3);
    expect(version(actor)).toBe(4);
    expect(logIds(actor)).toEqual([4, 3, 2, 1]);
    await vi.advanceTimersByTimeAsync(ORDER_WAIT_MS * 2);
    expect(socket.sentOf('join_game')).toHaveLength(2);
  });

  it('takes the plain form too: new_log_entry messages go in their place by id', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { actor, socket } = started();
    await vi.advanceTimersByTimeAsync(1);
    socket.serverConnects();
    const [v2, v3] = chain(fixtureGame(), 2).map(({ new_log_entries: _e, ...plain }) => plain);
    send(socket, v3);
    socket.serverSends('new_log_entry', { log_entry: entry(3) });
    send(socket, v2);
    socket.serverSends('new_log_entry', { log_entry: entry(2) });
    expect(version(actor)).toBe(3);
    expect(logIds(actor)).toEqual([3, 2, 1]);
  });
});
