import { describe, it, expect } from 'vitest';
import { registerHandlers } from '../../server/realtime/handlers';
import type { HandlerContext } from '../../server/realtime/handlerContext';
import { InFlight } from '../../server/lifecycle/shutdown';
import type { IoSocket } from '../../server/realtime/types';

/**
 * A roll is work in flight (docs/server.md §14: a shutdown waits for it) from the moment its
 * socket reads it, while the shared per-user limit (Redis across processes, docs/server.md §8)
 * is still answering: otherwise a roll read just before SIGTERM could be dropped unanswered.
 */

/** A shared limit whose answers the test gives, one per call, in order. */
function heldLimits() {
  const answers: ((ok: boolean) => void)[] = [];
  const limits = {
    limits: { actionsPerSocket: 5, actionsPerUser: 10, fullGamePerSocket: 5, fullGamePerUser: 10, fullGamePerAddress: 30, roomsPerSocket: 5, roomsPerUser: 10 },
    userEvent: () => new Promise<boolean>((resolve) => answers.push(resolve)),
    addressFullGame: () => new Promise<boolean>((resolve) => answers.push(resolve)),
  };
  return { limits, answers };
}

/** A socket stand-in: the listeners registerHandlers adds, the data of a signed-in user, what it was sent. */
function fakeSocket() {
  const listeners = new Map<string, ((this: unknown, ...args: unknown[]) => void)[]>();
  const sent: { event: string; payload: unknown }[] = [];
  const socket = {
    data: { userId: 7, sessionId: null, address: '192.0.2.1' },
    conn: { transport: null },
    on(event: string, fn: (this: unknown, ...args: unknown[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
      return socket;
    },
    emit(event: string, payload: unknown) {
      sent.push({ event, payload });
      return true;
    },
  };
  const receive = (event: string, payload: unknown) => {
    for (const fn of listeners.get(event) ?? []) fn.call(socket, payload);
  };
  return { socket, sent, receive };
}

/** registerHandlers on a fake socket with held limits: the work counter, the limit's answers, what the socket was sent, and a way to send it an event. */
function registered() {
  const work = new InFlight();
  const { limits, answers } = heldLimits();
  const ctx = { limits, work } as unknown as HandlerContext;
  const { socket, sent, receive } = fakeSocket();
  registerHandlers(ctx, socket as unknown as IoSocket);
  return { work, answers, sent, receive };
}

/** Resolves once pending promise callbacks have run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('socket events are work in flight from the moment they are read', () => {
  it('a roll waiting on the shared per-user limit keeps the shutdown waiting, then runs', async () => {
    const { work, answers, sent, receive } = registered();
    // A payload the handler refuses without a database: it still has to run to be answered.
    receive('roll_dice', { game_id: 'not a number' });
    expect(answers).toHaveLength(1);
    expect(work.size).toBe(1);
    let idle = false;
    void work.idle().then(() => (idle = true));
    await settle();
    expect(idle).toBe(false);
    answers[0](true);
    await settle();
    expect(idle).toBe(true);
    expect(sent).toEqual([{ event: 'action_error', payload: { message: expect.stringMatching(/^Invalid roll_dice payload/) } }]);
  });

  it('a roll the shared limit refuses ends its work with the refusal', async () => {
    const { work, answers, sent, receive } = registered();
    receive('roll_dice', { game_id: 1, team_id: 2, performer_ign_id: 3 });
    expect(work.size).toBe(1);
    answers[0](false);
    await settle();
    expect(work.size).toBe(0);
    expect(sent).toEqual([{ event: 'action_error', payload: { message: 'Too many requests. Slow down.' } }]);
  });

  it('a join waiting on the per-user and per-address limits counts too', async () => {
    const { work, answers, receive } = registered();
    receive('join_game', { game_id: 'x' });
    expect(work.size).toBe(1);
    expect(answers).toHaveLength(2);
    answers[0](true);
    await settle();
    expect(work.size).toBe(1);
    answers[1](false);
    await settle();
    expect(work.size).toBe(0);
  });
});
