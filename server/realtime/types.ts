import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/socket';

/**
 * Events between server processes (the Redis adapter's serverSideEmit): `game_changed` {gameId}
 * when a process invalidated its cached game (games/cache.ts), so the others drop theirs too.
 */
export interface InterServerEvents {
  game_changed: (gameId: number) => void;
}

/**
 * What the server keeps on a socket: the signed-in user from the handshake's session cookie
 * (null for a spectator who is not signed in) and that cookie's session id, re-checked before
 * every roll and revert so a logout takes effect at once.
 */
export interface SocketData {
  userId: number | null;
  sessionId: string | null;
  /** The client address (TRUST_PROXY-aware) the connection cap and join limits count under. */
  address: string;
}

/** The typed Socket.IO server of the live layer (docs/architecture.md §5). */
export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** One typed socket. */
export type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * The rooms of a game (docs/server.md §6): `game:<id>` holds everyone who is not a member of the
 * game's clan (they get the public shape), `game:<id>:members` holds clan members (they get revert
 * counts). Compact sockets (join_game with `compact: true`) sit in the same rooms with a
 * `:compact` suffix, since a roll reaches them as one message instead of two. A socket is in
 * exactly one of the four per game, so a change is serialised once per audience and each socket
 * receives it once. This is the public room;
 */
export const publicRoom = (gameId: number, compact = false): string => `game:${gameId}${compact ? ':compact' : ''}`;
/** ... and this the clan members' room. */
export const membersRoom = (gameId: number, compact = false): string => `game:${gameId}:members${compact ? ':compact' : ''}`;

/**
 * The sockets of one user in a game's members room (docs/server.md §8), per flavour: joined
 * with the members room, so a kick, leave or demotion moves exactly those sockets out (into the
 * public room of their flavour), in every process, with `io.in(room).socketsLeave(...)`.
 */
export const memberInGameRoom = (gameId: number, userId: number, compact = false): string => `game:${gameId}:members:user:${userId}${compact ? ':compact' : ''}`;

/** Every room a socket may hold for one game (both audiences, both flavours), for leaving them all. */
export const gameRooms = (gameId: number): string[] => [false, true].flatMap((compact) => [publicRoom(gameId, compact), membersRoom(gameId, compact)]);

/** The sockets watching the captains' draft of an event (join_draft, docs/server.md §16): clan members only. */
export const draftRoom = (eventId: number): string => `draft:${eventId}`;

/** Every signed-in socket of a user (logout everywhere disconnects them). */
export const userRoom = (userId: number): string => `user:${userId}`;

/** Every socket opened with one session cookie, by the session's hash (logout disconnects them). */
export const sessionRoom = (sessionHash: string): string => `session:${sessionHash}`;

/**
 * The sockets of one user in a clan's managers room (`clan:<id>:managers`, docs/server.md
 * §9), joined with it so a demotion, kick or leave moves exactly those sockets out in every process.
 */
export const managerInClanRoom = (clanId: number, userId: number): string => `clan:${clanId}:managers:user:${userId}`;
