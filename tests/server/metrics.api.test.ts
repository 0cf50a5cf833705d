import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { castOf, newGame, watchersOf, type Cast, type TestGame } from '../support/liveSocket';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';

/**
 * GET /metrics over real HTTP (docs/server.md §14): Prometheus text for loopback callers and for
 * the METRICS_TOKEN bearer, the 404 of an unknown path for anyone else (a remote caller as the
 * proxy reports it with TRUST_PROXY=1 and X-Forwarded-For); the text parses as Prometheus
 * exposition and holds every family, with a roll made here counted and its arrival-to-broadcast
 * time observed, a failed Discord post counted and the outbox depth shown.
 */

const TOKEN = 'metrics-token-7f3a9c1e5b';
const REMOTE = { 'x-forwarded-for': '203.0.113.9' };

const FAMILIES = [
  'http_requests_total',
  'http_request_duration_seconds',
  'socketio_connected_sockets',
  'game_rolls_total',
  'game_roll_broadcast_seconds',
  'games_live',
  'discord_outbox_pending',
  'discord_posts_failed_total',
  'dink_posts_total',
  // prom-client's defaults: event loop lag, heap, CPU.
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
  'process_cpu_seconds_total',
];

describe.each(backends())('GET /metrics (%s)', (backend) => {
  const stand = new DiscordWebhookStandIn();
  // A failed post is retried only after a minute, so its announcement stays in the outbox here.
  const env: Record<string, string> = { METRICS_TOKEN: TOKEN, TRUST_PROXY: '1', DISCORD_POLL_MS: '100', DISCORD_BACKOFF_MS: '60000' };
  // Before the suite's server starts (hooks run in order): it reads the stand-in's origin.
  beforeAll(async () => {
    await stand.start();
    env.DISCORD_WEBHOOK_ORIGIN = stand.url;
  });
  const suite = useServerSuite(backend, env);
  const { open, watcher } = watchersOf(() => suite.url);
  afterAll(async () => {
    for (const w of open) w.close();
    await stand.stop();
  });

  let cast: Cast;
  let game: TestGame;

  /** The metrics text, scraped as `headers` say (loopback, no token, unless told otherwise). */
  async function scrape(headers: Record<string, string> = {}) {
    return suite.client().call('GET', '/metrics', undefined, headers);
  }

  /** Parsed families of a loopback scrape, by name. */
  async function families() {
    const r = await scrape();
    expect(r.status).toBe(200);
    return new Map(parsePrometheusTextFormat(r.body as string).map((f) => [f.name, f]));
  }

  /** The sum of a counter's or gauge's samples whose labels include `labels`. */
  function total(family: ReturnType<typeof parsePrometheusTextFormat>[number] | undefined, labels: Record<string, string> = {}): number {
    return (family?.metrics ?? []).filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)).reduce((s, m) => s + Number(m.value), 0);
  }

  /** Scrapes until `test` holds (a counter the Discord worker raises a moment after the post). */
  async function familiesWhen(test: (f: Awaited<ReturnType<typeof families>>) => boolean, what: string) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const f = await families();
      if (test(f)) return f;
      if (Date.now() > deadline) throw new Error(`metrics: ${what} not within 15 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    cast = await castOf(suite.url, `metrics-${backend}`);
    game = await newGame(cast, { start: false });
  });

  it('answers loopback and the bearer token; a remote caller without it, or with a wrong one, gets the 404 of an unknown path', async () => {
    const loopback = await scrape();
    expect(loopback.status).toBe(200);
    expect(loopback.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(loopback.headers.get('x-request-id')).toBeTruthy();

    const unknown = await suite.client().get('/.vite/no-such-file');
    expect(unknown.status).toBe(404);
    const remote = await scrape(REMOTE);
    expect(remote.status).toBe(404);
    expect(remote.body).toEqual(unknown.body);
    expect(remote.body).toEqual({ error: 'Not found.' });

    const withToken = await scrape({ ...REMOTE, authorization: `Bearer ${TOKEN}` });
    expect(withToken.status).toBe(200);
    expect(withToken.body).toContain('http_requests_total');
    for (const wrong of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer ', TOKEN, `Basic ${TOKEN}`]) {
      const r = await scrape({ ...REMOTE, authorization: wrong });
      expect(r.status, wrong).toBe(404);
      expect(r.body).toEqual({ error: 'Not found.' });
    }
  });

  it('parses as Prometheus text and holds every family: the roll made here counted and timed, a failed Discord post, the outbox, live games, sockets', async () => {
    const before = await families();
    for (const name of FAMILIES) expect(before.has(name), name).toBe(true);
    const rollsBefore = total(before.get('game_rolls_total'));

    // Discord fails the first post of the event's webhook (500): counted, the announcement stays queued.
    const hook = stand.webhook('7301', 'tok_metrics_secret_abcdefghijklmnop');
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/discord`, { webhook_url: hook })).status).toBe(200);
    stand.script.push({ status: 500 });
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);

    const leader = await watcher('leader', cast.owner);
    const held = await leader.join(game.gameId);
    leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    await leader.version(held.version + 1);

    const after = await familiesWhen((f) => total(f.get('discord_posts_failed_total'), { reason: 'retry' }) >= 1, 'the failed Discord post');
    expect(total(after.get('game_rolls_total'))).toBe(rollsBefore + 1);
    const broadcast = after.get('game_roll_broadcast_seconds')!;
    expect(broadcast.type).toBe('HISTOGRAM');
    expect(Number(broadcast.metrics[0].count)).toBeGreaterThanOrEqual(1);
    expect(Number(broadcast.metrics[0].sum)).toBeGreaterThan(0);
    expect(total(after.get('games_live'))).toBe(1);
    expect(total(after.get('discord_outbox_pending'))).toBeGreaterThanOrEqual(1);
    expect(total(after.get('socketio_connected_sockets'))).toBeGreaterThanOrEqual(1);
    expect(after.get('dink_posts_total')!.metrics.map((m) => m.labels?.outcome)).toContain('approved');

    // Requests are labelled with the route pattern that answered, never the path with its ids.
    const requests = after.get('http_requests_total')!.metrics;
    const routes = new Set(requests.map((m) => m.labels!.route));
    expect(routes).toContain('/api/clan/:clanId/events/:eventId/game/:gameId/status');
    expect(routes).toContain('/metrics');
    for (const route of routes) expect(route, route).not.toMatch(/\/\d/);
    expect(total(after.get('http_requests_total'), { method: 'PUT', route: '/api/clan/:clanId/events/:eventId/game/:gameId/status', status: '200' })).toBe(1);
    // (The parser folds a labelled histogram's series into one, so its samples are read from the text.)
    const text = (await scrape()).body as string;
    expect(after.get('http_request_duration_seconds')!.type).toBe('HISTOGRAM');
    const durations = /^http_request_duration_seconds_count\{method="GET",route="\/api\/user\/me",status="200"\} (\d+)$/m.exec(text);
    expect(Number(durations?.[1])).toBeGreaterThanOrEqual(1);

    // No label value or sample is a session id, a token or a webhook URL.
    for (const secret of [...cast.owner.cookies.values(), ...cast.leader2.cookies.values(), TOKEN, 'tok_metrics_secret_abcdefghijklmnop', hook]) {
      expect(text.includes(secret), secret).toBe(false);
    }
  });
});
