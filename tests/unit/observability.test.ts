import { describe, it, expect } from 'vitest';
import { Hono } from 'hono';
import { countDinkPost, metricsRoute } from '../../server/observability/metrics';
import { requestIdOf } from '../../server/observability/requests';
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
