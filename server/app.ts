import fs from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { getCookie } from 'hono/cookie';
import { serveStatic } from '@hono/node-server/serve-static';
import { getConnInfo } from '@hono/node-server/conninfo';
import { rateLimiter, RedisStore, type RedisClient } from 'hono-rate-limiter';
import type { Redis } from 'ioredis';
import { clientAddress } from './http/clientAddress';
import { redisChannelKey } from './redis';
import type { AppEnv, Deps } from './http/context';
import { authRoutes, SESSION_COOKIE } from './auth/routes';
import { findSession } from './auth/sessions';
import { userRoutes } from './users/routes';
import { ApiError, forbidden } from './errors';
import { isUniqueViolation } from './db/uniqueKey';
import { DATABASE_AWAY, isDatabaseUnreachable } from './db/unreachable';
import { withMemoryFallback } from './http/fallbackStore';
import { jsonBodyLimit } from './http/bodyLimit';
import { securityHeaders, withStyleNonce } from './http/securityHeaders';
import { pagePreloads, withFirstDrawing, withHeadTags } from './http/pagePreloads';
import { spectatorDrawing } from './http/firstDrawing';
import { linkPreviewTags } from './http/linkPreview';
import { pickEncoding } from './games/cache';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { publicGameFastPath } from './lobby/publicGame';
import { routePath } from 'hono/route';
import { log } from './observability/log';
import { metricsRoute } from './observability/metrics';
import { observeRequests } from './observability/requests';
import { Lifecycle, probeRoutes } from './lifecycle/health';
import { describe } from './http/route';

/**
 * A resource router mounted under /api beside auth and users (server/modules.ts lists them); it
 * is given the whole app, which the API document reads its routes from (openapi/routes.ts).
 */
export type RouteModule = (app: Hono<AppEnv>) => Hono<AppEnv>;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Database errors that bad or racing input can still cause, answered as 4xx (docs/server.md:
 * no bad input is ever a 500): PostgreSQL 22003/22P02 (a number beyond the integer column, e.g. id
 * 9999999999) → 400; PostgreSQL 22021/22P05 (a character the database cannot store, e.g. NUL;
 * the last line of defence behind the text rule of contract/text.ts) → 400; a unique violation
 * (isUniqueViolation, db/uniqueKey.ts), e.g. two simultaneous creates of one clan name, → 409
 * (routes with a 409 text of their own use uniqueOrConflict). The database not answering
 * (isDatabaseUnreachable: stopped, restarting, connection cut) → 503 DATABASE_AWAY with
 * Retry-After (docs/server.md §14 "Faults"). Null for anything else.
 */
function databaseErrorAnswer(err: unknown): { status: 400 | 409 | 503; message: string } | null {
  if (isDatabaseUnreachable(err)) return { status: 503, message: DATABASE_AWAY };
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (code === '22003' || code === '22P02') return { status: 400, message: 'A value in the request is out of range or malformed.' };
  if (code === '22021' || code === '22P05') return { status: 400, message: 'A text in the request contains a character that cannot be stored (such as NUL).' };
  if (isUniqueViolation(err)) return { status: 409, message: 'That conflicts with data saved meanwhile. Reload and try again.' };
  return null;
}

/** hono-rate-limiter's Redis store client over an ioredis connection. */
function redisStoreClient(redis: Redis): RedisClient {
  return {
    scriptLoad: (script) => redis.script('LOAD', script) as Promise<string>,
    evalsha: <TArgs extends unknown[], TData = unknown>(sha1: string, keys: string[], args: TArgs) =>
      redis.evalsha(sha1, keys.length, ...keys, ...args.map((a) => String(a))) as Promise<TData>,
    decr: (key) => redis.decr(key),
    del: (key) => redis.del(key),
  };
}

/**
 * Builds the Hono app (docs/architecture.md §5: app factory taking its dependencies).
 * - every /api route answers JSON; errors are `{"error": ...}` with 4xx, never a stack trace
 * - every route answers with and without a trailing slash (`strict: false`; the client calls
 *   `/events/` and `/events/{id}`, docs/server.md §3)
 * - POST/PUT/PATCH/DELETE with an Origin header from another host answer 403 (docs/server.md §2)
 * - GET /api/public/game/{id} of a cached game is answered before the middleware chain, with the
 *   same security headers precomputed (lobby/publicGame.ts; its CSP has no style nonce)
 * - every answer carries an X-Request-Id and is logged and counted under its route pattern;
 *   GET /metrics answers Prometheus text to loopback or the METRICS_TOKEN bearer, else 404
 *   (docs/server.md §14; observability/)
 * - GET /healthz and /readyz answer at the site root (lifecycle/health.ts, docs/server.md §14)
 * - every answer carries the security headers and CSP; /api bodies over 64 KiB answer 413 unread
 *   unless the route declares its own limit (docs/server.md §8; http/securityHeaders.ts,
 *   http/bodyLimit.ts)
 * - everything else serves the built client from `deps.config.clientDir` with a history fallback;
 *   index.html gets the answer's CSP style nonce and `Cache-Control: no-cache` (and, on a spectator
 *   game page, the game's first drawing with the scripts started after the first paint, compressed,
 *   or, for a game not shown, preload tags for its lazy chunks and game answer: http/firstDrawing.ts,
 *   http/pagePreloads.ts; and its link preview tags: http/linkPreview.ts); the hashed files
 *   under /assets are `public, max-age=31536000, immutable` and go out brotli- or gzip-compressed
 *   when the client accepts it (the build's precompressed copies)
 * `lifecycle` is the process's running / shutting-down state behind /readyz (index.ts passes the
 * one its shutdown marks); an app built without one (tests of the app alone) makes its own, which
 * never shuts down.
 */
export function createApp(deps: Deps, modules: RouteModule[] = [], lifecycle: Lifecycle = new Lifecycle(deps)): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json({ error: err.message }, err.status);
    if (err instanceof HTTPException) {
      const status = err.status >= 500 ? 400 : err.status;
      return c.json({ error: err.message || 'Bad request.' }, status as 400);
    }
    const db = databaseErrorAnswer(err);
    if (db?.status === 503) c.header('Retry-After', '5');
    if (db) return c.json({ error: db.message }, db.status);
    log.error({ err, request_id: c.get('requestId'), method: c.req.method, route: routePath(c) }, '[api] unexpected error');
    return c.json({ error: 'Internal server error.' }, 500);
  });

  // Before everything: the request id, the request's log line and its metrics (docs/server.md §14).
  app.use('*', observeRequests());

  // The spectators' hot path, before every middleware: a cached public game is answered with
  // precomputed headers (the security headers included); anything else falls through to the chain.
  app.get('/api/public/game/:gameId', publicGameFastPath(deps));

  // First of the chain, so that every other answer (pages, assets, API, 404s and errors) carries the headers.
  app.use('*', securityHeaders());

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('user', null);
    if (MUTATING.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (origin && origin !== 'null') {
        let host = '';
        try {
          host = new URL(origin).host;
        } catch {
          host = '';
        }
        if (host !== c.req.header('host')) throw forbidden('Cross-origin request refused.');
      } else if (origin === 'null') {
        throw forbidden('Cross-origin request refused.');
      }
    }
    await next();
  });

  // Prometheus metrics at the site root, for loopback or the METRICS_TOKEN bearer (docs/server.md §14).
  app.get(
    '/metrics',
    describe({
      tag: 'operations', access: 'operator', refusals: false,
      summary: 'Prometheus metrics (text exposition format); 404 unless called from loopback or with the METRICS_TOKEN bearer.',
      answer: { contentType: 'text/plain', description: 'Prometheus text exposition format 0.0.4.', schema: { type: 'string' } },
      also: { 404: { description: 'Any caller that is neither on loopback nor carries the METRICS_TOKEN bearer.' } },
    }),
    metricsRoute(deps.config),
  );
  // The load balancer's probes (docs/server.md §14): at the site root, ahead of the client's
  // history fallback, outside /api (no session lookup, no body limit, no sign-in rate limit).
  app.route('/', probeRoutes(lifecycle));

  // Bodies over 64 KiB are refused before anything parses them (routes may declare their own limit).
  app.use('/api/*', jsonBodyLimit());

  app.use('/api/*', async (c, next) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (cookie) {
      const s = await findSession(deps.db, cookie);
      if (s) c.set('user', { id: s.userId, username: s.username, sessionId: s.sessionId });
    }
    await next();
  });

  // Sign-in is rate limited per client address (hono-rate-limiter; docs/server.md §8):
  // the address TRUST_PROXY gives, counted in Redis when REDIS_URL is set (one budget for every
  // process behind the load balancer), else in this process's memory.
  app.use(
    '/api/auth/*',
    rateLimiter<AppEnv>({
      windowMs: 60_000,
      limit: deps.config.authRateLimit,
      standardHeaders: 'draft-7',
      keyGenerator: (c) => {
        let remote: string | undefined;
        try {
          remote = getConnInfo(c).remote.address;
        } catch {
          remote = undefined;
        }
        return clientAddress(remote, c.req.header('x-forwarded-for'), deps.config);
      },
      // In memory while Redis is lost (withMemoryFallback), so sign-in still answers.
      ...(deps.redis ? { store: withMemoryFallback(new RedisStore<AppEnv>({ client: redisStoreClient(deps.redis), prefix: `${redisChannelKey(deps.config)}:signin:` })) } : {}),
      handler: (c) => c.json({ error: 'Too many sign-in attempts. Please wait a minute and try again.' }, 429),
    }),
  );

  const api = new Hono<AppEnv>();
  api.route('/', authRoutes());
  api.route('/', userRoutes());
  for (const m of modules) api.route('/', m(app));
  api.all('*', (c) => c.json({ error: `No API route for ${c.req.method} ${c.req.path}.` }, 404));
  app.route('/api', api);

  const root = deps.config.clientDir;
  const indexFile = path.join(root, 'index.html');
  // index.html is never served as a file: each answer carries its own CSP style nonce.
  // A spectator game page carries the game's first drawing (http/firstDrawing.ts); that answer,
  // tens of KB of markup, goes out compressed when the browser accepts it.
  const page = async (c: Context<AppEnv>) => {
    if (!fs.existsSync(indexFile)) {
      return c.text('The client is not built yet: run `npm run build` (npm start does it for you).', 503);
    }
    c.header('Cache-Control', 'no-cache');
    const index = fs.readFileSync(indexFile, 'utf8');
    const [drawing, preview] = await Promise.all([spectatorDrawing(deps, c.req.path), linkPreviewTags(c, c.req.path)]);
    const drawn = drawing === null ? null : withFirstDrawing(index, root, c.req.path, drawing);
    const html = withStyleNonce(withHeadTags(drawn ?? withHeadTags(index, pagePreloads(root, c.req.path)), preview), c.get('secureHeadersNonce') ?? '');
    if (drawn === null) return c.html(html);
    c.header('Vary', 'Accept-Encoding');
    const encoding = pickEncoding(c.req.header('accept-encoding'));
    if (encoding === null) return c.html(html);
    const body = encoding === 'br' ? brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(html);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    c.header('Content-Encoding', encoding);
    return c.body(new Uint8Array(body));
  };
  app.get('/', page);
  app.get('/index.html', page);
  // The build manifest (dist/.vite/) is the server's own input (pagePreloads), not a page's asset.
  app.all('/.vite/*', (c) => c.json({ error: 'Not found.' }, 404));
  // The build writes .br and .gz copies beside each asset (vite.config.ts precompress). Built
  // assets carry a content hash in their names: cached for a year, never revalidated.
  app.use(
    '/*',
    serveStatic({
      root,
      precompressed: true,
      onFound: (_path, c) => {
        if (c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  app.get('*', page);
  app.notFound((c) => c.json({ error: 'Not found.' }, 404));
  return app;
}
