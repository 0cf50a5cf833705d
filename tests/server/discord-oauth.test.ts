/**
 * The Discord sign-in tested for real (server-contract section 1; issue #2 "The Discord flow
 * tested for real"): this file serves a local stand-in for Discord's authorize, token and
 * users/@me endpoints, points a real server process at it through DISCORD_* variables, and
 * follows the whole redirect chain with a cookie-keeping ApiClient.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ApiClient } from '../support/api';
import { backends, createTestDatabase, freePort, startServer, type TestDatabase, type TestServer } from '../support/server';

const CLIENT_ID = 'stand-in-client-1234';
const CLIENT_SECRET = 'stand-in-secret-5678';

/** A Discord user as users/@me answers it. */
interface DiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
}

/** What the stand-in saw of one token request, for the test to inspect. */
interface TokenCall {
  credentials: 'basic' | 'body' | 'none';
  ok: boolean;
  problem: string | null;
}

/**
 * A local stand-in for Discord's OAuth2 endpoints:
 * - GET /oauth2/authorize: remembers the request (client_id, redirect_uri, code_challenge …),
 *   issues a one-time code and redirects to redirect_uri with that code and the same state
 * - POST /api/oauth2/token: checks grant_type, the code (known, unused), redirect_uri, the client
 *   credentials (HTTP basic or body) and that sha256(code_verifier) is the code_challenge it saw;
 *   answers a bearer token, or 400/401 `{"error": ...}` (always 400 when `failToken` is on)
 * - GET /api/users/@me: checks the bearer token and answers `user`
 */
class DiscordStandIn {
  url = '';
  user: DiscordUser = { id: '80351110224678912', username: 'nelly', global_name: 'Nelly the Great', avatar: '8342729096ea3675442027381ff50dfe' };
  failToken = false;
  authorizeCalls: URLSearchParams[] = [];
  tokenCalls: TokenCall[] = [];
  userCalls = 0;
  private codes = new Map<string, { challenge: string; method: string; redirectUri: string; clientId: string; used: boolean }>();
  private tokens = new Set<string>();
  private server = http.createServer((req, res) => void this.handle(req, res));

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private json(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/oauth2/authorize') {
      const q = url.searchParams;
      this.authorizeCalls.push(q);
      const redirectUri = q.get('redirect_uri') ?? '';
      const code = crypto.randomBytes(12).toString('hex');
      this.codes.set(code, {
        challenge: q.get('code_challenge') ?? '',
        method: q.get('code_challenge_method') ?? '',
        redirectUri,
        clientId: q.get('client_id') ?? '',
        used: false,
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/oauth2/token') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const call: TokenCall = { credentials: 'none', ok: false, problem: null };
      this.tokenCalls.push(call);
      const refuse = (status: number, error: string, problem: string) => {
        call.problem = problem;
        this.json(res, status, { error, error_description: problem });
      };
      let clientId = form.get('client_id');
      let secret = form.get('client_secret');
      const auth = req.headers.authorization ?? '';
      if (auth.startsWith('Basic ')) {
        const [id, pw] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
        call.credentials = 'basic';
        clientId = decodeURIComponent(id);
        secret = decodeURIComponent(pw ?? '');
      } else if (secret !== null) {
        call.credentials = 'body';
      }
      if (this.failToken) return refuse(400, 'invalid_grant', 'told to fail');
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return refuse(400, 'invalid_request', 'not a form body');
      if (clientId !== CLIENT_ID || secret !== CLIENT_SECRET) return refuse(401, 'invalid_client', 'bad client credentials');
      if (form.get('grant_type') !== 'authorization_code') return refuse(400, 'unsupported_grant_type', 'grant_type');
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.used) return refuse(400, 'invalid_grant', 'unknown or used code');
      code.used = true;
      if (code.clientId !== clientId) return refuse(400, 'invalid_grant', 'code issued to another client');
      if (form.get('redirect_uri') !== code.redirectUri) return refuse(400, 'invalid_grant', 'redirect_uri mismatch');
      const verifier = form.get('code_verifier') ?? '';
      const hashed = crypto.createHash('sha256').update(verifier).digest('base64url');
      if (code.method !== 'S256' || !verifier || hashed !== code.challenge) return refuse(400, 'invalid_grant', 'PKCE verifier does not match');
      const token = crypto.randomBytes(16).toString('hex');
      this.tokens.add(token);
      call.ok = true;
      this.json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 604800, refresh_token: 'refresh-' + token, scope: 'identify' });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/api/users/@me') {
      this.userCalls++;
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !this.tokens.has(auth.slice(7))) return this.json(res, 401, { message: '401: Unauthorized', code: 0 });
      this.json(res, 200, { ...this.user, discriminator: '0' });
      return;
    }
    this.json(res, 404, { message: 'not found' });
  }
}

/** Number of stored sessions (any user) in a suite's database. */
async function countSessions(env: Record<string, string>): Promise<number> {
  if (env.DATABASE_URL) {
    const c = new pg.Client({ connectionString: env.DATABASE_URL });
    await c.connect();
    try {
      return Number((await c.query('SELECT count(*) AS n FROM sessions')).rows[0].n);
    } finally {
      await c.end();
    }
  }
  const db = new Database(env.SQLITE_FILE, { readonly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe.each(backends())('Discord OAuth2 sign-in against a local stand-in (%s)', (backend) => {
  let db: TestDatabase;
  let server: TestServer;
  const discord = new DiscordStandIn();
  let redirectUri = '';

  beforeAll(async () => {
    await discord.start();
    db = await createTestDatabase(backend);
    const port = await freePort();
    redirectUri = `http://127.0.0.1:${port}/api/auth/discord/callback`;
    server = await startServer(
      {
        ...db.env,
        DISCORD_CLIENT_ID: CLIENT_ID,
        DISCORD_CLIENT_SECRET: CLIENT_SECRET,
        DISCORD_REDIRECT_URI: redirectUri,
        DISCORD_AUTHORIZE_URL: `${discord.url}/oauth2/authorize`,
        DISCORD_TOKEN_URL: `${discord.url}/api/oauth2/token`,
        DISCORD_USER_URL: `${discord.url}/api/users/@me`,
      },
      port,
    );
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    await discord.stop();
  });

  /** GET /api/auth/discord?path=…: expects a 302 to the stand-in's authorize URL and returns it. */
  async function start(client: ApiClient, path: string): Promise<URL> {
    const r = await client.get(`/api/auth/discord?path=${encodeURIComponent(path)}`);
    expect(r.status).toBe(302);
    return new URL(r.headers.get('location')!);
  }

  /** The stand-in's authorize step, as a browser would follow it: returns the callback URL. */
  async function authorize(authorizeUrl: URL): Promise<URL> {
    const r = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(r.status).toBe(302);
    return new URL(r.headers.get('location')!);
  }

  /** Calls the server's callback (a path on the server) and returns the /auth-callback redirect. */
  async function callback(client: ApiClient, callbackUrl: URL): Promise<URL> {
    expect(callbackUrl.origin).toBe(server.url);
    const r = await client.get(callbackUrl.pathname + callbackUrl.search);
    expect(r.status).toBe(302);
    const location = r.headers.get('location')!;
    const target = new URL(location, server.url);
    expect(target.origin).toBe(server.url);
    expect(target.pathname).toBe('/auth-callback');
    return target;
  }

  it('signs in through authorize, token (PKCE, client credentials) and users/@me, then returns to the path', async () => {
    const client = new ApiClient(server.url);
    const tokenCallsBefore = discord.tokenCalls.length;

    const authorizeUrl = await start(client, '/games');
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${discord.url}/oauth2/authorize`);
    const q = authorizeUrl.searchParams;
    expect(q.get('client_id')).toBe(CLIENT_ID);
    expect(q.get('redirect_uri')).toBe(redirectUri);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')?.split(' ')).toEqual(['identify']);
    expect(q.get('state')?.length ?? 0).toBeGreaterThanOrEqual(16);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const callbackUrl = await authorize(authorizeUrl);
    expect(callbackUrl.toString().startsWith(redirectUri + '?')).toBe(true);
    expect(callbackUrl.searchParams.get('state')).toBe(q.get('state'));

    const done = await callback(client, callbackUrl);
    expect(done.search).toBe('?auth=success&path=%2Fgames');

    const calls = discord.tokenCalls.slice(tokenCallsBefore);
    expect(calls).toEqual([{ credentials: 'basic', ok: true, problem: null }]);
    expect(client.cookies.has('sid')).toBe(true);

    const status = await client.get('/api/games/auth/status');
    expect(status.body).toMatchObject({ authorized: true, has_token: true, error: null, dev_login: false });
    const me = await client.get('/api/user/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      discord_id: discord.user.id,
      username: discord.user.username,
      discord_username: discord.user.username,
      avatar_url: `https://cdn.discordapp.com/avatars/${discord.user.id}/${discord.user.avatar}.png`,
      igns: [],
      clan_memberships_list: [],
    });

    // The callback cannot be replayed: its one-time flow data is gone.
    const replay = await callback(client, callbackUrl);
    expect(replay.searchParams.get('error')).toBeTruthy();
  });

  it('a second sign-in of the same Discord user updates that user instead of creating another', async () => {
    const first = new ApiClient(server.url);
    discord.user = { id: '555000111222333444', username: 'renamer', global_name: null, avatar: null };
    await callback(first, await authorize(await start(first, '/dashboard')));
    const before = (await first.get('/api/user/me')).body;
    expect(before).toMatchObject({ discord_id: '555000111222333444', username: 'renamer', avatar_url: null });

    discord.user = { id: '555000111222333444', username: 'renamed', global_name: 'Renamed', avatar: 'abc123' };
    const second = new ApiClient(server.url);
    const done = await callback(second, await authorize(await start(second, '/profile')));
    expect(done.search).toBe('?auth=success&path=%2Fprofile');
    const after = (await second.get('/api/user/me')).body;
    expect(after.id).toBe(before.id);
    expect(after).toMatchObject({ discord_id: '555000111222333444', username: 'renamed', avatar_url: 'https://cdn.discordapp.com/avatars/555000111222333444/abc123.png' });
  });

  it('a wrong state lands on /auth-callback?error=... without asking for a token or creating a session', async () => {
    const client = new ApiClient(server.url);
    const sessions = await countSessions(db.env);
    const tokenCalls = discord.tokenCalls.length;
    const callbackUrl = await authorize(await start(client, '/games'));
    callbackUrl.searchParams.set('state', 'not-the-state-we-sent');
    const done = await callback(client, callbackUrl);
    expect(done.searchParams.get('error')).toBeTruthy();
    expect(done.searchParams.get('auth')).toBeNull();
    expect(discord.tokenCalls.length).toBe(tokenCalls);
    expect(client.cookies.has('sid')).toBe(false);
    expect(await countSessions(db.env)).toBe(sessions);
    expect((await client.get('/api/games/auth/status')).body.authorized).toBe(false);
    expect((await client.get('/api/user/me')).status).toBe(401);
  });

  it('a callback without the flow started in this browser (login CSRF) is refused', async () => {
    const victim = new ApiClient(server.url);
    const attacker = new ApiClient(server.url);
    const sessions = await countSessions(db.env);
    const callbackUrl = await authorize(await start(attacker, '/games'));
    const done = await callback(victim, callbackUrl);
    expect(done.searchParams.get('error')).toBeTruthy();
    expect(victim.cookies.has('sid')).toBe(false);
    expect(await countSessions(db.env)).toBe(sessions);
  });

  it('a failed token exchange (400) lands on /auth-callback?error=... and creates no session', async () => {
    const client = new ApiClient(server.url);
    const sessions = await countSessions(db.env);
    const tokenCalls = discord.tokenCalls.length;
    const callbackUrl = await authorize(await start(client, '/games'));
    discord.failToken = true;
    try {
      const done = await callback(client, callbackUrl);
      expect(done.searchParams.get('error')).toBeTruthy();
      expect(done.searchParams.get('auth')).toBeNull();
    } finally {
      discord.failToken = false;
    }
    expect(discord.tokenCalls.length).toBe(tokenCalls + 1);
    expect(client.cookies.has('sid')).toBe(false);
    expect(await countSessions(db.env)).toBe(sessions);
    expect((await client.get('/api/user/me')).status).toBe(401);
  });

  it('Discord answering an error (the user denied access) lands on /auth-callback?error=...', async () => {
    const client = new ApiClient(server.url);
    const authorizeUrl = await start(client, '/games');
    const denied = new URL(redirectUri);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', authorizeUrl.searchParams.get('state')!);
    const done = await callback(client, denied);
    expect(done.searchParams.get('error')).toBeTruthy();
    expect(client.cookies.has('sid')).toBe(false);
  });

  it('never returns to another site: //evil.com and friends are replaced by a local path', async () => {
    for (const path of ['//evil.com', '//evil.com/games', 'https://evil.com', '/\\evil.com', 'evil.com']) {
      const client = new ApiClient(server.url);
      const done = await callback(client, await authorize(await start(client, path)));
      expect(done.searchParams.get('auth')).toBe('success');
      const back = done.searchParams.get('path')!;
      expect({ path, back: back.startsWith('/') && !back.startsWith('//') && !back.includes('\\') && !back.includes('evil') }).toEqual({ path, back: true });
      await client.post('/api/logout');
    }
  });

  it('dev sign-in is off while Discord is configured', async () => {
    const client = new ApiClient(server.url);
    expect((await client.post('/api/auth/dev', { username: 'Sneaky' })).status).toBe(404);
  });
});
