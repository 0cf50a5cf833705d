import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Deps } from '../http/context';
import { redisChannelKey } from '../redis';
import { log } from '../observability/log';
import { SCORE_MAX, SIGNUP_MESSAGES, type WomMetric } from '../../contract/signupApi';
import { recordWomLookup, setScore, startWomFetch, womRunCurrent } from './repository';

/** Wise Old Man's budget: 20 look-ups a window (a minute unless WOM_BUDGET_SECONDS), 100 with an API key (docs/server.md §16). */
const WOM_PER_WINDOW = 20;
const WOM_PER_WINDOW_WITH_KEY = 100;
/** How long one look-up may take, in ms. */
const LOOKUP_TIMEOUT_MS = 10_000;
/** How often a look-up answered 429 is tried again before it counts as an error. */
const RETRIES_AFTER_429 = 3;
/** How often a process whose clans are not at the head of the line asks again, in ms. */
const TURN_POLL_MS = 100;
/** Longest wait for the budget before the head clan's place (and its run) is checked again, in ms. */
const BUDGET_RECHECK_MS = 1000;
/** How long a clan keeps its place in the shared line without its process asking (a process that died), in ms. */
const TURN_LEASE_MS = 5000;

/**
 * An OSRS account name: 1 to 12 letters, digits, spaces, '-' or '_'. Nothing else is put into
 * Wise Old Man's URL path: '.' and '..' would resolve to another address ('/players/..' is '/').
 */
const OSRS_NAME = /^[A-Za-z0-9 _-]{1,12}$/;

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
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The budget's key: the API key's hash (or 'anonymous'), as Wise Old Man counts it. */
function budgetKey(deps: Deps): string {
  return deps.config.wom.apiKey ? crypto.createHash('sha256').update(deps.config.wom.apiKey).digest('hex').slice(0, 16) : 'anonymous';
}

/** Takes one look-up from the shared budget (docs/server.md §16): 0 when granted, else the ms until it has room. */
async function tryBudget(deps: Deps): Promise<number> {
  try {
    await limiterOf(deps).consume(budgetKey(deps));
    return 0;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    return Math.max(50, err.msBeforeNext);
  }
}

/** Waits until the shared budget grants one look-up. */
async function takeBudget(deps: Deps): Promise<void> {
  for (let wait = await tryBudget(deps); wait > 0; wait = await tryBudget(deps)) await sleep(wait);
}

/**
 * Whose turn it is among the clans with look-ups waiting (docs/server.md §16): a line of clans,
 * the one served longest ago (or a newcomer, at the back) first; after its look-up a clan goes
 * to the back. In Redis when REDIS_URL is set, so the turns hold over every process.
 */
interface Turns {
  /** Puts `clans` (this process's clans with look-ups waiting) in the line if new; answers the head of the line when it is one of them, else null. */
  next(clans: readonly number[]): Promise<number | null>;
  /** `clan` had a look-up: to the back of the line. */
  served(clan: number): Promise<void>;
  /** `clan` has nothing waiting in this process any more: out of the line. */
  leave(clan: number): Promise<void>;
}

/** The line of one process (no Redis). */
class MemoryTurns implements Turns {
  /** Clan → place in the line; lower goes sooner. */
  private readonly line = new Map<number, number>();
  private seq = 0;

  async next(clans: readonly number[]): Promise<number | null> {
    let head: number | null = null;
    let best = Infinity;
    for (const clan of clans) {
      if (!this.line.has(clan)) this.line.set(clan, ++this.seq);
      const place = this.line.get(clan) as number;
      if (place < best) [head, best] = [clan, place];
    }
    return head;
  }

  async served(clan: number): Promise<void> {
    if (this.line.has(clan)) this.line.set(clan, ++this.seq);
  }

  async leave(clan: number): Promise<void> {
    this.line.delete(clan);
  }
}

/**
 * KEYS: line (sorted set clan → place), leases (sorted set clan → ms its place lapses), counter.
 * ARGV: now (ms), lease (ms), then the asking process's clans. Drops clans whose lease lapsed,
 * adds the new ones at the back, renews the leases of the given ones, answers the head or false.
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
local head = redis.call('ZRANGE', KEYS[1], 0, 0)
return head[1] or false
`;

/** KEYS as NEXT_TURN; ARGV: the clan served, moved to the back when still in the line. */
const SERVED = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[1]) end
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

  constructor(private readonly redis: Redis, prefix: string) {
    this.keys = [`${prefix}:wom:line`, `${prefix}:wom:leases`, `${prefix}:wom:places`];
  }

  async next(clans: readonly number[]): Promise<number | null> {
    if (this.redis.status !== 'ready') return clans[0] ?? null;
    try {
      const head = await this.redis.eval(NEXT_TURN, 3, ...this.keys, Date.now(), TURN_LEASE_MS, ...clans.map(String));
      const clan = typeof head === 'string' ? Number(head) : null;
      return clan !== null && clans.includes(clan) ? clan : null;
    } catch (err) {
      log.warn({ err }, '[signups] Wise Old Man turns: Redis failed, this process takes its own clans in turn');
      return clans[0] ?? null;
    }
  }

  async served(clan: number): Promise<void> {
    if (this.redis.status !== 'ready') return;
    await this.redis.eval(SERVED, 3, ...this.keys, String(clan)).catch((err: unknown) => log.warn({ err }, '[signups] Wise Old Man turns: Redis failed'));
  }

  async leave(clan: number): Promise<void> {
    if (this.redis.status !== 'ready') return;
    await this.redis.multi().zrem(this.keys[0], String(clan)).zrem(this.keys[1], String(clan)).exec()
      .catch((err: unknown) => log.warn({ err }, '[signups] Wise Old Man turns: Redis failed'));
  }
}

/** What Wise Old Man's player details hold that a score is made of. */
interface WomPlayer {
  ehb?: unknown;
  ehp?: unknown;
  latestSnapshot?: { data?: { skills?: { overall?: { level?: unknown } } } } | null;
}

/** The score of `metric` from a player's details, or null when Wise Old Man has no usable value. */
function scoreOf(player: WomPlayer, metric: WomMetric): number | null {
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  const ehb = num(player.ehb);
  const ehp = num(player.ehp);
  let value: number | null;
  if (metric === 'ehb') value = ehb;
  else if (metric === 'ehp') value = ehp;
  else if (metric === 'ehb+ehp') value = ehb === null || ehp === null ? null : ehb + ehp;
  else value = num(player.latestSnapshot?.data?.skills?.overall?.level);
  if (value === null || value < 0) return null;
  return Math.min(value, SCORE_MAX);
}

/**
 * One look-up of an OSRS name (OSRS_NAME; its first share of the budget already taken): the
 * score, or the error text for the progress report. A 429 takes the budget again for each retry.
 */
async function lookUp(deps: Deps, ign: string, metric: WomMetric): Promise<{ score: number } | { error: string }> {
  const url = `${deps.config.wom.apiUrl}/players/${encodeURIComponent(ign)}`;
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'ClanSnakesAndLadders (sign-up scores)' };
  if (deps.config.wom.apiKey) headers['x-api-key'] = deps.config.wom.apiKey;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) await takeBudget(deps);
    let res: Response;
    try {
      res = await fetch(url, { headers, redirect: 'error', signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
    } catch {
      return { error: SIGNUP_MESSAGES.womFailed('nothing (no connection or timed out)') };
    }
    if (res.status === 429 && attempt < RETRIES_AFTER_429) {
      await res.body?.cancel();
      const after = Number(res.headers.get('retry-after'));
      await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 120) * 1000 : 60_000);
      continue;
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return { error: SIGNUP_MESSAGES.womUnknown };
    }
    if (!res.ok) {
      await res.body?.cancel();
      return { error: SIGNUP_MESSAGES.womFailed(res.status) };
    }
    let player: WomPlayer;
    try {
      player = (await res.json()) as WomPlayer;
    } catch {
      return { error: SIGNUP_MESSAGES.womFailed('with something that is not JSON') };
    }
    const score = player && typeof player === 'object' ? scoreOf(player, metric) : null;
    return score === null ? { error: SIGNUP_MESSAGES.womNoValue } : { score };
  }
}

/** One fetch of an event (a run): replaced when the event's progress row names another run. */
interface Run {
  eventId: number;
  runId: string;
  metric: WomMetric;
}

/** A look-up waiting for its clan's turn. */
interface Pending {
  run: Run;
  signupId: number;
  ign: string;
}

/**
 * A process's waiting look-ups, a first-in first-out line per clan, and the one loop that runs
 * them one after another, the clans in turn (Turns) within the shared budget.
 */
class WomQueue {
  private readonly waiting = new Map<number, Pending[]>();
  private pumping = false;

  constructor(
    private readonly deps: Deps,
    private readonly turns: Turns,
  ) {}

  /** Adds a clan's look-ups at the back of its line and starts the loop if it is idle. */
  add(clanId: number, items: readonly Pending[]): void {
    if (items.length === 0) return;
    const line = this.waiting.get(clanId);
    if (line) line.push(...items);
    else this.waiting.set(clanId, [...items]);
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.waiting.size > 0) {
        try {
          await this.step();
        } catch (err) {
          log.error({ err }, '[signups] Wise Old Man look-up failed');
          await sleep(BUDGET_RECHECK_MS);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * One go of the loop: the clan whose turn it is (else a short wait), its first look-up's run
   * still current (else the run's look-ups are dropped), one share of the budget (else a wait of
   * at most BUDGET_RECHECK_MS), then the look-up and its record. A failure on the way (the
   * database away) stops that fetch, logged, as when each fetch ran its own loop.
   */
  private async step(): Promise<void> {
    const clan = await this.turns.next([...this.waiting.keys()]);
    if (clan === null) {
      await sleep(TURN_POLL_MS);
      return;
    }
    const first = this.waiting.get(clan)?.[0];
    if (!first) return;
    const { run } = first;
    try {
      if (!(await womRunCurrent(this.deps.db, run.eventId, run.runId))) {
        await this.drop(clan, run);
        return;
      }
      const wait = await tryBudget(this.deps);
      if (wait > 0) {
        await sleep(Math.min(wait, BUDGET_RECHECK_MS));
        return;
      }
      const line = this.waiting.get(clan) as Pending[];
      line.shift();
      await this.turns.served(clan);
      if (line.length === 0) {
        this.waiting.delete(clan);
        await this.turns.leave(clan);
      }
      const result = await lookUp(this.deps, first.ign, run.metric);
      if ('score' in result) await setScore(this.deps.db, first.signupId, result.score, 'wom');
      const current = await recordWomLookup(this.deps.db, run.eventId, run.runId, 'error' in result ? { ign: first.ign, error: result.error } : null);
      if (!current) await this.drop(clan, run);
    } catch (err) {
      log.error({ err, eventId: run.eventId }, '[signups] Wise Old Man fetch stopped');
      await this.drop(clan, run);
    }
  }

  /** Drops the waiting look-ups of a run that was replaced (or whose event is gone). */
  private async drop(clan: number, run: Run): Promise<void> {
    const line = this.waiting.get(clan);
    if (!line) return;
    const kept = line.filter((p) => p.run !== run);
    if (kept.length > 0) {
      this.waiting.set(clan, kept);
      return;
    }
    this.waiting.delete(clan);
    await this.turns.leave(clan);
  }
}

/** The look-up queue of each app (its Deps). */
const queues = new WeakMap<Deps, WomQueue>();

function queueOf(deps: Deps): WomQueue {
  let queue = queues.get(deps);
  if (!queue) {
    queue = new WomQueue(deps, deps.redis ? new RedisTurns(deps.redis, redisChannelKey(deps.config)) : new MemoryTurns());
    queues.set(deps, queue);
  }
  return queue;
}

/**
 * Starts an event's Wise Old Man fetch (docs/server.md §16) and returns once it is queued: the
 * progress row is written now (total = the sign-ups given; a fetch already running for the event
 * is replaced and stops at its next look-up), and an IGN that is not an OSRS name is an error in
 * it at once, Wise Old Man never asked. The other look-ups wait in the clan's line of this process
 * and run in the background one after another, the clans with look-ups waiting taking turns
 * (over every process with Redis) within the shared budget; each score lands on its sign-up as it
 * arrives (`score_source` 'wom'); a player Wise Old Man does not know, or any other failure, is an
 * error in the progress and changes nothing.
 */
export async function startWomScores(deps: Deps, clanId: number, eventId: number, metric: WomMetric, signups: readonly { id: number; ign: string }[]): Promise<void> {
  const run: Run = { eventId, runId: crypto.randomUUID(), metric };
  await startWomFetch(deps.db, eventId, run.runId, metric, signups.length);
  const pending: Pending[] = [];
  for (const s of signups) {
    if (OSRS_NAME.test(s.ign)) pending.push({ run, signupId: s.id, ign: s.ign });
    else if (!(await recordWomLookup(deps.db, eventId, run.runId, { ign: s.ign, error: SIGNUP_MESSAGES.womBadName }))) return;
  }
  queueOf(deps).add(clanId, pending);
}
