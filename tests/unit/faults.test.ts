import net from 'node:net';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Store } from 'hono-rate-limiter';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from '../../server/db/unreachable';
import { withMemoryFallback } from '../../server/http/fallbackStore';
import { quietPublisher } from '../../server/redis';

/**
 * The pieces that carry the site through a lost database or Redis (docs/server.md §14 "Faults";
 * the whole of it is tests/server/faults.api.test.ts): which errors mean the database is away,
 * the sign-in limit's memory fallback, and the adapter's publisher that never rejects.
 */

/** A port on 127.0.0.1 that nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('isDatabaseUnreachable', () => {
  it('is true for the error of a PostgreSQL that does not listen', async () => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/none` });
    const err = await client.connect().then(() => null, (e: unknown) => e);
    expect(err).not.toBeNull();
    expect(isDatabaseUnreachable(err)).toBe(true);
  });

  it('is true for a cut connection, a connection exception and PostgreSQL shutting down or starting', () => {
    expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('read'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isDatabaseUnreachable(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' }), Object.assign(new Error('b'), { code: 'ECONNREFUSED' })]))).toBe(true);
  });

  it('is false for errors of the statement or the input, and for anything that is not an error', () => {
    expect(isDatabaseUnreachable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnreachable(Object.assign(new Error('invalid input syntax'), { code: '22P02' }))).toBe(false);
    expect(isDatabaseUnreachable(new Error('syntax error at or near "selec"'))).toBe(false);
    expect(isDatabaseUnreachable(new AggregateError([]))).toBe(false);
    expect(isDatabaseUnreachable(null)).toBe(false);
    expect(isDatabaseUnreachable('Connection terminated')).toBe(false);
  });
});

describe('withMemoryFallback', () => {
  const options = { windowMs: 60_000 } as Parameters<NonNullable<Store['init']>>[0];

  it('answers from the shared store while it works', async () => {
    const shared: Store = { increment: async () => ({ totalHits: 7, resetTime: undefined }), decrement: async () => {}, resetKey: async () => {} };
    const store = withMemoryFallback(shared);
    store.init?.(options);
    expect((await store.increment('1.2.3.4')).totalHits).toBe(7);
  });

  it('counts in memory when the shared store fails, per key', async () => {
    const broken = async () => {
      throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
    };
    const store = withMemoryFallback({ increment: broken, decrement: broken, resetKey: broken });
    store.init?.(options);
    expect((await store.increment('1.2.3.4')).totalHits).toBe(1);
    expect((await store.increment('1.2.3.4')).totalHits).toBe(2);
    expect((await store.increment('5.6.7.8')).totalHits).toBe(1);
    await store.decrement('1.2.3.4');
    expect((await store.increment('1.2.3.4')).totalHits).toBe(2);
    await store.resetKey('1.2.3.4');
    expect((await store.increment('1.2.3.4')).totalHits).toBe(1);
  });
});

describe('quietPublisher', () => {
  it('answers 0 receivers instead of rejecting while Redis is lost, and is the client otherwise', async () => {
    const redis = new Redis(await closedPort(), '127.0.0.1', { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    redis.on('error', () => {});
    try {
      await expect(redis.publish('channel', 'message')).rejects.toThrow();
      const publisher = quietPublisher(redis);
      await expect(publisher.publish('channel', 'message')).resolves.toBe(0);
      expect(publisher.status).toBe(redis.status);
      expect(typeof publisher.on).toBe('function');
    } finally {
      redis.disconnect();
    }
  });
});
