import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../http/context';
import { plainLog } from './log';
import { countHttpRequest } from './metrics';

/** A caller's request id we keep: 1 to 128 characters of A-Za-z0-9 . _ : - (docs/server.md §14). */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id of an answer (docs/server.md §14): the caller's X-Request-Id when it is valid,
 * else a new random UUID. Two headers (an array, or joined with ', ') are not valid. Hono's
 * request-id middleware is not used: its check allows '=' and refuses '.' and ':'.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && VALID_REQUEST_ID.test(header) ? header : crypto.randomUUID();
}

/** The route label of a request no route of the app answered (never the raw path). */
const UNMATCHED = 'unmatched';

/** A load balancer's probes, called every few seconds: their lines are debug, so info stays readable. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Logs and counts one answered request: one info line (error for a 5xx; debug for the probes) with request_id, method,
 * route, status and duration_ms, and the http_requests_total / http_request_duration_seconds
 * samples. Never the URL: query strings carry OAuth codes and states, paths carry ids.
 */
function answered(requestId: string, method: string, route: string, status: number, startedAt: number): void {
  const ms = performance.now() - startedAt;
  countHttpRequest(method, route, status, ms / 1000);
  const line = { request_id: requestId, method, route, status, duration_ms: Math.round(ms * 100) / 100 };
  if (status >= 500) plainLog.error(line, `${method} ${route} ${status}`);
  else if (PROBES.has(route)) plainLog.debug(line, `${method} ${route} ${status}`);
  else plainLog.info(line, `${method} ${route} ${status}`);
}

/**
 * The first middleware of the app (docs/server.md §14): gives the request its id (requestIdOf;
 * `c.var.requestId` for handlers and error lines), puts it on the answer as X-Request-Id, and once
 * the answer is made logs and counts it under the route pattern that answered (hono/route's
 * routePath, e.g. /api/games/:gameId; '/api/*' for the API's unknown paths and for refusals made
 * by its middleware, such as a 413).
 */
export function observeRequests(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    answered(requestId, c.req.method, routePath(c) || UNMATCHED, c.res.status, startedAt);
  };
}

/**
 * Wraps a node:http answer that runs before the app (server/index.ts: the cached public game,
 * lobby/publicGame.ts) so that what it answers carries an X-Request-Id (handed to `answer`, which
 * writes it with its own headers) and is logged and counted like the app's answers, under
 * `route`. Requests it leaves (false) reach the app untouched.
 */
export function observedNodeAnswer(answer: (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean, route: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(req.headers['x-request-id']);
    if (!answer(req, res, requestId)) return false;
    answered(requestId, req.method ?? 'GET', route, res.statusCode, startedAt);
    return true;
  };
}
