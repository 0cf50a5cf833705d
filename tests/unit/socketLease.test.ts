import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, type Actor } from 'xstate';
import { liveGameMachine } from '../../machines/liveGame.machine';
import { selectConnectionState } from '../../machines/liveGame.selectors';
import { SERVER_RESTARTING_MESSAGE } from '../../contract/socket';
import { draftFeedActor } from '../../src/realtime/draftFeed';
import { gameSocketActor } from '../../src/realtime/gameSocket';
import { createSocketHub } from '../../src/realtime/socketLease';
import { FakeSocket } from '../support/fakeSocket';

/**
 * One socket per tab (docs/architecture.md §3, app-lifetime actors): every screen's feed holds a
 * lease on the tab's one socket; a room is left only when its last lease leaves it.
 */

let actors: Actor<typeof liveGameMachine>[] = [];
afterEach(() => {
  actors.forEach((a) => a.stop());
  actors = [];
  vi.useRealTimers();
});

/** A hub over one FakeSocket (not connecting yet), counting how many sockets it made. */
function hub(closeAfterMs?: number) {
  const socket = new FakeSocket();
  socket.active = false;
  const load = vi.fn(async () => socket);
  return { socket, load, tab: createSocketHub(load, closeAfterMs) };
}

/** A liveGame chart for `gameId` whose socket is a lease of `tab`. */
function screen(tab: ReturnType<typeof hub>['tab'], gameId: number) {
  const actor = createActor(liveGameMachine.provide({ actors: { socket: gameSocketActor(() => tab.lease()) } }), { input: { gameId } });
  actors.push(actor);
  actor.start();
  return actor;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('leases on the tab socket', () => {
  it('two screens on the same game share one connection; the room is left only when the last lease releases', async () => {
    const { socket, load, tab } = hub();
    const first = screen(tab, 7);
    const second = screen(tab, 7);
    await vi.waitFor(() => expect(socket.connectCalls).toBe(1));
    expect(load).toHaveBeenCalledTimes(1);
    socket.serverConnects();
    expect(selectConnectionState(first.getSnapshot())).toBe('connected');
    expect(selectConnectionState(second.getSnapshot())).toBe('connected');
    // Each screen joins (the server answers each with the full game)...
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 7, compact: true }, { game_id: 7, compact: true }]);
    expect(socket.count('game_state_update')).toBe(2);

    // ...the first one closing leaves its listeners, not the room the second still shows...
    first.stop();
    expect(socket.sentOf('leave_game')).toEqual([]);
    expect(socket.count('game_state_update')).toBe(1);
    expect(socket.closed).toBe(false);

    // ...and the last one leaves it.
    second.stop();
    expect(socket.sentOf('leave_game')).toEqual([{ game_id: 7 }]);
    expect(socket.count('game_state_update')).toBe(0);
    expect(socket.count('connect')).toBe(0);
  });

  it('leases on different rooms: each room is left by its own last holder; a leave of a room not held sends nothing', async () => {
    const { socket, tab } = hub();
    const game = tab.lease();
    const draft = tab.lease();
    game.connect();
    await vi.waitFor(() => expect(socket.connectCalls).toBe(1));
    socket.serverConnects();
    game.emit('join_game', { game_id: 3, compact: true });
    draft.emit('join_draft', { event_id: 5 });
    draft.emit('leave_game', { game_id: 3 });
    expect(socket.sentOf('leave_game')).toEqual([]);
    draft.disconnect();
    expect(socket.sentOf('leave_draft')).toEqual([{ event_id: 5 }]);
    game.emit('leave_game', { game_id: 3 });
    expect(socket.sentOf('leave_game')).toEqual([{ game_id: 3 }]);
  });

  it('a reconnect after server_restarting brings both screens back, each joining again', async () => {
    const { socket, tab } = hub();
    const first = screen(tab, 7);
    const second = screen(tab, 8);
    await vi.waitFor(() => expect(socket.connectCalls).toBe(1));
    socket.serverConnects();
    socket.serverSends('server_restarting', { message: SERVER_RESTARTING_MESSAGE });
    socket.drop('io server disconnect', true);
    expect(selectConnectionState(first.getSnapshot())).toBe('reconnecting');
    expect(selectConnectionState(second.getSnapshot())).toBe('reconnecting');
    // One socket opened again, not one per screen.
    expect(socket.connectCalls).toBe(2);
    socket.serverConnects();
    expect(selectConnectionState(first.getSnapshot())).toBe('connected');
    expect(socket.sentOf('join_game').map((p) => p.game_id).sort()).toEqual([7, 7, 8, 8]);
  });

  it('closes the socket once no lease is left for the grace time, and opens the same socket for the next lease', async () => {
    vi.useFakeTimers();
    const { socket, load, tab } = hub(1000);
    const lease = tab.lease();
    lease.connect();
    await vi.waitFor(() => expect(socket.connectCalls).toBe(1));
    socket.serverConnects();
    lease.disconnect();
    vi.advanceTimersByTime(999);
    expect(socket.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.closed).toBe(true);
    tab.lease().connect();
    expect(socket.connectCalls).toBe(2);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a socket client that fails to load is a connect_error with no retry of its own; connecting again loads again', async () => {
    const socket = new FakeSocket();
    socket.active = false;
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk failed')).mockResolvedValue(socket);
    const tab = createSocketHub(load);
    const actor = createActor(liveGameMachine.provide({ actors: { socket: gameSocketActor(() => tab.lease()) } }), { input: { gameId: 2 } });
    actors.push(actor);
    actor.start();
    await vi.waitFor(() => expect(selectConnectionState(actor.getSnapshot())).toBe('disconnected'));
    actor.send({ type: 'connection.retry' });
    await flush();
    expect(load).toHaveBeenCalledTimes(2);
    socket.serverConnects();
    expect(selectConnectionState(actor.getSnapshot())).toBe('connected');
  });

  it('a feed opened on the tab socket already connected joins its room at once, and leaves it when it stops', async () => {
    const { socket, tab } = hub();
    const game = screen(tab, 4);
    await vi.waitFor(() => expect(socket.connectCalls).toBe(1));
    socket.serverConnects();
    expect(selectConnectionState(game.getSnapshot())).toBe('connected');
    const draft = createActor(draftFeedActor(6, () => tab.lease()));
    draft.start();
    expect(socket.sentOf('join_draft')).toEqual([{ event_id: 6 }]);
    draft.stop();
    expect(socket.sentOf('leave_draft')).toEqual([{ event_id: 6 }]);
    expect(socket.count('draft_state')).toBe(0);
    expect(selectConnectionState(game.getSnapshot())).toBe('connected');
  });
});
