import type { IncomingMessage, ServerResponse } from 'node:http';
import { ID_MAX } from '../../contract/common';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Deps } from '../http/context';
import { pathId } from '../http/context';
import type { CachedGame } from '../games/cache';
import { publicGameAnswer } from '../games/cachedAnswer';

/** A request header, read from node's parsed headers when served by node-server (no Headers object built). */
function requestHeader(c: Context<AppEnv>, name: 'if-none-match' | 'accept-encoding'): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? incoming.headers[name] : c.req.header(name);
}

/**
 * The public game's answer of `entry` (publicGameAnswer, games/cachedAnswer.ts) as a fetch
 * Response, for the app: its own route (publicGameFastPath) and lobbyRoutes' handler of what falls
 * through to it.
 */
export function publicGameResponse(c: Context<AppEnv>, entry: CachedGame): Response {
  const a = publicGameAnswer(entry, requestHeader(c, 'if-none-match'), requestHeader(c, 'accept-encoding'));
  const body = a.body && new Uint8Array(a.body.buffer as ArrayBuffer, a.body.byteOffset, a.body.byteLength);
  return new Response(body, { status: a.status, headers: a.headers });
}

/**
 * GET /api/public/game/{gameId}, with or without a query, whose id is IdParamSchema's (as pathId
 * checks it): 1 to 10 digits without a leading 0 in group 1, at most ID_MAX (checked after).
 */
const PUBLIC_GAME_PATH = /^\/api\/public\/game\/([1-9][0-9]{0,9})(?:\?.*)?$/;

/**
 * The node:http front of the public game route,
 * called by server/index.ts for every request before the app's own listener: a GET of
 * /api/public/game/{gameId} whose game the game cache holds fresh (GameCache.peek, found current
 * less than GAME_CACHE_CHECK_MS ago) and not PENDING is answered here with node's own response,
 * no fetch Request or Response built: publicGameAnswer (games/cachedAnswer.ts), the one answer
 * of the route, plus `X-Request-Id: requestId`. The headers go in one writeHead of its raw list
 * (Content-Length included, so no chunked encoding), and the answer in one end: node's fast
 * path, which checks each header once. Returns false, touching
 * nothing, for every other request, which the app then answers (a miss, a malformed id, a missing
 * or PENDING game included).
 */
export function publicGameNodeAnswer(deps: Pick<Deps, 'gameCache'>): (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean {
  return (req, res, requestId) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/api/public/game/')) return false;
    const match = PUBLIC_GAME_PATH.exec(req.url);
    const id = match ? Number(match[1]) : 0;
    if (id === 0 || id > ID_MAX) return false;
    const entry = deps.gameCache.peek(id);
    if (!entry || entry.status === 'PENDING') return false;
    const a = publicGameAnswer(entry, req.headers['if-none-match'], req.headers['accept-encoding']);
    const raw = a.rawWithRequestId;
    raw[raw.length - 1] = requestId;
    res.writeHead(a.status, raw);
    res.end(a.body ?? undefined);
    return true;
  };
}

/**
 * The fast path of GET /api/public/game/{gameId} (docs/server.md §3) in the app, mounted in app.ts before every middleware, for what the node:http front
 * (publicGameNodeAnswer) left to it: a game in the game cache (games/cache.ts) is
 * answered at once with publicGameAnswer (games/cachedAnswer.ts) — 200 with the cached body
 * (brotli or gzip when accepted) or 304 to a matching If-None-Match, with its precomputed headers. What it skips does nothing for this answer: the session lookup (public route),
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
    if (cached && cached.status !== 'PENDING') return Promise.resolve(publicGameResponse(c, cached));
    return deps.gameCache.get(gameId).then(
      async (entry): Promise<Response | void> => (entry && entry.status !== 'PENDING' ? publicGameResponse(c, entry) : next()),
      () => next(),
    );
  };
}
