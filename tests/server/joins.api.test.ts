import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { backends } from '../support/server';
import { ApiClient } from '../support/api';
import { useServerSuite } from '../support/suite';
import { clanWithRoles, directSql, PERMISSION_TEXT, type ClanWithRoles } from '../support/fixtures';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/socket';
import type { JoinRequestCount, JoinRequestDecided } from '../../contract/joins';

/**
 * Clan settings, joining and join requests over real HTTP and real sockets (docs/server.md §18
 * "Joining"): every status and text of the join rule (open, request, invite, kicked, no IGN, a
 * member already, a request pending), onboarding's Member choice under each policy, the managers'
 * list with approve, deny and withdraw, the asker's list in GET /api/user/me, the managers'
 * live count `join_request` (also across two processes sharing Redis), and the asker's live
 * `join_request_decided`.
 */

const OWNER_ONLY = 'Permission denied. Only the clan Owner can do this.';
const KICKED = 'You were removed from this clan. Ask a manager to add you again.';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

type Live = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A socket of `api`'s session joined to the managers room of `clanId` (join_reviews, acknowledged), recording every `join_request`. */
async function managersSocket(url: string, api: ApiClient, clanId: number): Promise<{ socket: Live; got: JoinRequestCount[]; until: (pending: number) => Promise<void> }> {
  const socket: Live = connectSocket(url, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: { cookie: [...api.cookies].map(([k, val]) => `${k}=${val}`).join('; ') },
  });
  const got: JoinRequestCount[] = [];
  socket.on('join_request', (p) => got.push(p));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const joined = await new Promise<unknown>((resolve) => (socket as unknown as { emit(ev: string, p: unknown, ack: (a: unknown) => void): void }).emit('join_reviews', { clan_id: clanId }, resolve));
  expect(joined).toEqual({ joined: true });
  /** Resolves once a `join_request` of this clan with `pending` has arrived (10 s at most). */
  const until = async (pending: number) => {
    const deadline = Date.now() + 10_000;
    while (!got.some((g) => g.clan_id === clanId && g.pending === pending)) {
      if (Date.now() > deadline) throw new Error(`no join_request {clan_id: ${clanId}, pending: ${pending}}; got ${JSON.stringify(got)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { socket, got, until };
}

describe.each(backends())('joining clans (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let serial = 0;
  const sockets: Live[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  /** A fresh clan with one person of every role (their IGNs linked), under `prefix`. */
  async function clan(prefix: string): Promise<ClanWithRoles> {
    const tag = `${prefix}-${++serial}`;
    return clanWithRoles(suite.url, {
      prefix: tag,
      clanName: `Joins ${tag}`,
      signIn: async (name) => {
        const api = new ApiClient(suite.url);
        const me = await api.onboard(name, [name.slice(-12)]);
        return { api, id: me.id };
      },
    });
  }

  /** A signed-in newcomer with an IGN (none with `ign: false`). */
  async function newcomer(name: string, ign = true): Promise<{ api: ApiClient; id: number }> {
    const api = new ApiClient(suite.url);
    if (ign) return { api, id: (await api.onboard(name, [`${name.slice(0, 8)}ign`])).id };
    await api.devLogin(name);
    return { api, id: (await api.get('/api/user/me')).body.id };
  }

  const policy = async (c: ClanWithRoles, join_policy: string) => {
    const r = await c.people.owner.put(`/api/clan/${c.clanId}/settings`, { join_policy });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };

  describe('clan settings', () => {
    let c: ClanWithRoles;
    beforeAll(async () => {
      c = await clan('settings');
    });

    it('the members answer carries the clan with its defaults: open and listed', async () => {
      const r = await c.people.guest.get(`/api/clan/${c.clanId}/members`);
      expect(r.status).toBe(200);
      expect(r.body.clan_name).toMatch(/^Joins settings-\d+$/);
      expect(r.body.clan).toEqual({ id: c.clanId, name: r.body.clan_name, join_policy: 'open', listed: true });
    });

    it('only the Owner changes them (others 403, signed out 401); the answer is the clan as it now is', async () => {
      for (const who of ['admin', 'member', 'guest', 'outsider'] as const) {
        const r = await c.people[who].put(`/api/clan/${c.clanId}/settings`, { join_policy: 'invite' });
        expect(r.status, who).toBe(403);
        expect([OWNER_ONLY, PERMISSION_TEXT]).toContain(r.body.error);
      }
      expect((await c.people.anon.put(`/api/clan/${c.clanId}/settings`, { listed: false })).status).toBe(401);
      const r = await c.people.owner.put(`/api/clan/${c.clanId}/settings`, { join_policy: 'request' });
      expect(r.status).toBe(200);
      expect(r.body.clan).toMatchObject({ id: c.clanId, join_policy: 'request', listed: true });
      const again = await c.people.owner.put(`/api/clan/${c.clanId}/settings`, { listed: false });
      expect(again.body.clan).toMatchObject({ join_policy: 'request', listed: false });
      const members = await c.people.member.get(`/api/clan/${c.clanId}/members`);
      expect(members.body.clan).toMatchObject({ join_policy: 'request', listed: false });
    });

    it('bad values answer 400 and change nothing', async () => {
      const before = (await c.people.owner.get(`/api/clan/${c.clanId}/members`)).body.clan;
      for (const body of [{ join_policy: 'closed' }, { join_policy: 3 }, { listed: 'yes' }, { listed: null }, [1]]) {
        const r = await c.people.owner.put(`/api/clan/${c.clanId}/settings`, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(typeof r.body.error).toBe('string');
      }
      expect((await c.people.owner.put('/api/clan/abc/settings', { listed: true })).status).toBe(400);
      expect((await c.people.owner.put('/api/clan/999999/settings', { listed: true })).status).toBe(404);
      expect((await c.people.owner.get(`/api/clan/${c.clanId}/members`)).body.clan).toEqual(before);
    });

    it('an unlisted clan is absent from GET /api/clans; listed again, it is back', async () => {
      await c.people.owner.put(`/api/clan/${c.clanId}/settings`, { listed: false });
      const ids = async () => ((await c.people.outsider.get('/api/clans')).body.clans as { id: number }[]).map((x) => x.id);
      expect(await ids()).not.toContain(c.clanId);
      await c.people.owner.put(`/api/clan/${c.clanId}/settings`, { listed: true });
      expect(await ids()).toContain(c.clanId);
      const listed = (await c.people.outsider.get('/api/clans')).body.clans as unknown[];
      expect(listed).toContainEqual({ id: c.clanId, name: (await c.people.owner.get(`/api/clan/${c.clanId}/members`)).body.clan_name });
    });
  });

  describe('POST /api/clan/{clanId}/join', () => {
    it('open: 201 {membership}; again 409; no IGN 409; unknown clan 404; bad id 400; signed out 401', async () => {
      const c = await clan('open');
      const bare = await newcomer(`open-bare-${serial}`, false);
      const noIgn = await bare.api.post(`/api/clan/${c.clanId}/join`);
      expect(noIgn.status).toBe(409);
      expect(noIgn.body).toEqual({ error: 'Link an IGN first.' });

      const n = await newcomer(`open-new-${serial}`);
      const r = await n.api.post(`/api/clan/${c.clanId}/join`);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toEqual({ membership: { clan_id: c.clanId, name: expect.any(String), role: 'Member', joined_at: expect.stringMatching(ISO) } });
      const members = (await c.people.owner.get(`/api/clan/${c.clanId}/members`)).body.members as { member_id: number; role: string }[];
      expect(members.find((m) => m.member_id === n.id)?.role).toBe('Member');
      const again = await n.api.post(`/api/clan/${c.clanId}/join`);
      expect(again.status).toBe(409);
      expect((await c.people.admin.post(`/api/clan/${c.clanId}/join`)).status).toBe(409);

      expect((await n.api.post('/api/clan/999999/join')).status).toBe(404);
      expect((await n.api.post('/api/clan/0/join')).status).toBe(400);
      expect((await new ApiClient(suite.url).post(`/api/clan/${c.clanId}/join`)).status).toBe(401);
    });

    it('request: 202 {join_request} pending; a second ask while pending 409 with its text', async () => {
      const c = await clan('request');
      await policy(c, 'request');
      const n = await newcomer(`req-new-${serial}`);
      const r = await n.api.post(`/api/clan/${c.clanId}/join`);
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(r.body).toEqual({ join_request: { id: expect.any(Number), clan_id: c.clanId, clan_name: expect.any(String), status: 'pending', created_at: expect.stringMatching(ISO) } });
      const again = await n.api.post(`/api/clan/${c.clanId}/join`);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'You have already asked to join this clan.' });
      const members = (await c.people.owner.get(`/api/clan/${c.clanId}/members`)).body.members as { member_id: number }[];
      expect(members.some((m) => m.member_id === n.id)).toBe(false);
    });

    it('invite: 403 with its text, and nothing stored', async () => {
      const c = await clan('invite');
      await policy(c, 'invite');
      const n = await newcomer(`inv-new-${serial}`);
      const r = await n.api.post(`/api/clan/${c.clanId}/join`);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: 'This clan takes new members by invitation only.' });
      expect((await n.api.get('/api/user/me')).body.join_requests).toEqual([]);
    });

    it('a kicked user cannot come back by open or by a request (403, the kick text) until a manager adds them', async () => {
      const c = await clan('kick');
      const kick = await c.people.owner.del(`/api/clan/${c.clanId}/members/${c.ids.member}`);
      expect(kick.status).toBe(200);
      const open = await c.people.member.post(`/api/clan/${c.clanId}/join`);
      expect(open.status).toBe(403);
      expect(open.body).toEqual({ error: KICKED });
      await policy(c, 'request');
      const asked = await c.people.member.post(`/api/clan/${c.clanId}/join`);
      expect(asked.status).toBe(403);
      expect(asked.body).toEqual({ error: KICKED });
      expect((await c.people.owner.get(`/api/clan/${c.clanId}/join-requests`)).body.join_requests).toEqual([]);
      expect((await c.people.owner.post(`/api/clan/${c.clanId}/members`, { user_id: c.ids.member, role: 'Member' })).status).toBe(200);
    });
  });

  describe('onboarding as Clan Member follows the same rule in one transaction', () => {
    it('open clan: a membership, as before', async () => {
      const c = await clan('setup-open');
      const me = await new ApiClient(suite.url).onboard(`setup-open-${serial}`, ['SetupOpen'], { role: 'Member', clan_id: c.clanId });
      expect(me.clan_memberships_list.map((m: { clan_id: number }) => m.clan_id)).toEqual([c.clanId]);
    });

    it('request clan: saves the IGNs and answers {ign_count, join_request} with no membership', async () => {
      const c = await clan('setup-req');
      await policy(c, 'request');
      const api = await new ApiClient(suite.url).devLogin(`setup-req-${serial}`);
      const r = await api.post('/api/user/setup', { igns: ['ReqOne', 'ReqTwo'], clan_setup: { role: 'Member', clan_id: c.clanId } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ ign_count: 2, join_request: { id: expect.any(Number), clan_id: c.clanId, clan_name: expect.any(String), status: 'pending', created_at: expect.stringMatching(ISO) } });
      const me = (await api.get('/api/user/me')).body;
      expect(me.igns.map((i: { ign: string }) => i.ign)).toEqual(['ReqOne', 'ReqTwo']);
      expect(me.clan_memberships_list).toEqual([]);
      expect(me.join_requests).toEqual([{ ...r.body.join_request, reason: null }]);
      const list = (await c.people.admin.get(`/api/clan/${c.clanId}/join-requests`)).body.join_requests;
      expect(list).toEqual([{ id: r.body.join_request.id, user_id: me.id, username: `setup-req-${serial}`, igns: ['ReqOne', 'ReqTwo'], created_at: r.body.join_request.created_at }]);
    });

    it('invite clan: 403 with its text and saves nothing (no IGN, no membership)', async () => {
      const c = await clan('setup-inv');
      await policy(c, 'invite');
      const api = await new ApiClient(suite.url).devLogin(`setup-inv-${serial}`);
      const r = await api.post('/api/user/setup', { igns: ['InvOne'], clan_setup: { role: 'Member', clan_id: c.clanId } });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: 'This clan takes new members by invitation only.' });
      const me = (await api.get('/api/user/me')).body;
      expect(me.igns).toEqual([]);
      expect(me.clan_memberships_list).toEqual([]);
      expect(me.join_requests).toEqual([]);
    });
  });

  describe('join requests: the managers decide, the asker sees and withdraws', () => {
    let c: ClanWithRoles;
    beforeAll(async () => {
      c = await clan('decide');
      await policy(c, 'request');
    });
    const path = (tail = '') => `/api/clan/${c.clanId}/join-requests${tail}`;

    it('managers list the pending ones oldest first with usernames and IGNs; others 403, signed out 401', async () => {
      const first = await newcomer(`list-a-${serial}`);
      const second = await newcomer(`list-b-${serial}`);
      const a = (await first.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      const b = (await second.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      const r = await c.people.admin.get(path());
      expect(r.status).toBe(200);
      const mine = (r.body.join_requests as { id: number }[]).filter((x) => [a.id, b.id].includes(x.id));
      expect(mine).toEqual([
        { id: a.id, user_id: first.id, username: `list-a-${serial}`, igns: [`list-a-${serial}`.slice(0, 8) + 'ign'], created_at: a.created_at },
        { id: b.id, user_id: second.id, username: `list-b-${serial}`, igns: [`list-b-${serial}`.slice(0, 8) + 'ign'], created_at: b.created_at },
      ]);
      for (const who of ['member', 'guest', 'outsider'] as const) {
        const refused = await c.people[who].get(path());
        expect(refused.status, who).toBe(403);
        expect(refused.body).toEqual({ error: PERMISSION_TEXT });
      }
      expect((await c.people.anon.get(path())).status).toBe(401);
      expect((await c.people.member.post(path(`/${a.id}/approve`))).status).toBe(403);
      expect((await c.people.member.post(path(`/${a.id}/deny`), {})).status).toBe(403);
    });

    it('approve makes the asker a Member (200 {member}); a request no longer pending 409; GET /api/user/me shows it approved', async () => {
      const n = await newcomer(`appr-${serial}`);
      const asked = (await n.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      const r = await c.people.admin.post(path(`/${asked.id}/approve`));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.member).toMatchObject({ member_id: n.id, username: `appr-${serial}`, role: 'Member' });
      const again = await c.people.owner.post(path(`/${asked.id}/approve`));
      expect(again.status).toBe(409);
      expect((await c.people.owner.post(path(`/${asked.id}/deny`), {})).status).toBe(409);
      const me = (await n.api.get('/api/user/me')).body;
      expect(me.clan_memberships_list.map((m: { clan_id: number; role: string }) => [m.clan_id, m.role])).toEqual([[c.clanId, 'Member']]);
      expect(me.join_requests).toEqual([{ id: asked.id, clan_id: c.clanId, clan_name: asked.clan_name, status: 'approved', reason: null, created_at: asked.created_at }]);
      expect((await c.people.owner.get(path())).body.join_requests.some((x: { id: number }) => x.id === asked.id)).toBe(false);
    });

    it('deny with a reason (at most 300 characters, else 400); the asker sees it; they may ask again', async () => {
      const n = await newcomer(`deny-${serial}`);
      const asked = (await n.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      const long = await c.people.owner.post(path(`/${asked.id}/deny`), { reason: 'x'.repeat(301) });
      expect(long.status).toBe(400);
      expect(long.body.error).toMatch(/300/);
      expect((await c.people.owner.post(path(`/${asked.id}/deny`), { reason: 'bad\u0000text' })).status).toBe(400);
      const r = await c.people.owner.post(path(`/${asked.id}/deny`), { reason: 'Full for this season.' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ join_request: { id: asked.id, status: 'denied', reason: 'Full for this season.' } });
      const me = (await n.api.get('/api/user/me')).body;
      expect(me.join_requests).toEqual([{ id: asked.id, clan_id: c.clanId, clan_name: asked.clan_name, status: 'denied', reason: 'Full for this season.', created_at: asked.created_at }]);
      expect(me.clan_memberships_list).toEqual([]);
      expect((await n.api.del(`/api/user/join-requests/${asked.id}`)).status).toBe(409);
      const again = await n.api.post(`/api/clan/${c.clanId}/join`);
      expect(again.status).toBe(202);
      // Without a body, and with an empty reason: denied with no reason.
      const bare = await c.people.admin.call('POST', path(`/${again.body.join_request.id}/deny`));
      expect(bare.status, JSON.stringify(bare.body)).toBe(200);
      expect(bare.body.join_request.reason).toBeNull();
    });

    it('withdraw: the asker deletes a pending request ({ok: true}); someone else\'s 404; unknown ids 404/400', async () => {
      const n = await newcomer(`wd-${serial}`);
      const asked = (await n.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      const other = await newcomer(`wd-other-${serial}`);
      const foreign = await other.api.del(`/api/user/join-requests/${asked.id}`);
      expect(foreign.status).toBe(404);
      const r = await n.api.del(`/api/user/join-requests/${asked.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true });
      expect((await n.api.get('/api/user/me')).body.join_requests).toEqual([]);
      expect((await c.people.owner.get(path())).body.join_requests.some((x: { id: number }) => x.id === asked.id)).toBe(false);
      expect((await n.api.del(`/api/user/join-requests/${asked.id}`)).status).toBe(404);
      expect((await n.api.del('/api/user/join-requests/abc')).status).toBe(400);
      expect((await new ApiClient(suite.url).del(`/api/user/join-requests/${asked.id}`)).status).toBe(401);
      expect((await c.people.owner.post(path(`/${asked.id}/approve`))).status).toBe(404);
      expect((await c.people.owner.post(path('/999999/approve'))).status).toBe(404);
      expect((await c.people.owner.post(path('/abc/approve'))).status).toBe(400);
    });

    it('a request decided more than 30 days ago is no longer in the asker\'s list', async () => {
      const n = await newcomer(`old-${serial}`);
      const asked = (await n.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      await c.people.owner.post(path(`/${asked.id}/deny`), { reason: 'No.' });
      await directSql(suite.env, 'UPDATE join_requests SET decided_at = ? WHERE id = ?', [new Date(Date.now() - 31 * 86_400_000).toISOString(), asked.id]);
      expect((await n.api.get('/api/user/me')).body.join_requests).toEqual([]);
    });

    it('two asks at once store one request: the other answers 409', async () => {
      const n = await newcomer(`race-${serial}`);
      const answers = await Promise.all([0, 1, 2].map(() => n.api.post(`/api/clan/${c.clanId}/join`)));
      expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
    });

    it('the managers room gets join_request {clan_id, pending} whenever the count changes', async () => {
      const live = await managersSocket(suite.url, c.people.admin, c.clanId);
      sockets.push(live.socket);
      const base = (await c.people.owner.get(path())).body.join_requests.length as number;
      const n = await newcomer(`live-${serial}`);
      const asked = (await n.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      await live.until(base + 1);
      await c.people.owner.post(path(`/${asked.id}/approve`));
      await live.until(base);
      const m = await newcomer(`live2-${serial}`);
      const again = (await m.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      const mark = live.got.length;
      await m.api.del(`/api/user/join-requests/${again.id}`);
      const deadline = Date.now() + 10_000;
      while (live.got.length === mark && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(live.got.slice(mark)).toEqual([{ clan_id: c.clanId, pending: base }]);
      // A member's join_reviews joins nothing: it hears no count.
      const plain = await managersSocket(suite.url, c.people.member, c.clanId).catch((err: Error) => err);
      expect(plain).toBeInstanceOf(Error);
    });

    it('the asker\'s own sockets get join_request_decided {id, clan_id, clan_name, status, reason} on approve and on deny; nobody else does', async () => {
      const open = async (api: ApiClient) => {
        const socket: Live = connectSocket(suite.url, {
          path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false,
          extraHeaders: { cookie: [...api.cookies].map(([k, val]) => `${k}=${val}`).join('; ') },
        });
        sockets.push(socket);
        const got: JoinRequestDecided[] = [];
        socket.on('join_request_decided', (p) => got.push(p));
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        return got;
      };
      /** Resolves once `got` holds `n` notices (10 s at most). */
      const until = async (got: JoinRequestDecided[], n: number) => {
        const deadline = Date.now() + 10_000;
        while (got.length < n) {
          if (Date.now() > deadline) throw new Error(`expected ${n} join_request_decided; got ${JSON.stringify(got)}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const n = await newcomer(`told-${serial}`);
      const other = await newcomer(`untold-${serial}`);
      const [mine, theirs, managers] = await Promise.all([open(n.api), open(other.api), open(c.people.owner)]);
      const denied = (await n.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      const waiting = (await other.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      expect((await c.people.owner.post(path(`/${denied.id}/deny`), { reason: 'Full for now.' })).status).toBe(200);
      await until(mine, 1);
      expect(mine[0]).toEqual({ id: denied.id, clan_id: c.clanId, clan_name: denied.clan_name, status: 'denied', reason: 'Full for now.' });
      const approved = (await n.api.post(`/api/clan/${c.clanId}/join`)).body.join_request;
      expect((await c.people.admin.post(path(`/${approved.id}/approve`))).status).toBe(200);
      await until(mine, 2);
      expect(mine[1]).toEqual({ id: approved.id, clan_id: c.clanId, clan_name: approved.clan_name, status: 'approved', reason: null });
      // The other asker's request is still pending, and the managers decided nothing of their own.
      expect((await n.api.get('/api/user/me')).body.clan_memberships_list.map((m: { clan_id: number }) => m.clan_id)).toEqual([c.clanId]);
      expect(theirs).toEqual([]);
      expect(managers).toEqual([]);
      expect(waiting.status).toBe('pending');
    });
  });
});

describe('the live count across two processes sharing Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl || !process.env.TEST_DATABASE_URL) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const suite = useServerSuite('postgres', {}, redisUrl);
  const sockets: Live[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  it('a request asked on process a reaches the manager watching on process b, and the approval does too', async () => {
    const c = await clanWithRoles(suite.url, { prefix: 'two', clanName: 'Joins on two' });
    expect((await c.people.owner.put(`/api/clan/${c.clanId}/settings`, { join_policy: 'request' })).status).toBe(200);
    const ownerOnB = new ApiClient(suite.urlB);
    ownerOnB.cookies = c.people.owner.cookies;
    const live = await managersSocket(suite.urlB, ownerOnB, c.clanId);
    sockets.push(live.socket);
    const n = new ApiClient(suite.url);
    await n.onboard('two-newcomer', ['TwoNew']);
    const asked = await n.post(`/api/clan/${c.clanId}/join`);
    expect(asked.status).toBe(202);
    await live.until(1);
    expect((await ownerOnB.post(`/api/clan/${c.clanId}/join-requests/${asked.body.join_request.id}/approve`)).status).toBe(200);
    await live.until(0);
  });
});
