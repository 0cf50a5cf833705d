import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Redis } from 'ioredis';
import type { Deps } from '../../server/http/context';
import { turnsOf } from '../../server/wom/budget';

/**
 * The Wise Old Man queue's shared parts (server/wom/budget.ts, docs/server.md §16 and §17), in
 * the test's own process: the line of clans taking turns, in memory and (with TEST_REDIS_URL) in
 * Redis, two apps standing for two processes sharing it.
 */

/** What budget.ts reads of an app: its config (the Redis keys' prefix, the budget) and its Redis. */
function appOf(site: string, redis: Redis | null, wom: { apiKey?: string; budgetSeconds?: number } = {}): Deps {
  const config = { databaseUrl: null, sqliteFile: `/tmp/wom-budget-${site}.db`, wom: { apiUrl: 'http://127.0.0.1:9', apiKey: wom.apiKey ?? null, budgetSeconds: wom.budgetSeconds ?? 60, checkMs: 60_000 } };
  return { config, redis } as unknown as Deps;
}

const redisUrl = process.env.TEST_REDIS_URL;
const lines: [string, (site: string) => [Deps, Deps]][] = [['memory', (site) => { const app = appOf(site, null); return [app, app]; }]];
let redis: Redis | null = null;
if (redisUrl) lines.push(['redis, two processes', (site) => [appOf(site, redis), appOf(site, redis)]]);

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
