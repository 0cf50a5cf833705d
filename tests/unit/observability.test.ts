import { describe, it, expect } from 'vitest';
import { Hono } from 'hono';
import { Histogram, Registry } from 'prom-client';
import { countDinkPost, httpRequestSeries, metricsRoute } from '../../server/observability/metrics';
import { requestIdOf } from '../../server/observability/requests';
import { fixedLineWriter, LineBatches, plainLoggerTo, type LineBindings, type LineLevel } from '../../server/observability/log';
import { loadConfig } from '../../server/config';
import type { AppEnv } from '../../server/http/context';

/** The pieces of docs/server.md §14 that need no server: request ids, settings, the Dink family. */
describe('requestIdOf', () => {
  it("keeps a caller's id of 1 to 128 characters of A-Za-z0-9._:- and replaces anything else with a new UUID", () => {
    for (const kept of ['a', 'trace-1.2:3_x', 'A'.repeat(128), 'abc.DEF:09_-']) expect(requestIdOf(kept)).toBe(kept);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const replaced of [undefined, '', 'A'.repeat(129), 'has space', 'a=b', 'ünï', 'a/b', 'x\n', ['a', 'b']]) {
      expect(requestIdOf(replaced), JSON.stringify(replaced)).toMatch(uuid);
    }
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});

describe('LOG_LEVEL and METRICS_TOKEN', () => {
  it('LOG_LEVEL names a pino level (any case) or silent, else info; METRICS_TOKEN is null when unset or empty', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    expect(loadConfig({ LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
    expect(loadConfig({ LOG_LEVEL: 'loud' }).logLevel).toBe('info');
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: 's3cret' }).metricsToken).toBe('s3cret');
  });
});

describe('GET /metrics without a connection address (in process)', () => {
  const app = new Hono<AppEnv>().get('/metrics', metricsRoute({ trustProxy: 0, trustedProxies: [], metricsToken: 'unit-token' }));

  it('is not loopback: 404 without the bearer token or with another; the token opens it', async () => {
    expect((await app.request('/metrics')).status).toBe(404);
    const wrong = await app.request('/metrics', { headers: { authorization: 'Bearer other' } });
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual({ error: 'Not found.' });
    expect((await app.request('/metrics', { headers: { authorization: 'Bearer unit-token' } })).status).toBe(200);
  });

  it('dink_posts_total counts a post by its outcome; every outcome is shown from the start', async () => {
    const scrape = async () => (await app.request('/metrics', { headers: { authorization: 'Bearer unit-token' } })).text();
    const before = await scrape();
    expect(before).toContain('# TYPE dink_posts_total counter');
    expect(before).toContain('dink_posts_total{outcome="approved"} 0');
    expect(before).toContain('dink_posts_total{outcome="unknown_token"} 0');
    countDinkPost('approved');
    countDinkPost('approved');
    countDinkPost('no_match');
    const after = await scrape();
    expect(after).toContain('dink_posts_total{outcome="approved"} 2');
    expect(after).toContain('dink_posts_total{outcome="no_match"} 1');
  });
});

/** A writer for LineBatches that gives `take` each batch and says at once that all of it was written. */
function byteWriter(take: (bytes: Buffer) => void) {
  const written: ((n: number) => void)[] = [];
  return {
    write(bytes: Buffer) {
      take(bytes);
      for (const listener of written) listener(bytes.length);
    },
    flushSync: () => undefined,
    on: (_event: 'write', listener: (n: number) => void) => void written.push(listener),
  };
}

describe('request lines', () => {
  /**
   * A logger of the process's kind over a stream that keeps what it is given, and fixedLineWriter
   * over the same: a plain stream (the line handed as a string) or a LineBatches (the line written
   * into its batch as bytes; the batch handed on after each line, so it can be read).
   */
  function both(bindings: LineBindings, level: LineLevel, msg: string, into: 'string' | 'bytes') {
    const lines: string[] = [];
    const batches = new LineBatches(byteWriter((bytes) => void lines.push(...bytes.toString().split(/(?<=\n)/))));
    const stream = into === 'bytes' ? batches : { write: (line: string) => void lines.push(line) };
    const logger = plainLoggerTo(stream);
    logger.level = 'info';
    const child = logger.child(bindings);
    const writer = fixedLineWriter(logger, stream, bindings, level, msg);
    return {
      lines,
      /** pino's line (the duration rounded to 0.01 ms, as the app always wrote it), then the writer's, of one answer. */
      write(requestId: string, durationMs: number): [string | undefined, string | undefined] {
        const from = lines.length;
        child[level]({ request_id: requestId, duration_ms: Math.round(durationMs * 100) / 100 }, msg);
        batches.flushSync();
        const pinoLine = lines[from];
        writer(requestId, durationMs);
        batches.flushSync();
        return [pinoLine, lines[from + 1]];
      },
    };
  }
  /** A line without its time (the two lines may fall in two milliseconds). */
  const timeless = (line: string | undefined) => line?.replace(/"time":"[^"]+"/, '"time":"T"');

  for (const into of ['string', 'bytes'] as const) {
    it(`are the bytes pino writes for the kind's child: level, time, method, route, status, request_id, duration_ms, msg (as ${into})`, () => {
      const cases: [LineBindings, LineLevel, string, string, number][] = [
        [{ method: 'GET', route: '/api/public/game/:gameId', status: 200 }, 'info', 'GET /api/public/game/:gameId 200', 'trace-1.2:3_x', 0.12],
        [{ method: 'POST', route: '/api/clan/:clanId/events/', status: 503 }, 'error', 'POST /api/clan/:clanId/events/ 503', 'e4b6c3a2-1f0e-4d3c-9b8a-7f6e5d4c3b2a', 1234.5],
        [{ method: 'GET', route: '/api/"quoted"\\path/é', status: 304 }, 'info', 'a "message"\nwith escapes ✓', 'L'.repeat(128), 0],
      ];
      for (const [bindings, level, msg, id, ms] of cases) {
        const [pinoLine, ours] = both(bindings, level, msg, into).write(id, ms);
        expect(pinoLine).toMatch(/^\{"level":"(info|error)","time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",/);
        expect(pinoLine?.endsWith('}\n')).toBe(true);
        expect(timeless(ours)).toBe(timeless(pinoLine));
        expect(JSON.parse(ours!)).toMatchObject({ level, ...bindings, request_id: id, duration_ms: ms, msg });
      }
    });

    it(`write every duration as pino writes it rounded to 0.01 ms (as ${into})`, () => {
      const kind = both({ method: 'GET', route: '/api/public/game/:gameId', status: 200 }, 'info', 'GET /api/public/game/:gameId 200', into);
      const durations = [0, 0.004, 0.005, 0.0149, 0.05, 0.1, 0.5, 0.999, 0.995, 1, 1.2, 9.99, 10, 100.01, 123456.78, 86_400_000.5, 9_999_999_999.99, 1e13 + 0.25];
      for (let h = 0; h <= 3000; h += 1) durations.push(h / 100, h / 100 + 0.0049, h * 0.0173);
      for (const ms of durations) {
        const [pinoLine, ours] = kind.write('d', ms);
        expect(timeless(ours), String(ms)).toBe(timeless(pinoLine));
      }
    });

    it(`writes nothing below the logger's level, as pino does (as ${into})`, () => {
      const probe = both({ method: 'GET', route: '/healthz', status: 200 }, 'debug', 'GET /healthz 200', into);
      expect(probe.write('probe-1', 0.5)).toEqual([undefined, undefined]);
      expect(probe.lines).toEqual([]);
    });
  }

  it('a batch keeps the order of lines given as text and as bytes, and a line longer than a batch goes whole', () => {
    const chunks: string[] = [];
    const batches = new LineBatches(byteWriter((bytes) => void chunks.push(bytes.toString())));
    const logger = plainLoggerTo(batches);
    logger.level = 'info';
    const writer = fixedLineWriter(logger, batches, { method: 'GET', route: '/r', status: 200 }, 'info', 'GET /r 200');
    const long = 'ü'.repeat(40_000);
    for (let i = 0; i < 600; i += 1) {
      writer(`id-${i}`, i);
      logger.info({ i }, i === 300 ? long : 'text');
    }
    batches.flushSync();
    expect(chunks.length).toBeGreaterThan(2);
    const lines = chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1200);
    lines.forEach((l, k) => expect(k % 2 === 0 ? l.request_id : l.i).toBe(k % 2 === 0 ? `id-${k / 2}` : (k - 1) / 2));
    expect(lines[601].msg).toBe(long);
  });

  it("reuses a full batch's buffer only once the writer has written all of it", () => {
    const handed: { bytes: Buffer; text: string }[] = [];
    const written: ((n: number) => void)[] = [];
    const batches = new LineBatches({
      write: (bytes: Buffer) => void handed.push({ bytes, text: bytes.toString() }),
      flushSync: () => undefined,
      on: (_event: 'write', listener: (n: number) => void) => void written.push(listener),
    });
    const line = (i: number) => `{"i":${i},"pad":"${'p'.repeat(200)}"}\n`;
    let i = 0;
    /** Lines until the batches hand one more buffer. */
    const fill = () => {
      const before = handed.length;
      while (handed.length === before) batches.write(line(i++));
    };
    fill();
    fill();
    fill();
    // Nothing written yet: three batches in three buffers, each still as handed.
    expect(new Set(handed.map((h) => h.bytes.buffer)).size).toBe(3);
    // The writer writes the first batch in two parts: only then is its buffer taken again.
    for (const listener of written) listener(handed[0].bytes.length - 1);
    fill();
    expect(handed[3].bytes.buffer).not.toBe(handed[0].bytes.buffer);
    for (const listener of written) listener(1);
    fill();
    fill();
    expect(handed[5].bytes.buffer).toBe(handed[0].bytes.buffer);
    // Every other batch still holds the lines it was handed with.
    for (const h of handed.slice(1)) expect(h.bytes.toString()).toBe(h.text);
    // A batch is handed with the line that filled it: every line so far, in order.
    expect(handed.map((h) => h.text).join('').split('\n').filter(Boolean).map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: i }, (_, k) => k));
  });
});

describe('http_request_duration_seconds', () => {
  it("scrapes as prom-client's own Histogram of the same name, help and buckets fed the same durations", async () => {
    const app = new Hono<AppEnv>().get('/metrics', metricsRoute({ trustProxy: 0, trustedProxies: [], metricsToken: 'unit-token' }));
    const durations = [0.0004, 0.001, 0.0031, 0.2, 0.2, 7.5, 11, 0.001];
    const labels = { method: 'GET', route: '/unit/histogram/:id', status: '200' };
    const series = httpRequestSeries('GET', '/unit/histogram/:id', 200);
    for (const d of durations) series.duration.observe(d);
    const other = httpRequestSeries('DELETE', '/unit/histogram/:id', 404);
    other.duration.observe(0.02);

    const reference = new Registry();
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request reaching the server to its answer, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [reference],
    });
    for (const d of durations) histogram.observe(labels, d);
    histogram.observe({ method: 'DELETE', route: '/unit/histogram/:id', status: '404' }, 0.02);

    /** The family's lines of the unit's two series (the process's registry also holds other tests' answers). */
    const family = (text: string) => text.split('\n').filter((l) => l.startsWith('# HELP http_request_duration_seconds') || l.startsWith('# TYPE http_request_duration_seconds') || (l.startsWith('http_request_duration_seconds') && l.includes('/unit/histogram/:id')));
    const scraped = await (await app.request('/metrics', { headers: { authorization: 'Bearer unit-token' } })).text();
    const expected = family(await reference.metrics());
    expect(expected).toHaveLength(2 + 2 * 15);
    expect(family(scraped)).toEqual(expected);
    expect(scraped).toContain('http_request_duration_seconds_bucket{le="0.001",method="GET",route="/unit/histogram/:id",status="200"} 3');
    expect(scraped).toContain('http_request_duration_seconds_count{method="GET",route="/unit/histogram/:id",status="200"} 8');
  });
});
