import type { ClientToServerEvents } from '../../contract/socket';
import { ActionRefused, applyRevert, applyRoll } from '../games/play';
import { joinGame, leaveGame, queuedMove, requestRelief, tasksReordered } from '../games/socket';
import { draftPick, joinDraft, leaveDraft } from '../draft/socket';
import { joinReviews } from '../submissions/socket';
import { DATABASE_AWAY, isDatabaseUnreachable } from '../db/unreachable';
import { log } from '../observability/log';
import type { InFlight } from '../lifecycle/shutdown';
import { noteArrival, type HandlerContext } from './handlerContext';
import { limitedListener, stopBrake, type LimitClass } from './limits';
import type { IoSocket } from './types';

/** Answer to a handler failure that is not the client's fault (database down): never a crash. */
const SERVER_TROUBLE = 'The server could not handle that request. Please try again.';

/** The game and team ids a payload names, for log lines (numbers only; nothing else of it is logged). */
function idsOf(raw: unknown): { game_id?: number; team_id?: number } {
  if (typeof raw !== 'object' || raw === null) return {};
  const { game_id, team_id } = raw as { game_id?: unknown; team_id?: unknown };
  return { ...(typeof game_id === 'number' ? { game_id } : {}), ...(typeof team_id === 'number' ? { team_id } : {}) };
}

/**
 * Runs an event handler: its refusals (ActionRefused) and any unexpected failure become one
 * `action_error` to this socket only, never an unhandled rejection. Refusals are logged at info
 * (event, ids, the text the sender got), failures at error (docs/server.md §14). The handler
 * counts in `work` until it has settled, so a shutdown waits for it.
 */
function guarded(work: InFlight, socket: IoSocket, event: string, raw: unknown, handler: () => Promise<void>): void {
  const done = work.begin();
  handler().catch((err: unknown) => {
    if (err instanceof ActionRefused) {
      log.info({ event, ...idsOf(raw), user_id: socket.data.userId, refused: err.message }, `${event} refused`);
      socket.emit('action_error', { message: err.message });
      return;
    }
    log.error({ err, event, ...idsOf(raw), user_id: socket.data.userId }, `[realtime] ${event} failed`);
    // The database away (docs/server.md §14 "Faults"): say so, and that nothing was changed.
    socket.emit('action_error', { message: isDatabaseUnreachable(err) ? DATABASE_AWAY : SERVER_TROUBLE });
  }).finally(done);
}

/** A client event's work (run behind guarded, once the socket's limits let it through). */
type EventHandler = (ctx: HandlerContext, socket: IoSocket, raw: unknown, ack?: (answer: unknown) => void) => Promise<void>;

/** One client event: the limit class it counts in (docs/server.md §8) and its handler. */
interface ClientEvent {
  limit: LimitClass;
  handler: EventHandler;
}

/**
 * The client events of docs/server.md §6, each with its limit class (docs/server.md §8: every
 * client event is limited) and its handler, which lives beside its resource (games/socket.ts,
 * draft/socket.ts, submissions/socket.ts). Typed against the contract's ClientToServerEvents: an
 * event added there without an entry here, or an entry without a limit class, does not compile.
 */
const EVENTS = {
  join_game: { limit: 'fullGame', handler: joinGame },
  leave_game: { limit: 'room', handler: leaveGame },
  roll_dice: { limit: 'action', handler: (ctx, socket, raw) => queuedMove(ctx, socket, 'roll_dice', raw, applyRoll) },
  revert_roll: { limit: 'action', handler: (ctx, socket, raw) => queuedMove(ctx, socket, 'revert_roll', raw, applyRevert) },
  request_relief: { limit: 'action', handler: requestRelief },
  tasks_reordered: { limit: 'fullGame', handler: tasksReordered },
  join_reviews: { limit: 'room', handler: joinReviews },
  join_draft: { limit: 'room', handler: joinDraft },
  leave_draft: { limit: 'room', handler: leaveDraft },
  draft_pick: { limit: 'action', handler: draftPick },
} satisfies Record<keyof ClientToServerEvents, ClientEvent>;

/** A listener as Socket.IO calls it: the socket as `this`, the payload, and an acknowledgement when the client asked for one. */
type Listener = (this: IoSocket, raw: unknown, ack?: unknown) => void;

/**
 * The listener of `event` for every socket of `ctx` (one function per event and context, not per
 * socket): the limits of the event's class (limits.ts limitedListener), then the handler behind
 * guarded. An `action` event's arrival is noted first, so a roll's broadcast time counts from
 * when it was read (handlerContext.ts noteArrival).
 */
function listenerOf(ctx: HandlerContext, event: keyof ClientToServerEvents): Listener {
  const { limit, handler }: ClientEvent = EVENTS[event];
  const limited = limitedListener(ctx.limits, ctx.work, limit, (socket, raw, ack) =>
    guarded(ctx.work, socket, event, raw, () => handler(ctx, socket, raw, typeof ack === 'function' ? (ack as (answer: unknown) => void) : undefined)),
  );
  if (limit !== 'action') return limited;
  return function (this: IoSocket, raw, ack) {
    noteArrival(raw);
    limited.call(this, raw, ack);
  };
}

/** Each context's listener of every client event (listenerOf), made once. */
const listenersByContext = new WeakMap<HandlerContext, Record<keyof ClientToServerEvents, Listener>>();

/** The client events, in EVENTS's order. */
const EVENT_NAMES = Object.keys(EVENTS) as (keyof ClientToServerEvents)[];

/**
 * Registers the client events of docs/server.md §6 on one socket (EVENTS), every one behind the
 * limits of its class (docs/server.md §8), checked before any work is done:
 * - `action` (roll_dice/revert_roll/request_relief/draft_pick) and `room` (join_draft/leave_draft/
 *   join_reviews/leave_game): each class `actionsPerSocket`/`roomsPerSocket` a second on this
 *   socket (5), then `actionsPerUser`/`roomsPerUser` a second for the signed-in user over all
 *   sockets and processes (10);
 * - `fullGame` (join_game/tasks_reordered, each answered with the whole game): `fullGamePerSocket`
 *   a second per socket, `fullGamePerAddress` per client address, and `fullGamePerUser` for a
 *   signed-in user (socketLimits).
 * An event past a limit is dropped (nothing queued) and the socket is told 'Too many requests.
 * Slow down.' at most once a second; a socket that keeps flooding is read in slices (FloodBrake).
 * The listeners are the context's, shared by every socket (listenerOf). An event is work in
 * flight (ctx.work, which a shutdown waits for) from the moment it is read, the shared limit's
 * answer included.
 */
export function registerHandlers(ctx: HandlerContext, socket: IoSocket): void {
  let listeners = listenersByContext.get(ctx);
  if (!listeners) {
    listeners = Object.fromEntries(EVENT_NAMES.map((event) => [event, listenerOf(ctx, event)])) as Record<keyof ClientToServerEvents, Listener>;
    listenersByContext.set(ctx, listeners);
  }
  socket.on('disconnect', stopBrake);
  for (const event of EVENT_NAMES) socket.on(event, listeners[event]);
}
