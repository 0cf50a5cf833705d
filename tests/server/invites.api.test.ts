import { describe, it, expect, beforeAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite, useTwoProcesses } from '../support/suite';
import { ApiClient, type Answer } from '../support/api';
import { clanWithRoles, directSql, matrixRows, PERMISSION_TEXT, type ClanWithRoles, type Row } from '../support/fixtures';
import { INVITE_MESSAGES, InviteAcceptAnswerSchema, InviteAnswerSchema, InviteListAnswerSchema, InvitePreviewAnswerSchema } from '../../contract/invite';

/**
 * Invites over real HTTP (docs/server.md §18 "Invites"), on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL: who may make, list and revoke them; a new invite's defaults, bounds and code; the
 * live list; the invite page's answer to anyone; the accept (a Member whatever the join policy,
 * 404 unknown or revoked, 410 expired or used up, 409 without an IGN or for a member, 403 for a
 * kicked user); and the uses never passing max_uses when many accept at once, on one process and
 * (with TEST_REDIS_URL) on two processes sharing PostgreSQL and Redis.
 */

const KICKED = 'You were removed from this clan. Ask a manager to add you again.';
const HOUR_MS = 3_600_000;

const expectError = (r: Answer, status: number, error: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toEqual({ error });
};

/** A signed-in person with one IGN (onboarded, in no clan). */
async function withIgn(url: string, name: string): Promise<ApiClient> {
  const api = new ApiClient(url);
  await api.onboard(name, [name.slice(0, 12)]);
  return api;
}

/** Makes an invite of `clanId` as `api`; expects 201 and answers the invite. */
async function makeInvite(api: ApiClient, clanId: number, body?: object): Promise<v.InferOutput<typeof InviteAnswerSchema>['invite']> {
  const r = await api.call('POST', `/api/clan/${clanId}/invites`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return v.parse(InviteAnswerSchema, r.body).invite;
}

/** Users `count` people with an IGN accepting `code` at the same instant, each on the url `urlOf(i)` gives; answers their statuses. */
async function acceptAtOnce(urls: (i: number) => string, prefix: string, count: number, code: string): Promise<Answer[]> {
  const people = await Promise.all(Array.from({ length: count }, (_, i) => withIgn(urls(i), `${prefix}${i}`)));
  return Promise.all(people.map((p) => p.post(`/api/invites/${code}/accept`)));
}

describe.each(backends())('invites (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let roles: ClanWithRoles;
  let serial = 0;
  /** A fresh person with an IGN, named uniquely in this suite. */
  const person = () => withIgn(suite.url, `inv${backend[0]}${++serial}`);

  beforeAll(async () => {
    roles = await clanWithRoles(suite.url, {
      prefix: `inv-${backend}`,
      clanName: `Invite Clan ${backend}`,
      signIn: async (name) => {
        const api = new ApiClient(suite.url);
        const me = await api.onboard(name, [name.slice(-10)]);
        return { api, id: me.id, me };
      },
    });
  });
  const path = () => `/api/clan/${roles.clanId}/invites`;

  describe('who may make, list and revoke invites', () => {
    /** Statuses in the fixture's order: signed out, non-member, Guest, Member, Admin, Owner. */
    const matrix: { call: string; expect: Row; send: (api: ApiClient) => Promise<Answer> }[] = [
      { call: 'POST invites', expect: [401, 403, 403, 403, 201, 201], send: (api) => api.post(path(), {}) },
      { call: 'GET invites', expect: [401, 403, 403, 403, 200, 200], send: (api) => api.get(path()) },
      {
        call: 'DELETE invite',
        expect: [401, 403, 403, 403, 200, 200],
        send: async (api) => api.del(`${path()}/${(await makeInvite(roles.people.owner, roles.clanId)).code}`),
      },
    ];
    it.each(matrixRows(matrix))('$call as $actor → $status', async ({ send, actor, status }) => {
      const who = { 'signed out': 'anon', 'non-member': 'outsider', Guest: 'guest', Member: 'member', Admin: 'admin', Owner: 'owner' } as const;
      const r = await send(roles.people[who[actor]]);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      if (status === 401) expect(r.body).toEqual({ error: 'You must be signed in.' });
      if (status === 403) expect(r.body).toEqual({ error: PERMISSION_TEXT });
    });

    it('a bad or unknown clan id: 400, 404', async () => {
      expectError(await roles.people.owner.post('/api/clan/abc/invites', {}), 400, 'Invalid clan id.');
      expectError(await roles.people.owner.get('/api/clan/0/invites'), 400, 'Invalid clan id.');
      expectError(await roles.people.owner.del('/api/clan/12abc/invites/whatever'), 400, 'Invalid clan id.');
      expectError(await roles.people.owner.post('/api/clan/999999/invites', {}), 404, 'Clan ID 999999 not found.');
    });
  });

  describe('making an invite', () => {
    it('defaults: 25 uses, 168 hours, a code of at least 16 random bytes in base64url, and its url on this site', async () => {
      const before = Date.now();
      // No body at all, an empty object: both the defaults.
      const r = await roles.people.admin.call('POST', path());
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const invite = v.parse(InviteAnswerSchema, r.body).invite;
      expect(Object.keys(r.body.invite).sort()).toEqual(['code', 'created_at', 'expires_at', 'max_uses', 'url', 'uses']);
      expect(invite).toMatchObject({ max_uses: 25, uses: 0 });
      expect(invite.code).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(invite.code, 'base64url').length).toBeGreaterThanOrEqual(16);
      expect(invite.url).toBe(`${suite.url}/invite/${invite.code}`);
      const created = Date.parse(invite.created_at);
      expect(created).toBeGreaterThanOrEqual(before - 1000);
      expect(created).toBeLessThanOrEqual(Date.now() + 1000);
      expect(Date.parse(invite.expires_at) - created).toBe(168 * HOUR_MS);
      const other = await makeInvite(roles.people.owner, roles.clanId, {});
      expect(other).toMatchObject({ max_uses: 25, uses: 0 });
      expect(other.code).not.toBe(invite.code);
    });

    it('takes max_uses 1 to 1,000 and expires_in_hours 1 to 720', async () => {
      for (const [max_uses, expires_in_hours] of [[1, 1], [1000, 720], [7, 48]]) {
        const invite = await makeInvite(roles.people.owner, roles.clanId, { max_uses, expires_in_hours });
        expect(invite.max_uses).toBe(max_uses);
        expect(Date.parse(invite.expires_at) - Date.parse(invite.created_at)).toBe(expires_in_hours * HOUR_MS);
      }
    });

    it('refuses anything else, naming the field, and stores nothing', async () => {
      const count = async () => Number((await directSql(suite.env, 'SELECT COUNT(*) AS n FROM invites WHERE clan_id = ?', [roles.clanId]))[0].n);
      const before = await count();
      for (const max_uses of [0, 1001, -1, 2.5, '25', null, true, [5]]) {
        expectError(await roles.people.owner.post(path(), { max_uses }), 400, INVITE_MESSAGES.maxUses);
      }
      for (const expires_in_hours of [0, 721, 1.5, '168', null, 1e9]) {
        expectError(await roles.people.owner.post(path(), { expires_in_hours }), 400, INVITE_MESSAGES.hours);
      }
      expectError(await roles.people.owner.post(path(), [1]), 400, 'Request body must be a JSON object.');
      expectError(await roles.people.owner.post(path(), '{"max_uses":'), 400, 'Request body must be valid JSON.');
      expect(await count()).toBe(before);
    });

    it('a bad body from someone who may not make invites is still 403', async () => {
      expectError(await roles.people.member.post(path(), { max_uses: 0 }), 403, PERMISSION_TEXT);
    });
  });

  describe('the live list and revoking', () => {
    it('lists only the live invites, newest first; a revoked code answers 404 everywhere', async () => {
      const { api } = { api: roles.people.owner };
      const expired = await makeInvite(api, roles.clanId, { max_uses: 3 });
      await directSql(suite.env, 'UPDATE invites SET expires_at = ? WHERE code = ?', [new Date(Date.now() - 1000).toISOString(), expired.code]);
      const usedUp = await makeInvite(api, roles.clanId, { max_uses: 1 });
      expect((await (await person()).post(`/api/invites/${usedUp.code}/accept`)).status).toBe(201);
      const revoked = await makeInvite(api, roles.clanId);
      expect(await api.del(`${path()}/${revoked.code}`)).toMatchObject({ status: 200, body: { ok: true } });
      const older = await makeInvite(api, roles.clanId, { max_uses: 2 });
      const used = await person();
      expect((await used.post(`/api/invites/${older.code}/accept`)).status).toBe(201);
      const newest = await makeInvite(roles.people.admin, roles.clanId, { max_uses: 9 });

      const list = await api.get(path());
      expect(list.status).toBe(200);
      const invites = v.parse(InviteListAnswerSchema, list.body).invites;
      const codes = invites.map((i) => i.code);
      for (const gone of [expired.code, usedUp.code, revoked.code]) expect(codes).not.toContain(gone);
      expect(codes.indexOf(newest.code)).toBeLessThan(codes.indexOf(older.code));
      expect(codes.indexOf(newest.code)).toBeGreaterThanOrEqual(0);
      expect(invites.find((i) => i.code === older.code)).toEqual({ ...older, uses: 1 });
      expect(invites.find((i) => i.code === newest.code)).toEqual(newest);
      const sorted = [...invites].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
      expect(invites.map((i) => i.created_at)).toEqual(sorted.map((i) => i.created_at));

      // Revoked: unknown to the page and to the accept; revoking again, 404.
      expectError(await new ApiClient(suite.url).get(`/api/invites/${revoked.code}`), 404, INVITE_MESSAGES.unknown);
      expectError(await (await person()).post(`/api/invites/${revoked.code}/accept`), 404, INVITE_MESSAGES.unknown);
      expectError(await api.del(`${path()}/${revoked.code}`), 404, INVITE_MESSAGES.unknown);
    });

    it("revoking an unknown code, a malformed one or another clan's invite: 404, and the other clan's invite stays", async () => {
      expectError(await roles.people.owner.del(`${path()}/AAAAAAAAAAAAAAAAAAAAAAAA`), 404, INVITE_MESSAGES.unknown);
      expectError(await roles.people.owner.del(`${path()}/x`), 404, INVITE_MESSAGES.unknown);
      const otherOwner = await person();
      const clanId = (await otherOwner.post('/api/clans', { clan_name: `Other ${backend} clan` })).body.clan_id as number;
      const theirs = await makeInvite(otherOwner, clanId);
      expectError(await roles.people.owner.del(`${path()}/${theirs.code}`), 404, INVITE_MESSAGES.unknown);
      expect((await new ApiClient(suite.url).get(`/api/invites/${theirs.code}`)).status).toBe(200);
    });
  });

  describe('the invite page (no sign-in)', () => {
    it('names the clan, its member count and the expiry, to anyone', async () => {
      const invite = await makeInvite(roles.people.owner, roles.clanId);
      const members = (await roles.people.owner.get(`/api/clan/${roles.clanId}/members`)).body.members.length as number;
      for (const api of [new ApiClient(suite.url), roles.people.outsider, roles.people.member]) {
        const r = await api.get(`/api/invites/${invite.code}`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ invite: { clan: { id: roles.clanId, name: `Invite Clan ${backend}`, member_count: members }, expires_at: invite.expires_at } });
        v.parse(InvitePreviewAnswerSchema, r.body);
      }
    });

    it("404 for an unknown or malformed code; 410 'This invite has expired.' and 'This invite has been used up.'", async () => {
      const anon = new ApiClient(suite.url);
      expectError(await anon.get('/api/invites/AAAAAAAAAAAAAAAAAAAAAAAA'), 404, INVITE_MESSAGES.unknown);
      expectError(await anon.get('/api/invites/short'), 404, INVITE_MESSAGES.unknown);
      expectError(await anon.get(`/api/invites/${'%00'.repeat(20)}`), 404, INVITE_MESSAGES.unknown);
      const expired = await makeInvite(roles.people.owner, roles.clanId);
      await directSql(suite.env, 'UPDATE invites SET expires_at = ? WHERE code = ?', [new Date(Date.now() - 1).toISOString(), expired.code]);
      expectError(await anon.get(`/api/invites/${expired.code}`), 410, 'This invite has expired.');
      const single = await makeInvite(roles.people.owner, roles.clanId, { max_uses: 1 });
      expect((await (await person()).post(`/api/invites/${single.code}/accept`)).status).toBe(201);
      expectError(await anon.get(`/api/invites/${single.code}`), 410, 'This invite has been used up.');
    });
  });

  describe('accepting an invite', () => {
    it('makes the user a Member (201 {membership}), counts the use, and shows in their profile', async () => {
      const invite = await makeInvite(roles.people.owner, roles.clanId, { max_uses: 5 });
      const joiner = await person();
      const r = await joiner.post(`/api/invites/${invite.code}/accept`);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const { membership } = v.parse(InviteAcceptAnswerSchema, r.body);
      expect(r.body).toEqual({ membership: { clan_id: roles.clanId, name: `Invite Clan ${backend}`, role: 'Member', joined_at: membership.joined_at } });
      expect(Math.abs(Date.parse(membership.joined_at) - Date.now())).toBeLessThan(60_000);
      const me = (await joiner.get('/api/user/me')).body;
      expect(me.clan_memberships_list).toEqual([expect.objectContaining({ clan_id: roles.clanId, role: 'Member' })]);
      const listed = (await roles.people.owner.get(path())).body.invites.find((i: { code: string }) => i.code === invite.code);
      expect(listed.uses).toBe(1);
      // A member already: 409, and no second use is counted.
      expectError(await joiner.post(`/api/invites/${invite.code}/accept`), 409, 'You are already a member of this clan.');
      expectError(await roles.people.guest.post(`/api/invites/${invite.code}/accept`), 409, 'You are already a member of this clan.');
      expect((await roles.people.owner.get(path())).body.invites.find((i: { code: string }) => i.code === invite.code).uses).toBe(1);
    });

    it('joins an invite-only or request clan all the same', async () => {
      const owner = await person();
      const clanId = (await owner.post('/api/clans', { clan_name: `Closed ${backend} clan` })).body.clan_id as number;
      for (const join_policy of ['invite', 'request'] as const) {
        expect((await owner.put(`/api/clan/${clanId}/settings`, { join_policy })).status).toBe(200);
        const invite = await makeInvite(owner, clanId);
        const r = await (await person()).post(`/api/invites/${invite.code}/accept`);
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        expect(r.body.membership).toMatchObject({ clan_id: clanId, role: 'Member' });
      }
    });

    it("401 signed out; 409 'Link an IGN first.' without an IGN; 404 unknown; 410 expired or used up", async () => {
      const invite = await makeInvite(roles.people.owner, roles.clanId, { max_uses: 1 });
      expectError(await new ApiClient(suite.url).post(`/api/invites/${invite.code}/accept`), 401, 'You must be signed in.');
      const noIgn = await new ApiClient(suite.url).devLogin(`noign-${backend}`);
      expectError(await noIgn.post(`/api/invites/${invite.code}/accept`), 409, 'Link an IGN first.');
      expectError(await (await person()).post('/api/invites/AAAAAAAAAAAAAAAAAAAAAAAA/accept'), 404, INVITE_MESSAGES.unknown);
      expectError(await (await person()).post('/api/invites/x/accept'), 404, INVITE_MESSAGES.unknown);
      expect((await (await person()).post(`/api/invites/${invite.code}/accept`)).status).toBe(201);
      expectError(await (await person()).post(`/api/invites/${invite.code}/accept`), 410, 'This invite has been used up.');
      const expired = await makeInvite(roles.people.owner, roles.clanId);
      await directSql(suite.env, 'UPDATE invites SET expires_at = ? WHERE code = ?', [new Date(Date.now() - 1).toISOString(), expired.code]);
      expectError(await (await person()).post(`/api/invites/${expired.code}/accept`), 410, 'This invite has expired.');
    });

    it("a kicked user is refused with the kick text until a manager adds them again", async () => {
      const kicked = await person();
      const first = await makeInvite(roles.people.owner, roles.clanId);
      expect((await kicked.post(`/api/invites/${first.code}/accept`)).status).toBe(201);
      const id = (await kicked.get('/api/user/me')).body.id as number;
      expect((await roles.people.admin.del(`/api/clan/${roles.clanId}/members/${id}`)).status).toBe(200);
      const again = await makeInvite(roles.people.owner, roles.clanId);
      expectError(await kicked.post(`/api/invites/${again.code}/accept`), 403, KICKED);
      expect((await roles.people.owner.get(path())).body.invites.find((i: { code: string }) => i.code === again.code).uses).toBe(0);
      // A manager's Add Member lifts it; after leaving, the invite works again.
      expect((await roles.people.owner.post(`/api/clan/${roles.clanId}/members`, { user_id: id, role: 'Member' })).status).toBe(200);
      expect((await kicked.del(`/api/clan/${roles.clanId}/members/${id}`)).status).toBe(200);
      expect((await kicked.post(`/api/invites/${again.code}/accept`)).status).toBe(201);
    });

    it('a 2-use invite accepted by 5 users at once: exactly 2 join', async () => {
      const invite = await makeInvite(roles.people.owner, roles.clanId, { max_uses: 2 });
      const answers = await acceptAtOnce(() => suite.url, `race${backend[0]}`, 5, invite.code);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
      for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 410, 'This invite has been used up.');
      const rows = await directSql(suite.env, 'SELECT uses FROM invites WHERE code = ?', [invite.code]);
      expect(Number(rows[0].uses)).toBe(2);
      const joined = await directSql(suite.env, "SELECT COUNT(*) AS n FROM clan_memberships m JOIN users u ON u.id = m.user_id WHERE m.clan_id = ? AND u.username LIKE ?", [roles.clanId, `race${backend[0]}%`]);
      expect(Number(joined[0].n)).toBe(2);
    });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)('invites on two processes (PostgreSQL + Redis)', () => {
  const site = useTwoProcesses(redisUrl ?? '');

  it('a 2-use invite accepted by 5 users at once over both processes: exactly 2 join', async () => {
    const owner = new ApiClient(site.a.url);
    await owner.onboard('two-owner', ['Two Owner']);
    const clanId = (await owner.post('/api/clans', { clan_name: 'Two Process Clan' })).body.clan_id as number;
    for (let round = 0; round < 3; round++) {
      const invite = await makeInvite(owner, clanId, { max_uses: 2 });
      const answers = await acceptAtOnce((i) => (i % 2 === 0 ? site.a.url : site.b.url), `two${round}p`, 5, invite.code);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
      for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 410, 'This invite has been used up.');
      expect(Number((await directSql(site.db.env, 'SELECT uses FROM invites WHERE code = ?', [invite.code]))[0].uses)).toBe(2);
    }
    const members = await directSql(site.db.env, 'SELECT COUNT(*) AS n FROM clan_memberships WHERE clan_id = ?', [clanId]);
    expect(Number(members[0].n)).toBe(1 + 3 * 2);
  }, 60_000);
});
