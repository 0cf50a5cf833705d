import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { etagMatches, pickEncoding, type BodyEncoding } from './cache';

/**
 * A JSON answer of a cached game (games/cache.ts): 304 with no body when If-None-Match names
 * `etag`; else 200 with the body in the encoding the client accepts (`compressed(encoding)`, brotli
 * before gzip; `plain()` without Accept-Encoding). Always `ETag`, `Vary: Accept-Encoding` and
 * `Cache-Control: no-cache` (the game changes with every roll: a client keeps it and revalidates).
 */
export function gameAnswer(c: Context<AppEnv>, etag: string, plain: () => string | Uint8Array<ArrayBuffer>, compressed?: (encoding: Exclude<BodyEncoding, null>) => Uint8Array<ArrayBuffer> | Buffer): Response {
  const headers: Record<string, string> = { ETag: etag, Vary: 'Accept-Encoding', 'Cache-Control': 'no-cache' };
  if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  headers['Content-Type'] = 'application/json; charset=UTF-8';
  const encoding = compressed ? pickEncoding(c.req.header('accept-encoding')) : null;
  if (encoding !== null && compressed) {
    headers['Content-Encoding'] = encoding;
    const body = compressed(encoding);
    return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), 200, headers);
  }
  const body = plain();
  return typeof body === 'string' ? c.body(body, 200, headers) : c.body(body, 200, headers);
}
