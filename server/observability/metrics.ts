import crypto from 'node:crypto';
import type { Handler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { AppEnv } from '../http/context';
import { clientAddress, isLoopback } from '../http/clientAddress';
import { LIVE_GAME_STATUSES } from '../../contract/lobby';
import { log } from './log';

/**
 * The metrics of this process (prom-client; docs/server.md §14). One registry of its own, not
 * prom-client's global one, so importing this module twice in one test process never registers a
 * family twice. Every label value comes from a fixed set: a route pattern, never a path; an outcome
 * kind, never a URL; no session id, token or webhook anywhere.
 */
const registry = new Registry();

/**
 * Answers counted since the last scrape, per labelled series (httpRequestSeries): an answer adds 1
 * to its series' `n`, and a scrape (the counter's collect) adds each `n` to http_requests_total,
 * so an answer pays no label hashing (prom-client's labelled inc() hashes and validates its labels
 * every call).
 */
const pendingHttpCounts: { labels: Record<'method' | 'route' | 'status', string>; n: number }[] = [];

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
  collect() {
    for (const pending of pendingHttpCounts) {
      if (pending.n === 0) continue;
      this.inc(pending.labels, pending.n);
      pending.n = 0;
    }
  },
});

/** The labels of one HTTP series: method, route pattern, status. */
type HttpLabels = Record<'method' | 'route' | 'status', string>;

/** One labelled series of SeriesHistogram: its count per bucket (the last one past every bound), sum and count. */
interface HistogramSeries {
  labels: HttpLabels;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram whose labelled series are made once and then observed directly: observe(v) finds
 * v's bucket and adds to that series' own numbers, with none of the label work prom-client's
 * labelled observe() does on every call (it builds, checks and hashes the label object: ~1 µs
 * an answer). A scrape reads it like any prom-client metric (registerMetric; get() answers the
 * values in the shape prom-client's Histogram does): `<name>_bucket` per upper bound and +Inf
 * (cumulative), `<name>_sum` and `<name>_count` per series, in the order the series were first
 * observed, a series never observed not shown. Same text as a prom-client Histogram of the same
 * name, help and buckets fed the same values (tests/unit/observability.test.ts).
 */
class SeriesHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private series: HistogramSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {}

  /** The observer of the series of `labels` (a new series each call: the caller keeps it). */
  labels(labels: HttpLabels): { observe(value: number): void } {
    const series: HistogramSeries = { labels, buckets: new Float64Array(this.upperBounds.length + 1), sum: 0, count: 0 };
    this.series.push(series);
    const bounds = this.upperBounds;
    return {
      observe(value: number) {
        let i = 0;
        while (i < bounds.length && value > bounds[i]) i += 1;
        series.buckets[i] += 1;
        series.sum += value;
        series.count += 1;
      },
    };
  }

  /** The values of every observed series, as prom-client's Histogram.get() answers them. */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: { labels: Record<string, string | number>; value: number; metricName: string }[] }> {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const s of this.series) {
      if (s.count === 0) continue;
      let below = 0;
      for (const [i, le] of this.upperBounds.entries()) {
        below += s.buckets[i];
        values.push({ labels: { le, ...s.labels }, value: below, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Zeroes every series (Registry.resetMetrics); their observers keep counting from zero. */
  reset(): void {
    for (const s of this.series) {
      s.buckets.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}

/** The upper bounds (s) of http_request_duration_seconds' buckets. */
const HTTP_DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpDuration = new SeriesHistogram(
  'http_request_duration_seconds',
  'Time from a request reaching the server to its answer, by method, route pattern and status.',
  HTTP_DURATION_BUCKETS,
);
// prom-client's registry reads a metric through name, help, type and get() (and reset()); its
// types name only its own four classes.
registry.registerMetric(httpDuration as unknown as Metric);

const rolls = new Counter({
  name: 'game_rolls_total',
  help: 'Rolls applied by this process (roll_dice that were stored and broadcast).',
  registers: [registry],
});


const rollBroadcast = new Histogram({
  name: 'game_roll_broadcast_seconds',
  help: "Time from a roll's arrival at the server (its socket message) to its broadcast to the game's rooms.",
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

const dbQueries = new Counter({
  name: 'db_queries_total',
  help: 'SQL statements this process ran (counted only with DB_COUNT_QUERIES=1, for benchmarks).',
  registers: [registry],
});

const discordFailures = new Counter({
  name: 'discord_posts_failed_total',
  help: 'Announcement posts Discord did not take, by reason (retry: 5xx or no answer; rate_limited: 429; gone: webhook deleted or invalid; rejected: another 4xx).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

const dinkPosts = new Counter({
  name: 'dink_posts_total',
  help: 'Posts from the Dink plugin, by outcome.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** What the gauges read on each scrape; set once by startProcessMetrics. */
interface Sources {
  db: Kysely<Database>;
  /** Sockets connected to this process now. */
  sockets(): number;
}
let sources: Sources | null = null;

/**
 * A gauge read on each scrape with one cheap count query; NaN (unknown) while the database does
 * not answer, so a scrape never fails because of it.
 */
function countGauge(name: string, help: string, count: (db: Kysely<Database>) => Promise<number>): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      if (!sources) return this.set(0);
      try {
        this.set(await count(sources.db));
      } catch (err) {
        log.warn({ err, metric: name }, 'metrics: a gauge could not be read');
        this.set(Number.NaN);
      }
    },
  });
}

new Gauge({
  name: 'socketio_connected_sockets',
  help: 'Socket.IO sockets connected to this process.',
  registers: [registry],
  collect() {
    this.set(sources ? sources.sockets() : 0);
  },
});

countGauge('games_live', 'Games that are live (READY, in-progress or paused), over the whole site.', async (db) => {
  const row = await db.selectFrom('games').select((eb) => eb.fn.countAll<number | string>().as('n')).where('status', 'in', [...LIVE_GAME_STATUSES]).executeTakeFirst();
  return Number(row?.n ?? 0);
});

countGauge('discord_outbox_pending', 'Discord announcements waiting in the outbox (all processes share it).', async (db) => {
  const row = await db.selectFrom('discord_outbox').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
});

/**
 * Starts what is measured about the process as a whole: prom-client's default metrics (event loop
 * lag, heap, CPU, handles) and the gauges read on scrape (`db` for live games and the Discord
 * outbox, `sockets` for the connected socket count). Called once, by server/index.ts.
 */
export function startProcessMetrics(from: Sources): void {
  if (sources) return;
  sources = from;
  collectDefaultMetrics({ register: registry });
}

/** Methods a label may name; any other is counted as OTHER (node's parser accepts dozens). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One labelled series pair of the HTTP families (prom-client's children of one method, route and status). */
export interface HttpSeries {
  count: { inc(): void };
  duration: { observe(seconds: number): void };
}

/**
 * The http_requests_total and http_request_duration_seconds children of one method (any other
 * than METHODS is OTHER), route pattern (e.g. /api/clan/:clanId/games/live, never a path) and
 * status. The caller keeps them (observability/requests.ts), so an answer does not build its
 * labels again: counting it is one inc() (an addition, handed to the counter at the next scrape)
 * and one observe(seconds).
 */
export function httpRequestSeries(method: string, route: string, status: number): HttpSeries {
  const labels = { method: METHODS.has(method) ? method : 'OTHER', route, status: String(status) };
  const pending = { labels, n: 0 };
  pendingHttpCounts.push(pending);
  return {
    count: {
      inc() {
        pending.n += 1;
      },
    },
    duration: httpDuration.labels(labels),
  };
}

/** Counts one applied roll and the time from `arrivedAt` (performance.now() when its message came) to now, its broadcast. */
export function countRollBroadcast(arrivedAt: number): void {
  rolls.inc();
  rollBroadcast.observe((performance.now() - arrivedAt) / 1000);
}

/** Counts one SQL statement (Kysely's `log` hook, set only with DB_COUNT_QUERIES=1: bench/many.bench.ts). */
export function countDbQuery(): void {
  dbQueries.inc();
}

/** Why Discord did not take a post (discord/service.ts postWebhook outcomes other than ok). */
const DISCORD_FAILURES = ['retry', 'rate_limited', 'gone', 'rejected'] as const;
/** One of DISCORD_FAILURES. */
export type DiscordFailure = (typeof DISCORD_FAILURES)[number];
// Every known reason shows from the start at 0, so a rate over it is defined before the first failure.
for (const reason of DISCORD_FAILURES) discordFailures.inc({ reason }, 0);

/** Counts one announcement post that Discord did not take (discord/worker.ts). */
export function countDiscordFailure(reason: DiscordFailure): void {
  discordFailures.inc({ reason });
}

/**
 * How a Dink post ended: the outcomes listed on a post (counted, submitted, approved, no_task, no_match,
 * unknown_player, suspicious, duplicate, not_running, over_quota) and the refusals before them
 * (unknown_token 404, rate_limited 429, invalid 400, too_large 413).
 */
const DINK_OUTCOMES = [
  'counted',
  'submitted',
  'approved',
  'no_task',
  'no_match',
  'unknown_player',
  'suspicious',
  'duplicate',
  'not_running',
  'over_quota',
  'unknown_token',
  'rate_limited',
  'invalid',
  'too_large',
] as const;
/** One of DINK_OUTCOMES. */
export type DinkOutcome = (typeof DINK_OUTCOMES)[number];
for (const outcome of DINK_OUTCOMES) dinkPosts.inc({ outcome }, 0);

/**
 * Counts one post to the Dink receiver by its outcome (`dink_posts_total`; docs/server.md §13):
 * server/dink/ calls it once per post, with the post's outcome or the refusal before it.
 */
export function countDinkPost(outcome: DinkOutcome): void {
  dinkPosts.inc({ outcome });
}

const uploadsInFlight = new Gauge({
  name: 'uploads_in_flight',
  help: 'Uploads (proof images, Dink posts, CSV files) holding a slot of this process now: being read, decoded or judged.',
  registers: [registry],
});

const uploadsWaiting = new Gauge({
  name: 'uploads_waiting',
  help: 'Uploads waiting for a slot of this process now.',
  registers: [registry],
});

const uploadsBusy = new Counter({
  name: 'uploads_busy_total',
  help: 'Uploads answered 503 after waiting 10 s for a slot.',
  registers: [registry],
});

/** The upload gate's slots held and uploads waiting now (server/http/uploads.ts; docs/server.md §8, §14). */
export function setUploadGauges(held: number, waiting: number): void {
  uploadsInFlight.set(held);
  uploadsWaiting.set(waiting);
}

/** Counts one upload answered 503 after waiting for a slot (docs/server.md §8). */
export function countUploadBusy(): void {
  uploadsBusy.inc();
}

/** `Authorization: Bearer <token>` naming `token`, compared in constant time (over SHA-256 digests, so lengths may differ). */
function bearerMatches(header: string | undefined, token: string | null): boolean {
  if (!token || !header) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) return false;
  const digest = (s: string) => crypto.createHash('sha256').update(s).digest();
  return crypto.timingSafeEqual(digest(m[1]), digest(token));
}

/**
 * GET /metrics (docs/server.md §14): the registry in Prometheus text format for a caller on
 * loopback or one sending `Authorization: Bearer {METRICS_TOKEN}`; anyone else gets the 404
 * `{"error": "Not found."}` of an unknown path, so the route does not show that it exists.
 * Loopback means both the connection's own peer and the client address as TRUST_PROXY reads it
 * (http/clientAddress.ts) are loopback: X-Forwarded-For can never make a caller loopback (a
 * direct caller's header is not even read), and a request a proxy on this machine forwards from a
 * remote address is not loopback.
 */
export function metricsRoute(config: Pick<Config, 'trustProxy' | 'trustedProxies' | 'metricsToken'>): Handler<AppEnv> {
  return async (c) => {
    let remote: string | undefined;
    try {
      remote = getConnInfo(c).remote.address;
    } catch {
      remote = undefined;
    }
    const loopback = isLoopback(remote) && isLoopback(clientAddress(remote, c.req.header('x-forwarded-for'), config));
    if (!loopback && !bearerMatches(c.req.header('authorization'), config.metricsToken)) return c.json({ error: 'Not found.' }, 404);
    const text = await registry.metrics();
    return c.body(text, 200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  };
}

const boardPictures = new Counter({
  name: 'board_pictures_rendered_total',
  help: 'Board pictures (GET /api/public/game/{gameId}/board.png) this process drew: one per game version and width, however many asked at once.',
  registers: [registry],
});

/** Counts one board picture drawn (server/lobby/boardPicture.ts; docs/server.md §19). */
export function countBoardPictureRender(): void {
  boardPictures.inc();
}
