import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { listTeamStates, parseWinners } from '../games/repository';
import { loadGame, toPublicGame } from '../games/service';
import { isGameStatus, type GameStatus } from '../../contract/game';
import type { Game, LogEntry, PublicGame } from '../../contract/gameApi';
import type { GameProgress } from '../../contract/socket';
import type { Broadcaster } from './broadcaster';
import { hashSessionId } from '../auth/sessions';
import { memberInGameRoom, membersRoom, publicRoom, sessionRoom, userRoom, type IoServer } from './types';

/** The members' full game as broadcast to a room: without user_teams, which are per viewer (each client keeps its own). */
export type RoomGame = Omit<Game, 'user_teams'>;

/** A progress update as spectators get it: no revert counts (server-contract section 2 "Public game"). */
export function publicProgress(progress: GameProgress): GameProgress {
  return { ...progress, team_states: progress.team_states.map(({ revert_count: _reverts, ...state }) => state) };
}

/** The room shape of a full game: user_teams dropped (they belong to one viewer). */
export function roomGame(game: Game): RoomGame {
  const { user_teams: _userTeams, ...rest } = game;
  return rest;
}

/** The full game for a broadcast, or null when the game no longer exists (deleted meanwhile). */
async function loadForRoom(db: Db, gameId: number): Promise<Game | null> {
  try {
    return await loadGame(db, gameId, null);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * The progress of a game as stored now (members shape), or null when it is gone. The games row is
 * read before the team states, so a change committed in between can only make the states newer
 * than the version; the next update (version + 1) then carries the same states, and no client is
 * ever left holding a version whose states are older than it.
 */
async function loadProgress(db: Db, gameId: number): Promise<GameProgress | null> {
  const row = await db.selectFrom('games').select(['id', 'status', 'winners', 'version']).where('id', '=', gameId).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    status: (isGameStatus(row.status) ? row.status : 'PENDING') as GameStatus,
    team_states: await listTeamStates(db, gameId),
    winners: parseWinners(row.winners),
    version: row.version,
  };
}

/**
 * The one place that decides rooms (house-style "Server"). Every change is serialised once per
 * audience and sent with one `io.to(room).emit` per audience (Socket.IO encodes a room broadcast
 * once for all its sockets; with the Redis adapter the same call reaches the rooms' sockets in
 * every process):
 * - members room `game:<id>:members`: the members shape without user_teams (revert counts included)
 * - public room `game:<id>`: the public shape (no revert counts)
 * Log entries are the same for both and go out in one emit to both rooms.
 */
export class RoomBroadcaster implements Broadcaster {
  constructor(
    private readonly io: IoServer,
    private readonly db: Db,
  ) {}

  /** `game_state_update` with a progress update (server-contract section 5): members get revert counts, spectators not. */
  progress(progress: GameProgress): void {
    this.io.to(membersRoom(progress.id)).emit('game_state_update', { game_state: progress });
    this.io.to(publicRoom(progress.id)).emit('game_state_update', { game_state: publicProgress(progress) });
  }

  /** `game_state_update` with the full game, each audience its shape. */
  full(game: Game): void {
    this.io.to(membersRoom(game.id)).emit('game_state_update', { game_state: roomGame(game) });
    this.io.to(publicRoom(game.id)).emit('game_state_update', { game_state: toPublicGame(game) });
  }

  /** `new_log_entry` to both rooms, each entry in its own message, in the order given (oldest first). */
  log(gameId: number, entries: readonly LogEntry[]): void {
    for (const log_entry of entries) this.io.to([membersRoom(gameId), publicRoom(gameId)]).emit('new_log_entry', { log_entry });
  }

  /** Broadcaster.gameChanged: reloads the game as committed and sends the full game ('full') or its progress ('progress'); nothing when the game is gone. */
  async gameChanged(gameId: number, kind: 'full' | 'progress'): Promise<void> {
    if (kind === 'full') {
      const game = await loadForRoom(this.db, gameId);
      if (game) this.full(game);
      return;
    }
    const progress = await loadProgress(this.db, gameId);
    if (progress) this.progress(progress);
  }

  /** Broadcaster.logEntry: one `new_log_entry` to both rooms. */
  logEntry(gameId: number, entry: LogEntry): void {
    this.log(gameId, [entry]);
  }

  /**
   * Broadcaster.tasksReordered: `tasks_reordered` {board_data: {board_squares}, game_state} with the
   * game as committed, members shape (without user_teams) to members, public shape to spectators.
   */
  async tasksReordered(gameId: number): Promise<void> {
    const game = await loadForRoom(this.db, gameId);
    if (!game) return;
    const board_data = { board_squares: game.board_squares };
    const publicGame: PublicGame = toPublicGame(game);
    this.io.to(membersRoom(gameId)).emit('tasks_reordered', { board_data, game_state: roomGame(game) });
    this.io.to(publicRoom(gameId)).emit('tasks_reordered', { board_data, game_state: publicGame });
  }

  /**
   * Broadcaster.teamUpdated: `team_update` with the team and its members (IGNs and roles) to the
   * members room; spectators get the same message with an empty member list, since the public
   * shape carries no IGNs (server-contract section 2) but a renamed or recoloured team shows there.
   */
  teamUpdated(gameId: number, team: { id: number; name: string; color: string; members: { osrs_ign_id: number; osrs_ign: string; role: string }[] }): void {
    this.io.to(membersRoom(gameId)).emit('team_update', { updated_team_data: team });
    this.io.to(publicRoom(gameId)).emit('team_update', { updated_team_data: { ...team, members: [] } });
  }

  /**
   * Broadcaster.membersLeft: per game, the user's sockets in its members room (memberInGameRoom)
   * join the public room first and then leave the members room, so they keep watching without a
   * gap but receive nothing more meant for members. `socketsJoin`/`socketsLeave` reach every
   * process through the adapter.
   */
  async membersLeft(userId: number, gameIds: readonly number[]): Promise<void> {
    for (const gameId of gameIds) {
      const theirs = this.io.in(memberInGameRoom(gameId, userId));
      theirs.socketsJoin(publicRoom(gameId));
      theirs.socketsLeave([membersRoom(gameId), memberInGameRoom(gameId, userId)]);
    }
  }

  /** Broadcaster.gamesClosed: empties both rooms of each game. */
  async gamesClosed(gameIds: readonly number[]): Promise<void> {
    for (const gameId of gameIds) {
      this.io.in([membersRoom(gameId), publicRoom(gameId)]).socketsLeave([membersRoom(gameId), publicRoom(gameId)]);
    }
  }

  /** Broadcaster.signedOut: disconnects the session's sockets, or all the user's, in every process. */
  async signedOut(userId: number, sessionId: string | null): Promise<void> {
    this.io.in(sessionId === null ? userRoom(userId) : sessionRoom(hashSessionId(sessionId))).disconnectSockets(true);
  }
}
