import { afterEach, describe, expect, it } from 'vitest';
import { createActor, type Actor } from 'xstate';
import { liveGameMachine } from '../../machines/liveGame.machine';
import { selectConnectionState } from '../../machines/liveGame.selectors';
import { SERVER_RESTARTING_MESSAGE } from '../../contract/socket';
import { gameSocketActor, reconnectAcrossRestarts } from '../../src/realtime/gameSocket';
import { FakeSocket } from '../support/fakeSocket';

/**
 * A server restart as the game screen's socket lives it (docs/server.md §14): the process says
 * `server_restarting`, then the connection drops. The screen shows Reconnecting…, the socket comes
 * back without a reload (also when the server ended the socket itself, which socket.io-client
 * does not retry on its own) and joins the game again, which brings the full state.
 */

let actors: Actor<typeof liveGameMachine>[] = [];
afterEach(() => {
  actors.forEach((a) => a.stop());
  actors = [];
});

function connected() {
  const socket = new FakeSocket();
  const actor = createActor(liveGameMachine.provide({ actors: { socket: gameSocketActor(() => socket) } }), { input: { gameId: 7 } });
  actors.push(actor);
  actor.start();
  socket.serverConnects();
  expect(selectConnectionState(actor.getSnapshot())).toBe('connected');
  return { socket, actor, state: () => selectConnectionState(actor.getSnapshot()) };
}

describe('a server restart on the game screen', () => {
  it('closed transport after server_restarting: Reconnecting…, then live again and joined again', () => {
    const { socket, state } = connected();
    socket.serverSends('server_restarting', { message: SERVER_RESTARTING_MESSAGE });
    socket.drop('transport close');
    expect(state()).toBe('reconnecting');
    // socket.io-client retries a closed transport by itself: no extra connect from the page.
    expect(socket.connectCalls).toBe(0);
    socket.serverConnects();
    expect(state()).toBe('connected');
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 7, compact: true }, { game_id: 7, compact: true }]);
  });

  it('server-ended socket after server_restarting: Reconnecting…, the page opens it again, joined again', () => {
    const { socket, state } = connected();
    socket.serverSends('server_restarting', { message: SERVER_RESTARTING_MESSAGE });
    socket.drop('io server disconnect', true);
    expect(state()).toBe('reconnecting');
    expect(socket.connectCalls).toBe(1);
    socket.serverConnects();
    expect(state()).toBe('connected');
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 7, compact: true }, { game_id: 7, compact: true }]);
  });

  it('a server-ended socket without server_restarting (a logout) stays Offline until a retry', () => {
    const { socket, state } = connected();
    socket.drop('io server disconnect', true);
    expect(state()).toBe('disconnected');
    expect(socket.connectCalls).toBe(0);
  });

  it('a restart notice is forgotten once connected again: a later server-ended socket stays Offline', () => {
    const { socket, state } = connected();
    socket.serverSends('server_restarting', { message: SERVER_RESTARTING_MESSAGE });
    socket.drop('io server disconnect', true);
    socket.serverConnects();
    socket.drop('io server disconnect', true);
    expect(state()).toBe('disconnected');
    expect(socket.connectCalls).toBe(1);
  });

  it('a malformed notice is ignored', () => {
    const socket = new FakeSocket();
    const seen: [string, boolean][] = [];
    const detach = reconnectAcrossRestarts(socket, (reason, again) => seen.push([reason, again]));
    socket.serverConnects();
    socket.serverSends('server_restarting', 'soon');
    socket.drop('io server disconnect', true);
    expect(seen).toEqual([['io server disconnect', false]]);
    expect(socket.connectCalls).toBe(0);
    detach();
    expect(socket.count('disconnect')).toBe(0);
  });
});
