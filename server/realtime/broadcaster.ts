/**
 * The one place business code hands live events to (house-style "Server": business code emits
 * domain events and one broadcaster decides rooms). The Socket.IO implementation lives in
 * realtime/socket.ts; tests and the HTTP-only app use the no-op one.
 */
export interface Broadcaster {
  /** Full game state to every socket in room `game:<id>` (server-contract section 5). */
  gameChanged(gameId: number, kind: 'full' | 'progress'): Promise<void>;
  /** A new log entry of a game. */
  logEntry(gameId: number, entry: { id: number; timestamp: string; team_name: string; team_color: string | null; message: string }): void;
  /** `tasks_reordered` to the room after a swap or assign. */
  tasksReordered(gameId: number): Promise<void>;
  /** `team_update` to the rooms of the event's game. */
  teamUpdated(gameId: number, team: { id: number; name: string; color: string; members: { osrs_ign_id: number; osrs_ign: string; role: string }[] }): void;
}

/** A broadcaster that sends nothing (used before sockets are attached). */
export const silentBroadcaster: Broadcaster = {
  async gameChanged() {},
  logEntry() {},
  async tasksReordered() {},
  teamUpdated() {},
};
