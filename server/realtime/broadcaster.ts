import type { LogEntry } from '../../contract/gameApi';
import type { GameProgress, TeamUpdate } from '../../contract/socket';
import type { DinkPost } from '../../contract/dink';
import type { DraftState } from '../../contract/signup';

/**
 * What a committed change of a game sends (docs/server.md §6): 'full' the whole game
 * (after a board change: create, randomize, manual board, reset), 'progress' only {id, status,
 * team_states, winners, version} (after a status or team-set change), 'tasks' the whole game and
 * `tasks_reordered` (after a task swap, assign or reorder).
 */
export type GameChange = 'full' | 'progress' | 'tasks';

/**
 * The one place business code and the socket handlers hand live events to (docs/architecture.md §5:
 * business code emits domain events and one broadcaster decides rooms). The Socket.IO
 * implementation is RoomBroadcaster (realtime/roomBroadcaster.ts), created by attachRealtime
 * (realtime/socket.ts); the HTTP-only app uses silentBroadcaster. Every call is made after the
 * change has committed.
 */
export interface Broadcaster {
  /**
   * Game `gameId` changed: it is loaded once as committed and sent to both rooms as `change` says
   * (spectators get the public shape, members theirs without user_teams); nothing when the game
   * is gone. Then each of `log` (oldest first) goes out as `new_log_entry`; after a 'progress'
   * change compact sockets get `log` inside the update instead (docs/server.md §6).
   */
  gameChanged(gameId: number, change: GameChange, log?: readonly LogEntry[]): Promise<void>;
  /**
   * A roll, revert or relief committed: `game_state_update` with the progress its transaction returned
   * (not reloaded, so one process's updates go out in version order), then one `new_log_entry`
   * per entry it wrote, oldest first; compact sockets get the update alone, carrying the entries
   * as `new_log_entries` (docs/server.md §6).
   */
  gameStateUpdate(progress: GameProgress, log: readonly LogEntry[]): void;
  /** A manager's screen sent `tasks_reordered` (docs/server.md §6): the stored board as `tasks_reordered` to both rooms. */
  tasksReordered(gameId: number): Promise<void>;
  /** `team_update` to the rooms of the event's game (spectators get it without the member list). */
  teamUpdated(gameId: number, team: TeamUpdate['updated_team_data']): void;
  /**
   * A user stopped being a full member of a clan (kick, leave, demotion to Guest; docs/server.md
   * §8): their open sockets leave the members rooms of `gameIds` (the clan's games) at
   * once, in every process, and watch those games from the public room instead.
   */
  membersLeft(userId: number, gameIds: readonly number[]): Promise<void>;
  /** A clan was disbanded: every socket leaves both rooms of its former games `gameIds` (and, with `clanId`, the clan's managers room). */
  gamesClosed(gameIds: readonly number[], clanId?: number): Promise<void>;
  /**
   * Submission `submissionId` changed (sent, reviewed, undone, withdrawn; docs/server.md
   * §9): `submission_update` {submission} as stored now to the game's members room and the clan's
   * managers room, never to spectators. Nothing when it is gone; a failure is logged, not thrown.
   */
  submissionChanged(submissionId: number): Promise<void>;
  /**
   * A user stopped being a manager of clan `clanId` (demotion, kick, leave): their sockets leave
   * the clan's managers room at once, in every process.
   */
  managersLeft(userId: number, clanId: number): Promise<void>;
  /**
   * A user signed out (docs/server.md §8): the sockets opened with session `sessionId`
   * (the cookie's id), or with `null` every socket of the user, are disconnected in every process.
   */
  signedOut(userId: number, sessionId: string | null): Promise<void>;
  /**
   * A Dink post to event `eventId` of clan `clanId` was judged (docs/server.md §13): `dink_post`
   * {event_id, post} to the clan's managers room. A failure is logged, not thrown.
   */
  dinkPosted(clanId: number, eventId: number, post: DinkPost): Promise<void>;
  /** A captains' draft changed (docs/server.md §16): `draft_state` to its room `draft:<eventId>` in every process. */
  draftChanged(state: DraftState): void;
  /**
   * A user left or was removed from clan `clanId`: their open sockets leave the draft rooms of the
   * clan's events at once, in every process (docs/server.md §16: drafts are for clan members).
   */
  draftsLeft(userId: number, clanId: number): Promise<void>;
  /**
   * The pending join requests of clan `clanId` changed (asked, approved, denied, withdrawn;
   * docs/server.md §18): `join_request` {clan_id, pending} with the count as stored now to the
   * clan's managers room, in every process. A failure is logged, not thrown.
   */
  joinRequestsChanged(clanId: number): Promise<void>;
  /**
   * Join request `requestId` was approved or denied (docs/server.md §18): `join_request_decided`
   * {id, clan_id, clan_name, status, reason} as stored now to the asker's own sockets (their user
   * room, in every process). Nothing when it is gone or still pending; a failure is logged, not thrown.
   */
  joinRequestDecided(requestId: number): Promise<void>;
}

/** A broadcaster that sends nothing (used before sockets are attached). */
export const silentBroadcaster: Broadcaster = {
  async gameChanged() {},
  gameStateUpdate() {},
  async tasksReordered() {},
  teamUpdated() {},
  async membersLeft() {},
  async gamesClosed() {},
  async submissionChanged() {},
  async managersLeft() {},
  async signedOut() {},
  async dinkPosted() {},
  draftChanged() {},
  async draftsLeft() {},
  async joinRequestsChanged() {},
  async joinRequestDecided() {},
};
