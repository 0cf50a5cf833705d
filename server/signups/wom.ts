import crypto from 'node:crypto';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Deps } from '../http/context';
import { redisChannelKey } from '../redis';
import { log } from '../observability/log';
import { SCORE_MAX, SIGNUP_MESSAGES, type WomMetric } from '../../contract/signupApi';
import { recordWomLookup, setScore, startWomFetch, womRunCurrent } from './repository';

/** Wise Old Man's budget: 20 look-ups a minute, 100 with an API key (docs/server.md §16). */
const WOM_PER_MINUTE = 20;
const WOM_PER_MINUTE_WITH_KEY = 100;
/** How long one look-up may take, in ms. */
const LOOKUP_TIMEOUT_MS = 10_000;
/** How often a look-up answered 429 is tried again before it counts as an error. */
const RETRIES_AFTER_429 = 3;

/** The look-up budget of each app (its Deps): in Redis when REDIS_URL is set, so every process shares it. */
const limiters = new WeakMap<Deps, RateLimiterAbstract>();

function limiterOf(deps: Deps): RateLimiterAbstract {
  let limiter = limiters.get(deps);
  if (!limiter) {
    const points = deps.config.wom.apiKey ? WOM_PER_MINUTE_WITH_KEY : WOM_PER_MINUTE;
    const keyPrefix = `${redisChannelKey(deps.config)}:wom`;
    const memory = new RateLimiterMemory({ points, duration: 60, keyPrefix });
    limiter = deps.redis ? new RateLimiterRedis({ storeClient: deps.redis, points, duration: 60, keyPrefix, insuranceLimiter: memory }) : memory;
    limiters.set(deps, limiter);
  }
  return limiter;
}

/** Resolves after `ms` without keeping the process alive. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Waits until the shared budget grants one look-up (docs/server.md §16): the budget is keyed by
 * the API key's hash (or 'anonymous'), as Wise Old Man counts it.
 */
async function takeBudget(deps: Deps): Promise<void> {
  const key = deps.config.wom.apiKey ? crypto.createHash('sha256').update(deps.config.wom.apiKey).digest('hex').slice(0, 16) : 'anonymous';
  for (;;) {
    try {
      await limiterOf(deps).consume(key);
      return;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      await sleep(Math.max(50, err.msBeforeNext));
    }
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

/** One look-up: the score, or the error text for the progress report. */
async function lookUp(deps: Deps, ign: string, metric: WomMetric): Promise<{ score: number } | { error: string }> {
  const url = `${deps.config.wom.apiUrl}/players/${encodeURIComponent(ign)}`;
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'ClanSnakesAndLadders (sign-up scores)' };
  if (deps.config.wom.apiKey) headers['x-api-key'] = deps.config.wom.apiKey;
  for (let attempt = 0; ; attempt++) {
    await takeBudget(deps);
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

/**
 * Starts an event's Wise Old Man fetch (docs/server.md §16) and returns at once: the progress
 * row is written now (total = the sign-ups given; a fetch already running for the event is
 * replaced and stops at its next look-up), then the look-ups run in the background of this
 * process within the shared budget, each score landing on its sign-up as it arrives
 * (`score_source` 'wom'); a player Wise Old Man does not know, or any other failure, is an error
 * in the progress and changes nothing.
 */
export async function startWomScores(deps: Deps, eventId: number, metric: WomMetric, signups: readonly { id: number; ign: string }[]): Promise<void> {
  const runId = crypto.randomUUID();
  await startWomFetch(deps.db, eventId, runId, metric, signups.length);
  void (async () => {
    try {
      for (const s of signups) {
        if (!(await womRunCurrent(deps.db, eventId, runId))) return;
        const result = await lookUp(deps, s.ign, metric);
        if ('score' in result) await setScore(deps.db, s.id, result.score, 'wom');
        const current = await recordWomLookup(deps.db, eventId, runId, 'error' in result ? { ign: s.ign, error: result.error } : null);
        if (!current) return;
      }
    } catch (err) {
      log.error({ err, eventId }, '[signups] Wise Old Man fetch stopped');
    }
  })();
}
