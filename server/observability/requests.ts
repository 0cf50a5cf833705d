import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../http/context';
import { requestLineWriter } from './log';
import { httpRequestSeries, type HttpSeries } from './metrics';

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
 * What every answer of one method, route pattern and status shares, built at its first answer:
 * its metric series (httpRequestSeries) and the writer of its log line (requestLineWriter: method,
 * route, status, level and message put together once, the line written as pino would write it).
 */
interface AnswerKind {
  series: HttpSeries;
  line: (requestId: string, durationMs: number) => void;
}

/**
 * The kinds of answer seen, by route, then method, then status; bounded by the app's route
 * patterns x node's methods x the statuses answered (never a path or a caller's text).
 */
const answerKinds = new Map<string, Map<string, Map<number, AnswerKind>>>();

/** The kind of an answer (AnswerKind), built at first use: its level is error for a 5xx, debug for the probes, else info. */
function answerKind(method: string, route: string, status: number): AnswerKind {
  let methods = answerKinds.get(route);
  if (!methods) answerKinds.set(route, (methods = new Map()));
  let statuses = methods.get(method);
  if (!statuses) methods.set(method, (statuses = new Map()));
  let kind = statuses.get(status);
  if (!kind) {
    const level = status >= 500 ? 'error' : PROBES.has(route) ? 'debug' : 'info';
    kind = { series: httpRequestSeries(method, route, status), line: requestLineWriter({ method, route, status }, level, `${method} ${route} ${status}`) };
    statuses.set(status, kind);
  }
  return kind;
}

/**
 * Logs and counts one answered request: one line (error for a 5xx; debug for the probes; else
 * info) with request_id, method, route, status and duration_ms, and the http_requests_total /
 * http_request_duration_seconds samples. Never the URL: query strings carry OAuth codes and
 * states, paths carry ids.
 */
function answered(requestId: string, method: string, route: string, status: number, startedAt: number): void {
  const ms = performance.now() - startedAt;
  const kind = answerKind(method, route, status);
  kind.series.count.inc();
  kind.series.duration.observe(ms / 1000);
  kind.line(requestId, ms);
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
