import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from './context';

/** Largest request body of an /api route without a limit of its own, in bytes (docs/server.md §8). */
export const JSON_BODY_MAX_BYTES = 64 * 1024;

/** The 413 text for a body over JSON_BODY_MAX_BYTES. */
export const BODY_TOO_LARGE = 'The request body is too large (at most 64 KiB).';

/**
 * How much of a refused body is read and thrown away before the 413 is sent, in bytes
 * (docs/server.md §14), so the connection stays in step and the client, still uploading, reads the answer instead of a reset
 * (a socket closed with unread bytes resets the connection, and the reset can destroy the answer
 * before the client reads it). 64 MiB, node-server's own drain bound, covers any upload a client of
 * this site sends by mistake (a 20 MiB file instead of a 1 MiB CSV); past it the 413 goes out with
 * `Connection: close` and the connection is closed once the answer is flushed.
 */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;

/** The middlewares made by routeBodyLimit: the global JSON limit steps aside for routes holding one. */
const ownLimits = new WeakSet<object>();

/**
 * Reads and drops what is left of a refused body, chunk by chunk (nothing is kept), so the client
 * can read the 413 on a connection that is still in step. True when the body ended within `limit`
 * bytes; false when it was longer or broke off (then the 413 says `Connection: close` and Node
 * closes the connection once the answer is flushed).
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<boolean> {
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      seen += value.byteLength;
      // Not cancelled: cancelling destroys the socket at once, before the 413 is written.
      if (seen > limit) return false;
    }
  } catch {
    return false;
  }
}

/**
 * Hono's bodyLimit with a JSON 413 `{"error": message}` and a refused body drained (see drain).
 * With a Content-Length the body is refused unread (and drained after); without one (chunked) it
 * is read through a pass-through stream, so that what follows the first `maxBytes` can still be
 * drained once bodyLimit has given up on it.
 */
function limitBody(maxBytes: number, message: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // GET and HEAD carry no body; not touching c.req.raw.body keeps node-server's fast path.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const raw = c.req.raw;
    if (!raw.body) return next();
    let source: ReadableStreamDefaultReader<Uint8Array> | null = null;
    const lengthKnown = raw.headers.has('content-length') && !raw.headers.has('transfer-encoding');
    if (!lengthKnown) {
      const reader = raw.body.getReader();
      source = reader;
      const passThrough = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      c.req.raw = new Request(raw, { body: passThrough, duplex: 'half' } as RequestInit);
    }
    const onError = async (ctx: Context<AppEnv>) => {
      const drained = source ? await drain(source, DISCARD_MAX_BYTES) : await discardUnread(ctx.req.raw);
      return ctx.json({ error: message }, 413, drained ? undefined : { Connection: 'close' });
    };
    return bodyLimit({ maxSize: maxBytes, onError })(c, next);
  };
}

/**
 * drain() for a body nobody has started reading (the Content-Length case, and an upload refused
 * before it was read: server/http/uploads.ts); false when already taken, longer than 64 MiB or broken off.
 */
export async function discardUnread(req: Request): Promise<boolean> {
  if (!req.body || req.bodyUsed || req.body.locked) return false;
  return drain(req.body.getReader(), DISCARD_MAX_BYTES);
}

/**
 * A route's own body limit: the one way to give an /api route a limit other than the 64 KiB JSON
 * default (docs/server.md §8). Put it in the route's handler chain, e.g. after its
 * permission check; the global jsonBodyLimit then steps aside for that route, and this one answers
 * 413 `{"error": message}` past `maxBytes` (bytes, counted on the wire: multipart envelope included).
 * Used by the CSV upload (1 MiB file); the proof-image upload (docs/server.md §9) takes 8 MiB the same way.
 */
export function routeBodyLimit(maxBytes: number, message: string): MiddlewareHandler<AppEnv> {
  const middleware = limitBody(maxBytes, message);
  ownLimits.add(middleware);
  return middleware;
}

/**
 * The global body limit of /api (docs/server.md §8), mounted once in app.ts before any
 * handler reads a body: a body over JSON_BODY_MAX_BYTES (with or without Content-Length) is
 * answered 413 `{"error": BODY_TOO_LARGE}` before it is parsed, unless the matched route declares
 * its own limit with routeBodyLimit.
 */
export function jsonBodyLimit(): MiddlewareHandler<AppEnv> {
  const limit = limitBody(JSON_BODY_MAX_BYTES, BODY_TOO_LARGE);
  return async (c, next) => (matchedRoutes(c).some((r) => ownLimits.has(r.handler)) ? next() : limit(c, next));
}
