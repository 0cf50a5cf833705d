import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { IoSocket } from './types';
import { log } from '../observability/log';

/** The refusal of an event past a limit (docs/server.md §8). */
const TOO_MANY = 'Too many requests. Slow down.';

/** The limits of the live socket (docs/server.md §8), per second. */
export interface SocketLimits {
  /** roll_dice + revert_roll one socket may send a second (contract: 5). */
  actionsPerSocket: number;
  /** roll_dice + revert_roll one user may send a second over all their sockets and processes (contract: 10). */
  actionsPerUser: number;
  /** join_game + tasks_reordered (each sends the whole game, 33-50 KB) one socket may send a second. */
  fullGamePerSocket: number;
  /** join_game + tasks_reordered one client address may send a second over all its sockets. */
  fullGamePerAddress: number;
}

/**
 * Limits from the configuration (ROLLS_PER_SOCKET, ROLLS_PER_USER, JOINS_PER_SOCKET,
 * JOINS_PER_ADDRESS; defaults 5, 10, 5 and 30).
 */
export function socketLimits(config: { actionsPerSocket: number; actionsPerUser: number; joinsPerAddress: number; joinsPerSocket: number }): SocketLimits {
  return {
    actionsPerSocket: config.actionsPerSocket,
    actionsPerUser: config.actionsPerUser,
    fullGamePerSocket: config.joinsPerSocket,
    fullGamePerAddress: config.joinsPerAddress,
  };
}

/**
 * A fixed one-second window counted on one socket (a socket lives in one process, so nothing
 * needs sharing). `take()` is true while the window has room.
 */
export class SocketWindow {
  private start = 0;
  private used = 0;

  constructor(private readonly perSecond: number) {}

  /** Counts one event at `now` (ms); false once `perSecond` were taken in the current second. */
  take(now = Date.now()): boolean {
    if (now - this.start >= 1000) {
      this.start = now;
      this.used = 0;
    }
    this.used += 1;
    return this.used <= this.perSecond;
  }
}

/**
 * Counters shared by every socket of a user or an address, in memory for one process or in Redis
 * when REDIS_URL is set, so the bound holds across processes (rate-limiter-flexible). When Redis
 * fails, the in-memory limiter answers instead (insurance), so a Redis outage never blocks play.
 */
export class SharedLimits {
  private readonly perUser: RateLimiterAbstract;
  private readonly perAddress: RateLimiterAbstract;

  /** Per-socket windows, made per socket (registerHandlers). */
  readonly limits: SocketLimits;

  constructor(limits: SocketLimits, redis: Redis | null, keyPrefix: string) {
    this.limits = limits;
    const make = (points: number, name: string): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({ points, duration: 1, keyPrefix: `${keyPrefix}:${name}` });
      if (!redis) return memory;
      return new RateLimiterRedis({ storeClient: redis, points, duration: 1, keyPrefix: `${keyPrefix}:${name}`, insuranceLimiter: memory });
    };
    this.perUser = make(limits.actionsPerUser, 'user-actions');
    this.perAddress = make(limits.fullGamePerAddress, 'address-full');
  }

  /** Counts one roll/revert of `userId`; false past the per-user limit. */
  userAction(userId: number): Promise<boolean> {
    return consume(this.perUser, String(userId));
  }

  /** Counts one join_game/tasks_reordered from `address`; false past the per-address limit. */
  addressFullGame(address: string): Promise<boolean> {
    return consume(this.perAddress, address);
  }
}

/** One point from `limiter` for `key`: true when granted, false when refused (or on an unexpected failure, true). */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key, 1);
    return true;
  } catch (err) {
    if (err instanceof Error) {
      // A store failure without insurance: let the event through rather than refuse play.
      log.error({ err: err.message }, '[realtime] rate limiter failed');
      return true;
    }
    return false;
  }
}

/**
 * Sends `TOO_MANY` to the socket at most once a second (docs/server.md §8: the sender
 * gets one `action_error` a second); `state.lastAt` is kept on the socket by the caller.
 */
export function tellTooMany(socket: IoSocket, state: { lastAt: number }, now = Date.now()): void {
  if (now - state.lastAt < 1000) return;
  state.lastAt = now;
  socket.emit('action_error', { message: TOO_MANY });
}
