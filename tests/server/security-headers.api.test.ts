/**
 * Security headers (docs/server.md §8) over real HTTP against the real server,
 * on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the header set and the CSP on every kind of
 * answer (pages, built assets, API answers, API errors, 404s); index.html has no inline script
 * and carries the answer's style nonce. Needs the built client (`npx vite build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Answer } from '../support/api';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { REPO_ROOT } from '../support/e2e';

/** The whole CSP of every answer; the style nonce (16 random bytes, base64) changes per answer. */
const CSP =
  /^default-src 'self'; script-src 'self'; style-src 'self' 'nonce-([A-Za-z0-9+/]{22}==)'; img-src 'self' data: blob: https:\/\/cdn\.discordapp\.com; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/;

/** Expects the header set of docs/server.md §8 on one answer; returns its style nonce. */
function expectSecurityHeaders(headers: Headers, what: string): string {
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp, `${what}: Content-Security-Policy`).toMatch(CSP);
  expect(
    {
      nosniff: headers.get('x-content-type-options'),
      referrer: headers.get('referrer-policy'),
      frame: headers.get('x-frame-options'),
    },
    what,
  ).toEqual({ nosniff: 'nosniff', referrer: 'strict-origin-when-cross-origin', frame: 'DENY' });
  return CSP.exec(csp)![1];
}

const DIST_INDEX = path.join(REPO_ROOT, 'dist', 'index.html');

/** The built client's own script and style files, from dist/index.html (run `npx vite build` first). */
function builtAssets(): string[] {
  const html = fs.readFileSync(DIST_INDEX, 'utf8');
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
}

const MB = 1000 * 1000;

describe.each(backends())('security headers (%s)', (backend) => {
  const suite = useServerSuite(backend);

  describe('on every answer (docs/server.md §8)', () => {
    it('pages: /, /index.html and a client route carry the headers; index.html has no inline script and the answer\'s nonce', async () => {
      const nonces = new Set<string>();
      for (const p of ['/', '/index.html', '/dashboard', '/games/spectate/12']) {
        const res = await fetch(suite.url + p);
        expect(res.status, p).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        const nonce = expectSecurityHeaders(res.headers, p);
        const html = await res.text();
        expect(html, p).toContain(`<meta name="csp-nonce" content="${nonce}" />`);
        const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
        expect(scripts.length, p).toBeGreaterThan(0);
        for (const [, attrs, inline] of scripts) {
          expect(attrs, p).toMatch(/\bsrc="\/assets\//);
          expect(inline.trim(), p).toBe('');
        }
        expect(html, p).not.toMatch(/<style\b|\son[a-z]+=/i);
        nonces.add(nonce);
      }
      expect(nonces.size).toBe(4); // a fresh nonce per answer
    });

    it("a spectator game page preloads the game screen's built chunks and its public game answer", async () => {
      const html = await (await fetch(suite.url + '/games/spectate/12')).text();
      const chunks = [...html.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/game(?:Screen|Shared)-[^"]+\.js)">/g)].map((m) => m[1]);
      expect(chunks).toHaveLength(2);
      for (const c of chunks) expect((await fetch(suite.url + c)).status, c).toBe(200);
      expect(html).toContain('<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/public/game/12">');
      expect(await (await fetch(suite.url + '/dashboard')).text()).not.toContain('rel="preload"');
    });

    it('built assets (script and style sheet) carry the headers', async () => {
      const assets = builtAssets();
      expect(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css'))).toBe(true);
      for (const a of assets) {
        const res = await fetch(suite.url + a);
        expect(res.status, a).toBe(200);
        await res.arrayBuffer();
        expectSecurityHeaders(res.headers, a);
      }
    });

    it('API answers and API errors (400, 401, 403, 404, 413) carry the headers', async () => {
      const answers: [string, number, Answer][] = [
        ['GET /api/games/auth/status', 200, await suite.client().get('/api/games/auth/status')],
        ['GET /api/user/me signed out', 401, await suite.client().get('/api/user/me')],
        ['POST /api/clans from another origin', 403, await suite.client().call('POST', '/api/clans', { clan_name: 'X' }, { origin: 'https://evil.example' })],
        ['GET /api/no/such/route', 404, await suite.client().get('/api/no/such/route')],
        ['POST /api/auth/dev with 2 MB', 413, await suite.client().call('POST', '/api/auth/dev', JSON.stringify({ username: 'x'.repeat(2 * MB) }))],
        ['POST /api/auth/dev with a bad body', 400, await suite.client().call('POST', '/api/auth/dev', '{oops')],
      ];
      for (const [what, status, r] of answers) {
        expect(r.status, what).toBe(status);
        expectSecurityHeaders(r.headers, what);
      }
    });

    it('a 404 outside the API and a missing asset carry the headers', async () => {
      for (const [method, p] of [['POST', '/'], ['DELETE', '/dashboard']] as const) {
        const res = await fetch(suite.url + p, { method, headers: { origin: suite.url } });
        expect(res.status, `${method} ${p}`).toBe(404);
        expect(await res.json()).toEqual({ error: 'Not found.' });
        expectSecurityHeaders(res.headers, `${method} ${p}`);
      }
    });

    it("Socket.IO's own answers (the polling handshake) carry the header set, with a CSP that allows nothing", async () => {
      const res = await fetch(`${suite.url}/socket.io/?EIO=4&transport=polling`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/"sid"/);
      expect({
        csp: res.headers.get('content-security-policy'),
        nosniff: res.headers.get('x-content-type-options'),
        referrer: res.headers.get('referrer-policy'),
        frame: res.headers.get('x-frame-options'),
      }).toEqual({
        csp: "default-src 'none'; frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
        nosniff: 'nosniff',
        referrer: 'strict-origin-when-cross-origin',
        frame: 'DENY',
      });
    });
  });
});
