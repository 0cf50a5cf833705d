import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Redis } from 'ioredis';
import type { Deps } from '../../server/http/context';
import { sleep, tryBudget, turnsOf } from '../../server/wom/budget';

/**
 * The Wise Old Man queue's shared parts (server/wom/budget.ts, docs/server.md §16 and §17), in
 * the test's own process: the line of clans taking turns and the budget's sliding window, in
 * memory and (with TEST_REDIS_URL) in Redis, two apps standing for two processes sharing them.
 */

/** What budget.ts reads of an app: its config (the Redis keys' prefix, the budget) and its Redis. */
function appOf(site: string, redis: Redis | null, wom: { apiKey?: string; budgetSeconds?: number } = {}): Deps {
  const config = { databaseUrl: null, sqliteFile: `/tmp/wom-budget-${site}.db`, wom: { apiUrl: 'http://127.0.0.1:9', apiKey: wom.apiKey ?? null, budgetSeconds: wom.budgetSeconds ?? 60, checkMs: 60_000 } };
  return { config, redis } as unknown as Deps;
}

const redisUrl = process.env.TEST_REDIS_URL;
type Apps = (site: string, wom?: { budgetSeconds?: number }) => [Deps, Deps];
const lines: [string, Apps][] = [['memory', (site, wom) => { const app = appOf(site, null, wom); return [app, app]; }]];
let redis: Redis | null = null;
if (redisUrl) lines.push(['redis, two processes', (site, wom) => [appOf(site, redis, wom), appOf(site, redis, wom)]]);

beforeAll(async () => {
  if (!redisUrl) return;
  redis = new Redis(redisUrl, { enableOfflineQueue: true });
  await redis.ping();
});
afterAll(() => redis?.disconnect());

describe.each(lines)("Wise Old Man's line of clans (%s)", (_name, apps) => {
  const site = () => crypto.randomBytes(6).toString('hex');

  it('serves the clans in turn, a newcomer at the back', async () => {
    const [p1, p2] = apps(site());
    const [t1, t2] = [turnsOf(p1), turnsOf(p2)];
    expect(await t1.next([1])).toBe(1);
    expect(await t1.next([1])).toBe(1);
    const served = [];
    for (let i = 0; i < 6; i++) served.push(await (i % 2 ? t2 : t1).next([1, 2]));
    expect(served).toEqual([1, 2, 1, 2, 1, 2]);
  });

  it.each([['the first taker', 'first'], ['the second taker', 'second']])('gives unused turns back in their order when %s gives back first', async (_who, first) => {
    const [p1, p2] = apps(site());
    const [t1, t2] = [turnsOf(p1), turnsOf(p2)];
    expect(await t1.next([1, 2])).toBe(1);
    expect(await t2.next([1, 2])).toBe(2);
    // Neither had budget: both give back; clan 1, ahead before, is still ahead.
    const backs = [() => t1.giveBack(1), () => t2.giveBack(2)];
    for (const back of first === 'first' ? backs : backs.reverse()) await back();
    expect([await t1.next([1, 2]), await t2.next([1, 2]), await t1.next([1, 2])]).toEqual([1, 2, 1]);
  });

  // One process has one worker, so only another process can take a clan's turn in between.
  it.runIf(_name !== 'memory')("leaves a clan's place alone when another process took its next turn before the unused one came back", async () => {
    const [p1, p2] = apps(site());
    const [t1, t2] = [turnsOf(p1), turnsOf(p2)];
    expect(await t1.next([1, 2])).toBe(1);
    expect(await t2.next([1, 2])).toBe(2);
    expect(await t2.next([1, 2])).toBe(1);
    // The first process's turn of clan 1 went unused; the second's later one stands for it.
    await t1.giveBack(1);
    expect([await t1.next([1, 2]), await t2.next([1, 2])]).toEqual([2, 1]);
  });
});

describe.each(lines)("Wise Old Man's budget, a sliding window (%s)", (_name, apps) => {
  it('never grants more than 20 calls in any stretch of its window, wherever it starts, and grants a burst at once', async () => {
    // 20 a second: WOM_BUDGET_SECONDS 1.
    const [p1, p2] = apps(crypto.randomBytes(6).toString('hex'), { budgetSeconds: 1 });
    const calls: number[] = [];
    /** One call as the queue makes it: the share taken, the call (its time noted), the share ended; else the wait. */
    const call = async (app: Deps): Promise<number | null> => {
      const share = await tryBudget(app);
      if ('waitMs' in share) return share.waitMs;
      calls.push(Date.now());
      await share.slot.end();
      return null;
    };
    // One call, then half a window later a burst: a fixed window (counted from the first call)
    // grants the burst's 19 and, as soon as it turns, 20 more: 39 within half a window.
    expect(await call(p1)).toBeNull();
    await sleep(500);
    for (let i = 0; i < 19; i++) expect(await call(i % 2 ? p2 : p1)).toBeNull();
    // Both processes keep asking as the queue's workers do (waiting what they are told, at most 100 ms at a time).
    await Promise.all([p1, p2].map(async (app) => {
      while (calls.length < 60) {
        const wait = await call(app);
        if (wait !== null) await sleep(Math.min(wait, 100));
      }
    }));
    const times = [...calls].sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; j < times.length; j++) {
      while (times[j] - times[i] >= 1000) i++;
      most = Math.max(most, j - i + 1);
    }
    expect(most, times.map((t) => t - times[0]).join(', ')).toBeLessThanOrEqual(20);
    // Not slower than the limit either: the 21st call came within two windows of the first.
    expect(times[20] - times[0]).toBeLessThan(2000);
  }, 30_000);

  it('gives a share that made no call back at once', async () => {
    const [p1, p2] = apps(crypto.randomBytes(6).toString('hex'), { budgetSeconds: 60 });
    for (let i = 0; i < 20; i++) {
      const share = await tryBudget(i % 2 ? p2 : p1);
      if (!('slot' in share)) throw new Error(`share ${i} refused`);
      if (i === 19) await share.slot.free();
      else await share.slot.end();
    }
    const again = await tryBudget(p2);
    expect('slot' in again).toBe(true);
    expect(await tryBudget(p1)).toMatchObject({ waitMs: expect.any(Number) });
  });
});
