import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/socket';

/** Events between server processes: none (rooms span processes through the adapter alone). */
export type InterServerEvents = Record<string, never>;

/**
 * What the server keeps on a socket: the signed-in user from the handshake's session cookie
 * (null for a spectator who is not signed in) and that cookie's session id, re-checked before
 * every roll and revert so a logout takes effect at once.
 */
export interface SocketData {
  userId: number | null;
  sessionId: string | null;
}

/** The typed Socket.IO server of the live layer (house-style "Server"). */
export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** One typed socket. */
export type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * The two rooms of a game (server-contract section 5): `game:<id>` holds everyone who is not a
 * member of the game's clan (they get the public shape), `game:<id>:members` holds clan members
 * (they get revert counts). A socket is in at most one of them per game, so a change is
 * serialised once per audience and each socket receives it once.
 */
export const publicRoom = (gameId: number): string => `game:${gameId}`;
export const membersRoom = (gameId: number): string => `game:${gameId}:members`;
