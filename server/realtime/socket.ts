import crypto from 'node:crypto';
import path from 'node:path';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { parse as parseCookies } from 'hono/utils/cookie';
import type { Deps } from '../http/context';
import { SESSION_COOKIE } from '../auth/routes';
import { findSession } from '../auth/sessions';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/socket';
import type { Broadcaster } from './broadcaster';
import { RoomBroadcaster } from './broadcast';
import { registerHandlers } from './handlers';
import { KeyedQueue } from './queue';
import type { InterServerEvents, IoServer, SocketData } from './types';

/** The live layer attached to the HTTP server. */
export interface Realtime {
  io: IoServer;
  broadcaster: Broadcaster;
  close(): Promise<void>;
}

/** Largest message a client may send: every client payload is a few ids (default would be 1 MB). */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** How long start-up waits for Redis before giving up (the process then exits 1). */
const REDIS_READY_MS = 10_000;

/**
 * Refuses handshakes whose Origin header names another host, as the API refuses cross-origin
 * changes (server-contract section 1); requests without Origin (non-browser clients) pass.
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
 * The Redis channel prefix of the adapter: 'socket.io#' plus a short hash of the database the
 * process serves (PostgreSQL host, port and name, or the SQLite file's absolute path; never the
 * password). Rooms are named after game ids, which only mean something within one database, so
 * processes of one site share rooms while two sites (or test runs) sharing one Redis never
 * receive each other's game updates (Redis pub/sub channels are global, whatever the db number).
 */
export function redisChannelKey(config: { databaseUrl: string | null; sqliteFile: string }): string {
  let identity = `sqlite:${path.resolve(config.sqliteFile)}`;
  if (config.databaseUrl) {
    try {
      const url = new URL(config.databaseUrl);
      identity = `postgres:${url.hostname}:${url.port}${url.pathname}`;
    } catch {
      identity = 'postgres:unparsable';
    }
  }
  return `socket.io#${crypto.createHash('sha256').update(identity).digest('hex').slice(0, 12)}`;
}

/** Resolves once `client` is ready; rejects after REDIS_READY_MS. */
function redisReady(client: Redis, url: string): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis at ${url} is not reachable.`)), REDIS_READY_MS);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Attaches the live socket of server-contract section 5 to the HTTP server: a typed Socket.IO
 * server at /socket.io (polling and websocket), with
 * - sign-in read from the handshake's `sid` session cookie (optional: spectators connect without),
 * - the client events join_game, leave_game, roll_dice, revert_roll and tasks_reordered (handlers.ts),
 *   every payload checked with the contract schemas (a bad one gets `action_error`),
 * - rooms `game:<id>` (public) and `game:<id>:members` (clan members) filled by join_game,
 * - when `config.redisUrl` is set, the Redis adapter over two ioredis clients (pub and its
 *   duplicate for sub), so rooms span server processes (server-contract section 6); its channels
 *   are keyed by the database (redisChannelKey).
 * Returns the server, the RoomBroadcaster that REST routes call through `deps.broadcaster`, and
 * close() (closes sockets and the Redis clients). Rejects when Redis is configured but unreachable.
 */
export async function attachRealtime(server: HttpServer, deps: Deps): Promise<Realtime> {
  const io: IoServer = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>(server, {
    path: '/socket.io',
    serveClient: false,
    maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
    allowRequest: sameOrigin,
  });

  const redisClients: Redis[] = [];
  if (deps.config.redisUrl) {
    const url = deps.config.redisUrl;
    const pub = new Redis(url, { lazyConnect: false });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) {
      client.on('error', (err: Error) => console.error('[realtime] redis error:', err.message));
      redisClients.push(client);
    }
    try {
      await Promise.all([redisReady(pub, url), redisReady(sub, url)]);
    } catch (err) {
      for (const client of redisClients) client.disconnect();
      io.close();
      throw err;
    }
    io.adapter(createAdapter(pub, sub, { key: redisChannelKey(deps.config) }));
  }

  io.use((socket, next) => {
    socket.data.userId = null;
    socket.data.sessionId = null;
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
        console.error('[realtime] session lookup failed', err);
        next();
      });
  });

  const rooms = new RoomBroadcaster(io, deps.db);
  const ctx = { deps, rooms, queue: new KeyedQueue() };
  io.on('connection', (socket) => registerHandlers(ctx, socket));

  return {
    io,
    broadcaster: rooms,
    close: async () => {
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.all(redisClients.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
