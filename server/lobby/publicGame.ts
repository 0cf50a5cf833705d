import type { IncomingMessage } from 'node:http';
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

/** The 200 or 304 answer of a cached public game: the same status, body and headers as lobbyRoutes' answer, plus the security headers. */
function answer(c: Context<AppEnv>, entry: CachedGame): Response {
  const h = headersOf(entry);
  if (etagMatches(requestHeader(c, 'if-none-match'), entry.etag)) return new Response(null, { status: 304, headers: h.notModified });
  const encoding = pickEncoding(requestHeader(c, 'accept-encoding'));
  if (encoding === null) return new Response(entry.publicBytes, { status: 200, headers: h.identity });
  const body = encodedBody(entry, encoding);
  return new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), { status: 200, headers: h[encoding] });
}

/**
 * The fast path of GET /api/public/game/{gameId} (server-contract section 2 "Public game"; issue
 * #14), mounted in app.ts before every middleware: a game in the game cache (games/cache.ts) is
 * answered at once — 200 with the cached body (brotli or gzip when accepted) or 304 to a matching
 * If-None-Match — with precomputed headers (JSON_ANSWER_SECURITY_HEADERS, ETag, Vary,
 * Cache-Control). What it skips does nothing for this answer: the session lookup (public route),
 * the body limit and Origin check (a GET has no body and changes nothing), the per-answer CSP
 * nonce (JSON is never rendered). Nothing is rate limited on this route in either path
 * (server-contract section 7 limits sign-in and socket actions).
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
