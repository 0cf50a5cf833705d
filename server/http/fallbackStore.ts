import type { Env } from 'hono';
import { MemoryStore, type ClientRateLimitInfo, type Store } from 'hono-rate-limiter';
import { log } from '../observability/log';

/**
 * A hono-rate-limiter store that counts in `shared` (Redis) and, whenever that fails (Redis lost:
 * commands fail at once, server/redis.ts), in this process's memory instead, so the sign-in limit
 * still holds per process and sign-in keeps answering rather than failing with a 500
 * (docs/server.md §8, §14 "Faults"). A failure is logged once a second at most.
 */
export function withMemoryFallback<E extends Env>(shared: Store<E>): Store<E> {
  const memory = new MemoryStore<E>();
  let lastLogged = 0;
  const fellBack = (err: unknown) => {
    const now = Date.now();
    if (now - lastLogged < 1000) return;
    lastLogged = now;
    log.warn({ err: err instanceof Error ? err.message : String(err) }, '[http] sign-in limit store failed; counting in memory');
  };
  return {
    init(options) {
      shared.init?.(options);
      memory.init(options);
    },
    async increment(key: string): Promise<ClientRateLimitInfo> {
      try {
        return await shared.increment(key);
      } catch (err) {
        fellBack(err);
        return memory.increment(key);
      }
    },
    async decrement(key: string): Promise<void> {
      try {
        await shared.decrement(key);
      } catch (err) {
        fellBack(err);
        await memory.decrement(key);
      }
    },
    async resetKey(key: string): Promise<void> {
      await memory.resetKey(key);
      try {
        await shared.resetKey(key);
      } catch (err) {
        fellBack(err);
      }
    },
  };
}
