import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { IdParamSchema } from '../../contract/common';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Deps } from '../http/context';
import { pathId } from '../http/context';
import { JSON_ANSWER_SECURITY_HEADERS } from '../http/securityHeaders';
import { encodedBody, etagMatches, pickEncoding, type CachedGame } from '../games/cache';

/** The headers of one cached game's answers, built once per entry (per version). */
interface AnswerHeaders {
  notModified: Record<string, string>;
  identity: Record<string, string>;
  br: Record<string, string>;
  gzip: Record<string, string>;
}

const answerHeaders = new WeakMap<CachedGame, AnswerHeaders>();

/** The security headers, ETag, Vary and Cache-Control of `entry`'s answers (see gameAnswer, games/cachedAnswer.ts). */
function headersOf(entry: CachedGame): AnswerHeaders {
  let h = answerHeaders.get(entry);
  if (!h) {
    const notModified = { ...JSON_ANSWER_SECURITY_HEADERS, ETag: entry.etag, Vary: 'Accept-Encoding', 'Cache-Control': 'no-cache' };
    const identity = { ...notModified, 'Content-Type': 'application/json; charset=UTF-8' };
    h = { notModified, identity, br: { ...identity, 'Content-Encoding': 'br' }, gzip: { ...identity, 'Content-Encoding': 'gzip' } };
    answerHeaders.set(entry, h);
  }
  return h;
}

/** A request header, read from node's parsed headers when served by node-server (no Headers object built). */
function requestHeader(c: Context<AppEnv>, name: 'if-none-match' | 'accept-encoding'): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? incoming.headers[name] : c.req.header(name);
}

/** One cached game answer: its status (200 or 304), headers and body (null for a 304). */
interface CachedAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/**
 * The 200 or 304 answer of a cached public game for a request's If-None-Match and Accept-Encoding
 * headers: the same status, body and headers as lobbyRoutes' answer, plus the security headers.
 */
function cachedAnswer(entry: CachedGame, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): CachedAnswer {
  const h = headersOf(entry);
  if (etagMatches(ifNoneMatch, entry.etag)) return { status: 304, headers: h.notModified, body: null };
  const encoding = pickEncoding(acceptEncoding);
  if (encoding === null) return { status: 200, headers: h.identity, body: entry.publicBytes };
  return { status: 200, headers: h[encoding], body: encodedBody(entry, encoding) };
}

/** cachedAnswer as a fetch Response, for the Hono chain. */
function answer(c: Context<AppEnv>, entry: CachedGame): Response {
  const a = cachedAnswer(entry, requestHeader(c, 'if-none-match'), requestHeader(c, 'accept-encoding'));
  const body = a.body && new Uint8Array(a.body.buffer as ArrayBuffer, a.body.byteOffset, a.body.byteLength);
  return new Response(body, { status: a.status, headers: a.headers });
}

/** GET /api/public/game/{gameId}, with or without a query; the id's text in group 1 (checked with IdParamSchema, as pathId does). */
const PUBLIC_GAME_PATH = /^\/api\/public\/game\/([^/?]+)(?:\?.*)?$/;

/** node:http's raw header list (name, value, name, value ...) of one cached answer, Content-Length included for a 200. */
type RawHeaders = readonly string[];

/** The raw header lists of an entry's answers, per kind of answer, built at first use and kept with the entry (per version). */
const rawHeaders = new WeakMap<CachedGame, Map<string, RawHeaders>>();

/** cachedAnswer's headers as a raw list, with the body's Content-Length for a 200; built once per entry and kind. */
function rawHeadersOf(entry: CachedGame, a: CachedAnswer): RawHeaders {
  let kinds = rawHeaders.get(entry);
  if (!kinds) rawHeaders.set(entry, (kinds = new Map()));
  const kind = `${a.status} ${a.headers['Content-Encoding'] ?? ''}`;
  let list = kinds.get(kind);
  if (!list) {
    list = Object.entries(a.headers).flat();
    if (a.body) list = [...list, 'Content-Length', String(a.body.byteLength)];
    kinds.set(kind, list);
  }
  return list;
}

/**
 * The node:http front of the public game route,
 * called by server/index.ts for every request before the app's own listener: a GET of
 * /api/public/game/{gameId} whose game the game cache holds fresh (GameCache.peek, found current
 * less than GAME_CACHE_CHECK_MS ago) and not PENDING is answered here with node's own response,
 * no fetch Request or Response built: the same status, headers and body as publicGameFastPath
 * (cachedAnswer), plus `X-Request-Id: requestId`. The headers go in one writeHead of a raw list
 * built once per cached version (Content-Length included, so no chunked encoding), and the
 * answer in one end: node's fast path, which checks each header once. Returns false, touching
 * nothing, for every other request, which the app then answers (a miss, a malformed id, a missing
 * or PENDING game included).
 */
export function publicGameNodeAnswer(deps: Pick<Deps, 'gameCache'>): (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean {
  return (req, res, requestId) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/api/public/game/')) return false;
    const match = PUBLIC_GAME_PATH.exec(req.url);
    const id = match ? v.safeParse(IdParamSchema, match[1]) : null;
    if (!id?.success) return false;
    const entry = deps.gameCache.peek(id.output);
    if (!entry || entry.status === 'PENDING') return false;
    const a = cachedAnswer(entry, req.headers['if-none-match'], req.headers['accept-encoding']);
    res.writeHead(a.status, [...rawHeadersOf(entry, a), 'X-Request-Id', requestId]);
    res.end(a.body ?? undefined);
    return true;
  };
}

/**
 * The fast path of GET /api/public/game/{gameId} (docs/server.md §3) in the app, mounted in app.ts before every middleware, for what the node:http front
 * (publicGameNodeAnswer) left to it: a game in the game cache (games/cache.ts) is
 * answered at once — 200 with the cached body (brotli or gzip when accepted) or 304 to a matching
 * If-None-Match — with precomputed headers (JSON_ANSWER_SECURITY_HEADERS, ETag, Vary,
 * Cache-Control). What it skips does nothing for this answer: the session lookup (public route),
 * the body limit and Origin check (a GET has no body and changes nothing), the per-answer CSP
 * nonce (JSON is never rendered). Nothing is rate limited on this route in either path
 * (docs/server.md §8 limits sign-in and socket actions).
 * Everything else — a malformed id, a missing or PENDING game, a database error — goes on to the
 * full chain (lobbyRoutes), which answers it as before.
 */
export function publicGameFastPath(deps: Deps): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    let gameId: number;
    try {
      gameId = pathId(c, 'gameId', 'game id');
    } catch {
      return next();
    }
    const cached = deps.gameCache.peek(gameId);
    if (cached && cached.status !== 'PENDING') return Promise.resolve(answer(c, cached));
    return deps.gameCache.get(gameId).then(
      async (entry): Promise<Response | void> => (entry && entry.status !== 'PENDING' ? answer(c, entry) : next()),
      () => next(),
    );
  };
}
