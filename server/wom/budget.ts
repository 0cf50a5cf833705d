import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Deps } from '../http/context';
import { redisChannelKey } from '../redis';
import { log } from '../observability/log';

/*
 * What every call to Wise Old Man shares, whatever asks for it (sign-up scores, team totals;
 * docs/server.md §16 and §17): one budget of calls over every process, and one line of clans
 * taking turns. The queue (queue.ts) uses both.
 */

/** Wise Old Man's budget: 20 calls a window (a minute unless WOM_BUDGET_SECONDS), 100 with an API key (docs/server.md §16, §17). */
const WOM_PER_WINDOW = 20;
const WOM_PER_WINDOW_WITH_KEY = 100;
/** How long a clan keeps its place in the shared line without its process asking (a process that died), in ms. */
const TURN_LEASE_MS = 5000;

/** The look-up budget of each app (its Deps): in Redis when REDIS_URL is set, so every process shares it. */
const limiters = new WeakMap<Deps, RateLimiterAbstract>();

function limiterOf(deps: Deps): RateLimiterAbstract {
  let limiter = limiters.get(deps);
  if (!limiter) {
    const points = deps.config.wom.apiKey ? WOM_PER_WINDOW_WITH_KEY : WOM_PER_WINDOW;
    const duration = deps.config.wom.budgetSeconds;
    const keyPrefix = `${redisChannelKey(deps.config)}:wom`;
    const memory = new RateLimiterMemory({ points, duration, keyPrefix });
    limiter = deps.redis ? new RateLimiterRedis({ storeClient: deps.redis, points, duration, keyPrefix, insuranceLimiter: memory }) : memory;
    limiters.set(deps, limiter);
  }
  return limiter;
}

/** Resolves after `ms` without keeping the process alive. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The budget's key: the API key's hash (or 'anonymous'), as Wise Old Man counts it. */
function budgetKey(deps: Deps): string {
  return deps.config.wom.apiKey ? crypto.createHash('sha256').update(deps.config.wom.apiKey).digest('hex').slice(0, 16) : 'anonymous';
}

/** Takes one call from the shared budget (docs/server.md §16, §17): 0 when granted, else the ms until it has room. */
export async function tryBudget(deps: Deps): Promise<number> {
  try {
    await limiterOf(deps).consume(budgetKey(deps));
    return 0;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    return Math.max(50, err.msBeforeNext);
  }
}

/** Waits until the shared budget grants one call. */
export async function takeBudget(deps: Deps): Promise<void> {
  for (let wait = await tryBudget(deps); wait > 0; wait = await tryBudget(deps)) await sleep(wait);
}

/**
 * Whose turn it is among the clans with look-ups waiting (docs/server.md §16): a line of clans,
 * the one served longest ago (or a newcomer, at the back) first; a clan goes to the back as its
 * turn is taken (in the same step, so two processes' workers asking at once get two turns, not
 * the same one twice). In Redis when REDIS_URL is set, so the turns hold over every process.
 */
export interface Turns {
  /** Puts `clans` (the clans with look-ups due) in the line if new; when the head of the line is one of them, takes its turn (it goes to the back) and answers it, else null. */
  next(clans: readonly number[]): Promise<number | null>;
  /**
   * `clan`'s turn, just taken by this process, was not used (no budget, call dropped): the clan
   * gets back the place it had before taking it, unless its place moved since (another process
   * took a later turn of it, which then stands for the unused one). Giving back the old place
   * rather than the front of the line keeps two processes' unused turns in their order, whichever
   * gives back first.
   */
  giveBack(clan: number): Promise<void>;
  /** `clan` has nothing waiting in this process any more: out of the line. */
  leave(clan: number): Promise<void>;
}

/** A turn this process took: the clan's place before (`from`) and after (`to`) taking it. */
interface TakenTurn {
  from: number;
  to: number;
}

/** The line of one process (no Redis). */
class MemoryTurns implements Turns {
  /** Clan → place in the line; lower goes sooner. */
  private readonly line = new Map<number, number>();
  /** Clan → its last turn taken here, for giveBack. */
  private readonly taken = new Map<number, TakenTurn>();
  private seq = 0;

  async next(clans: readonly number[]): Promise<number | null> {
    let head: number | null = null;
    let best = Infinity;
    for (const clan of clans) {
      if (!this.line.has(clan)) this.line.set(clan, ++this.seq);
      const place = this.line.get(clan) as number;
      if (place < best) [head, best] = [clan, place];
    }
    if (head !== null) {
      const to = ++this.seq;
      this.taken.set(head, { from: best, to });
      this.line.set(head, to);
    }
    return head;
  }

  async giveBack(clan: number): Promise<void> {
    const turn = this.taken.get(clan);
    this.taken.delete(clan);
    if (turn && this.line.get(clan) === turn.to) this.line.set(clan, turn.from);
  }

  async leave(clan: number): Promise<void> {
    this.line.delete(clan);
    this.taken.delete(clan);
  }
}

/**
 * KEYS: line (sorted set clan → place), leases (sorted set clan → ms its place lapses), counter.
 * ARGV: now (ms), lease (ms), then the asking process's clans. Drops clans whose lease lapsed,
 * adds the new ones at the back, renews the leases of the given ones, answers {head} or false;
 * a head among the given clans goes to the back (its turn is taken) and the answer is {head, its
 * place before, its place now} (for GIVE_BACK).
 */
const NEXT_TURN = `
local now = tonumber(ARGV[1])
for _, clan in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. now)) do
  redis.call('ZREM', KEYS[1], clan)
  redis.call('ZREM', KEYS[2], clan)
end
for i = 3, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[i]) end
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[i])
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local head = first[1]
if not head then return false end
for i = 3, #ARGV do
  if ARGV[i] == head then
    local to = redis.call('INCR', KEYS[3])
    redis.call('ZADD', KEYS[1], to, head)
    return {head, first[2], tostring(to)}
  end
end
return {head}
`;

/**
 * KEYS as NEXT_TURN; ARGV: the clan whose turn went unused, its place before and after taking it.
 * The clan gets its place before back when it still stands where the turn put it (not dropped,
 * not taken again since by another process).
 */
const GIVE_BACK = `
local now = redis.call('ZSCORE', KEYS[1], ARGV[1])
if now and tonumber(now) == tonumber(ARGV[3]) then redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1]) end
return 1
`;

/**
 * The line shared by every process through Redis. A process that stops asking (it died) loses
 * its clans' places after TURN_LEASE_MS. While Redis is not connected (nothing is sent then, so
 * no command waits in ioredis's offline queue) or when it fails, the process goes on with its
 * own clans in turn (the budget has its own in-memory insurance).
 */
class RedisTurns implements Turns {
  private readonly keys: [string, string, string];
  /** Clan → its last turn taken by this process (places as Redis wrote them), for giveBack. */
  private readonly taken = new Map<number, { from: string; to: string }>();

  constructor(private readonly redis: Redis, prefix: string) {
    this.keys = [`${prefix}:wom:line`, `${prefix}:wom:leases`, `${prefix}:wom:places`];
  }

  async next(clans: readonly number[]): Promise<number | null> {
    if (this.redis.status !== 'ready') return clans[0] ?? null;
    try {
      const answer = await this.redis.eval(NEXT_TURN, 3, ...this.keys, Date.now(), TURN_LEASE_MS, ...clans.map(String));
      if (!Array.isArray(answer) || answer.length !== 3) return null;
      const [head, from, to] = answer.map(String);
      const clan = Number(head);
      if (!clans.includes(clan)) return null;
      this.taken.set(clan, { from, to });
      return clan;
    } catch (err) {
      log.warn({ err }, '[wom] Wise Old Man turns: Redis failed, this process takes its own clans in turn');
      return clans[0] ?? null;
    }
  }

  async giveBack(clan: number): Promise<void> {
    const turn = this.taken.get(clan);
    this.taken.delete(clan);
    if (!turn || this.redis.status !== 'ready') return;
    await this.redis.eval(GIVE_BACK, 3, ...this.keys, String(clan), turn.from, turn.to).catch((err: unknown) => log.warn({ err }, '[wom] Wise Old Man turns: Redis failed'));
  }

  async leave(clan: number): Promise<void> {
    this.taken.delete(clan);
    if (this.redis.status !== 'ready') return;
    await this.redis.multi().zrem(this.keys[0], String(clan)).zrem(this.keys[1], String(clan)).exec()
      .catch((err: unknown) => log.warn({ err }, '[wom] Wise Old Man turns: Redis failed'));
  }
}

/** The line of each app (its Deps): in Redis when REDIS_URL is set. */
const turnsByDeps = new WeakMap<Deps, Turns>();

/** The app's line of clans taking turns (docs/server.md §16): shared by every process through Redis when REDIS_URL is set. */
export function turnsOf(deps: Deps): Turns {
  let turns = turnsByDeps.get(deps);
  if (!turns) {
    turns = deps.redis ? new RedisTurns(deps.redis, redisChannelKey(deps.config)) : new MemoryTurns();
    turnsByDeps.set(deps, turns);
  }
  return turns;
}
