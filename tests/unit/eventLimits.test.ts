import { describe, it, expect } from 'vitest';
import { registerHandlers } from '../../server/realtime/handlers';
import type { HandlerContext } from '../../server/realtime/handlerContext';
import { SharedLimits, socketLimits } from '../../server/realtime/limits';
import { InFlight } from '../../server/lifecycle/shutdown';
import { loadConfig } from '../../server/config';
import type { IoSocket } from '../../server/realtime/types';
import type { ClientToServerEvents } from '../../contract/socket';

/**
 * docs/server.md §8: every event a client sends over the socket is limited like rolls, at most
 * 5 a second per socket and 10 per signed-in user, then one 'Too many requests. Slow down.' a
 * second. Each event is sent with a payload its handler refuses before any database work
 * ('Invalid {event} payload: ...'), so every event that got past the limits answers once.
 */

const TOO_MANY = 'Too many requests. Slow down.';

/**
 * Every client event of the contract. Typed against ClientToServerEvents, so an event added to
 * the contract does not compile here until it is listed, and is then checked to be limited.
 */
const CLIENT_EVENTS = {
  join_game: true,
  leave_game: true,
  roll_dice: true,
  revert_roll: true,
  request_relief: true,
  tasks_reordered: true,
  join_reviews: true,
  join_draft: true,
  leave_draft: true,
  draft_pick: true,
} satisfies Record<keyof ClientToServerEvents, true>;
const EVENT_NAMES = Object.keys(CLIENT_EVENTS) as (keyof ClientToServerEvents)[];

/** A socket stand-in: the listeners registerHandlers adds, the socket's user, the action_error texts it was sent. */
function fakeSocket(userId: number | null, address = '192.0.2.1') {
  const listeners = new Map<string, ((this: unknown, ...args: unknown[]) => void)[]>();
  const errors: string[] = [];
  const socket = {
    data: { userId, sessionId: null, address },
    conn: { transport: null },
    on(event: string, fn: (this: unknown, ...args: unknown[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
      return socket;
    },
    emit(event: string, payload: { message: string }) {
      if (event === 'action_error') errors.push(payload.message);
      return true;
    },
  };
  /** Sends `event` with a payload every handler refuses as invalid (a bare number). */
  const send = (event: string) => {
    for (const fn of listeners.get(event) ?? []) fn.call(socket, 0);
  };
  return { socket, errors, send };
}

/** A handler context with the default limits of the configuration, in memory (no Redis). */
function context(): HandlerContext {
  const limits = new SharedLimits(socketLimits(loadConfig({})), null, 'test');
  return { limits, work: new InFlight() } as unknown as HandlerContext;
}

/** A socket of `userId` registered on `ctx`. */
function registered(ctx: HandlerContext, userId: number | null) {
  const s = fakeSocket(userId);
  registerHandlers(ctx, s.socket as unknown as IoSocket);
  return s;
}

/** The answers of events that got past the limits (their handlers' refusals of the bad payload). */
const handled = (errors: string[], event: string) => errors.filter((m) => m.startsWith(`Invalid ${event} payload`)).length;

describe('every client event is limited (docs/server.md §8)', () => {
  for (const event of EVENT_NAMES) {
    for (const who of ['a signed-in user', 'a spectator'] as const) {
      it(`${event} from ${who}: 7 at once from one socket, 5 handled and one 'Too many requests'`, async () => {
        const ctx = context();
        const s = registered(ctx, who === 'a signed-in user' ? 7 : null);
        for (let i = 0; i < 7; i += 1) s.send(event);
        await ctx.work.idle();
        expect(handled(s.errors, event)).toBe(5);
        expect(s.errors.filter((m) => m === TOO_MANY)).toHaveLength(1);
        expect(s.errors).toHaveLength(6);
      });
    }

    it(`${event}: one user's three sockets, 5 each at once, 10 handled over all of them`, async () => {
      const ctx = context();
      const sockets = [registered(ctx, 7), registered(ctx, 7), registered(ctx, 7)];
      for (const s of sockets) for (let i = 0; i < 5; i += 1) s.send(event);
      await ctx.work.idle();
      const all = sockets.flatMap((s) => s.errors);
      expect(handled(all, event)).toBe(10);
      expect(all.filter((m) => m === TOO_MANY).length).toBeGreaterThanOrEqual(1);
      // Another user is not held back by the first one's count.
      const other = registered(ctx, 8);
      other.send(event);
      await ctx.work.idle();
      expect(other.errors).toEqual([expect.stringMatching(new RegExp(`^Invalid ${event} payload`))]);
    });
  }

  it('a join and a roll count in different classes: a socket at its join limit may still roll', async () => {
    const ctx = context();
    const s = registered(ctx, 7);
    for (let i = 0; i < 5; i += 1) s.send('join_game');
    for (let i = 0; i < 5; i += 1) s.send('roll_dice');
    for (let i = 0; i < 5; i += 1) s.send('join_draft');
    await ctx.work.idle();
    expect([handled(s.errors, 'join_game'), handled(s.errors, 'roll_dice'), handled(s.errors, 'join_draft')]).toEqual([5, 5, 5]);
    expect(s.errors).not.toContain(TOO_MANY);
  });
});
