import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { JSON_ANSWER_SECURITY_HEADERS } from '../http/securityHeaders';
import { encodedBody, etagMatches, pickEncoding, type BodyEncoding, type CachedGame } from './cache';

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

/** gameAnswer's 304 as a route's description lists it (`also` of describe(), http/route.ts). */
export const NOT_MODIFIED = { 304: { description: 'Not modified: the ETag given in If-None-Match is still current (no body).' } };

/**
 * One answer of the public game (GET /api/public/game/{gameId}, docs/server.md §3) of a cached
 * version: its status, its headers as an object (`headers`, for a fetch Response) and as node's
 * raw list with the body's Content-Length (`raw`, for one writeHead), and its body (null for a 304).
 * `rawWithRequestId` is `raw` followed by 'X-Request-Id' and a last slot that the node:http front
 * (lobby/publicGame.ts) sets to the answer's id just before its writeHead, which turns the list
 * into the header text within the call: one list per version and kind, not a copy per answer.
 */
export interface PublicGameAnswer {
  status: 200 | 304;
  headers: Readonly<Record<string, string>>;
  raw: readonly string[];
  rawWithRequestId: string[];
  body: Uint8Array | null;
}

/** The answers of one cached version, built at first use and kept with the entry (an entry is one version). */
const publicAnswers = new WeakMap<CachedGame, Map<'304' | 'identity' | 'br' | 'gzip', PublicGameAnswer>>();

/**
 * THE answer of the public game, for both of its doors (the node:http front and the app's route:
 * lobby/publicGame.ts): 304 with no body when If-None-Match names the entry's ETag; else 200 with
 * the body in the encoding the client accepts (brotli before gzip, plain without Accept-Encoding).
 * Every answer carries JSON_ANSWER_SECURITY_HEADERS (the security headers of any API answer, its
 * CSP without a style nonce), ETag, `Vary: Accept-Encoding` and `Cache-Control: no-cache`; a 200
 * its Content-Type (and Content-Encoding). Built once per version and kind, so an answer costs a
 * map lookup.
 */
export function publicGameAnswer(entry: CachedGame, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): PublicGameAnswer {
  const kind = etagMatches(ifNoneMatch, entry.etag) ? '304' : (pickEncoding(acceptEncoding) ?? 'identity');
  let kinds = publicAnswers.get(entry);
  if (!kinds) publicAnswers.set(entry, (kinds = new Map()));
  let answer = kinds.get(kind);
  if (!answer) {
    const headers: Record<string, string> = { ...JSON_ANSWER_SECURITY_HEADERS, ETag: entry.etag, Vary: 'Accept-Encoding', 'Cache-Control': 'no-cache' };
    let body: Uint8Array | null = null;
    if (kind !== '304') {
      headers['Content-Type'] = 'application/json; charset=UTF-8';
      if (kind !== 'identity') headers['Content-Encoding'] = kind;
      const bytes = kind === 'identity' ? entry.publicBytes : encodedBody(entry, kind);
      // A Buffer over the same bytes (no copy): node's socket takes a Buffer as it is.
      body = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    const raw = Object.entries(headers).flat();
    if (body) raw.push('Content-Length', String(body.byteLength));
    answer = { status: kind === '304' ? 304 : 200, headers, raw, rawWithRequestId: [...raw, 'X-Request-Id', ''], body };
    kinds.set(kind, answer);
  }
  return answer;
}
