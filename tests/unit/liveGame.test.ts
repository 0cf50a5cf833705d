import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import { liveGameMachine, NOT_CONNECTED_MESSAGE } from '../../machines/liveGame.machine';
import { selectConnectionState, selectReconnectAttempt } from '../../machines/liveGame.selectors';
import { gamePlayMachine } from '../../machines/gamePlay.machine';
import { ORDER_WAIT_MS, type HeldGame } from '../../contract/socket';
import { isBannerFading, selectBannerMessage } from '../../machines/banner.selectors';
import * as sel from '../../machines/gamePlay.selectors';
import * as rm from '../../machines/rollMoment.selectors';
import { connectWhenIdle, gameSocketActor, openGameSocket, SOCKET_OPTIONS } from '../../src/realtime/gameSocket';
import { FakeSocket } from '../support/fakeSocket';
import { deferred } from '../support/effects';
import { fixtureGame, progressOf } from '../support/gameFixtures';

/**
 * The liveGame chart and the gamePlay chart holding the game (docs/game-rules.md §6; docs/server.md §3; docs/client.md
 * §12; docs/server.md §6), driven through the real socket callback actor of
 * src/realtime with a fake Socket.IO client.
 */

function start(load: Promise<HeldGame> = Promise.resolve(fixtureGame())) {
  const socket = new FakeSocket();
  const logic = gamePlayMachine.provide({
    actors: {
      loadGame: fromPromise(() => load),
      liveGame: liveGameMachine.provide({ actors: { socket: gameSocketActor(() => socket) } }),
    },
  });
  const actor = createActor(logic, { input: { gameId: 5 } });
  actor.start();
  return { actor, socket };
}

const connection = (actor: Actor<typeof gamePlayMachine>) => actor.getSnapshot().children.connection!;
const connectionState = (actor: Actor<typeof gamePlayMachine>) => selectConnectionState(connection(actor).getSnapshot() as any);
/** The action message the invoked banner chart shows, or null. */
const actionError = (actor: Actor<typeof gamePlayMachine>) => {
  const message = sel.selectMessage(actor.getSnapshot());
  return message ? (selectBannerMessage(message.getSnapshot())?.text ?? null) : null;
};
const flush = () => new Promise((r) => setTimeout(r, 0));

let actors: Actor<any>[] = [];
afterEach(() => {
  actors.forEach((a) => a.stop());
  actors = [];
  vi.useRealTimers();
});
function started(load?: Promise<HeldGame>) {
  const s = start(load);
  actors.push(s.actor);
  return s;
}

describe('socket settings (docs/client.md §12)', () => {
  it('polls first and upgrades, 20 s timeout, 1 s to 5 s reconnection delay with 0.5 jitter, unlimited attempts', () => {
    expect(SOCKET_OPTIONS.transports).toEqual(['polling', 'websocket']);
    expect(SOCKET_OPTIONS.upgrade).toBe(true);
    expect(SOCKET_OPTIONS.timeout).toBe(20_000);
    expect(SOCKET_OPTIONS.reconnectionDelay).toBe(1000);
    expect(SOCKET_OPTIONS.reconnectionDelayMax).toBe(5000);
    expect(SOCKET_OPTIONS.randomizationFactor).toBe(0.5);
    expect(SOCKET_OPTIONS.reconnectionAttempts).toBe(Infinity);
    expect(SOCKET_OPTIONS.path).toBe('/socket.io');
  });
});

describe('connecting when the page is idle', () => {
  it('a new game socket is not connecting until its actor connects it', () => {
    const socket = openGameSocket();
    expect(socket.active).toBe(false);
    expect(socket.connected).toBe(false);
    socket.disconnect();
  });

  it('connects a socket that is not connecting yet once the page is idle, and only then', async () => {
    const socket = new FakeSocket();
    socket.active = false;
    connectWhenIdle(socket);
    expect(socket.connectCalls).toBe(0);
    await flush();
    expect(socket.connectCalls).toBe(1);
  });

  it('connects nothing once cancelled (the actor stopped first), and leaves a connecting socket alone', async () => {
    const stopped = new FakeSocket();
    stopped.active = false;
    connectWhenIdle(stopped)();
    const connecting = new FakeSocket();
    connectWhenIdle(connecting);
    await flush();
    expect(stopped.connectCalls).toBe(0);
    expect(connecting.connectCalls).toBe(0);
  });

  it('the game socket actor connects the socket it opened, after its listeners are on', async () => {
    const socket = new FakeSocket();
    socket.active = false;
    const actor = createActor(liveGameMachine.provide({ actors: { socket: gameSocketActor(() => socket) } }), { input: { gameId: 9 } });
    actors.push(actor);
    actor.start();
    expect(socket.connectCalls).toBe(0);
    await flush();
    expect(socket.connectCalls).toBe(1);
    socket.serverConnects();
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 9, compact: true }]);
  });
});

describe('liveGame chart', () => {
  it('connects, joins the game room and takes the join answer as the full state', async () => {
    const { actor, socket } = started(new Promise(() => {}));
    expect(connectionState(actor)).toBe('connecting');
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    socket.serverConnects();
    expect(connectionState(actor)).toBe('connected');
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 5, compact: true }]);
    socket.serverSends('game_state_update', { game_state: fixtureGame({ version: 3 }) });
    expect(actor.getSnapshot().matches({ live: { play: 'inProgress' } })).toBe(true);
    expect(sel.selectGame(actor.getSnapshot())?.version).toBe(3);
  });

  it('goes reconnecting on a dropped connection, counts attempts, and re-joins (full state) on reconnect', async () => {
    const { actor, socket } = started();
    await flush();
    socket.serverConnects();
    socket.serverSends('game_state_update', { game_state: fixtureGame({ version: 1 }) });
    socket.drop('transport close');
    expect(connectionState(actor)).toBe('reconnecting');
    socket.startReconnecting(1);
    socket.connectFails('timeout');
    socket.startReconnecting(2);
    expect(connectionState(actor)).toBe('reconnecting');
    expect(selectReconnectAttempt(connection(actor).getSnapshot() as any)).toBe(2);
    // While offline two rolls happened; the join answer brings them.
    socket.serverConnects();
    expect(connectionState(actor)).toBe('connected');
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 5, compact: true }, { game_id: 5, compact: true }]);
    const later = fixtureGame({ version: 3 });
    later.team_states[0] = { ...later.team_states[0], current_position: 9, position_history: [1, 4, 9] };
    socket.serverSends('game_state_update', { game_state: later });
    expect(sel.selectTeamStates(actor.getSnapshot())?.[0].current_position).toBe(9);
  });

  it('is disconnected when the server closes the socket, and a retry opens it again', async () => {
    const { actor, socket } = started();
    await flush();
    socket.serverConnects();
    socket.drop('io server disconnect', true);
    expect(connectionState(actor)).toBe('disconnected');
    connection(actor).send({ type: 'connection.retry' });
    expect(connectionState(actor)).toBe('connecting');
    expect(socket.connectCalls).toBe(1);
    socket.serverConnects();
    expect(connectionState(actor)).toBe('connected');
    expect(socket.sentOf('join_game')).toHaveLength(2);
  });

  it('refuses a roll while not connected instead of queueing it', async () => {
    const { actor, socket } = started();
    await flush();
    socket.serverConnects();
    socket.drop();
    actor.send({ type: 'game.roll' });
    expect(socket.sentOf('roll_dice')).toEqual([]);
    expect(actionError(actor)).toBe(NOT_CONNECTED_MESSAGE);
    expect(sel.selectIsRolling(actor.getSnapshot())).toBe(false);
  });

  it('closes the socket and leaves the room when stopped', async () => {
    const { actor, socket } = started();
    await flush();
    socket.serverConnects();
    actor.stop();
    expect(socket.sentOf('leave_game')).toEqual([{ game_id: 5 }]);
    expect(socket.closed).toBe(true);
    expect(socket.count('game_state_update')).toBe(0);
  });

  it('runs alone too: the chart without a holder forwards nothing and still re-joins', () => {
    const socket = new FakeSocket();
    const actor = createActor(liveGameMachine.provide({ actors: { socket: gameSocketActor(() => socket) } }), { input: { gameId: 9 } });
    actors.push(actor);
    actor.start();
    socket.serverConnects();
    socket.drop();
    socket.serverConnects();
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 9, compact: true }, { game_id: 9, compact: true }]);
  });
});

describe('gamePlay chart: the held game over the socket', () => {
  it('merges progress updates, and re-joins on a version gap still open after ORDER_WAIT_MS', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { actor, socket } = started();
    await vi.advanceTimersByTimeAsync(1);
    socket.serverConnects();
    const game = sel.selectGame(actor.getSnapshot())!;
    socket.serverSends('game_state_update', { game_state: progressOf(game, { position: 4 }) });
    expect(sel.selectGame(actor.getSnapshot())?.version).toBe(2);
    expect(sel.selectTeamStates(actor.getSnapshot())?.[0].current_position).toBe(4);
    // Version 4 after 2: version 3 was missed. The update waits for it, then the full state is asked for.
    socket.serverSends('game_state_update', { game_state: progressOf(sel.selectGame(actor.getSnapshot())!, { position: 9, version: 4 }) });
    expect(sel.selectTeamStates(actor.getSnapshot())?.[0].current_position).toBe(4);
    expect(socket.sentOf('join_game')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(ORDER_WAIT_MS);
    expect(socket.sentOf('join_game')).toHaveLength(2);
    // An update older than what is held changes nothing.
    socket.serverSends('game_state_update', { game_state: progressOf(game, { position: 20, version: 2 }) });
    expect(sel.selectTeamStates(actor.getSnapshot())?.[0].current_position).toBe(4);
  });

  it("hands a roll's last_move to the roll moment, which holds the log lines newer than the log it had until the pawn arrives", async () => {
    const { actor, socket } = started();
    await flush();
    socket.serverConnects();
    const game = sel.selectGame(actor.getSnapshot())!;
    const head = sel.selectLog(actor.getSnapshot())[0]?.id ?? 0;
    const move = { team_id: 11, die: 3, from: 1, landing: 4, to: 4, via: null, path: [1, 2, 3, 4] };
    socket.serverSends('game_state_update', { game_state: { ...progressOf(game, { position: 4 }), last_move: move } });
    const moment = sel.selectRollMoment(actor.getSnapshot())!;
    expect(rm.selectMove(moment.getSnapshot())).toEqual(move);
    expect(rm.selectIsTumbling(moment.getSnapshot())).toBe(true);
    expect(rm.selectHoldsLog(moment.getSnapshot())).toBe(true);
    expect(rm.selectLogHead(moment.getSnapshot())).toBe(head);
    // A progress update without a roll (a revert, a status change) starts no moment.
    socket.serverSends('game_state_update', { game_state: progressOf(sel.selectGame(actor.getSnapshot())!, { revert: true }) });
    expect(rm.selectMove(moment.getSnapshot())).toEqual(move);
  });

  it('takes both forms of a change: the log entries inside a compact update, or new_log_entry messages after a plain one', async () => {
    const { actor, socket } = started();
    await flush();
    socket.serverConnects();
    const entry = (id: number, message: string) => ({ id, timestamp: '2025-05-01T10:01:00.000Z', team_name: 'Red Dragons', team_color: '#cc2222', message });
    // Compact (docs/server.md §6): one message, its entries in the log, oldest first (the log shows newest first).
    const compact = progressOf(sel.selectGame(actor.getSnapshot())!, { revert: true });
    socket.serverSends('game_state_update', { game_state: { ...compact, new_log_entries: [entry(901, 'reverted'), entry(902, 'Game paused.')] } });
    expect(sel.selectGame(actor.getSnapshot())?.version).toBe(compact.version);
    expect(sel.selectLog(actor.getSnapshot()).slice(0, 2).map((e) => e.message)).toEqual(['Game paused.', 'reverted']);
    expect(sel.selectGame(actor.getSnapshot())).not.toHaveProperty('new_log_entries');
    // Plain (an older process during a rolling restart): the update, then the entry.
    const plain = progressOf(sel.selectGame(actor.getSnapshot())!, { revert: true });
    socket.serverSends('game_state_update', { game_state: plain });
    socket.serverSends('new_log_entry', { log_entry: entry(903, 'Game resumed.') });
    expect(sel.selectGame(actor.getSnapshot())?.version).toBe(plain.version);
    expect(sel.selectLog(actor.getSnapshot()).slice(0, 3).map((e) => e.message)).toEqual(['Game resumed.', 'Game paused.', 'reverted']);
  });

  it('sends a Leader roll, keeps the rolling flag until the next game_state_update', async () => {
    const { actor, socket } = started();
    await flush();
    socket.serverConnects();
    expect(sel.selectCanRoll(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'game.roll' });
    expect(socket.sentOf('roll_dice')).toEqual([{ game_id: 5, team_id: 11, performer_ign_id: 501 }]);
    expect(sel.selectIsRolling(actor.getSnapshot())).toBe(true);
    expect(sel.selectCanRoll(actor.getSnapshot())).toBe(false);
    // A log entry is not a state update: still rolling.
    socket.serverSends('new_log_entry', { log_entry: { id: 2, timestamp: '2025-05-01T10:01:00.000Z', team_name: 'Red Dragons', team_color: '#cc2222', message: 'rolled a 3' } });
    expect(sel.selectIsRolling(actor.getSnapshot())).toBe(true);
    expect(sel.selectLog(actor.getSnapshot()).map((e) => e.id)).toEqual([2, 1]);
    socket.serverSends('game_state_update', { game_state: progressOf(sel.selectGame(actor.getSnapshot())!, { position: 4 }) });
    expect(sel.selectIsRolling(actor.getSnapshot())).toBe(false);
    expect(sel.selectCanRevert(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'game.revert' });
    expect(socket.sentOf('revert_roll')).toHaveLength(1);
    expect(sel.selectIsReverting(actor.getSnapshot())).toBe(true);
    socket.serverSends('game_state_update', { game_state: progressOf(sel.selectGame(actor.getSnapshot())!, { revertCount: 1 }) });
    expect(sel.selectIsReverting(actor.getSnapshot())).toBe(false);
  });

  it('shows the server action_error message, clears the flag, fades at 4 s and removes it at 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { actor, socket } = started();
    await vi.advanceTimersByTimeAsync(1);
    socket.serverConnects();
    actor.send({ type: 'game.roll' });
    socket.serverSends('action_error', { message: 'Game is paused. No turns can be processed.' });
    expect(sel.selectIsRolling(actor.getSnapshot())).toBe(false);
    expect(actionError(actor)).toBe('Game is paused. No turns can be processed.');
    await vi.advanceTimersByTimeAsync(4000);
    expect(isBannerFading(sel.selectMessage(actor.getSnapshot())!.getSnapshot())).toBe(true);
    expect(actionError(actor)).toBe('Game is paused. No turns can be processed.');
    await vi.advanceTimersByTimeAsync(1000);
    expect(actionError(actor)).toBeNull();
  });

  it('offers no roll to members, non-members, or outside in-progress; revert only under the rule', async () => {
    for (const [role, status, canRoll] of [
      ['member', 'in-progress', false],
      ['none', 'in-progress', false],
      ['leader', 'paused', false],
      ['leader', 'READY', false],
      ['leader', 'in-progress', true],
    ] as const) {
      const { actor } = started(Promise.resolve(fixtureGame({ status }, role)));
      await flush();
      expect(sel.selectCanRoll(actor.getSnapshot())).toBe(canRoll);
    }
    const atMax = fixtureGame();
    atMax.team_states[0] = { ...atMax.team_states[0], current_position: 8, position_history: [1, 8], revert_count: 2 };
    const { actor } = started(Promise.resolve(atMax));
    await flush();
    expect(sel.selectCanRevert(actor.getSnapshot())).toBe(false);
  });

  it('celebrates for 15 s when the game finishes with winners', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { actor, socket } = started();
    await vi.advanceTimersByTimeAsync(1);
    socket.serverConnects();
    const game = sel.selectGame(actor.getSnapshot())!;
    socket.serverSends('game_state_update', { game_state: progressOf(game, { status: 'finished', position: 25, winners: [{ name: 'Red Dragons', color: '#cc2222' }] }) });
    expect(sel.selectIsCelebrating(actor.getSnapshot())).toBe(true);
    // A later full state (a reconnect) does not restart the celebration.
    await vi.advanceTimersByTimeAsync(10_000);
    socket.serverSends('game_state_update', { game_state: { ...sel.selectGame(actor.getSnapshot())! } });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sel.selectIsCelebrating(actor.getSnapshot())).toBe(false);
    expect(sel.selectWinners(actor.getSnapshot())).toEqual([{ name: 'Red Dragons', color: '#cc2222' }]);
  });

  it('shows the load error of the actor, and recovers from the socket full state', async () => {
    const load = deferred<HeldGame>();
    const { actor, socket } = started(load.promise);
    load.reject(new Error('Game not found.'));
    await flush();
    expect(sel.selectLoadError(actor.getSnapshot())).toBe('Game not found.');
    socket.serverConnects();
    socket.serverSends('game_state_update', { game_state: fixtureGame() });
    expect(actor.getSnapshot().matches('live')).toBe(true);
  });

  it('drops malformed payloads', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { actor, socket } = started();
    await flush();
    socket.serverConnects();
    socket.serverSends('game_state_update', { game_state: { id: 'x' } });
    socket.serverSends('action_error', {});
    expect(sel.selectGame(actor.getSnapshot())?.version).toBe(1);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
