import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CachedGame, GameCache } from '../../server/games/cache';
import { publicGameNodeAnswer } from '../../server/lobby/publicGame';

/** A cached entry with the fields the answer reads (the rest of CachedGame is not touched). */
function entry(id: number, status: CachedGame['status'] = 'in-progress'): CachedGame {
  const publicBody = `{"game":{"id":${id}}}`;
  return { id, status, publicBody, publicBytes: new Uint8Array(Buffer.from(publicBody)), etag: `"g${id}v1-x"`, compressed: {} } as unknown as CachedGame;
}

/** The node front over a cache holding `held` (peek answers only those). */
function front(...held: CachedGame[]) {
  const peeked: number[] = [];
  const cache = { peek: (id: number) => (peeked.push(id), held.find((e) => e.id === id) ?? null) } as unknown as GameCache;
  return { answer: publicGameNodeAnswer({ gameCache: cache }), peeked };
}

/** A request and a response that records what was written. */
function exchange(method: string, url: string, headers: Record<string, string> = {}) {
  const req = { method, url, headers } as unknown as IncomingMessage;
  const out: { status?: number; headers?: Record<string, string>; body?: Buffer; ended: boolean } = { ended: false };
  const res = {
    writeHead(status: number, raw: string[]) {
      // node's raw header list: name, value, name, value ...
      out.status = status;
      out.headers = {};
      for (let i = 0; i < raw.length; i += 2) out.headers[raw[i]] = raw[i + 1];
      return this;
    },
    end(body?: Uint8Array) {
      out.body = body ? Buffer.from(body) : undefined;
      out.ended = true;
    },
  } as unknown as ServerResponse;
  return { req, res, out };
}

describe("the public game's node:http front", () => {
  it('answers a GET of a fresh cached game: 200 with the body, ETag and security headers; 304 to its ETag; brotli when accepted', () => {
    const { answer } = front(entry(7));
    const plain = exchange('GET', '/api/public/game/7');
    expect(answer(plain.req, plain.res, 'req-1')).toBe(true);
    expect(plain.out.status).toBe(200);
    expect(plain.out.body?.toString()).toBe('{"game":{"id":7}}');
    expect(plain.out.headers).toMatchObject({ ETag: '"g7v1-x"', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    expect(plain.out.headers?.['Content-Type']).toMatch(/^application\/json/);
    expect(plain.out.headers?.['Content-Length']).toBe(String(Buffer.byteLength('{"game":{"id":7}}')));
    expect(plain.out.headers?.['X-Request-Id']).toBe('req-1');

    const withQuery = exchange('GET', '/api/public/game/7?t=1');
    expect(answer(withQuery.req, withQuery.res, 'req-2')).toBe(true);
    expect(withQuery.out.status).toBe(200);

    const again = exchange('GET', '/api/public/game/7', { 'if-none-match': '"g7v1-x"' });
    expect(answer(again.req, again.res, 'req-3')).toBe(true);
    expect(again.out.status).toBe(304);
    expect(again.out.body).toBeUndefined();
    expect(again.out.headers?.['Content-Length']).toBeUndefined();
    expect(again.out.headers?.['X-Request-Id']).toBe('req-3');

    const br = exchange('GET', '/api/public/game/7', { 'accept-encoding': 'gzip, br' });
    expect(answer(br.req, br.res, 'req-4')).toBe(true);
    expect(br.out.headers?.['Content-Encoding']).toBe('br');
    expect(br.out.headers?.['Content-Length']).toBe(String(br.out.body!.byteLength));
    expect(brotliDecompressSync(br.out.body!).toString()).toBe('{"game":{"id":7}}');
  });

  it('leaves everything else to the app, writing nothing: other methods and paths, malformed ids, a miss, a PENDING game', () => {
    const { answer, peeked } = front(entry(7), entry(8, 'PENDING'));
    const cases: [string, string][] = [
      ['POST', '/api/public/game/7'],
      ['HEAD', '/api/public/game/7'],
      ['GET', '/api/public/game/7/history'],
      ['GET', '/api/public/game/07'],
      ['GET', '/api/public/game/abc'],
      ['GET', '/api/public/game/9999999999'],
      ['GET', '/api/public/game/'],
      ['GET', '/api/public/games/7'],
      ['GET', '/api/public/game/9'],
      ['GET', '/api/public/game/8'],
    ];
    for (const [method, url] of cases) {
      const x = exchange(method, url);
      expect(answer(x.req, x.res, 'req-x'), `${method} ${url}`).toBe(false);
      expect(x.out.ended, `${method} ${url}`).toBe(false);
      expect(x.out.status, `${method} ${url}`).toBeUndefined();
    }
    expect(peeked).toEqual([9, 8]);
  });
});
