/**
 * Sessions (docs/server.md §2, §8) over real HTTP against the real server,
 * on SQLite and (with TEST_DATABASE_URL) PostgreSQL: logout of this session or of every session
 * of the user (`{"everywhere": true}`); expired sessions purged by purgeExpiredSessions, by the
 * purge timer and when the server starts. In process: logout calls the broadcaster's signedOut hook.
 */
import { FolderStore } from '../../server/submissions/storage';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer } from '../support/server';
import { useServerSuite } from '../support/suite';
import { directSql, openDirectDb } from '../support/fixtures';
import { hashSessionId, purgeExpiredSessions, startSessionPurge } from '../../server/auth/sessions';
import { openDatabase, type DbHandle } from '../../server/db/connect';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { silentBroadcaster, type Broadcaster } from '../../server/realtime/broadcaster';
import { GameCache } from '../../server/games/cache';
import { log } from '../../server/observability/log';

let nameSeq = 0;
const uniqueName = (label: string) => `${label}-${++nameSeq}`;

describe.each(backends())('sessions (%s)', (backend) => {
  const suite = useServerSuite(backend);

  describe('logout (docs/server.md §2, §8)', () => {
    /** The same user signed in from two clients (two sessions). */
    async function twoSessions(label: string) {
      const name = uniqueName(label);
      const first = await suite.client().devLogin(name);
      const second = await suite.client().devLogin(name);
      const id: number = (await first.get('/api/user/me')).body.id;
      return { first, second, id };
    }
    const sessionsOf = async (userId: number) => Number((await directSql(suite.env, 'SELECT count(*) AS n FROM sessions WHERE user_id = ?', [userId]))[0].n);

    it('plain logout ends only its own session; the other client stays signed in', async () => {
      const { first, second, id } = await twoSessions('Plain Pat');
      expect(await sessionsOf(id)).toBe(2);
      const out = await first.post('/api/logout');
      expect({ status: out.status, body: out.body }).toEqual({ status: 200, body: { ok: true } });
      expect(first.cookies.has('sid')).toBe(false);
      expect((await first.get('/api/user/me')).status).toBe(401);
      expect((await second.get('/api/user/me')).status).toBe(200);
      expect(await sessionsOf(id)).toBe(1);
    });

    it('no body, an empty body, whitespace or {"everywhere": false} log out this session only', async () => {
      for (const body of [undefined, '', '  \n', '{"everywhere": false}']) {
        const { first, second, id } = await twoSessions('Bodyless Bo');
        const out = await first.call('POST', '/api/logout', body);
        expect({ body: JSON.stringify(body), status: out.status }).toEqual({ body: JSON.stringify(body), status: 200 });
        expect((await first.get('/api/user/me')).status).toBe(401);
        expect((await second.get('/api/user/me')).status).toBe(200);
        expect(await sessionsOf(id)).toBe(1);
      }
    });

    it('{"everywhere": true} ends every session of the user, other users keep theirs', async () => {
      const { first, second, id } = await twoSessions('Everywhere Eve');
      const other = await suite.client().devLogin(uniqueName('Bystander Bill'));
      const out = await first.post('/api/logout', { everywhere: true });
      expect({ status: out.status, body: out.body }).toEqual({ status: 200, body: { ok: true } });
      expect(first.cookies.has('sid')).toBe(false);
      expect((await first.get('/api/user/me')).status).toBe(401);
      expect((await second.get('/api/user/me')).status).toBe(401);
      expect((await second.get('/api/games/auth/status')).body).toMatchObject({ authorized: false, has_token: true });
      expect(await sessionsOf(id)).toBe(0);
      expect((await other.get('/api/user/me')).status).toBe(200);
    });

    it('a bad body answers 400 {"error"} and ends nothing', async () => {
      const { first, second, id } = await twoSessions('Bad Body Bea');
      for (const body of ['not json', '{"everywhere": "yes"}', '{"everywhere": 1}', '[]', 'null', '42']) {
        const r = await first.call('POST', '/api/logout', body);
        expect({ body, status: r.status, error: typeof r.body?.error }).toEqual({ body, status: 400, error: 'string' });
      }
      expect((await first.get('/api/user/me')).status).toBe(200);
      expect((await second.get('/api/user/me')).status).toBe(200);
      expect(await sessionsOf(id)).toBe(2);
    });

    it('signed out, {"everywhere": true} is harmless', async () => {
      expect((await suite.client().post('/api/logout', { everywhere: true })).status).toBe(200);
    });
  });

  describe('expired sessions are purged (docs/server.md §8)', () => {
    let handle: DbHandle;
    beforeAll(async () => {
      handle = await openDirectDb(suite.env);
    });
    afterAll(async () => {
      await handle?.close();
    });

    const PAST = '2000-01-01T00:00:00.000Z';
    const rowExists = async (sid: string) => (await directSql(suite.env, 'SELECT id FROM sessions WHERE id = ?', [hashSessionId(sid)])).length === 1;

    /** One user with a live and an expired session; returns both cookies. */
    async function liveAndExpired(label: string) {
      const name = uniqueName(label);
      const live = await suite.client().devLogin(name);
      const expired = await suite.client().devLogin(name);
      const expiredSid = expired.cookies.get('sid')!;
      await directSql(suite.env, 'UPDATE sessions SET expires_at = ? WHERE id = ?', [PAST, hashSessionId(expiredSid)]);
      return { live, liveSid: live.cookies.get('sid')!, expiredSid };
    }

    it('purgeExpiredSessions deletes expired rows only', async () => {
      const { live, liveSid, expiredSid } = await liveAndExpired('Purge Pam');
      expect(await rowExists(expiredSid)).toBe(true);
      expect(await purgeExpiredSessions(handle.db)).toBeGreaterThanOrEqual(1);
      expect(await rowExists(expiredSid)).toBe(false);
      expect(await rowExists(liveSid)).toBe(true);
      expect((await live.get('/api/user/me')).status).toBe(200);
    });

    it('startSessionPurge purges at once and then on its timer until stopped', async () => {
      const a = await liveAndExpired('Timer Tim');
      const stop = await startSessionPurge(handle.db, 50);
      try {
        expect(await rowExists(a.expiredSid)).toBe(false);
        const b = await liveAndExpired('Timer Tom');
        await expect.poll(() => rowExists(b.expiredSid), { timeout: 5000, interval: 25 }).toBe(false);
        expect(await rowExists(b.liveSid)).toBe(true);
      } finally {
        stop();
      }
    });

    it('the server purges expired sessions when it starts', async () => {
      const { liveSid, expiredSid } = await liveAndExpired('Restart Rex');
      const second = await startServer(suite.env);
      try {
        expect(await rowExists(expiredSid)).toBe(false);
        expect(await rowExists(liveSid)).toBe(true);
      } finally {
        await second.stop();
      }
    });
  });
});

describe('logout tells the broadcaster who signed out (the hook for closing their sockets)', () => {
  let handle: DbHandle;
  let dir: string;
  const calls: [number, string | null][] = [];
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    // The app runs in this process: its request lines would go to the test output.
    log.level = 'warn';
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-hook-'));
    handle = await openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'hook.db') });
    const broadcaster: Broadcaster = {
      ...silentBroadcaster,
      async signedOut(userId, sessionId) {
        calls.push([userId, sessionId]);
      },
    };
    const config = loadConfig({ NODE_ENV: 'test' });
    app = createApp({ db: handle.db, dialect: handle.dialect, config, broadcaster, redis: null, images: new FolderStore(path.join(dir, 'uploads')), gameCache: new GameCache(handle.db, config.gameCacheCheckMs) });
  });
  afterAll(async () => {
    await handle?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Dev sign-in in-process; returns the session cookie id. */
  async function signIn(username: string): Promise<string> {
    const res = await app.request('/api/auth/dev', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username }) });
    expect(res.status).toBe(200);
    return /sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1];
  }
  const logout = (sid: string | null, body?: string) =>
    app.request('/api/logout', { method: 'POST', headers: sid ? { cookie: `sid=${sid}` } : {}, body });

  it('plain logout: signedOut(user id, this session id); everywhere: signedOut(user id, null); signed out: no call', async () => {
    const sid = await signIn('Hooked Hal');
    const userId = (await (await app.request('/api/user/me', { headers: { cookie: `sid=${sid}` } })).json()).id;
    expect((await logout(sid)).status).toBe(200);
    const other = await signIn('Hooked Hal');
    await signIn('Hooked Hal');
    expect((await logout(other, '{"everywhere": true}')).status).toBe(200);
    expect((await logout(null, '{"everywhere": true}')).status).toBe(200);
    expect((await logout(sid)).status).toBe(200); // an ended session: nothing more to tell
    expect(calls).toEqual([
      [userId, sid],
      [userId, null],
    ]);
  });
});
