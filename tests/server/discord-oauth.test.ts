/**
 * The Discord sign-in tested for real (docs/server.md §2): this file serves a local stand-in for Discord's authorize, token and
 * users/@me endpoints, points a real server process at it through DISCORD_* variables, and
 * follows the whole redirect chain with a cookie-keeping ApiClient.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ApiClient } from '../support/api';
import { CLIENT_ID, CLIENT_SECRET, DiscordStandIn } from '../support/discordStandIn';
import { backends, createTestDatabase, freePort, startServer, type TestDatabase, type TestServer } from '../support/server';


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
    expect(status.body).toMatchObject({ authorized: true, has_token: true, error: null, dev_login: false, discord_login: true });
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

  it('refuses a return path that is not a path on this site (400, no redirect, no flow started)', async () => {
    const foreign = [
      '//evil.com', '//evil.com/games', 'https://evil.com', 'http://evil.com/dashboard', '/\\evil.com',
      '/\t/evil.com', 'evil.com', 'javascript:alert(1)', '\\\\evil.com', `/${'a'.repeat(600)}`,
    ];
    for (const path of foreign) {
      const client = new ApiClient(server.url);
      const r = await client.get(`/api/auth/discord?path=${encodeURIComponent(path)}`);
      expect({ path, status: r.status, location: r.headers.get('location') }).toEqual({ path, status: 400, location: null });
      expect(r.body).toEqual({ error: 'The return path must be a path on this site.' });
      expect(client.cookies.has('oauth_flow')).toBe(false);
    }
  });

  it('keeps a deep link with its query through the sign-in, and goes to /dashboard without a path', async () => {
    const deep = '/clans/manage/1/events/2/game?x=1';
    const client = new ApiClient(server.url);
    const done = await callback(client, await authorize(await start(client, deep)));
    expect(done.searchParams.get('path')).toBe(deep);
    const plain = new ApiClient(server.url);
    const r = await plain.get('/api/auth/discord');
    expect(r.status).toBe(302);
    const back = await callback(plain, await authorize(new URL(r.headers.get('location')!)));
    expect(back.searchParams.get('path')).toBe('/dashboard');
  });

  it('dev sign-in is off while Discord is configured', async () => {
    const client = new ApiClient(server.url);
    expect((await client.post('/api/auth/dev', { username: 'Sneaky' })).status).toBe(404);
  });
});
