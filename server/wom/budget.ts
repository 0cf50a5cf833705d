import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Deps } from '../http/context';
import { redisChannelKey } from '../redis';
import { log } from '../observability/log';
import { CALL_TIMEOUT_MS } from './client';

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

/** Resolves after `ms` without keeping the process alive. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * One call granted by the budget. It holds its place in the window from the grant until a whole
 * window after the call ended: `end()` once Wise Old Man answered (or the call failed), `free()`
 * when no call was made with it (its place is given back at once).
 */
export interface BudgetSlot {
  end(): Promise<void>;
  free(): Promise<void>;
}

/**
 * A sliding log of the calls granted (docs/server.md §17 'Wise Old Man checks'): each call holds a
 * place until `windowMs` after its time, and a call is granted only while fewer than `limit`
 * places are held, so no stretch of `windowMs` ever holds more than `limit` calls, wherever it
 * starts. A call's time is first its grant plus the longest a call may take (so a call still on
 * its way is never forgotten), then, at `end`, the moment it ended: a call reaches Wise Old Man
 * between the two, so Wise Old Man never sees more than `limit` in any window either.
 * rate-limiter-flexible (used for the other limits) counts fixed windows only (its
 * BurstyRateLimiter layers two of them), which lets up to twice the limit through around a
 * window's edge; hence this log.
 */
interface SlidingLog {
  /** Takes a place named `id`: null when granted, else the ms until one frees. */
  take(id: string): Promise<{ waitMs: number } | null>;
  /** The call ended now: its place is held until a window from now (never later than taken). */
  end(id: string): Promise<void>;
  /** The place was not used: freed at once. */
  free(id: string): Promise<void>;
}

/** The log of one process (no Redis, or while Redis fails). Times are this process's clock, in ms. */
class MemoryLog implements SlidingLog {
  /** Place id → the ms its call counts from (until that plus the window). */
  private readonly held = new Map<string, number>();

  constructor(private readonly limit: number, private readonly windowMs: number) {}

  async take(id: string): Promise<{ waitMs: number } | null> {
    const now = Date.now();
    for (const [key, at] of this.held) if (at + this.windowMs < now) this.held.delete(key);
    if (this.held.size < this.limit) {
      this.held.set(id, now + CALL_TIMEOUT_MS);
      return null;
    }
    const times = [...this.held.values()].sort((a, b) => a - b);
    return { waitMs: Math.max(1, times[this.held.size - this.limit] + this.windowMs + 1 - now) };
  }

  async end(id: string): Promise<void> {
    const at = this.held.get(id);
    if (at !== undefined) this.held.set(id, Math.min(at, Date.now()));
  }

  async free(id: string): Promise<void> {
    this.held.delete(id);
  }
}

/**
 * KEYS: the log (sorted set place id → ms its call counts from). ARGV: limit, window (ms), the
 * longest call (ms), the new place's id. Redis's own clock, so every process measures alike.
 * Drops places older than a window, grants (0) while fewer than `limit` are held, else answers
 * the ms until the place that frees one is a window old.
 */
const TAKE_PLACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window - 1)
local held = redis.call('ZCARD', KEYS[1])
if held < limit then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window + tonumber(ARGV[3]) + 1000)
  return 0
end
local freeing = redis.call('ZRANGE', KEYS[1], held - limit, held - limit, 'WITHSCORES')
return math.max(1, tonumber(freeing[2]) + window + 1 - now)
`;

/** KEYS as TAKE_PLACE; ARGV: the place's id, whose call ended now (Redis's clock). */
const END_PLACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if at and tonumber(at) > now then redis.call('ZADD', KEYS[1], now, ARGV[1]) end
return 1
`;

/**
 * The log shared by every process through Redis. While Redis is not connected or fails, the
 * process counts in its own MemoryLog (as an insurance: the site may then ask up to the limit per
 * process), and a place is ended or freed where it was taken.
 */
class RedisLog implements SlidingLog {
  private readonly insurance: MemoryLog;
  /** Places taken in the insurance log rather than in Redis. */
  private readonly local = new Set<string>();

  constructor(private readonly redis: Redis, private readonly key: string, private readonly limit: number, private readonly windowMs: number) {
    this.insurance = new MemoryLog(limit, windowMs);
  }

  async take(id: string): Promise<{ waitMs: number } | null> {
    if (this.redis.status === 'ready') {
      try {
        const wait = Number(await this.redis.eval(TAKE_PLACE, 1, this.key, this.limit, this.windowMs, CALL_TIMEOUT_MS, id));
        return wait > 0 ? { waitMs: wait } : null;
      } catch (err) {
        log.warn({ err }, '[wom] Wise Old Man budget: Redis failed, this process counts its own calls');
      }
    }
    const answer = await this.insurance.take(id);
    if (!answer) this.local.add(id);
    return answer;
  }

  async end(id: string): Promise<void> {
    if (this.local.delete(id)) return this.insurance.end(id);
    if (this.redis.status !== 'ready') return;
    await this.redis.eval(END_PLACE, 1, this.key, id).catch((err: unknown) => log.warn({ err }, '[wom] Wise Old Man budget: Redis failed'));
  }

  async free(id: string): Promise<void> {
    if (this.local.delete(id)) return this.insurance.free(id);
    if (this.redis.status !== 'ready') return;
    await this.redis.zrem(this.key, id).catch((err: unknown) => log.warn({ err }, '[wom] Wise Old Man budget: Redis failed'));
  }
}

/** The budget of each app (its Deps): in Redis when REDIS_URL is set, so every process shares it. */
const budgets = new WeakMap<Deps, SlidingLog>();

/** The budget's key: the API key's hash (or 'anonymous'), as Wise Old Man counts it. */
function budgetKey(deps: Deps): string {
  return deps.config.wom.apiKey ? crypto.createHash('sha256').update(deps.config.wom.apiKey).digest('hex').slice(0, 16) : 'anonymous';
}

function budgetOf(deps: Deps): SlidingLog {
  let budget = budgets.get(deps);
  if (!budget) {
    const limit = deps.config.wom.apiKey ? WOM_PER_WINDOW_WITH_KEY : WOM_PER_WINDOW;
    const windowMs = deps.config.wom.budgetSeconds * 1000;
    budget = deps.redis ? new RedisLog(deps.redis, `${redisChannelKey(deps.config)}:wom:budget:${budgetKey(deps)}`, limit, windowMs) : new MemoryLog(limit, windowMs);
    budgets.set(deps, budget);
  }
  return budget;
}

/**
 * Takes one call from the shared budget (docs/server.md §16, §17): its slot, or the ms until the
 * budget has room (at least 50, so a waiting worker does not spin).
 */
export async function tryBudget(deps: Deps): Promise<{ slot: BudgetSlot } | { waitMs: number }> {
  const budget = budgetOf(deps);
  const id = crypto.randomUUID();
  const refused = await budget.take(id);
  if (refused) return { waitMs: Math.max(50, refused.waitMs) };
  return { slot: { end: () => budget.end(id), free: () => budget.free(id) } };
}

/** Waits until the shared budget grants one call; answers its slot. */
export async function takeBudget(deps: Deps): Promise<BudgetSlot> {
  for (;;) {
    const got = await tryBudget(deps);
    if ('slot' in got) return got.slot;
    await sleep(got.waitMs);
  }
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
