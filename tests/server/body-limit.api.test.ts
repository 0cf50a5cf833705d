/**
 * Request body limits (docs/server.md §8) over real HTTP against the real
 * server, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: bodies over 64 KiB are refused with
 * 413 `{"error"}` before parsing, with and without Content-Length, and the connection stays usable
 * (or is closed after the answer past the drain limit); valid bodies up to 64 KiB still work; the
 * CSV upload keeps its own 1 MiB limit, and a 20 MiB file sent to it gets its 413 every time
 * (never a reset connection).
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { BODY_TOO_LARGE, JSON_BODY_MAX_BYTES } from '../../server/http/bodyLimit';
import { CSV_TOO_LARGE } from '../../contract/task';

/** An answer read off a raw node:http request. */
interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** True when the request went over a connection an earlier request had used (keep-alive). */
  reusedSocket: boolean;
}

/**
 * POSTs `body` to `url + path` with node:http, in 64 KiB writes: with Content-Length, or chunked
 * (Transfer-Encoding: chunked, no length) when `chunked`. `agent` lets requests share a connection.
 */
function rawPost(url: string, urlPath: string, body: Buffer, opts: { chunked: boolean; agent?: http.Agent; cookie?: string }): Promise<RawAnswer> {
  const target = new URL(urlPath, url);
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json', origin: url };
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = body.length;
    const req = http.request(target, { method: 'POST', headers, agent: opts.agent ?? false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, reusedSocket: req.reusedSocket });
      });
    });
    req.on('error', reject);
    let offset = 0;
    const writeMore = () => {
      while (offset < body.length) {
        const piece = body.subarray(offset, offset + 64 * 1024);
        offset += piece.length;
        if (!req.write(piece)) {
          req.once('drain', writeMore);
          return;
        }
      }
      req.end();
    };
    writeMore();
  });
}

/** `{"username": name}` padded with JSON whitespace to exactly `bytes` bytes (a valid dev sign-in body). */
function paddedDevLogin(name: string, bytes: number): Buffer {
  const json = JSON.stringify({ username: name });
  return Buffer.from(json.slice(0, -1) + ' '.repeat(bytes - json.length) + '}');
}

/** A JSON body of about `bytes` bytes that no route would accept anyway. */
const hugeJson = (bytes: number) => Buffer.from(JSON.stringify({ username: 'x'.repeat(bytes) }));

const MB = 1000 * 1000;
let nameSeq = 0;
const uniqueName = (label: string) => `${label}-${++nameSeq}`;

describe.each(backends())('request body limits (%s)', (backend) => {
  const suite = useServerSuite(backend);

  describe('over 64 KiB refused, CSV upload apart (docs/server.md §8)', () => {
    it('refuses a 2 MB JSON body with Content-Length: 413 {"error"} on every kind of route, nothing done', async () => {
      const signedIn = await suite.client().devLogin(uniqueName('Big Ben'));
      const before = (await signedIn.get('/api/clans')).body.clans;
      const big = JSON.stringify({ clan_name: 'Too Big', pad: 'x'.repeat(2 * MB) });
      for (const [client, method, p] of [
        [suite.client(), 'POST', '/api/auth/dev'],
        [signedIn, 'POST', '/api/clans'],
        [signedIn, 'POST', '/api/user/igns'],
        [signedIn, 'PUT', '/api/user/igns/1'],
        [signedIn, 'POST', '/api/logout'],
        [suite.client(), 'POST', '/api/no/such/route'],
      ] as const) {
        const r = await client.call(method, p, big);
        expect({ what: `${method} ${p}`, status: r.status, body: r.body }).toEqual({ what: `${method} ${p}`, status: 413, body: { error: BODY_TOO_LARGE } });
      }
      expect((await signedIn.get('/api/clans')).body.clans).toEqual(before);
      expect((await signedIn.get('/api/user/me')).status).toBe(200); // the refused logout did nothing
    });

    it('refuses a chunked 2 MB body (no Content-Length) with 413 {"error"}; the connection stays usable', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const refused = await rawPost(suite.url, '/api/auth/dev', hugeJson(2 * MB), { chunked: true, agent });
        expect({ status: refused.status, body: refused.body }).toEqual({ status: 413, body: { error: BODY_TOO_LARGE } });
        expect(refused.headers.connection).not.toBe('close');
        const next = await rawPost(suite.url, '/api/auth/dev', Buffer.from(JSON.stringify({ username: uniqueName('After Chunks') })), { chunked: true, agent });
        expect({ status: next.status, body: next.body, reused: next.reusedSocket }).toEqual({ status: 200, body: { ok: true }, reused: true });
      } finally {
        agent.destroy();
      }
    });

    it('after a refused 2 MB body with Content-Length the same connection answers the next request', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const refused = await rawPost(suite.url, '/api/auth/dev', hugeJson(2 * MB), { chunked: false, agent });
        expect({ status: refused.status, body: refused.body }).toEqual({ status: 413, body: { error: BODY_TOO_LARGE } });
        const next = await rawPost(suite.url, '/api/auth/dev', paddedDevLogin(uniqueName('After Length'), 100), { chunked: false, agent });
        expect({ status: next.status, reused: next.reusedSocket }).toEqual({ status: 200, reused: true });
      } finally {
        agent.destroy();
      }
    });

    it('a body far past what is drained (80 MB chunked) is refused and the connection closed; the server keeps serving', async () => {
      const outcome = await rawPost(suite.url, '/api/auth/dev', hugeJson(80 * MB), { chunked: true }).then(
        (r) => ({ status: r.status, body: r.body, connection: r.headers.connection }),
        (err: NodeJS.ErrnoException) => ({ reset: err.code }),
      );
      // Either the 413 arrived before the close, or the close cut the upload short; never a 2xx/5xx.
      if ('status' in outcome) expect(outcome).toEqual({ status: 413, body: { error: BODY_TOO_LARGE }, connection: 'close' });
      else expect(['EPIPE', 'ECONNRESET']).toContain(outcome.reset);
      expect((await suite.client().get('/api/games/auth/status')).status).toBe(200);
    });

    it('accepts valid bodies up to 64 KiB (60 KiB, exactly 64 KiB; with and without Content-Length) and refuses 64 KiB + 1', async () => {
      for (const [bytes, chunked, status] of [
        [60 * 1024, false, 200],
        [60 * 1024, true, 200],
        [JSON_BODY_MAX_BYTES, false, 200],
        [JSON_BODY_MAX_BYTES, true, 200],
        [JSON_BODY_MAX_BYTES + 1, false, 413],
        [JSON_BODY_MAX_BYTES + 1, true, 413],
      ] as const) {
        const name = uniqueName('Padded');
        const r = await rawPost(suite.url, '/api/auth/dev', paddedDevLogin(name, bytes), { chunked });
        expect({ bytes, chunked, status: r.status }).toEqual({ bytes, chunked, status });
        if (status === 200) {
          const cookie = String(r.headers['set-cookie']?.[0] ?? '').split(';')[0];
          const me = await new Promise<any>((resolve, reject) => {
            http.get(`${suite.url}/api/user/me`, { headers: { cookie } }, (res) => {
              let text = '';
              res.on('data', (d) => (text += d));
              res.on('end', () => resolve(JSON.parse(text)));
            }).on('error', reject);
          });
          expect(me.username).toBe(name);
        }
      }
    });

    it('the CSV upload keeps its own 1 MiB limit: a 200 KiB file goes in, the JSON limit does not apply', async () => {
      const owner = suite.client();
      const me = await owner.onboard(uniqueName('Csv Cat'), ['CsvCat'], { role: 'Owner', clan_name: uniqueName('Csv Clan') });
      const clanId = me.clan_memberships_list[0].clan_id;
      const rows = ['description,difficulty'];
      for (let i = 0; rows.join('\n').length < 200 * 1024; i++) rows.push(`Task ${i} ${'w'.repeat(300)},EASY`);
      const form = new FormData();
      form.append('file', new Blob([rows.join('\n') + '\n'], { type: 'text/csv' }), 'tasks.csv');
      const r = await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form);
      expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(200);
      expect(r.body.inserted_count).toBe(rows.length - 1);
    });

    it('a 20 MiB file sent to the CSV upload gets its 413 {"error"} on each of 20 tries, never a broken connection', { timeout: 240_000 }, async () => {
      const owner = suite.client();
      const me = await owner.onboard(uniqueName('Huge Hal'), ['HugeHal'], { role: 'Owner', clan_name: uniqueName('Huge Clan') });
      const clanId = me.clan_memberships_list[0].clan_id;
      const file = new Blob([Buffer.alloc(20 * 1024 * 1024, 'a')], { type: 'text/csv' });
      const outcomes: string[] = [];
      for (let i = 0; i < 20; i++) {
        const form = new FormData();
        form.append('file', file, 'huge.csv');
        outcomes.push(
          await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form).then(
            (r) => `${r.status} ${JSON.stringify(r.body)}`,
            (err: Error & { cause?: { code?: string } }) => `failed: ${err.cause?.code ?? err.message}`,
          ),
        );
      }
      expect(outcomes).toEqual(Array(20).fill(`413 ${JSON.stringify({ error: CSV_TOO_LARGE })}`));
      expect((await owner.get(`/api/clan/${clanId}/tasks/`)).body.tasks).toEqual([]);
    });
  });
});
