import type { Db } from '../db/schema';
import { hashSessionId } from '../auth/sessions';
import { clanOfGame, GAME_NOT_FOUND, listUserTeams } from './repository';
import { ActionRefused, precheckTeamAction, PLAY_MESSAGES, type AppliedAction, type applyRoll, type PrecheckedAction } from './play';
import { applyRelief, precheckRelief } from './relief';
import { noteArrival } from './progress';
import { isManagerRole } from '../../contract/user';
import { JoinGameSchema, TasksReorderedInSchema, TeamActionSchema, type TeamAction } from '../../contract/socket';
import { RequestReliefSchema } from '../../contract/game/relief';
import { arrivalOf, clanRole, currentUser, parsePayload, type HandlerContext } from '../realtime/handlerContext';
import { gameRooms, memberInGameRoom, membersRoom, publicRoom, type IoSocket } from '../realtime/types';
import { log, plainLog } from '../observability/log';
import { countRollBroadcast } from '../observability/metrics';

/** Refusal of a client-sent tasks_reordered by a non-manager (docs/game-rules.md §11). */
const PERMISSION_TEXT = 'Permission denied. You are not authorized to manage this clan.';

/**
 * join_game {game_id} (docs/server.md §6): 'Game not found.' for a missing game, and for
 * a PENDING game asked for by someone outside its clan (it is not public yet, as
 * GET /api/public/game answers). Members of the game's clan from Member up join
 * `game:<id>:members` (and their per-user room of it, memberInGameRoom); Guests and everyone
 * else `game:<id>` (no sign-in needed; docs/server.md §8 moves a user demoted to Guest
 * out of the members room too). The socket then gets the full game, to itself only
 * (`game_state_update` {game_state}): the members shape with the viewer's own user_teams, or the
 * public shape, both from the game cache (games/cache.ts: built once per version). Joining first
 * and reading after means no change committed meanwhile is missed.
 */
export async function joinGame(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
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
  // user_teams last, as loadGame's members shape and the members' HTTP answer (cache.ts membersAnswer) have it.
  const gameState = member ? { ...full.members, user_teams: await listUserTeams(ctx.deps.db, full.eventId, userId) } : full.public;
  if (socket.connected) socket.emit('game_state_update', { game_state: gameState });
}

/** Leaves every room of game `gameId`: both audiences and both flavours, and the per-user members rooms. */
async function leaveGameRooms(socket: IoSocket, gameId: number): Promise<void> {
  const userId = socket.data.userId;
  const rooms = [...gameRooms(gameId), ...(userId === null ? [] : [memberInGameRoom(gameId, userId), memberInGameRoom(gameId, userId, true)])];
  for (const room of rooms) if (socket.rooms.has(room)) await socket.leave(room);
}

/** leave_game {game_id}: leaves every room of the game (leaveGameRooms). */
export async function leaveGame(_ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
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
 * roll_dice (`apply` applyRoll) or revert_roll (applyRevert) {game_id, team_id,
 * performer_ign_id} (docs/server.md §5, §6, §8): 'You must be signed in to play.' without a live
 * session; the permission and status checks (precheckTeamAction) before the action waits in the
 * game's queue, so refusals never wait behind other actions; then `apply` inside the game's
 * queue, then — after COMMIT — `game_state_update` with the progress per audience and the log
 * entries (Broadcaster.gameStateUpdate), and the arrival hook (progress.ts noteArrival) when the
 * team arrived on a team-total square. Refusals go to this socket only and change nothing. Each
 * applied action is logged with its game, team and the game's new version; a roll is counted with
 * the time from its arrival to its broadcast (game_rolls_total, game_roll_broadcast_seconds;
 * docs/server.md §14).
 */
export async function queuedMove(ctx: HandlerContext, socket: IoSocket, event: 'roll_dice' | 'revert_roll', raw: unknown, apply: typeof applyRoll): Promise<void> {
  const arrivedAt = arrivalOf(raw);
  const action = parsePayload(TeamActionSchema, event, raw);
  const { db } = ctx.deps;
  const sid = socket.data.sessionId;
  const pre = await precheckOf(db, socket, event === 'roll_dice' ? 'roll' : 'revert', action, sid, sid === null ? '' : hashSessionId(sid));
  await playMove(ctx, event, action, pre, apply, arrivedAt);
}

/**
 * The one path of a prechecked roll or revert (`pre`, from precheckTeamAction or
 * precheckUserAction), shared by the socket's roll_dice / revert_roll and Discord's `/snl roll`
 * (docs/server.md §19): `apply` inside the game's queue, then — after COMMIT — the broadcasts, the
 * arrival hook, the roll's metric and log line, and the withdrawn submissions, as queuedMove
 * describes. Resolves with the applied action; rejects with ActionRefused as `apply` does.
 * `arrivedAt` (performance.now() at arrival) is counted for a roll when given.
 */
export function playMove(
  ctx: Pick<HandlerContext, 'deps' | 'broadcaster' | 'queue'>,
  event: 'roll_dice' | 'revert_roll',
  action: TeamAction,
  pre: PrecheckedAction,
  apply: typeof applyRoll,
  arrivedAt?: number,
): Promise<AppliedAction> {
  const { db, dialect } = ctx.deps;
  return ctx.queue.run(action.game_id, async () => {
    const applied = await apply(db, dialect, action, pre);
    ctx.broadcaster.gameStateUpdate(applied.progress, applied.log);
    noteArrival(applied.progress, action.team_id);
    if (event === 'roll_dice' && arrivedAt !== undefined) countRollBroadcast(arrivedAt);
    const line = { game_id: action.game_id, team_id: action.team_id, version: applied.progress.version, user_id: pre.userId, status: applied.progress.status };
    plainLog.info(line, event === 'roll_dice' ? 'roll applied' : 'revert applied');
    for (const id of applied.withdrawn) await ctx.broadcaster.submissionChanged(id);
    return applied;
  });
}

/**
 * request_relief {game_id, team_id} (docs/server.md §15; games/relief.ts): 'You must be signed
 * in to play.' without a live session; the Leader check before the request waits in the game's
 * queue; then applyRelief inside it and, after COMMIT, the progress and the log entry to every
 * audience like a roll. Refusals go to this socket only as `action_error`.
 */
export async function requestRelief(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const action = parsePayload(RequestReliefSchema, 'request_relief', raw);
  const userId = await currentUser(ctx, socket);
  if (userId === null) throw new ActionRefused(PLAY_MESSAGES.signIn);
  const { db, dialect } = ctx.deps;
  await precheckRelief(db, action, userId);
  await ctx.queue.run(action.game_id, async () => {
    const applied = await applyRelief(db, dialect, action, userId);
    ctx.broadcaster.gameStateUpdate(applied.progress, applied.log);
    noteArrival(applied.progress, action.team_id);
    log.info({ game_id: action.game_id, team_id: action.team_id, version: applied.progress.version, user_id: userId }, 'relief applied');
    for (const id of applied.withdrawn) await ctx.broadcaster.submissionChanged(id);
  });
}

/**
 * tasks_reordered {game_id, message} from a manager's screen after a swap (docs/server.md
 * §6): 'Game not found.' for a missing game, the permission text unless the sender is an
 * Owner or Admin of the game's clan; then `tasks_reordered` with the stored board to both rooms.
 */
export async function tasksReordered(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { game_id: gameId } = parsePayload(TasksReorderedInSchema, 'tasks_reordered', raw);
  const clanId = await clanOfGame(ctx.deps.db, gameId);
  if (clanId === null) throw new ActionRefused(GAME_NOT_FOUND);
  const role = await clanRole(ctx, clanId, await currentUser(ctx, socket));
  if (role === null || !isManagerRole(role)) throw new ActionRefused(PERMISSION_TEXT);
  await ctx.broadcaster.tasksReordered(gameId);
}
