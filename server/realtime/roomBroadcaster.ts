import type { Db } from '../db/schema';
import { loadProgress } from '../games/service';
import type { CachedGame, GameCache } from '../games/cache';
import type { LogEntry } from '../../contract/gameApi';
import type { GameProgress, TeamUpdate } from '../../contract/socket';
import type { Broadcaster, GameChange } from './broadcaster';
import { hashSessionId } from '../auth/sessions';
import { draftRoom, gameRooms, managerInClanRoom, memberInGameRoom, membersRoom, publicRoom, sessionRoom, userRoom, type IoServer } from './types';
import { loadSubmission } from '../submissions/repository';
import { managersRoom } from '../../contract/submission';
import type { DinkPost } from '../../contract/dink';
import type { DraftState } from '../../contract/signup';
import { log } from '../observability/log';
import { countPendingRequests, loadDecidedRequest } from '../joins/repository';

/** A progress update as spectators get it: no revert counts (docs/server.md §3). */
function publicProgress(progress: GameProgress): GameProgress {
  return { ...progress, team_states: progress.team_states.map(({ revert_count: _reverts, ...state }) => state) };
}


/** Both flavours of a room: the documented sockets and the compact ones get the same message. */
const bothFlavours = (room: (gameId: number, compact?: boolean) => string, gameId: number): string[] => [room(gameId), room(gameId, true)];

/**
 * The one place that decides rooms (docs/architecture.md §5). Every change is serialised once per
 * audience and sent with one `io.to(room).emit` per audience (Socket.IO encodes a room broadcast
 * once for all its sockets; with the Redis adapter the same call reaches the rooms' sockets in
 * every process):
 * - members rooms `game:<id>:members`: the members shape without user_teams (revert counts included)
 * - public rooms `game:<id>`: the public shape (no revert counts)
 * Log entries are the same for both and go out in one emit to both rooms. After a roll, revert or
 * status change, compact sockets (the `:compact` rooms, docs/server.md §6) get one
 * `game_state_update` whose progress carries the change's log entries as `new_log_entries`
 * instead of the progress update and a `new_log_entry` each; every other message reaches both
 * flavours in one emit.
 * Without Redis, a progress update or log entry for a room no socket is in is skipped (`to`).
 * Full games come from the game cache (games/cache.ts), built once per version for both rooms,
 * HTTP and join_game; every change first invalidates the game's cached entry (in every process:
 * the cache forwards it), and then sends.
 */
export class RoomBroadcaster implements Broadcaster {
  /**
   * `localOnly`: this process's adapter is Socket.IO's in-memory one (no Redis), so its rooms are
   * every socket there is, and a progress message for a room with no socket is not encoded at all.
   */
  constructor(
    private readonly io: IoServer,
    private readonly db: Db,
    private readonly cache: GameCache,
    private readonly localOnly = false,
  ) {}

  /**
   * The broadcast to `rooms` (a socket in several gets it once), or null when no socket can be in
   * any of them: only known with the in-memory adapter, where an empty room's message would be
   * encoded and dropped; with the Redis adapter another process may hold the room's sockets.
   */
  private to(rooms: string[]): ReturnType<IoServer['to']> | null {
    if (!this.localOnly) return this.io.to(rooms);
    const held = this.io.of('/').adapter.rooms;
    const live = rooms.filter((room) => (held.get(room)?.size ?? 0) > 0);
    return live.length > 0 ? this.io.to(live) : null;
  }

  /**
   * `game_state_update` with a progress update (members get revert counts, spectators not), then
   * `log` as `new_log_entry` each; compact rooms get the update with `new_log_entries: log` only.
   */
  private sendGameStateUpdate(progress: GameProgress, log: readonly LogEntry[]): void {
    const id = progress.id;
    const spectators = publicProgress(progress);
    this.to([membersRoom(id)])?.emit('game_state_update', { game_state: progress });
    this.to([publicRoom(id)])?.emit('game_state_update', { game_state: spectators });
    this.sendLog([membersRoom(id), publicRoom(id)], log);
    const new_log_entries = [...log];
    this.to([membersRoom(id, true)])?.emit('game_state_update', { game_state: { ...progress, new_log_entries } });
    this.to([publicRoom(id, true)])?.emit('game_state_update', { game_state: { ...spectators, new_log_entries } });
  }

  /** `game_state_update` with the full game, each audience its shape. */
  private sendFull(game: CachedGame): void {
    this.io.to(bothFlavours(membersRoom, game.id)).emit('game_state_update', { game_state: game.members });
    this.io.to(bothFlavours(publicRoom, game.id)).emit('game_state_update', { game_state: game.public });
  }

  /** `tasks_reordered` {board_data: {board_squares}, game_state}, each audience its shape of the game. */
  private sendTasks(game: CachedGame): void {
    const board_data = { board_squares: game.public.board_squares };
    this.io.to(bothFlavours(membersRoom, game.id)).emit('tasks_reordered', { board_data, game_state: game.members });
    this.io.to(bothFlavours(publicRoom, game.id)).emit('tasks_reordered', { board_data, game_state: game.public });
  }

  /** `new_log_entry` to `rooms`, each entry in its own message, in the order given (oldest first). */
  private sendLog(rooms: string[], entries: readonly LogEntry[]): void {
    if (entries.length === 0) return;
    const to = this.to(rooms);
    if (to) for (const log_entry of entries) to.emit('new_log_entry', { log_entry });
  }

  /**
   * Broadcaster.gameChanged: one load of the game as committed, then what `change` sends, then
   * the log entries (a progress change hands them to sendGameStateUpdate, which merges them for compact
   * sockets; after a board change every socket gets them as `new_log_entry`).
   */
  async gameChanged(gameId: number, change: GameChange, log: readonly LogEntry[] = []): Promise<void> {
    this.cache.invalidate(gameId);
    if (change === 'progress') {
      const progress = await loadProgress(this.db, gameId);
      if (progress) this.sendGameStateUpdate(progress, log);
      else this.sendLog(gameRooms(gameId), log);
      return;
    }
    const game = await this.cache.get(gameId);
    if (game) {
      this.sendFull(game);
      if (change === 'tasks') this.sendTasks(game);
    }
    this.sendLog(gameRooms(gameId), log);
  }

  /** Broadcaster.gameStateUpdate: the committed progress and log entries as they are (sendGameStateUpdate). */
  gameStateUpdate(progress: GameProgress, log: readonly LogEntry[]): void {
    this.cache.invalidate(progress.id);
    this.sendGameStateUpdate(progress, log);
  }

  /** Broadcaster.tasksReordered: the game loaded as committed, sent as `tasks_reordered` only. */
  async tasksReordered(gameId: number): Promise<void> {
    const game = await this.cache.get(gameId);
    if (game) this.sendTasks(game);
  }

  /**
   * Broadcaster.teamUpdated: `team_update` with the team and its members (IGNs and roles) to the
   * members room; spectators get the same message with an empty member list, since the public
   * shape carries no IGNs (docs/server.md §3) but a renamed or recoloured team shows there.
   */
  teamUpdated(gameId: number, team: TeamUpdate['updated_team_data']): void {
    this.cache.invalidate(gameId);
    this.io.to(bothFlavours(membersRoom, gameId)).emit('team_update', { updated_team_data: team });
    this.io.to(bothFlavours(publicRoom, gameId)).emit('team_update', { updated_team_data: { ...team, members: [] } });
  }

  /**
   * Broadcaster.membersLeft: per game, the user's sockets in its members room (memberInGameRoom)
   * join the public room first and then leave the members room, so they keep watching without a
   * gap but receive nothing more meant for members. `socketsJoin`/`socketsLeave` reach every
   * process through the adapter.
   */
  async membersLeft(userId: number, gameIds: readonly number[]): Promise<void> {
    for (const gameId of gameIds)
      for (const compact of [false, true]) {
        const theirs = this.io.in(memberInGameRoom(gameId, userId, compact));
        theirs.socketsJoin(publicRoom(gameId, compact));
        theirs.socketsLeave([membersRoom(gameId, compact), memberInGameRoom(gameId, userId, compact)]);
      }
  }

  /** Broadcaster.gamesClosed: empties both rooms of each game, and the clan's managers room when given. */
  async gamesClosed(gameIds: readonly number[], clanId?: number): Promise<void> {
    for (const gameId of gameIds) {
      this.cache.invalidate(gameId);
      this.io.in(gameRooms(gameId)).socketsLeave(gameRooms(gameId));
    }
    if (clanId !== undefined) this.io.in(managersRoom(clanId)).socketsLeave(managersRoom(clanId));
  }

  /**
   * Broadcaster.submissionChanged: the submission as stored, with one emit to the game's members
   * room and the clan's managers room together (a socket in both gets it once); the public room
   * never gets it.
   */
  async submissionChanged(submissionId: number): Promise<void> {
    try {
      const submission = await loadSubmission(this.db, submissionId);
      if (!submission) return;
      const clan = await this.db.selectFrom('games').select('clan_id').where('id', '=', submission.game_id).executeTakeFirst();
      const rooms = [...bothFlavours(membersRoom, submission.game_id), ...(clan ? [managersRoom(clan.clan_id)] : [])];
      this.io.to(rooms).emit('submission_update', { submission });
    } catch (err) {
      log.error({ err, submission_id: submissionId }, '[realtime] submission_update failed');
    }
  }

  /** Broadcaster.managersLeft: the user's sockets leave the clan's managers room (managerInClanRoom). */
  async managersLeft(userId: number, clanId: number): Promise<void> {
    this.io.in(managerInClanRoom(clanId, userId)).socketsLeave([managersRoom(clanId), managerInClanRoom(clanId, userId)]);
  }

  /** Broadcaster.dinkPosted: `dink_post` to the clan's managers room (every process, through the adapter). */
  async dinkPosted(clanId: number, eventId: number, post: DinkPost): Promise<void> {
    try {
      this.io.to(managersRoom(clanId)).emit('dink_post', { event_id: eventId, post });
    } catch (err) {
      log.error({ err, event_id: eventId }, '[realtime] dink_post failed');
    }
  }

  /** Broadcaster.draftChanged: `draft_state` to the draft's room (every process, through the adapter). */
  draftChanged(state: DraftState): void {
    try {
      this.io.to(draftRoom(state.event_id)).emit('draft_state', state);
    } catch (err) {
      log.error({ err, event_id: state.event_id }, '[realtime] draft_state failed');
    }
  }

  /** Broadcaster.draftsLeft: the user's sockets (their `user:<id>` room) leave the draft rooms of the clan's events. */
  async draftsLeft(userId: number, clanId: number): Promise<void> {
    try {
      const events = await this.db.selectFrom('events').select('id').where('clan_id', '=', clanId).execute();
      if (events.length > 0) this.io.in(userRoom(userId)).socketsLeave(events.map((e) => draftRoom(e.id)));
    } catch (err) {
      log.error({ err, clan_id: clanId }, '[realtime] leaving the draft rooms failed');
    }
  }

  /** Broadcaster.joinRequestsChanged: the clan's pending count, counted once, to its managers room (every process, through the adapter). */
  async joinRequestsChanged(clanId: number): Promise<void> {
    try {
      this.io.to(managersRoom(clanId)).emit('join_request', { clan_id: clanId, pending: await countPendingRequests(this.db, clanId) });
    } catch (err) {
      log.error({ err, clan_id: clanId }, '[realtime] join_request failed');
    }
  }

  /** Broadcaster.joinRequestDecided: the decided request, read once as stored, to its asker's user room (every process, through the adapter). */
  async joinRequestDecided(requestId: number): Promise<void> {
    try {
      const decided = await loadDecidedRequest(this.db, requestId);
      if (decided) this.io.to(userRoom(decided.user_id)).emit('join_request_decided', decided.notice);
    } catch (err) {
      log.error({ err, request_id: requestId }, '[realtime] join_request_decided failed');
    }
  }

  /** Broadcaster.signedOut: disconnects the session's sockets, or all the user's, in every process. */
  async signedOut(userId: number, sessionId: string | null): Promise<void> {
    this.io.in(sessionId === null ? userRoom(userId) : sessionRoom(hashSessionId(sessionId))).disconnectSockets(true);
  }
}
