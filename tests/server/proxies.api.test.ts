import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket as Client } from 'socket.io-client';
import { ApiClient } from '../support/api';
import { backends, createTestDatabase, freePort, startServer, type TestDatabase, type TestServer } from '../support/server';
import { useServerSuite } from '../support/suite';
import { NGINX, siteFor, startNginx } from '../support/nginx';
import { FolderStore, type ImageStore } from '../../server/submissions/storage';

/**
 * Listening, proxies and files holding secrets (docs/server.md §14, §8), against real server
 * processes:
 * - with TRUST_PROXY=1, X-Forwarded-For counts only from a loopback peer or one in
 *   TRUSTED_PROXIES: a caller reaching a process from another address cannot rotate its way past
 *   the sign-in limit or the socket cap, nor open /metrics with `X-Forwarded-For: 127.0.0.1`;
 * - HOST is the one address a process binds (a bad one stops the start);
 * - the SQLite file (and -wal, -shm) is 0600 in a folder created 0700, also when it existed with a
 *   wider mode; proof images are 0600 files in 0700 folders;
 * - the shipped nginx site (deploy/nginx/clan-snakes.conf, with the shipped HOST and TRUST_PROXY)
 *   answers /metrics itself with 404 to anyone but loopback and passes the client's address on.
 * A caller "from another address" connects to this machine's own non-loopback address (its first
 * external IPv4 interface), so the server sees a peer that is not loopback; without such an
 * interface those tests are skipped with a notice.
 */

const REFUSED = { error: 'Too many sign-in attempts. Please wait a minute and try again.' };

/** This machine's first non-loopback IPv4 address, or null. */
function ownOutsideAddress(): string | null {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

const OUTSIDE = ownOutsideAddress();
if (!OUTSIDE) console.warn('\n!!! proxies.api.test.ts: no non-loopback IPv4 interface; the tests from another address are skipped !!!\n');

/** `url` (http://127.0.0.1:PORT) with its host replaced by `host`. */
function at(url: string, host: string): string {
  const u = new URL(url);
  u.hostname = host;
  return u.origin;
}

/** Dev sign-ins at `base`, the i-th sending X-Forwarded-For `forwarded(i)` (none when undefined); their statuses. */
async function signIns(base: string, count: number, forwarded: (i: number) => string | undefined, tag: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const xff = forwarded(i);
    const r = await new ApiClient(base).call('POST', '/api/auth/dev', { username: `${tag}-${i}` }, xff ? { 'x-forwarded-for': xff } : {});
    if (r.status === 429) expect(r.body).toEqual(REFUSED);
    statuses.push(r.status);
  }
  return statuses;
}

/** GET `base`/metrics with `headers`: status, body text and the answer's headers. */
async function scrape(base: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** A websocket-only Socket.IO connection to `url` sending `headers`; rejects with the connect_error. */
async function rawSocket(url: string, headers: Record<string, string>): Promise<Client> {
  const socket: Client = connectSocket(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: headers });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => {
      socket.disconnect();
      reject(err);
    });
  });
  return socket;
}

/** Whether a TCP connection to `url` is refused (nothing listens there), as opposed to answered. */
async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
    return false;
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
  }
}

/** The permission bits of `file`. */
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

for (const backend of backends()) {
  describe.skipIf(!OUTSIDE)(`TRUST_PROXY=1: X-Forwarded-For only from loopback (${backend})`, () => {
    const suite = useServerSuite(backend, { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '5', SOCKETS_PER_ADDRESS: '3' });
    const sockets: Client[] = [];
    afterEach(() => {
      for (const s of sockets.splice(0)) s.disconnect();
    });

    it('a caller from another address cannot rotate X-Forwarded-For past the sign-in limit; through loopback the header counts', async () => {
      const outside = at(suite.url, OUTSIDE!);
      expect(await signIns(outside, 7, (i) => `198.51.100.${i + 1}`, `out-${backend}`)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      // From loopback (where the proxy sits) each forwarded address is its own, so none is refused.
      expect(await signIns(suite.url, 7, (i) => `203.0.113.${i + 1}`, `lo-${backend}`)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    });

    it('/metrics: 404 from another address whatever X-Forwarded-For says; 200 from loopback unless a proxy forwarded a remote caller', async () => {
      const outside = at(suite.url, OUTSIDE!);
      for (const xff of [undefined, '127.0.0.1', '::1', '203.0.113.9, 127.0.0.1']) {
        const r = await scrape(outside, xff ? { 'x-forwarded-for': xff } : {});
        expect(r.status, String(xff)).toBe(404);
        expect(JSON.parse(r.text)).toEqual({ error: 'Not found.' });
      }
      expect((await scrape(suite.url)).status).toBe(200);
      expect((await scrape(suite.url, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
      expect((await scrape(suite.url, { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' })).status).toBe(404);
    });

    it('the socket cap counts a caller from another address as one, whatever X-Forwarded-For it sends', async () => {
      const outside = at(suite.url, OUTSIDE!);
      for (let i = 0; i < 3; i += 1) sockets.push(await rawSocket(outside, { 'x-forwarded-for': `198.51.100.${50 + i}` }));
      await expect(rawSocket(outside, { 'x-forwarded-for': '198.51.100.99' })).rejects.toThrow('Too many connections from your address.');
      // A client forwarded by the proxy on loopback is another address, with places of its own.
      sockets.push(await rawSocket(suite.url, { 'x-forwarded-for': '203.0.113.60' }));
    });
  });
}

describe.skipIf(!OUTSIDE)('TRUSTED_PROXIES: a proxy on another machine', () => {
  const suite = useServerSuite('sqlite', { TRUST_PROXY: '1', TRUSTED_PROXIES: `10.255.255.0/24, ${OUTSIDE ?? '10.255.255.1'}`, AUTH_RATE_LIMIT: '5' });

  it("its X-Forwarded-For counts (each forwarded client is its own address), but never makes a caller loopback for /metrics", async () => {
    const proxy = at(suite.url, OUTSIDE!);
    expect(await signIns(proxy, 7, (i) => `198.51.100.${i + 1}`, 'listed')).toEqual([200, 200, 200, 200, 200, 200, 200]);
    // Without a header the proxy itself is the address, limited like any other.
    expect(await signIns(proxy, 6, () => undefined, 'listed-bare')).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await scrape(proxy, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(404);
  });
});

describe('HOST', () => {
  let db: TestDatabase;
  let server: TestServer | undefined;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it.skipIf(!OUTSIDE)('a process bound to 127.0.0.1 answers there and refuses connections on the machine\'s other address', async () => {
    server = await startServer({ ...db.env, HOST: '127.0.0.1' });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await refused(at(server.url, OUTSIDE!))).toBe(true);
    expect(server.stdout()).toMatch(/"host":"127\.0\.0\.1"/);
    await server.stop();
    server = undefined;
  });

  it('an address the machine does not have stops the start with one clear line', async () => {
    await expect(startServer({ ...db.env, HOST: '203.0.113.254' }, undefined, 60_000)).rejects.toThrow(/exited with 1[\s\S]*Failed to listen on 203\.0\.113\.254:/);
  });

  it('a TRUSTED_PROXIES entry that is not an address stops the start, naming it', async () => {
    await expect(startServer({ ...db.env, TRUSTED_PROXIES: '127.0.0.1, proxy.example.org' }, undefined, 60_000)).rejects.toThrow(/exited with 1[\s\S]*TRUSTED_PROXIES: 'proxy\.example\.org' is not an IP address or CIDR range/);
  });
});

describe('files holding secrets are readable by the server\'s user only (0600 files, 0700 folders)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-modes-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('the SQLite database: its folder created 0700, the file and its -wal and -shm 0600', async () => {
    const file = path.join(work, 'fresh', 'data', 'app.db');
    const server = await startServer({ SQLITE_FILE: file });
    try {
      // Written to: the WAL holds a commit.
      await new ApiClient(server.url).devLogin('modes');
      expect(modeOf(path.join(work, 'fresh'))).toBe(0o700);
      expect(modeOf(path.join(work, 'fresh', 'data'))).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(f), f).toBe(0o600);
    } finally {
      await server.stop();
    }
  });

  it('an existing database file (and -wal, -shm) open to others is narrowed to 0600 on start', async () => {
    const dir = path.join(work, 'old');
    fs.mkdirSync(dir, { mode: 0o755 });
    const file = path.join(dir, 'app.db');
    const first = await startServer({ SQLITE_FILE: file });
    await new ApiClient(first.url).devLogin('old');
    await first.stop();
    // As an older version left them (an empty -wal, as a crash may leave it).
    fs.chmodSync(file, 0o644);
    fs.writeFileSync(`${file}-wal`, '', { flag: 'a' });
    fs.chmodSync(`${file}-wal`, 0o644);
    const server = await startServer({ SQLITE_FILE: file });
    try {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(f), f).toBe(0o600);
      // The folder already existed: it is the operator's and keeps its mode.
      expect(modeOf(dir)).toBe(0o755);
    } finally {
      await server.stop();
    }
  });

  it('proof images: folders created 0700, files 0600', async () => {
    const root = path.join(work, 'uploads');
    const store: ImageStore = new FolderStore(root);
    await store.put('proofs/12/34.webp', Buffer.from('image'), 'image/webp');
    expect(modeOf(root)).toBe(0o700);
    expect(modeOf(path.join(root, 'proofs'))).toBe(0o700);
    expect(modeOf(path.join(root, 'proofs', '12'))).toBe(0o700);
    expect(modeOf(path.join(root, 'proofs', '12', '34.webp'))).toBe(0o600);
    expect((await store.get('proofs/12/34.webp'))?.toString()).toBe('image');
  });
});

describe.skipIf(!OUTSIDE || !fs.existsSync(NGINX))('the shipped nginx site in front of a process with the shipped HOST and TRUST_PROXY', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-nginx-'));
  let db: TestDatabase;
  let server: TestServer;
  let nginx: ChildProcess | undefined;
  let port: number;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    server = await startServer({ ...db.env, HOST: '127.0.0.1', TRUST_PROXY: '1', AUTH_RATE_LIMIT: '5' });
    port = await freePort();
    nginx = (await startNginx(dir, port, siteFor(String(port), [server.port]))).proc;
  });
  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const done = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGQUIT');
      await done;
    }
    await server?.stop();
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers /metrics itself with 404 to a caller that is not on loopback, whatever X-Forwarded-For says; a loopback scraper reaches the process', async () => {
    const site = `http://${OUTSIDE}:${port}`;
    for (const xff of [undefined, '127.0.0.1']) {
      const r = await scrape(site, xff ? { 'x-forwarded-for': xff } : {});
      expect(r.status, String(xff)).toBe(404);
      expect(JSON.parse(r.text)).toEqual({ error: 'Not found.' });
      // nginx answered: every answer of the server carries a request id.
      expect(r.headers.get('x-request-id')).toBeNull();
    }
    const local = await scrape(`http://127.0.0.1:${port}`);
    expect(local.status).toBe(200);
    expect(local.text).toContain('http_requests_total');
    expect(local.headers.get('x-request-id')).toBeTruthy();
  });

  it('passes the client\'s address on: a caller rotating X-Forwarded-For is still limited, another caller is not', async () => {
    const outside = `http://${OUTSIDE}:${port}`;
    expect(await signIns(outside, 7, (i) => `198.51.100.${i + 1}`, 'via-nginx')).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await signIns(`http://127.0.0.1:${port}`, 1, () => undefined, 'via-nginx-local')).toEqual([200]);
  });

  it('the process itself is not reachable from outside, around nginx', async () => {
    expect(await refused(at(server.url, OUTSIDE!))).toBe(true);
  });
});
