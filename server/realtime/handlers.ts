import * as v from 'valibot';
import type { Deps } from '../http/context';
import type { Db } from '../db/schema';
import { findSession, hashSessionId } from '../auth/sessions';
import { GAME_NOT_FOUND, listUserTeams } from '../games/repository';
import { gameStatePacket, membersAnswer } from '../games/cache';
import { isManagerRole, type ClanRole } from '../../contract/user';
import { firstIssueMessage } from '../../contract/common';
import { JoinGameSchema, TasksReorderedInSchema, TeamActionSchema, type ClientToServerEvents, type TeamAction } from '../../contract/socket';
import { ActionRefused, applyTeamAction, precheckTeamAction, rememberedRoll, PLAY_MESSAGES, type AppliedAction, type PrecheckedAction } from '../games/play';
import type { PrecheckMemo } from '../games/precheckMemo';
import { applyRelief, precheckRelief } from '../games/relief';
import { RequestReliefSchema } from '../../contract/game/relief';
import { FloodBrake, SocketWindow, perSocketLimit, tellTooMany, type LimitClass, type SharedLimits } from './limits';
import type { LimitFunction } from 'p-limit';
import type { KeyedQueue } from './queue';
import type { Broadcaster } from './broadcaster';
import { draftRoom, gameRooms, managerInClanRoom, memberInGameRoom, membersRoom, publicRoom, type IoSocket } from './types';
import { JoinReviewsSchema, managersRoom, type JoinReviewsAnswer } from '../../contract/submission';
import { log, plainLog } from '../observability/log';
import { countRememberedRoll, countRollBroadcast } from '../observability/metrics';
import type { InFlight } from '../lifecycle/shutdown';
import { DRAFT_MESSAGES, DraftPickSchema, JoinDraftSchema } from '../../contract/draft';
import { loadDraftState } from '../draft/repository';
import { captainPick, draftChanged } from '../draft/service';
import { ApiError } from '../errors';
import { DATABASE_AWAY, isDatabaseUnreachable } from '../db/unreachable';

/** What the handlers share: the app's dependencies, the broadcaster, the per-game queue and the shared limits. */
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
  /** The rows of each game's last roll here, for the next roll (games/precheckMemo.ts); null: every roll takes the precheck. */
  precheckMemo: PrecheckMemo | null;
}

/** Refusal of a client-sent tasks_reordered by a non-manager (docs/game-rules.md §11). */
const PERMISSION_TEXT = 'Permission denied. You are not authorized to manage this clan.';
/** Answer to a handler failure that is not the client's fault (database down): never a crash. */
const SERVER_TROUBLE = 'The server could not handle that request. Please try again.';

/** A payload checked with a contract schema; ActionRefused 'Invalid {event} payload: {reason}' otherwise. */
function parsePayload<S extends v.GenericSchema>(schema: S, event: string, raw: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, raw);
  if (!result.success) throw new ActionRefused(`Invalid ${event} payload: ${firstIssueMessage(result.issues) || 'wrong shape.'}`);
  return result.output;
}

/**
 * The socket's signed-in user now: the handshake's session is looked up again (a logout or an
 * expiry since the connection counts at once); null for a spectator who is not signed in.
 */
async function currentUser(ctx: HandlerContext, socket: IoSocket): Promise<number | null> {
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

/** The user's role in a clan, or null when not a member. */
async function clanRole(ctx: HandlerContext, clanId: number, userId: number | null): Promise<ClanRole | null> {
  if (userId === null) return null;
  const row = await ctx.deps.db.selectFrom('clan_memberships').select('role').where('clan_id', '=', clanId).where('user_id', '=', userId).executeTakeFirst();
  return (row?.role as ClanRole | undefined) ?? null;
}

/**
 * When each roll_dice / revert_roll payload reached the server (performance.now()), noted by the
 * socket middleware before the limits run, so game_roll_broadcast_seconds measures from arrival
 * (docs/server.md §14). Keyed by the payload object Socket.IO hands to the handler; a payload
 * that is not an object is refused before it could be measured.
 */
const arrivals = new WeakMap<object, number>();

/** The game and team ids a payload names, for log lines (numbers only; nothing else of it is logged). */
function idsOf(raw: unknown): { game_id?: number; team_id?: number } {
  if (typeof raw !== 'object' || raw === null) return {};
  const { game_id, team_id } = raw as { game_id?: unknown; team_id?: unknown };
  return { ...(typeof game_id === 'number' ? { game_id } : {}), ...(typeof team_id === 'number' ? { team_id } : {}) };
}

/**
 * Wraps an event handler: its refusals (ActionRefused) and any unexpected failure become one
 * `action_error` to this socket only, never an unhandled rejection. Refusals are logged at info
 * (event, ids, the text the sender got), failures at error (docs/server.md §14). The handler
 * counts in `work` until it has settled, so a shutdown waits for it.
 */
function guarded(work: InFlight, socket: IoSocket, event: string, handler: (raw: unknown, ack?: (answer: unknown) => void) => Promise<void>): (raw: unknown, ack?: unknown) => void {
  return (raw: unknown, ack?: unknown) => {
    const done = work.begin();
    handler(raw, typeof ack === 'function' ? (ack as (answer: unknown) => void) : undefined).catch((err: unknown) => {
      if (err instanceof ActionRefused) {
        log.info({ event, ...idsOf(raw), user_id: socket.data.userId, refused: err.message }, `${event} refused`);
        socket.emit('action_error', { message: err.message });
        return;
      }
      log.error({ err, event, ...idsOf(raw), user_id: socket.data.userId }, `[realtime] ${event} failed`);
      // The database away (docs/server.md §14 "Faults"): say so, and that nothing was changed.
      socket.emit('action_error', { message: isDatabaseUnreachable(err) ? DATABASE_AWAY : SERVER_TROUBLE });
    }).finally(done);
  };
}

/**
 * join_game {game_id} (docs/server.md §6): 'Game not found.' for a missing game, and for
 * a PENDING game asked for by someone outside its clan (it is not public yet, as
 * GET /api/public/game answers). Members of the game's clan from Member up join
 * `game:<id>:members` (and their per-user room of it, memberInGameRoom); Guests and everyone
 * else `game:<id>` (no sign-in needed; docs/server.md §8 moves a user demoted to Guest
 * out of the members room too). The socket then gets the full game, to itself only: the members
 * shape with the viewer's own user_teams, or the public shape, from the game cache
 * (games/cache.ts; one encode per version for spectators). Joining first and reading after
 * means no change committed meanwhile is missed.
 */
async function joinGame(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { game_id: gameId, compact = false } = parsePayload(JoinGameSchema, 'join_game', raw);
  const cache = ctx.deps.gameCache;
  const cached = () => ctx.fullGameReads(() => cache.get(gameId));
  const game = await cached();
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const userId = await currentUser(ctx, socket);
  const role = await clanRole(ctx, game.clanId, userId);
  if (role === null && game.status === 'PENDING') throw new ActionRefused(GAME_NOT_FOUND);
  const member = role !== null && role !== 'Guest' && userId !== null;
  // Out of every room of this game first (an earlier join may have had the other audience or flavour).
  await leaveGameRooms(socket, gameId);
  if (member) await socket.join([membersRoom(gameId, compact), memberInGameRoom(gameId, userId, compact)]);
  else await socket.join(publicRoom(gameId, compact));
  // Read again now that the socket is in its room: a change committed meanwhile is in this read
  // or in a broadcast the socket receives after it.
  const full = await cached();
  if (!full) throw new ActionRefused(GAME_NOT_FOUND);
  const packet = member
    ? gameStatePacket(membersAnswer(full, await listUserTeams(ctx.deps.db, full.eventId, userId)).json)
    : full.publicJoinPacket;
  sendEncoded(socket, packet);
}

/**
 * Sends an already encoded Socket.IO packet (games/cache.ts gameStatePacket) to this socket
 * alone, as `socket.emit` would after encoding it: the game is serialised once per version, not
 * once per joining socket. Uses the client's `_packet` with `preEncoded`, the path Socket.IO's
 * own adapter takes for room broadcasts.
 */
function sendEncoded(socket: IoSocket, packet: string): void {
  if (!socket.connected) return;
  (socket.client as unknown as { _packet(packet: string[], opts: { preEncoded: boolean }): void })._packet([packet], { preEncoded: true });
}

/** Leaves every room of game `gameId`: both audiences and both flavours, and the per-user members rooms. */
async function leaveGameRooms(socket: IoSocket, gameId: number): Promise<void> {
  const userId = socket.data.userId;
  const rooms = [...gameRooms(gameId), ...(userId === null ? [] : [memberInGameRoom(gameId, userId), memberInGameRoom(gameId, userId, true)])];
  for (const room of rooms) if (socket.rooms.has(room)) await socket.leave(room);
}

/** leave_game {game_id}: leaves every room of the game (leaveGameRooms). */
async function leaveGame(socket: IoSocket, raw: unknown): Promise<void> {
  const { game_id: gameId } = parsePayload(JoinGameSchema, 'leave_game', raw);
  await leaveGameRooms(socket, gameId);
}

/**
 * The precheck of a roll or revert on `socket` (precheckTeamAction: the session looked up again
 * in its own statement, as currentUser would); `sid` is the session id the action came with
 * (null: none) and `sessionHash` its hash. Notes the user on the socket. Throws ActionRefused
 * 'You must be signed in to play.' without a live session, and forgets the socket's session then.
 */
async function precheckOf(db: Db, socket: IoSocket, kind: 'roll' | 'revert', action: TeamAction, sid: string | null, sessionHash: string): Promise<PrecheckedAction> {
  const pre = sid === null ? null : await precheckTeamAction(db, kind, action, sid, sessionHash);
  if (!pre) {
    socket.data.userId = null;
    socket.data.sessionId = null;
    throw new ActionRefused(PLAY_MESSAGES.signIn);
  }
  socket.data.userId = pre.userId;
  return pre;
}

/**
 * roll_dice / revert_roll {game_id, team_id, performer_ign_id} (docs/server.md §5, §6, §8):
 * 'You must be signed in to play.' without a live session; the permission and status checks
 * (precheckTeamAction) before the action waits in the game's queue, so refusals never wait
 * behind other actions; then applyTeamAction inside the game's queue, then — after COMMIT — one
 * `game_state_update` progress per audience and a `new_log_entry` per written entry. Refusals go
 * to this socket only and change nothing. Each applied action is logged with its game, team and
 * the game's new version; a roll is counted with the time from its arrival to its broadcast
 * (game_rolls_total, game_roll_broadcast_seconds; docs/server.md §14).
 */
async function teamAction(ctx: HandlerContext, socket: IoSocket, kind: 'roll' | 'revert', raw: unknown): Promise<void> {
  const arrivedAt = (typeof raw === 'object' && raw !== null ? arrivals.get(raw) : undefined) ?? performance.now();
  const action = parsePayload(TeamActionSchema, kind === 'roll' ? 'roll_dice' : 'revert_roll', raw);
  const { db, dialect } = ctx.deps;
  const sid = socket.data.sessionId;
  const memo = kind === 'roll' && sid !== null ? ctx.precheckMemo : null;
  // Hashed once for the remembered rows and the precheck alike.
  const sessionHash = sid === null ? '' : hashSessionId(sid);
  // A roll whose rows this process remembers skips the precheck (games/precheckMemo.ts); the rows
  // are recalled again in the queue, where the game's last roll has left them.
  const checked = memo?.recall(action, sessionHash) ? null : await precheckOf(db, socket, kind, action, sid, sessionHash);
  await ctx.queue.run(action.game_id, async () => {
    const generation = memo?.generationOf(action.game_id) ?? 0;
    let pre = checked;
    let applied: AppliedAction | null = null;
    if (!pre && memo) {
      const remembered = memo.recall(action, sessionHash);
      applied = remembered && (await rememberedRoll(db, dialect, action, remembered));
      if (applied && remembered) {
        pre = remembered;
        countRememberedRoll();
      }
    }
    if (!applied || !pre) {
      pre = pre ?? (await precheckOf(db, socket, kind, action, sid, sessionHash));
      try {
        applied = await applyTeamAction(db, dialect, kind, action, pre);
      } catch (err) {
        memo?.forget(action.game_id);
        throw err;
      }
    }
    ctx.broadcaster.actionApplied(applied.progress, applied.log);
    memo?.remember(action, pre, applied, generation);
    if (kind === 'roll') countRollBroadcast(arrivedAt);
    const line = { game_id: action.game_id, team_id: action.team_id, version: applied.progress.version, user_id: pre.userId, status: applied.progress.status };
    plainLog.info(line, kind === 'roll' ? 'roll applied' : 'revert applied');
    for (const id of applied.withdrawn) await ctx.broadcaster.submissionChanged(id);
  });
}

/**
 * request_relief {game_id, team_id} (docs/server.md §15; games/relief.ts): 'You must be signed
 * in to play.' without a live session; the Leader check before the request waits in the game's
 * queue; then applyRelief inside it and, after COMMIT, the progress and the log entry to every
 * audience like a roll. Refusals go to this socket only as `action_error`.
 */
async function requestRelief(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const action = parsePayload(RequestReliefSchema, 'request_relief', raw);
  const userId = await currentUser(ctx, socket);
  if (userId === null) throw new ActionRefused(PLAY_MESSAGES.signIn);
  const { db, dialect } = ctx.deps;
  await precheckRelief(db, action, userId);
  await ctx.queue.run(action.game_id, async () => {
    const applied = await applyRelief(db, dialect, action, userId);
    ctx.broadcaster.actionApplied(applied.progress, applied.log);
    log.info({ game_id: action.game_id, team_id: action.team_id, version: applied.progress.version, user_id: userId }, 'relief applied');
    for (const id of applied.withdrawn) await ctx.broadcaster.submissionChanged(id);
  });
}

/**
 * tasks_reordered {game_id, message} from a manager's screen after a swap (docs/server.md
 * §6): 'Game not found.' for a missing game, the permission text unless the sender is an
 * Owner or Admin of the game's clan; then `tasks_reordered` with the stored board to both rooms.
 */
async function tasksReordered(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { game_id: gameId } = parsePayload(TasksReorderedInSchema, 'tasks_reordered', raw);
  const game = await ctx.deps.db.selectFrom('games').select(['id', 'clan_id']).where('id', '=', gameId).executeTakeFirst();
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const role = await clanRole(ctx, game.clan_id, await currentUser(ctx, socket));
  if (role === null || !isManagerRole(role)) throw new ActionRefused(PERMISSION_TEXT);
  await ctx.broadcaster.tasksReordered(gameId);
}

/**
 * join_reviews {clan_id} (docs/server.md §9): a signed-in Owner or Admin of the clan joins
 * its managers room `clan:<id>:managers` (and their per-user room of it, managerInClanRoom, so a
 * demotion, kick or leave moves them out), where every submission_update of the clan's games
 * arrives. Anyone else joins nothing and is told nothing (the contract: joins nothing); a bad
 * payload gets `action_error`. A client that passes a Socket.IO acknowledgement gets
 * `{joined: boolean}` once the join is done, so it knows when updates start to arrive.
 */
async function joinReviews(ctx: HandlerContext, socket: IoSocket, raw: unknown, ack?: (answer: JoinReviewsAnswer) => void): Promise<void> {
  const { clan_id: clanId } = parsePayload(JoinReviewsSchema, 'join_reviews', raw);
  const joined = await ctx.roomJoinReads(async () => {
    const userId = await currentUser(ctx, socket);
    const role = await clanRole(ctx, clanId, userId);
    if (userId === null || role === null || !isManagerRole(role)) return false;
    await socket.join([managersRoom(clanId), managerInClanRoom(clanId, userId)]);
    return true;
  });
  ack?.({ joined });
}

/**
 * join_draft {event_id} (docs/server.md §16): a signed-in member of the event's clan (any role)
 * joins the draft room `draft:<id>` and is sent the current `draft_state` at once when the event
 * has a draft (and every change after). Refused as action_error: signed out, an unknown event
 * ('Event not found.', also for an event of a clan the user is not in).
 */
async function joinDraft(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { event_id: eventId } = parsePayload(JoinDraftSchema, 'join_draft', raw);
  await ctx.roomJoinReads(async () => {
    const userId = await currentUser(ctx, socket);
    if (userId === null) throw new ActionRefused(DRAFT_MESSAGES.signIn);
    const event = await ctx.deps.db.selectFrom('events').select('clan_id').where('id', '=', eventId).executeTakeFirst();
    if (!event || (await clanRole(ctx, event.clan_id, userId)) === null) throw new ActionRefused(DRAFT_MESSAGES.eventNotFound);
    await socket.join(draftRoom(eventId));
    // Read once the socket is in the room: a change committed meanwhile is in this read or in a broadcast after it.
    const state = await loadDraftState(ctx.deps.db, eventId);
    if (state) socket.emit('draft_state', state);
  });
}

/** leave_draft {event_id}: leaves the draft room. */
async function leaveDraft(socket: IoSocket, raw: unknown): Promise<void> {
  const { event_id: eventId } = parsePayload(JoinDraftSchema, 'leave_draft', raw);
  await socket.leave(draftRoom(eventId));
}

/**
 * draft_pick {event_id, signup_id} (docs/server.md §16; draft/service.ts captainPick): the
 * captain on the clock picks a free agent; then draft_state to the room. Anyone else's pick, a
 * pick of someone not in the pool, a paused or finished draft: action_error to the sender, and
 * nothing written.
 */
async function draftPick(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { event_id: eventId, signup_id: signupId } = parsePayload(DraftPickSchema, 'draft_pick', raw);
  const userId = await currentUser(ctx, socket);
  if (userId === null) throw new ActionRefused(DRAFT_MESSAGES.signIn);
  try {
    const outcome = await captainPick(ctx.deps, eventId, userId, signupId);
    await draftChanged(ctx.deps, eventId, outcome);
  } catch (err) {
    if (err instanceof ApiError) throw new ActionRefused(err.message);
    throw err;
  }
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
 * client event is limited) and its handler. Typed against the contract's ClientToServerEvents:
 * an event added there without an entry here, or an entry without a limit class, does not compile.
 */
const EVENTS = {
  join_game: { limit: 'fullGame', handler: (ctx, socket, raw) => joinGame(ctx, socket, raw) },
  leave_game: { limit: 'room', handler: (_ctx, socket, raw) => leaveGame(socket, raw) },
  roll_dice: { limit: 'action', handler: (ctx, socket, raw) => teamAction(ctx, socket, 'roll', raw) },
  revert_roll: { limit: 'action', handler: (ctx, socket, raw) => teamAction(ctx, socket, 'revert', raw) },
  request_relief: { limit: 'action', handler: (ctx, socket, raw) => requestRelief(ctx, socket, raw) },
  tasks_reordered: { limit: 'fullGame', handler: (ctx, socket, raw) => tasksReordered(ctx, socket, raw) },
  join_reviews: { limit: 'room', handler: (ctx, socket, raw, ack) => joinReviews(ctx, socket, raw, ack) },
  join_draft: { limit: 'room', handler: (ctx, socket, raw) => joinDraft(ctx, socket, raw) },
  leave_draft: { limit: 'room', handler: (_ctx, socket, raw) => leaveDraft(socket, raw) },
  draft_pick: { limit: 'action', handler: (ctx, socket, raw) => draftPick(ctx, socket, raw) },
} satisfies Record<keyof ClientToServerEvents, ClientEvent>;

/**
 * What the limits keep of one socket, each part made on its first use (most sockets only watch:
 * their join makes the full-game window, nothing else): the per-socket window of each limit
 * class, when it was last told 'Too many requests', and its FloodBrake.
 */
interface SocketLimitState extends Partial<Record<LimitClass, SocketWindow>> {
  told?: { lastAt: number };
  brake?: FloodBrake;
}

/** Each socket's SocketLimitState (gone with the socket). */
const limitStates = new WeakMap<IoSocket, SocketLimitState>();

/** The socket's SocketLimitState, made empty on first use. */
function limitStateOf(socket: IoSocket): SocketLimitState {
  let state = limitStates.get(socket);
  if (!state) {
    state = {};
    limitStates.set(socket, state);
  }
  return state;
}

/** An event past a limit: dropped, counted by the socket's FloodBrake, and the sender told at most once a second. */
function refuse(socket: IoSocket): void {
  const state = limitStateOf(socket);
  state.brake ??= new FloodBrake(() => socket.conn.transport);
  state.brake.drop();
  tellTooMany(socket, (state.told ??= { lastAt: 0 }));
}

/** Stops the socket's FloodBrake, if it has one (a 'disconnect' listener shared by every socket). */
function stopBrake(this: IoSocket): void {
  limitStates.get(this)?.brake?.stop();
}

/** True when both shared limits granted the event (both are counted either way). */
async function bothGranted(a: Promise<boolean>, b: Promise<boolean>): Promise<boolean> {
  const [first, second] = await Promise.all([a, b]);
  return first && second;
}

/**
 * The listener of `event` for every socket of `ctx` (one function per event and context, not per
 * socket: Socket.IO calls it with the socket as `this`): the limits of the event's class
 * (registerHandlers), then the handler behind guarded.
 */
function listenerOf(ctx: HandlerContext, event: string, { limit, handler }: ClientEvent): (this: IoSocket, raw: unknown, ack?: unknown) => void {
  const run = (socket: IoSocket, raw: unknown, ack?: unknown) => guarded(ctx.work, socket, event, (r, a) => handler(ctx, socket, r, a))(raw, ack);
  /** Runs the event once the shared limit's `answer` lets it through, else refuses it; work in flight while the limit answers (Redis), so a shutdown waits for it too. */
  const afterSharedLimit = (socket: IoSocket, answer: Promise<boolean>, raw: unknown, ack?: unknown) => {
    const done = ctx.work.begin();
    void answer.then((ok) => (ok ? run(socket, raw, ack) : refuse(socket))).finally(done);
  };
  const perSocket = perSocketLimit(ctx.limits.limits, limit);
  if (limit === 'fullGame') {
    return function (this: IoSocket, raw, ack) {
      const state = limitStateOf(this);
      if (!(state.fullGame ??= new SocketWindow(perSocket)).take()) return refuse(this);
      // Per address for everyone (spectators have no user), and per user for a signed-in one.
      const byAddress = ctx.limits.addressFullGame(this.data.address);
      const userId = this.data.userId;
      afterSharedLimit(this, userId === null ? byAddress : bothGranted(ctx.limits.userEvent('fullGame', userId), byAddress), raw, ack);
    };
  }
  const timed = limit === 'action';
  return function (this: IoSocket, raw, ack) {
    if (timed && typeof raw === 'object' && raw !== null) arrivals.set(raw, performance.now());
    const state = limitStateOf(this);
    if (!(state[limit] ??= new SocketWindow(perSocket)).take()) return refuse(this);
    const userId = this.data.userId;
    // Without a user the handler refuses (or, for a room, joins nothing) without the database.
    if (userId === null) return run(this, raw, ack);
    afterSharedLimit(this, ctx.limits.userEvent(limit, userId), raw, ack);
  };
}

/** Each context's listeners by event (listenerOf), made once. */
const listenersByContext = new WeakMap<HandlerContext, [string, (this: IoSocket, raw: unknown, ack?: unknown) => void][]>();

/**
 * Registers the client events of docs/server.md §6 on one socket, every one behind the limits
 * of its class (EVENTS; docs/server.md §8), checked before any work is done:
 * - `action` (roll_dice/revert_roll/request_relief/draft_pick) and `room` (join_draft/leave_draft/
 *   join_reviews/leave_game): each class `actionsPerSocket`/`roomsPerSocket` a second on this
 *   socket (5), then `actionsPerUser`/`roomsPerUser` a second for the signed-in user over all
 *   sockets and processes (10);
 * - `fullGame` (join_game/tasks_reordered, each answered with the whole game): `fullGamePerSocket`
 *   a second per socket, `fullGamePerAddress` per client address, and `fullGamePerUser` for a
 *   signed-in user (socketLimits).
 * An event past a limit is dropped (nothing queued) and the socket is told 'Too many requests.
 * Slow down.' at most once a second; a socket that keeps flooding is read in slices (FloodBrake).
 * The listeners are the context's, shared by every socket (listenerOf); a socket's own limit
 * state is made when it first sends an event. An event is work in flight (ctx.work, which
 * a shutdown waits for) from the moment it is read, the shared limit's answer included.
 */
export function registerHandlers(ctx: HandlerContext, socket: IoSocket): void {
  let listeners = listenersByContext.get(ctx);
  if (!listeners) {
    listeners = Object.entries(EVENTS).map(([event, entry]) => [event, listenerOf(ctx, event, entry)]);
    listenersByContext.set(ctx, listeners);
  }
  socket.on('disconnect', stopBrake);
  for (const [event, listener] of listeners) socket.on(event as 'join_game', listener as never);
}
