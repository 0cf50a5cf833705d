import crypto from 'node:crypto';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { log } from './observability/log';

/** How long start-up waits for Redis before giving up (the process then exits 1), in ms. */
const REDIS_READY_MS = 10_000;

/** Resolves once `client` is ready; rejects after REDIS_READY_MS with 'Redis at {url} is not reachable.'. */
export function redisReady(client: Redis, url: string): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis at ${url} is not reachable.`)), REDIS_READY_MS);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Longest wait between two tries to reach Redis again after losing it, in ms (ioredis' default is 2000). */
const REDIS_RETRY_MAX_MS = 1000;

/**
 * The process's Redis command client (REDIS_URL; docs/server.md §7, §8): shared by the
 * Socket.IO adapter (as its publisher), the socket limits, the connection cap and the sign-in
 * limit, so they hold across processes. Errors are logged, never thrown after start-up; rejects
 * when Redis does not answer within REDIS_READY_MS.
 * While Redis is lost every command fails at once (no offline queue), so each user of it falls
 * back at once (docs/server.md §14 "Faults") instead of waiting ~10 s for ioredis' retries; the
 * client tries to reconnect at least every REDIS_RETRY_MAX_MS, and its duplicates (the adapter's
 * subscriber) subscribe again when it is back.
 */
export async function connectRedis(url: string): Promise<Redis> {
  // Loaded here, not at start-up: a process without REDIS_URL never pays its ~0.08 s of CPU.
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    retryStrategy: (times: number) => Math.min(times * 50, REDIS_RETRY_MAX_MS),
  });
  client.on('error', (err: Error) => log.error({ err: err.message }, '[redis] error'));
  try {
    await redisReady(client, url);
  } catch (err) {
    client.disconnect();
    throw err;
  }
  return client;
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

/**
 * `redis` as the Socket.IO Redis adapter's publisher (docs/server.md §7, §14 "Faults"): the
 * adapter publishes every broadcast without catching, so while Redis is lost a failed publish
 * would be an unhandled rejection and end the process. Here a failed publish is logged (once a
 * second at most) and answers 0 receivers: this process's own sockets still get the broadcast,
 * the other processes' clients catch up through their version-gap resync once Redis is back.
 * Every other property is the client's own.
 */
export function quietPublisher(redis: Redis): Redis {
  let lastLogged = 0;
  const publish = (...args: Parameters<Redis['publish']>) =>
    redis.publish(...args).catch((err: unknown) => {
      const now = Date.now();
      if (now - lastLogged >= 1000) {
        lastLogged = now;
        log.warn({ err: err instanceof Error ? err.message : String(err) }, '[redis] publish failed; other processes miss this broadcast');
      }
      return 0;
    });
  return new Proxy(redis, {
    get(target, prop) {
      if (prop === 'publish') return publish;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
