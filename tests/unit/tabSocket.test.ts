import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, type Actor } from 'xstate';
import { liveGameMachine } from '../../machines/liveGame.machine';
import { selectConnectionState } from '../../machines/liveGame.selectors';
import { gameSocketActor } from '../../src/realtime/gameSocket';
import { FakeSocket } from '../support/fakeSocket';

/** Every socket.io-client `io()` call of the page, each a new FakeSocket not connecting yet. */
const made = vi.hoisted(() => [] as unknown[]);
vi.mock('socket.io-client', async () => {
  const { FakeSocket: Fake } = await import('../support/fakeSocket');
  return {
    io: vi.fn(() => {
      const socket = new Fake();
      socket.active = false;
      made.push(socket);
      return socket;
    }),
  };
});

let actors: Actor<typeof liveGameMachine>[] = [];
afterEach(() => {
  actors.forEach((a) => a.stop());
  actors = [];
});

/** A game screen's liveGame chart with the app's own socket (openGameSocket, the default). */
function screen(gameId: number) {
  const actor = createActor(liveGameMachine.provide({ actors: { socket: gameSocketActor() } }), { input: { gameId } });
  actors.push(actor);
  actor.start();
  return actor;
}

describe("the tab's one socket (docs/architecture.md §4)", () => {
  it('two screens on the same game make one connection, and the room is left only when the last screen closes', async () => {
    const first = screen(7);
    const second = screen(7);
    await vi.waitFor(() => expect((made[0] as FakeSocket | undefined)?.connectCalls).toBe(1));
    expect(made).toHaveLength(1);
    const socket = made[0] as FakeSocket;
    socket.serverConnects();
    expect(selectConnectionState(first.getSnapshot())).toBe('connected');
    expect(selectConnectionState(second.getSnapshot())).toBe('connected');
    first.stop();
    expect(socket.sentOf('leave_game')).toEqual([]);
    expect(socket.closed).toBe(false);
    second.stop();
    expect(socket.sentOf('leave_game')).toEqual([{ game_id: 7 }]);
    expect(made).toHaveLength(1);
  });
});
