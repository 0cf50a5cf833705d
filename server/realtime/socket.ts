import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { parse as parseCookies } from 'hono/utils/cookie';
import type { Deps } from '../http/context';
import { SESSION_COOKIE } from '../auth/routes';
import { findSession, hashSessionId } from '../auth/sessions';
import { clientAddress } from '../http/clientAddress';
import { SOCKET_ANSWER_HEADERS } from '../http/securityHeaders';
import { quietPublisher, redisChannelKey, redisReady } from '../redis';
import { MemoryConnectionCap, RedisConnectionCap, type ConnectionCap } from './connections';
import pLimit from 'p-limit';
import { SharedLimits, socketLimits } from './limits';
import { SERVER_RESTARTING_MESSAGE, type ClientToServerEvents, type ServerToClientEvents } from '../../contract/socket';
import { InFlight, settledWithin } from '../lifecycle/shutdown';
import type { Broadcaster } from './broadcaster';
import { RoomBroadcaster } from './roomBroadcaster';
import { registerHandlers } from './handlers';
import { KeyedQueue } from './queue';
import { playMove } from '../games/socket';
import { applyRoll } from '../games/play';
import { sessionRoom, userRoom, type InterServerEvents, type IoServer, type SocketData } from './types';
import { log } from '../observability/log';
import { requestIdOf } from '../observability/requests';

/** The live layer attached to the HTTP server. */
export interface Realtime {
  io: IoServer;
  broadcaster: Broadcaster;
  /** Resolves once no event handler is running (queued rolls included; docs/server.md §14). */
  drain(): Promise<void>;
  /**
   * Sends `server_restarting` to every socket of this process and closes their connections
   * (docs/server.md §14), so clients reconnect by themselves (Socket.IO reconnects after a
   * closed transport; an `io server disconnect` would leave them offline). Waits up to `ms` for
   * the message to go out and the sockets to close; close() cuts whatever is left.
   */
  restart(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Largest message a client may send: every client payload is a few ids (default would be 1 MB). */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** Whole-game reads for join_game at once per process (a PostgreSQL pool holds 10 connections). */
const FULL_GAME_READS = 2;
/** join_draft and join_reviews handled at once per process (their session, membership and draft reads). */
const ROOM_JOIN_READS = 2;

/** Refusal of a connection past the per-address cap (docs/server.md §8), as connect_error. */
const TOO_MANY_CONNECTIONS = 'Too many connections from your address.';

/**
 * Refuses handshakes whose Origin header names another host, as the API refuses cross-origin
 * changes (docs/server.md §2); requests without Origin (non-browser clients) pass.
 */
function sameOrigin(req: IncomingMessage, callback: (err: string | null | undefined, success: boolean) => void): void {
  const origin = req.headers.origin;
  if (origin === undefined) return callback(null, true);
  let host = '';
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host !== '' && host === req.headers.host) return callback(null, true);
  callback('Cross-origin connection refused.', false);
}

/**
 * Attaches the live socket of docs/server.md §6 to the HTTP server: a typed Socket.IO
 * server at /socket.io (polling and websocket), with
 * - sign-in read from the handshake's `sid` session cookie (optional: spectators connect without),
 * - the client events join_game, leave_game, roll_dice, revert_roll and tasks_reordered (handlers.ts),
 *   every payload checked with the contract schemas (a bad one gets `action_error`),
 * - rooms `game:<id>` (public) and `game:<id>:members` (clan members from Member up) filled by
 *   join_game, and per signed-in socket `user:<id>` and `session:<hash>` (kick, leave, logout),
 * - the limits of docs/server.md §8: at most `config.socketsPerAddress` connections per
 *   client address (connect_error TOO_MANY_CONNECTIONS past it; TRUST_PROXY reads
 *   X-Forwarded-For from a trusted peer only: http/clientAddress.ts), and the per-socket,
 *   per-user and per-address event limits (handlers.ts),
 * - when `deps.redis` is set, the Redis adapter (that client publishes, a duplicate subscribes),
 *   so rooms span server processes (docs/server.md §7); its channels, the connection
 *   counts and the limit counters are keyed by the database (redisChannelKey); the game cache's
 *   invalidations go to the other processes as the server-side event `game_changed`.
 * Returns the server, the RoomBroadcaster that REST routes call through `deps.broadcaster`,
 * drain() and restart() for a graceful shutdown (docs/server.md §14), and close() (closes sockets
 * and the subscriber). Rejects when Redis is configured but unreachable.
 */
export async function attachRealtime(server: HttpServer, deps: Deps): Promise<Realtime> {
  const io: IoServer = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>(server, {
    path: '/socket.io',
    serveClient: false,
    maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
    allowRequest: sameOrigin,
  });

  // Socket.IO's own HTTP answers (polling, handshake) carry the security headers too, and a
  // request id like every other answer (docs/server.md §14).
  io.engine.on('headers', (headers: Record<string, string>, req: IncomingMessage) =>
    Object.assign(headers, SOCKET_ANSWER_HEADERS, { 'X-Request-Id': requestIdOf(req.headers['x-request-id']) }),
  );

  const redisClients: Redis[] = [];
  const redis = deps.redis;
  const channelKey = redisChannelKey(deps.config);
  if (redis && deps.config.redisUrl) {
    // The shared command client publishes; subscribing needs a connection of its own.
    const sub = redis.duplicate();
    sub.on('error', (err: Error) => log.error({ err: err.message }, '[realtime] redis error'));
    redisClients.push(sub);
    try {
      await redisReady(sub, deps.config.redisUrl);
    } catch (err) {
      sub.disconnect();
      io.close();
      throw err;
    }
    // A publish failing while Redis is lost must not end the process (quietPublisher).
    io.adapter(createAdapter(quietPublisher(redis), sub, { key: channelKey }));
    // The game cache's invalidations reach the other processes (and theirs this one).
    deps.gameCache.onInvalidate((gameId) => io.serverSideEmit('game_changed', gameId));
    io.on('game_changed', (gameId: number) => deps.gameCache.invalidate(gameId, true));
  }

  const { config } = deps;
  const cap: ConnectionCap = redis ? new RedisConnectionCap(redis, config.socketsPerAddress, channelKey) : new MemoryConnectionCap(config.socketsPerAddress);
  const shared = new SharedLimits(socketLimits(config), redis, `${channelKey}:limit`);

  io.use((socket, next) => {
    socket.data.userId = null;
    socket.data.sessionId = null;
    socket.data.address = clientAddress(socket.handshake.address, socket.handshake.headers['x-forwarded-for'], config);
    const header = socket.handshake.headers.cookie;
    const sid = header ? parseCookies(header, SESSION_COOKIE)[SESSION_COOKIE] : undefined;
    if (!sid) return next();
    findSession(deps.db, sid)
      .then((session) => {
        if (session) {
          socket.data.userId = session.userId;
          socket.data.sessionId = sid;
        }
        next();
      })
      .catch((err: unknown) => {
        // The database is unreachable: connect as a spectator rather than refuse; actions re-check.
        log.error({ err }, '[realtime] session lookup failed');
        next();
      });
  });

  // Last: the per-address cap, so a connection is counted only once it is let in.
  io.use((socket, next) => {
    cap.acquire(socket.data.address, socket.id).then(
      (ok) => (ok ? next() : next(new Error(TOO_MANY_CONNECTIONS))),
      () => next(),
    );
  });

  const broadcaster = new RoomBroadcaster(io, deps.db, deps.gameCache, redisClients.length === 0);
  const ctx = {
    deps, broadcaster, queue: new KeyedQueue(), limits: shared, fullGameReads: pLimit(FULL_GAME_READS), roomJoinReads: pLimit(ROOM_JOIN_READS), work: new InFlight(),
  };
  // Discord's `/snl roll` (docs/server.md §19) takes the socket's roll path: this queue, this
  // broadcaster, and counted in `work` so a shutdown waits for it like a socket's roll.
  deps.moves = {
    roll: (action, pre, arrivedAt) => {
      const done = ctx.work.begin();
      return playMove(ctx, 'roll_dice', action, pre, applyRoll, arrivedAt).finally(done);
    },
  };
  io.on('connection', (socket) => {
    socket.on('disconnect', () => cap.release(socket.data.address, socket.id));
    if (socket.data.userId !== null && socket.data.sessionId !== null) {
      // Per-user and per-session rooms: kick, leave and logout reach these sockets in every process.
      void socket.join([userRoom(socket.data.userId), sessionRoom(hashSessionId(socket.data.sessionId))]);
    }
    registerHandlers(ctx, socket);
  });

  return {
    io,
    broadcaster,
    drain: () => ctx.work.idle(),
    restart: async (ms) => {
      // This process's sockets only: io.emit would reach every process through the Redis adapter.
      const sockets = [...io.of('/').sockets.values()];
      const closed = sockets.map((socket) => new Promise<void>((resolve) => {
        if (!socket.connected) return resolve();
        socket.once('disconnect', () => resolve());
      }));
      for (const socket of sockets) {
        socket.emit('server_restarting', { message: SERVER_RESTARTING_MESSAGE });
        // Closing the transport (not socket.disconnect()) sends what is queued first, and the
        // client sees 'transport close', after which it reconnects on its own.
        socket.conn.close();
      }
      await settledWithin(ms, Promise.all(closed));
    },
    close: async () => {
      cap.close();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.all(redisClients.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
