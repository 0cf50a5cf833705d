import * as v from 'valibot';
import type { LimitFunction } from 'p-limit';
import type { Deps } from '../http/context';
import { findSession } from '../auth/sessions';
import { memberRole } from '../clans/repository';
import { ActionRefused } from '../games/play';
import type { InFlight } from '../lifecycle/shutdown';
import { firstIssueMessage } from '../../contract/common';
import type { ClanRole } from '../../contract/user';
import type { Broadcaster } from './broadcaster';
import type { SharedLimits } from './limits';
import type { KeyedQueue } from './queue';
import type { IoSocket } from './types';

/**
 * What the socket event handlers share (docs/server.md §6): the app's dependencies, the
 * broadcaster, the per-game queue and the shared limits. The handlers live beside their resource
 * (games/socket.ts, draft/socket.ts, submissions/socket.ts); their table is realtime/handlers.ts.
 */
export interface HandlerContext {
  deps: Deps;
  broadcaster: Broadcaster;
  queue: KeyedQueue;
  limits: SharedLimits;
  /**
   * Runs the whole-game reads of join_game a few at a time (p-limit), so a join flood never holds
   * every database connection and rolls and HTTP calls of others keep theirs (docs/server.md
   * §8: within 1 s and 0.5 s).
   */
  fullGameReads: LimitFunction;
  /**
   * Runs the database work of join_draft and join_reviews a few at a time (p-limit): their rate is
   * limited per socket and user, but many users flooding at once would otherwise still take every
   * database connection from others' HTTP calls (docs/server.md §8: within 0.5 s).
   */
  roomJoinReads: LimitFunction;
  /** Every handler running (rolls waiting in the queue included): shutdown lets them finish (docs/server.md §14). */
  work: InFlight;
}

/** A payload checked with a contract schema; ActionRefused 'Invalid {event} payload: {reason}' otherwise. */
export function parsePayload<S extends v.GenericSchema>(schema: S, event: string, raw: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, raw);
  if (!result.success) throw new ActionRefused(`Invalid ${event} payload: ${firstIssueMessage(result.issues) || 'wrong shape.'}`);
  return result.output;
}

/**
 * The socket's signed-in user now: the handshake's session is looked up again (a logout or an
 * expiry since the connection counts at once); null for a spectator who is not signed in.
 */
export async function currentUser(ctx: HandlerContext, socket: IoSocket): Promise<number | null> {
  const sid = socket.data.sessionId;
  if (!sid) return null;
  const session = await findSession(ctx.deps.db, sid);
  if (!session) {
    socket.data.userId = null;
    socket.data.sessionId = null;
    return null;
  }
  socket.data.userId = session.userId;
  return session.userId;
}

/** The user's role in a clan, or null when signed out or not a member. */
export function clanRole(ctx: HandlerContext, clanId: number, userId: number | null): Promise<ClanRole | null> {
  return userId === null ? Promise.resolve(null) : memberRole(ctx.deps.db, clanId, userId);
}

/**
 * When each `action` event's payload (roll_dice, revert_roll ...) reached the server
 * (performance.now()), noted before the limits run, so game_roll_broadcast_seconds measures from
 * arrival (docs/server.md §14). Keyed by the payload object Socket.IO hands to the handler; a
 * payload that is not an object is refused before it could be measured.
 */
const arrivals = new WeakMap<object, number>();

/** Notes now as the arrival of `raw` (an object payload; anything else is not noted). */
export function noteArrival(raw: unknown): void {
  if (typeof raw === 'object' && raw !== null) arrivals.set(raw, performance.now());
}

/** When `raw` arrived (noteArrival), or now when it was not noted (performance.now() ms). */
export function arrivalOf(raw: unknown): number {
  return (typeof raw === 'object' && raw !== null ? arrivals.get(raw) : undefined) ?? performance.now();
}
