/**
 * The one place business code hands live events to (house-style "Server": business code emits
 * domain events and one broadcaster decides rooms). The Socket.IO implementation is
 * RoomBroadcaster (realtime/broadcast.ts), created by attachRealtime (realtime/socket.ts); the
 * HTTP-only app uses the no-op one. Every call is made after the change has committed.
 */
export interface Broadcaster {
  /**
   * `game_state_update` to the game's rooms (server-contract section 5): 'full' sends the whole game
   * (after a board change), 'progress' only {id, status, team_states, winners, version} (after a
   * status or team-set change); spectators get the public shape, members theirs without user_teams.
   */
  gameChanged(gameId: number, kind: 'full' | 'progress'): Promise<void>;
  /** `new_log_entry` with a new log entry of a game, to spectators and members alike. */
  logEntry(gameId: number, entry: { id: number; timestamp: string; team_name: string; team_color: string | null; message: string }): void;
  /** `tasks_reordered` to the room after a swap or assign. */
  tasksReordered(gameId: number): Promise<void>;
  /** `team_update` to the rooms of the event's game (spectators get it without the member list). */
  teamUpdated(gameId: number, team: { id: number; name: string; color: string; members: { osrs_ign_id: number; osrs_ign: string; role: string }[] }): void;
  /** After a logout: `sessionId` (the cookie's id, as SessionUser.sessionId) ended, or null when every session of `userId` did. */
  signedOut?(userId: number, sessionId: string | null): void | Promise<void>;
}

/** A broadcaster that sends nothing (used before sockets are attached). */
export const silentBroadcaster: Broadcaster = {
  async gameChanged() {},
  logEntry() {},
  async tasksReordered() {},
  teamUpdated() {},
};
