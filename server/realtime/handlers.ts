import * as v from 'valibot';
import type { Deps } from '../http/context';
import { findSession } from '../auth/sessions';
import { GAME_NOT_FOUND } from '../games/repository';
import { loadGame, toPublicGame } from '../games/service';
import { randomSource } from '../games/randomSource';
import { isManagerRole, type ClanRole } from '../../contract/user';
import { firstIssueMessage } from '../../contract/common';
import { JoinGameSchema, TasksReorderedInSchema, TeamActionSchema } from '../../contract/socket';
import { ActionRefused, applyTeamAction, PLAY_MESSAGES } from './play';
import type { KeyedQueue } from './queue';
import type { RoomBroadcaster } from './broadcast';
import { membersRoom, publicRoom, type IoSocket } from './types';

/** What the handlers share: the app's dependencies, the broadcaster and the per-game queue. */
export interface HandlerContext {
  deps: Deps;
  rooms: RoomBroadcaster;
  queue: KeyedQueue;
}

/** Refusal of a client-sent tasks_reordered by a non-manager (product-spec section 6). */
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
 * Wraps an event handler: its refusals (ActionRefused) and any unexpected failure become one
 * `action_error` to this socket only, never an unhandled rejection.
 */
function guarded(socket: IoSocket, event: string, handler: (raw: unknown) => Promise<void>): (raw: unknown) => void {
  return (raw: unknown) => {
    handler(raw).catch((err: unknown) => {
      if (err instanceof ActionRefused) {
        socket.emit('action_error', { message: err.message });
        return;
      }
      console.error(`[realtime] ${event} failed`, err);
      socket.emit('action_error', { message: SERVER_TROUBLE });
    });
  };
}

/**
 * join_game {game_id} (server-contract section 5): 'Game not found.' for a missing game, and for
 * a PENDING game asked for by someone outside its clan (it is not public yet, as
 * GET /api/public/game answers). Members of the game's clan (any role) join `game:<id>:members`,
 * everyone else `game:<id>` (no sign-in needed); the socket then gets the full game, to itself
 * only: the members shape with the viewer's own user_teams, or the public shape. Joining first
 * and reading after means no change committed meanwhile is missed.
 */
async function joinGame(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { game_id: gameId } = parsePayload(JoinGameSchema, 'join_game', raw);
  const game = await ctx.deps.db.selectFrom('games').select(['id', 'clan_id', 'status']).where('id', '=', gameId).executeTakeFirst();
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const userId = await currentUser(ctx, socket);
  const member = (await clanRole(ctx, game.clan_id, userId)) !== null;
  if (!member && game.status === 'PENDING') throw new ActionRefused(GAME_NOT_FOUND);
  if (member) {
    await socket.leave(publicRoom(gameId));
    await socket.join(membersRoom(gameId));
  } else {
    await socket.leave(membersRoom(gameId));
    await socket.join(publicRoom(gameId));
  }
  const full = await loadGame(ctx.deps.db, gameId, member ? userId : null);
  socket.emit('game_state_update', { game_state: member ? full : toPublicGame(full) });
}

/** leave_game {game_id}: leaves both rooms of the game. */
async function leaveGame(socket: IoSocket, raw: unknown): Promise<void> {
  const { game_id: gameId } = parsePayload(JoinGameSchema, 'leave_game', raw);
  await socket.leave(publicRoom(gameId));
  await socket.leave(membersRoom(gameId));
}

/**
 * roll_dice / revert_roll {game_id, team_id, performer_ign_id} (server-contract sections 4-5):
 * 'You must be signed in to play.' without a live session; otherwise applyTeamAction inside the
 * game's queue, then — after COMMIT — one `game_state_update` progress per audience and a
 * `new_log_entry` per written entry. Refusals go to this socket only and change nothing.
 */
async function teamAction(ctx: HandlerContext, socket: IoSocket, kind: 'roll' | 'revert', raw: unknown): Promise<void> {
  const action = parsePayload(TeamActionSchema, kind === 'roll' ? 'roll_dice' : 'revert_roll', raw);
  const userId = await currentUser(ctx, socket);
  if (userId === null) throw new ActionRefused(PLAY_MESSAGES.signIn);
  const { db, dialect, config } = ctx.deps;
  await ctx.queue.run(action.game_id, async () => {
    const applied = await applyTeamAction(db, dialect, randomSource(config), kind, action, userId);
    ctx.rooms.progress(applied.progress);
    ctx.rooms.log(action.game_id, applied.log);
  });
}

/**
 * tasks_reordered {game_id, message} from a manager's screen after a swap (server-contract
 * section 5): 'Game not found.' for a missing game, the permission text unless the sender is an
 * Owner or Admin of the game's clan; then `tasks_reordered` with the stored board to both rooms.
 */
async function tasksReordered(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { game_id: gameId } = parsePayload(TasksReorderedInSchema, 'tasks_reordered', raw);
  const game = await ctx.deps.db.selectFrom('games').select(['id', 'clan_id']).where('id', '=', gameId).executeTakeFirst();
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const role = await clanRole(ctx, game.clan_id, await currentUser(ctx, socket));
  if (role === null || !isManagerRole(role)) throw new ActionRefused(PERMISSION_TEXT);
  await ctx.rooms.tasksReordered(gameId);
}

/**
 * Most join_game and tasks_reordered events one socket may send per second: each makes the
 * server read and send the whole game (33-50 KB), so a flood of them is refused with one
 * `action_error` per window (server-contract intro: 429 "too many requests"). Rolls and reverts
 * are not limited: they are permission-checked and applied one at a time per game anyway.
 */
export const FULL_GAME_EVENTS_PER_SECOND = 30;
const TOO_MANY = 'Too many requests. Please slow down.';
const LIMITED = new Set(['join_game', 'tasks_reordered']);

/**
 * Registers the client events of server-contract section 5 on one socket, with the
 * FULL_GAME_EVENTS_PER_SECOND limit (a fixed one-second window kept on the socket itself, so
 * nothing outlives it or depends on which process holds it).
 */
export function registerHandlers(ctx: HandlerContext, socket: IoSocket): void {
  let windowStart = 0;
  let inWindow = 0;
  socket.use(([event], next) => {
    if (!LIMITED.has(String(event))) return next();
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      inWindow = 0;
    }
    inWindow += 1;
    if (inWindow > FULL_GAME_EVENTS_PER_SECOND) {
      if (inWindow === FULL_GAME_EVENTS_PER_SECOND + 1) socket.emit('action_error', { message: TOO_MANY });
      return;
    }
    next();
  });
  socket.on('join_game', guarded(socket, 'join_game', (raw) => joinGame(ctx, socket, raw)));
  socket.on('leave_game', guarded(socket, 'leave_game', (raw) => leaveGame(socket, raw)));
  socket.on('roll_dice', guarded(socket, 'roll_dice', (raw) => teamAction(ctx, socket, 'roll', raw)));
  socket.on('revert_roll', guarded(socket, 'revert_roll', (raw) => teamAction(ctx, socket, 'revert', raw)));
  socket.on('tasks_reordered', guarded(socket, 'tasks_reordered', (raw) => tasksReordered(ctx, socket, raw)));
}
