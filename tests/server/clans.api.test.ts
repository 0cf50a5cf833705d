import { describe, it, expect, beforeAll } from 'vitest';
import { backends } from '../support/server';
import { ApiClient, type Answer } from '../support/api';
import { useServerSuite } from '../support/suite';
import { matrixRows, PERMISSION_TEXT, signInDev, type Actor, type Row } from '../support/fixtures';

/**
 * Clans and members over real HTTP (docs/game-rules.md §6, §11, §13; docs/server.md §3, §4; docs/client.md
 * §11): the permission matrix of every call × {signed out, non-member, Guest, Member,
 * Admin, Owner}, then the rules (member order, ladder ends, ownership transfer, leave, kick,
 * rename, disband) and a sweep of bad ids and bodies that must all answer 4xx.
 */

/** One fresh clan: Owner (fresh user), Admins admin/admin2, Members member/member2, Guests guest/guest2. */
interface Clan {
  id: number;
  name: string;
  owner: ApiClient;
  ownerId: number;
}

/** Shared people of a suite; the Owner is a fresh user per clan (an owner may own only 3 clans). */
interface People {
  anon: ApiClient;
  outsider: ApiClient;
  admin: ApiClient;
  admin2: ApiClient;
  member: ApiClient;
  member2: ApiClient;
  guest: ApiClient;
  guest2: ApiClient;
  candidate: ApiClient;
  ids: Record<string, number>;
}

describe.each(backends())('clans and members API (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let p: People;
  let serial = 0;

  const client = () => suite.client();

  const signIn = (name: string) => signInDev(client, name);

  /** A fresh clan with the shared Admins, Members and Guests added by its fresh Owner. */
  async function freshClan(extra: { name?: string } = {}): Promise<Clan> {
    const n = ++serial;
    const { api: owner, id: ownerId } = await signIn(`owner-${n}`);
    const name = extra.name ?? `Clan ${n}`;
    const created = await owner.post('/api/clans', { clan_name: name });
    expect(created.status).toBe(200);
    const id = created.body.clan_id as number;
    const adds: [string, string][] = [['admin', 'Admin'], ['admin2', 'Admin'], ['member', 'Member'], ['member2', 'Member'], ['guest', 'Guest'], ['guest2', 'Guest']];
    for (const [who, role] of adds) {
      const r = await owner.post(`/api/clan/${id}/members`, { user_id: p.ids[who], role });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    return { id, name, owner, ownerId };
  }

  function actorClient(actor: Actor, clan: Clan): { api: ApiClient; id: number } {
    switch (actor) {
      case 'signed out': return { api: p.anon, id: p.ids.guest };
      case 'non-member': return { api: p.outsider, id: p.ids.outsider };
      case 'Guest': return { api: p.guest, id: p.ids.guest };
      case 'Member': return { api: p.member, id: p.ids.member };
      case 'Admin': return { api: p.admin, id: p.ids.admin };
      case 'Owner': return { api: clan.owner, id: clan.ownerId };
    }
  }

  beforeAll(async () => {
    const ids: Record<string, number> = {};
    const people: Record<string, ApiClient> = {};
    for (const who of ['outsider', 'admin', 'admin2', 'member', 'member2', 'guest', 'guest2', 'candidate']) {
      const s = await signIn(who);
      people[who] = s.api;
      ids[who] = s.id;
    }
    p = { anon: client(), ids, ...people } as People;
  }, 60_000);

  /** The permission matrix: each call, each actor, on a fresh clan (docs/game-rules.md §11). */
  const MATRIX: { call: string; send: (as: ApiClient, clan: Clan, actorId: number) => Promise<Answer>; expect: Row }[] = [
    { call: 'GET members', send: (as, c) => as.get(`/api/clan/${c.id}/members`), expect: [401, 403, 200, 200, 200, 200] },
    { call: 'GET available_members', send: (as, c) => as.get(`/api/clan/${c.id}/available_members`), expect: [401, 403, 403, 403, 200, 200] },
    { call: 'add a Guest', send: (as, c) => as.post(`/api/clan/${c.id}/members`, { user_id: p.ids.candidate, role: 'Guest' }), expect: [401, 403, 403, 403, 200, 200] },
    { call: 'add a Member', send: (as, c) => as.post(`/api/clan/${c.id}/members`, { user_id: p.ids.candidate, role: 'Member' }), expect: [401, 403, 403, 403, 200, 200] },
    { call: 'add an Admin', send: (as, c) => as.post(`/api/clan/${c.id}/members`, { user_id: p.ids.candidate, role: 'Admin' }), expect: [401, 403, 403, 403, 403, 200] },
    { call: 'add an Owner', send: (as, c) => as.post(`/api/clan/${c.id}/members`, { user_id: p.ids.candidate, role: 'Owner' }), expect: [401, 403, 403, 403, 400, 400] },
    { call: 'promote Guest to Member', send: (as, c) => as.put(`/api/clan/${c.id}/members/${p.ids.guest2}/role`, { role: 'Member' }), expect: [401, 403, 403, 403, 200, 200] },
    { call: 'promote Member to Admin', send: (as, c) => as.put(`/api/clan/${c.id}/members/${p.ids.member2}/role`, { role: 'Admin' }), expect: [401, 403, 403, 403, 200, 200] },
    { call: 'promote Admin to Owner (transfer)', send: (as, c) => as.put(`/api/clan/${c.id}/members/${p.ids.admin2}/role`, { role: 'Owner' }), expect: [401, 403, 403, 403, 403, 200] },
    { call: 'demote Member to Guest', send: (as, c) => as.put(`/api/clan/${c.id}/members/${p.ids.member2}/role`, { role: 'Guest' }), expect: [401, 403, 403, 403, 200, 200] },
    { call: 'demote Admin to Member', send: (as, c) => as.put(`/api/clan/${c.id}/members/${p.ids.admin2}/role`, { role: 'Member' }), expect: [401, 403, 403, 403, 403, 200] },
    { call: 'demote the Owner', send: (as, c) => as.put(`/api/clan/${c.id}/members/${c.ownerId}/role`, { role: 'Admin' }), expect: [401, 403, 403, 403, 403, 403] },
    { call: 'kick a Guest', send: (as, c) => as.del(`/api/clan/${c.id}/members/${p.ids.guest2}`), expect: [401, 403, 403, 403, 200, 200] },
    { call: 'kick a Member', send: (as, c) => as.del(`/api/clan/${c.id}/members/${p.ids.member2}`), expect: [401, 403, 403, 403, 200, 200] },
    { call: 'kick an Admin', send: (as, c) => as.del(`/api/clan/${c.id}/members/${p.ids.admin2}`), expect: [401, 403, 403, 403, 403, 200] },
    // For the Owner this is their own id, so a leave, refused while the clan needs its Owner.
    { call: 'kick the Owner', send: (as, c) => as.del(`/api/clan/${c.id}/members/${c.ownerId}`), expect: [401, 403, 403, 403, 403, 409] },
    { call: 'leave (own id)', send: (as, c, me) => as.del(`/api/clan/${c.id}/members/${me}`), expect: [401, 403, 200, 200, 200, 409] },
    { call: 'rename', send: (as, c) => as.put(`/api/clan/${c.id}/name`, { new_name: `${c.name} renamed` }), expect: [401, 403, 403, 403, 403, 200] },
    { call: 'disband', send: (as, c) => as.del(`/api/clan/${c.id}`), expect: [401, 403, 403, 403, 403, 200] },
  ];

  const ROWS = matrixRows(MATRIX);

  describe('permission matrix', () => {
    it.each(ROWS)('$call as $actor → $status', async ({ send, actor, status, call }) => {
      const clan = await freshClan();
      const before = await clan.owner.get(`/api/clan/${clan.id}/members`);
      const { api, id } = actorClient(actor, clan);
      const r = await send(api, clan, id);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      if (status !== 200) {
        expect(typeof r.body.error).toBe('string');
        if (status === 401) expect(r.body.error).toBe('You must be signed in.');
        if (actor === 'non-member') expect(r.body.error).toBe(PERMISSION_TEXT);
        if (['Guest', 'Member'].includes(actor) && status === 403 && call !== 'leave (own id)') expect(r.body.error).toContain('Permission denied.');
        // A refused call changes nothing.
        const after = await clan.owner.get(`/api/clan/${clan.id}/members`);
        expect(after.body).toEqual(before.body);
      }
    });
  });

  describe('missing clan', () => {
    it('answers 404 "Clan ID {id} not found." for every call, for any signed-in user', async () => {
      const missing = 987654;
      const u = p.member;
      const answers = [
        await u.get(`/api/clan/${missing}/members`),
        await u.get(`/api/clan/${missing}/available_members`),
        await u.post(`/api/clan/${missing}/members`, { user_id: p.ids.candidate, role: 'Member' }),
        await u.put(`/api/clan/${missing}/members/${p.ids.member}/role`, { role: 'Admin' }),
        await u.del(`/api/clan/${missing}/members/${p.ids.member}`),
        await u.del(`/api/clan/${missing}/members/${p.ids.guest}`),
        await u.put(`/api/clan/${missing}/name`, { new_name: 'Whatever' }),
        await u.del(`/api/clan/${missing}`),
      ];
      for (const a of answers) expect(a).toMatchObject({ status: 404, body: { error: `Clan ID ${missing} not found.` } });
    });
  });

  describe('members and available users', () => {
    it('lists members Owner, Admin, Member, Guest, then username case-insensitively, with every field', async () => {
      const owner = await signIn('zed-owner');
      const clan = await owner.api.post('/api/clans', { clan_name: 'Ordering Clan' });
      const clanId = clan.body.clan_id;
      const people: [string, string][] = [['xbob', 'Member'], ['XCarl', 'Member'], ['yann', 'Guest'], ['Yara', 'Guest'], ['Wendy', 'Admin'], ['wade', 'Admin']];
      for (const [name, role] of people) {
        const u = await signIn(name);
        expect((await owner.api.post(`/api/clan/${clanId}/members`, { user_id: u.id, role })).status).toBe(200);
      }
      const r = await p.anon.get(`/api/clan/${clanId}/members`);
      expect(r.status).toBe(401);
      const guest = await client().devLogin('yann');
      const list = await guest.get(`/api/clan/${clanId}/members`);
      expect(list.status).toBe(200);
      expect(list.body.clan_id).toBe(clanId);
      expect(list.body.clan_name).toBe('Ordering Clan');
      expect(list.body.members.map((m: any) => `${m.role}:${m.username}`)).toEqual([
        'Owner:zed-owner', 'Admin:wade', 'Admin:Wendy', 'Member:xbob', 'Member:XCarl', 'Guest:yann', 'Guest:Yara',
      ]);
      for (const m of list.body.members) {
        expect(Object.keys(m).sort()).toEqual(['clan_name', 'discord_id', 'joined_at', 'last_login', 'member_id', 'role', 'username']);
        expect(m.clan_name).toBe('Ordering Clan');
        expect(typeof m.member_id).toBe('number');
        expect(Number.isNaN(Date.parse(m.joined_at))).toBe(false);
      }
      expect(list.body.members[0].member_id).toBe(owner.id);
    });

    it('lists available users (not in the clan) by username, and adds one with the member row back', async () => {
      const clan = await freshClan();
      // Users who share no clan with the manager are not listed, only found by name (docs/server.md §18).
      const plain = await clan.owner.get(`/api/clan/${clan.id}/available_members`);
      expect(plain.status).toBe(200);
      expect(plain.body.available_users.map((u: any) => u.id)).not.toContain(p.ids.candidate);
      const r = await clan.owner.get(`/api/clan/${clan.id}/available_members?q=cand`);
      expect(r.status).toBe(200);
      const users = r.body.available_users as { id: number; username: string }[];
      const names = users.map((u) => u.username);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(users).toContainEqual({ id: p.ids.candidate, username: 'candidate' });
      expect((await clan.owner.get(`/api/clan/${clan.id}/available_members?q=outsider`)).body.available_users).toContainEqual({ id: p.ids.outsider, username: 'outsider' });
      for (const member of ['admin', 'member', 'guest']) expect(names).not.toContain(member);
      expect(users.map((u) => u.id)).not.toContain(clan.ownerId);

      const added = await p.admin.post(`/api/clan/${clan.id}/members`, { user_id: p.ids.candidate, role: 'Member' });
      expect(added.status).toBe(200);
      expect(added.body).toMatchObject({ ok: true, member: { member_id: p.ids.candidate, username: 'candidate', role: 'Member', clan_name: clan.name } });
      const me = await p.candidate.get('/api/user/me');
      expect(me.body.clan_memberships_list).toContainEqual(expect.objectContaining({ clan_id: clan.id, role: 'Member' }));
      const again = await clan.owner.get(`/api/clan/${clan.id}/available_members?q=cand`);
      expect(again.body.available_users.map((u: any) => u.id)).not.toContain(p.ids.candidate);
    });

    it('refuses adding an unknown user (404), a member twice (409) and an Owner (400)', async () => {
      const clan = await freshClan();
      expect(await clan.owner.post(`/api/clan/${clan.id}/members`, { user_id: 999999, role: 'Member' })).toMatchObject({ status: 404, body: { error: 'User ID 999999 not found.' } });
      expect(await clan.owner.post(`/api/clan/${clan.id}/members`, { user_id: p.ids.member, role: 'Guest' })).toMatchObject({ status: 409, body: { error: 'That user is already a member of this clan.' } });
      const owner = await clan.owner.post(`/api/clan/${clan.id}/members`, { user_id: p.ids.candidate, role: 'Owner' });
      expect(owner.status).toBe(400);
      expect(owner.body.error).toMatch(/cannot be added as Owner/);
    });
  });

  describe('the role ladder', () => {
    it("refuses beyond the ends with the spec's texts, and more than one step", async () => {
      const clan = await freshClan();
      const ownerName = `owner-${serial}`;
      expect(await p.admin.put(`/api/clan/${clan.id}/members/${clan.ownerId}/role`, { role: 'Owner' }))
        .toMatchObject({ status: 400, body: { error: `Cannot promote ${ownerName} further than Owner.` } });
      expect(await clan.owner.put(`/api/clan/${clan.id}/members/${p.ids.guest}/role`, { role: 'Guest' }))
        .toMatchObject({ status: 400, body: { error: 'Cannot demote guest further than Guest.' } });
      expect(await clan.owner.put(`/api/clan/${clan.id}/members/${p.ids.member}/role`, { role: 'Member' }))
        .toMatchObject({ status: 400, body: { error: 'member is already Member.' } });
      const jump = await clan.owner.put(`/api/clan/${clan.id}/members/${p.ids.guest}/role`, { role: 'Admin' });
      expect(jump.status).toBe(400);
      expect(jump.body.error).toMatch(/one step at a time/);
      const drop = await clan.owner.put(`/api/clan/${clan.id}/members/${p.ids.admin}/role`, { role: 'Guest' });
      expect(drop.status).toBe(400);
    });

    it('promotes and demotes one step, answering the new member row', async () => {
      const clan = await freshClan();
      const up = await p.admin.put(`/api/clan/${clan.id}/members/${p.ids.guest}/role`, { role: 'Member' });
      expect(up).toMatchObject({ status: 200, body: { ok: true, member: { member_id: p.ids.guest, role: 'Member', username: 'guest' } } });
      const down = await p.admin.put(`/api/clan/${clan.id}/members/${p.ids.member}/role`, { role: 'Guest' });
      expect(down).toMatchObject({ status: 200, body: { ok: true, member: { role: 'Guest' } } });
      const me = await p.member.get('/api/user/me');
      expect(me.body.clan_memberships_list).toContainEqual(expect.objectContaining({ clan_id: clan.id, role: 'Guest' }));
    });

    it('lets nobody change their own role, and no Admin demote another Admin', async () => {
      const clan = await freshClan();
      const self = await p.admin.put(`/api/clan/${clan.id}/members/${p.ids.admin}/role`, { role: 'Member' });
      expect(self).toMatchObject({ status: 403, body: { error: 'You cannot change your own role.' } });
      const ownerSelf = await clan.owner.put(`/api/clan/${clan.id}/members/${clan.ownerId}/role`, { role: 'Admin' });
      expect(ownerSelf.status).toBe(403);
      const adminOnAdmin = await p.admin.put(`/api/clan/${clan.id}/members/${p.ids.admin2}/role`, { role: 'Member' });
      expect(adminOnAdmin).toMatchObject({ status: 403, body: { error: 'Permission denied. Only the clan Owner can demote an Admin.' } });
      const ownerDemoted = await p.admin.put(`/api/clan/${clan.id}/members/${clan.ownerId}/role`, { role: 'Admin' });
      expect(ownerDemoted.status).toBe(403);
      expect(ownerDemoted.body.error).toMatch(/Owner cannot be demoted/);
    });

    it('transfers ownership in one step: the Admin becomes Owner, the old Owner becomes Admin', async () => {
      const clan = await freshClan();
      const r = await clan.owner.put(`/api/clan/${clan.id}/members/${p.ids.admin2}/role`, { role: 'Owner' });
      expect(r).toMatchObject({ status: 200, body: { ok: true, member: { member_id: p.ids.admin2, role: 'Owner' } } });
      const oldOwnerMe = await clan.owner.get('/api/user/me');
      expect(oldOwnerMe.body.clan_memberships_list).toContainEqual(expect.objectContaining({ clan_id: clan.id, role: 'Admin' }));
      const newOwnerMe = await p.admin2.get('/api/user/me');
      expect(newOwnerMe.body.clan_memberships_list).toContainEqual(expect.objectContaining({ clan_id: clan.id, role: 'Owner' }));
      const list = await p.guest.get(`/api/clan/${clan.id}/members`);
      expect(list.body.members.filter((m: any) => m.role === 'Owner').map((m: any) => m.member_id)).toEqual([p.ids.admin2]);
      expect(list.body.members[0].member_id).toBe(p.ids.admin2);
      // The new Owner holds the Owner-only powers; the old one no longer does.
      expect((await clan.owner.put(`/api/clan/${clan.id}/name`, { new_name: `${clan.name} x` })).status).toBe(403);
      expect((await p.admin2.put(`/api/clan/${clan.id}/name`, { new_name: `${clan.name} y` })).status).toBe(200);
      expect((await p.admin2.del(`/api/clan/${clan.id}/members/${clan.ownerId}`)).status).toBe(200);
    });
  });

  describe('leave and kick', () => {
    it('refuses a sole manager and an Owner with other managers; others leave and land off the clan', async () => {
      const { api: owner, id: ownerId } = await signIn('lonely-owner');
      const clanId = (await owner.post('/api/clans', { clan_name: 'Lonely Clan' })).body.clan_id;
      await owner.post(`/api/clan/${clanId}/members`, { user_id: p.ids.member, role: 'Member' });
      const sole = await owner.del(`/api/clan/${clanId}/members/${ownerId}`);
      expect(sole.status).toBe(409);
      expect(sole.body.error).toMatch(/sole manager/);
      expect((await owner.get('/api/user/me')).body.clan_memberships_list).toContainEqual(expect.objectContaining({ clan_id: clanId, role: 'Owner' }));

      await owner.post(`/api/clan/${clanId}/members`, { user_id: p.ids.admin, role: 'Admin' });
      const withAdmin = await owner.del(`/api/clan/${clanId}/members/${ownerId}`);
      expect(withAdmin.status).toBe(409);
      expect(withAdmin.body.error).toMatch(/Transfer ownership first/);

      const left = await p.member.del(`/api/clan/${clanId}/members/${p.ids.member}`);
      expect(left).toMatchObject({ status: 200, body: { ok: true } });
      expect((await p.member.get('/api/user/me')).body.clan_memberships_list.map((m: any) => m.clan_id)).not.toContain(clanId);
      expect((await p.member.get(`/api/clan/${clanId}/members`)).status).toBe(403);
      expect((await p.admin.del(`/api/clan/${clanId}/members/${p.ids.admin}`)).status).toBe(200);
    });

    it('never kicks the Owner; kicks an Admin only as the Owner; 404 for non-members and other clans\' members', async () => {
      const clan = await freshClan();
      const other = await freshClan();
      expect(await p.admin.del(`/api/clan/${clan.id}/members/${clan.ownerId}`)).toMatchObject({ status: 403, body: { error: 'The clan Owner cannot be kicked.' } });
      expect(await p.admin.del(`/api/clan/${clan.id}/members/${p.ids.admin2}`)).toMatchObject({ status: 403, body: { error: 'Permission denied. Only the clan Owner can kick an Admin.' } });
      expect(await clan.owner.del(`/api/clan/${clan.id}/members/${other.ownerId}`)).toMatchObject({ status: 404, body: { error: `User ID ${other.ownerId} is not a member of this clan.` } });
      expect((await clan.owner.del(`/api/clan/${clan.id}/members/${p.ids.candidate}`)).status).toBe(404);
      expect((await clan.owner.put(`/api/clan/${clan.id}/members/${other.ownerId}/role`, { role: 'Admin' })).status).toBe(404);
      const kicked = await clan.owner.del(`/api/clan/${clan.id}/members/${p.ids.admin2}`);
      expect(kicked).toMatchObject({ status: 200, body: { ok: true } });
      const mine = (await p.admin2.get('/api/user/me')).body.clan_memberships_list.map((m: any) => m.clan_id);
      expect(mine).not.toContain(clan.id);
      expect(mine).toContain(other.id);
      expect((await p.admin2.get(`/api/clan/${clan.id}/members`)).status).toBe(403);
    });
  });

  describe('rename and disband', () => {
    it('renames only to a new, trimmed, 1-40 character, untaken name', async () => {
      const clan = await freshClan({ name: 'Rename Me' });
      await freshClan({ name: 'Taken Name' });
      const same = 'Clan name cannot be empty or the same as the current name.';
      for (const new_name of ['', '   ', 'Rename Me', '  Rename Me  ']) {
        expect(await clan.owner.put(`/api/clan/${clan.id}/name`, { new_name })).toMatchObject({ status: 400, body: { error: same } });
      }
      expect(await clan.owner.put(`/api/clan/${clan.id}/name`, { new_name: 'x'.repeat(41) })).toMatchObject({ status: 400, body: { error: 'Clan name must be at most 40 characters.' } });
      expect(await clan.owner.put(`/api/clan/${clan.id}/name`, { new_name: 'taken NAME' })).toMatchObject({ status: 409, body: { error: "A clan named 'taken NAME' already exists." } });
      expect(await clan.owner.put(`/api/clan/${clan.id}/name`, { new_name: 'rename me' })).toMatchObject({ status: 200, body: { new_name: 'rename me' } });
      const forty = 'y'.repeat(40);
      expect(await clan.owner.put(`/api/clan/${clan.id}/name`, { new_name: `  ${forty}  ` })).toMatchObject({ status: 200, body: { new_name: forty } });
      expect((await p.guest.get('/api/user/me')).body.clan_memberships_list).toContainEqual(expect.objectContaining({ clan_id: clan.id, name: forty }));
      expect((await p.member.get(`/api/clan/${clan.id}/members`)).body.members.every((m: any) => m.clan_name === forty)).toBe(true);
      expect((await clan.owner.post('/api/clans', { clan_name: 'RENAME ME' })).status).toBe(200);
    });

    it('disbands the clan: gone from /api/user/me of every member, then 404', async () => {
      const clan = await freshClan();
      const members = [clan.owner, p.admin, p.admin2, p.member, p.member2, p.guest, p.guest2];
      for (const m of members) expect((await m.get('/api/user/me')).body.clan_memberships_list.map((x: any) => x.clan_id)).toContain(clan.id);
      expect(await clan.owner.del(`/api/clan/${clan.id}`)).toMatchObject({ status: 200, body: { ok: true } });
      for (const m of members) expect((await m.get('/api/user/me')).body.clan_memberships_list.map((x: any) => x.clan_id)).not.toContain(clan.id);
      expect(await p.member.get(`/api/clan/${clan.id}/members`)).toMatchObject({ status: 404, body: { error: `Clan ID ${clan.id} not found.` } });
      expect((await clan.owner.del(`/api/clan/${clan.id}`)).status).toBe(404);
      expect((await clan.owner.get('/api/clans')).body.clans.map((c: any) => c.id)).not.toContain(clan.id);
    });
  });

  describe('bad input never answers 5xx', () => {
    const BAD_IDS = ['abc', '0', '-1', '1.5', '1e3', '01', '%20', "1'%20OR%20'1", '2147483648', '9999999999', '99999999999999999999'];

    it('answers 4xx {"error"} for every malformed or out-of-range id, and changes nothing', async () => {
      const clan = await freshClan();
      const before = await clan.owner.get(`/api/clan/${clan.id}/members`);
      const sends: Promise<Answer>[] = [];
      for (const bad of BAD_IDS) {
        for (const as of [clan.owner, p.member]) {
          sends.push(
            as.get(`/api/clan/${bad}/members`),
            as.get(`/api/clan/${bad}/available_members`),
            as.post(`/api/clan/${bad}/members`, { user_id: p.ids.candidate, role: 'Member' }),
            as.put(`/api/clan/${bad}/members/${p.ids.member}/role`, { role: 'Admin' }),
            as.put(`/api/clan/${clan.id}/members/${bad}/role`, { role: 'Admin' }),
            as.del(`/api/clan/${bad}/members/${p.ids.member}`),
            as.del(`/api/clan/${clan.id}/members/${bad}`),
            as.put(`/api/clan/${bad}/name`, { new_name: 'Nope' }),
            as.del(`/api/clan/${bad}`),
          );
        }
      }
      for (const r of await Promise.all(sends)) {
        expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
        expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
        expect(typeof r.body.error).toBe('string');
      }
      expect((await clan.owner.get(`/api/clan/${clan.id}/members`)).body).toEqual(before.body);
    });

    it('answers 400 {"error"} for every malformed body, and changes nothing', async () => {
      const clan = await freshClan();
      const before = await clan.owner.get(`/api/clan/${clan.id}/members`);
      const huge = 'z'.repeat(60_000); // far over every field limit, under the 64 KiB body limit
      const bodies: unknown[] = [
        'not json', '[]', 'null', '42', '"text"', {}, [],
        { user_id: String(p.ids.candidate), role: 'Member' }, { user_id: 1.5, role: 'Member' }, { user_id: -3, role: 'Member' },
        { user_id: 0, role: 'Member' }, { user_id: 1e20, role: 'Member' }, { user_id: 2147483648, role: 'Member' },
        { user_id: p.ids.candidate }, { user_id: p.ids.candidate, role: 'King' }, { user_id: p.ids.candidate, role: 5 },
        { user_id: null, role: null }, { user_id: p.ids.candidate, role: huge },
        { role: 'king' }, { role: null }, { role: ['Admin'] },
        { new_name: 5 }, { new_name: null }, { new_name: huge }, { new_name: ['x'] },
      ];
      const sends: Promise<Answer>[] = [];
      for (const body of bodies) {
        const raw = typeof body === 'string' ? body : JSON.stringify(body);
        sends.push(
          clan.owner.call('POST', `/api/clan/${clan.id}/members`, raw),
          clan.owner.call('PUT', `/api/clan/${clan.id}/members/${p.ids.member}/role`, raw),
          clan.owner.call('PUT', `/api/clan/${clan.id}/name`, raw),
        );
      }
      for (const r of await Promise.all(sends)) {
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(typeof r.body.error).toBe('string');
      }
      const statuses = (await Promise.all([
        clan.owner.call('POST', `/api/clan/${clan.id}/members`, '{"user_id": 1.5, "role": "Member"}'),
        clan.owner.call('PUT', `/api/clan/${clan.id}/members/${p.ids.member}/role`, '{"role": "king"}'),
        clan.owner.call('PUT', `/api/clan/${clan.id}/name`, JSON.stringify({ new_name: huge })),
        clan.owner.call('PUT', `/api/clan/${clan.id}/name`, 'not json'),
      ])).map((r) => r.status);
      expect(statuses).toEqual([400, 400, 400, 400]);
      expect((await clan.owner.get(`/api/clan/${clan.id}/members`)).body).toEqual(before.body);
    });

    it('left no unexpected error in the server log', () => {
      expect(suite.server.output()).not.toContain('[api] unexpected error');
    });
  });
});
