import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { log } from '../observability/log';

/**
 * The cap on open Socket.IO connections per client address (docs/server.md
 * §8: at most 100). `acquire` is called once per new connection and `release` when it
 * closes; both take the connection's address and a unique socket id.
 */
export interface ConnectionCap {
  /** True (and the connection counted) while the address has fewer than the cap open. */
  acquire(address: string, socketId: string): Promise<boolean>;
  /** Forgets a connection counted by `acquire`. */
  release(address: string, socketId: string): void;
  /** Stops background work (the Redis refresh). */
  close(): void;
}

/** Counts in this process only: the embedded default (one process). */
export class MemoryConnectionCap implements ConnectionCap {
  private readonly open = new Map<string, Set<string>>();

  constructor(private readonly cap: number) {}

  async acquire(address: string, socketId: string): Promise<boolean> {
    const set = this.open.get(address) ?? new Set<string>();
    if (set.size >= this.cap) return false;
    set.add(socketId);
    this.open.set(address, set);
    return true;
  }

  release(address: string, socketId: string): void {
    const set = this.open.get(address);
    if (!set) return;
    set.delete(socketId);
    if (set.size === 0) this.open.delete(address);
  }

  close(): void {}
}

/** How long a connection counted in Redis lives without its process refreshing it, in ms. */
const STALE_MS = 90_000;
/** How often a process refreshes the connections it holds, in ms. */
const REFRESH_MS = 30_000;

/**
 * ZREMRANGEBYSCORE drops connections of processes that died (not refreshed for STALE_MS), then
 * the connection is added unless the address already holds ARGV[3] (the cap). Atomic in Redis.
 */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - ${STALE_MS})
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ${STALE_MS * 2})
return 1`;

/**
 * Counts across every process sharing Redis: one sorted set per address whose members are
 * `<process>:<socket>` scored by the time the owning process last confirmed them. Each process
 * re-scores its own connections every REFRESH_MS, so those of a process killed with kill -9 stop
 * counting after STALE_MS.
 */
export class RedisConnectionCap implements ConnectionCap {
  private readonly process = crypto.randomBytes(6).toString('hex');
  private readonly mine = new Map<string, Set<string>>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly cap: number,
    private readonly prefix: string,
  ) {
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  private key(address: string): string {
    return `${this.prefix}:conn:${address}`;
  }

  async acquire(address: string, socketId: string): Promise<boolean> {
    try {
      const ok = await this.redis.eval(ACQUIRE, 1, this.key(address), Date.now(), `${this.process}:${socketId}`, this.cap);
      if (Number(ok) !== 1) return false;
    } catch (err) {
      // Redis is down: count nothing and let the connection in rather than refuse every viewer.
      log.error({ err: (err as Error).message }, '[realtime] connection cap unavailable');
      return true;
    }
    const set = this.mine.get(address) ?? new Set<string>();
    set.add(socketId);
    this.mine.set(address, set);
    return true;
  }

  release(address: string, socketId: string): void {
    const set = this.mine.get(address);
    if (!set?.delete(socketId)) return;
    if (set.size === 0) this.mine.delete(address);
    this.redis.zrem(this.key(address), `${this.process}:${socketId}`).catch(() => {});
  }

  /** Re-scores this process's connections (one pipeline). */
  private refresh(): void {
    if (this.mine.size === 0) return;
    const now = Date.now();
    const pipe = this.redis.pipeline();
    for (const [address, sockets] of this.mine) {
      for (const id of sockets) pipe.zadd(this.key(address), 'XX', now, `${this.process}:${id}`);
      pipe.pexpire(this.key(address), STALE_MS * 2);
    }
    pipe.exec().catch(() => {});
  }

  close(): void {
    clearInterval(this.timer);
  }
}
