import { describe, it, expect, beforeAll } from 'vitest';
import { backends } from '../support/server';
import type { ApiClient } from '../support/api';
import { useServerSuite } from '../support/suite';
import { actorClient, clanWithRoles, directSql as sql, insertGame, permissionMatrix, READ, WRITE, type Actor, type MatrixCall, type Person } from '../support/fixtures';
import { TEAM_BAD_COLOR, TEAM_BAD_ROLE, TEAM_IGN_REQUIRED, TEAM_NAME_REQUIRED, TEAM_NAME_TOO_LONG } from '../../contract/team';

/**
 * Event teams and team members over real HTTP (docs/game-rules.md §12 Team / Team
 * member / Eligible member, 4 Team membership, 5 Teams, 6, 7 Teams; docs/server.md §4, §5):
 * the permission matrix of every call × {signed out, non-member, Guest, Member, Admin, Owner},
 * the name and colour rules, one team per IGN per event, the eligible list, team states of an
 * existing game, and bad input that must answer 4xx.
 */

const DAY = 24 * 3600_000;

describe.each(backends())('teams API (%s)', (backend) => {
  const suite = useServerSuite(backend);
  /** The clan's people by role (set up in beforeAll). */
  const roles = {} as Record<Person, ApiClient>;
  let clanId: number;
  let otherOwner: ApiClient;
  let otherClanId: number;
  /** IGN ids by IGN. */
  const ign: Record<string, number> = {};
  let serial = 0;

  const client = () => suite.client();

  async function signIn(name: string, igns: string[]): Promise<{ api: ApiClient; id: number }> {
    const api = await client().devLogin(name);
    for (const i of igns) {
      const r = await api.post('/api/user/igns', { ign: i });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ign[i] = r.body.ign.id;
    }
    const me = await api.get('/api/user/me');
    return { api, id: me.body.id };
  }

  function as(actor: Actor): ApiClient {
    return actorClient(roles, actor);
  }

  const teamsPath = (eventId: number, clan = clanId) => `/api/clan/${clan}/events/${eventId}/teams/`;
  const membersPath = (eventId: number, teamId: number, clan = clanId) => `/api/clan/${clan}/events/${eventId}/teams/${teamId}/members`;

  async function freshEvent(clan = clanId, api = roles.owner): Promise<number> {
    const r = await api.post(`/api/clan/${clan}/events/`, { name: `Event ${++serial}`, start_datetime: new Date(Date.now() + DAY).toISOString(), end_datetime: null });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.event.id;
  }

  async function freshTeam(eventId?: number, name?: string): Promise<{ eventId: number; teamId: number; name: string }> {
    const ev = eventId ?? (await freshEvent());
    const n = name ?? `Team ${++serial}`;
    const r = await roles.owner.post(teamsPath(ev), { name: n, color: '#123456' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { eventId: ev, teamId: r.body.team.id, name: n };
  }

  async function teamsOf(eventId: number): Promise<any[]> {
    return (await roles.owner.get(teamsPath(eventId))).body.teams;
  }

  async function membersOf(eventId: number, teamId: number): Promise<any> {
    const r = await roles.owner.get(membersPath(eventId, teamId));
    expect(r.status).toBe(200);
    return r.body;
  }

  beforeAll(async () => {
    const igns: Record<string, string[]> = {
      'tm-owner': ['TmOwner'],
      'tm-admin': ['TmAdmin'],
      'tm-member': ['TmMember', 'zeta', 'Alpha', 'beta'],
      'tm-guest': ['TmGuest'],
      'tm-outsider': ['TmOutsider'],
    };
    clanId = (await clanWithRoles(suite.url, { prefix: 'tm', clanName: 'Team Clan', signIn: (name) => signIn(name, igns[name]), into: roles })).clanId;
    otherOwner = (await signIn('tm-other-owner', ['TmOther'])).api;
    otherClanId = (await otherOwner.post('/api/clans', { clan_name: 'Other Team Clan' })).body.clan_id;
  }, 60_000);

  const MATRIX: MatrixCall[] = [
    {
      call: 'GET teams/',
      expect: READ,
      send: async (api) => {
        const t = await freshTeam();
        return { r: await api.get(teamsPath(t.eventId)) };
      },
    },
    {
      call: 'POST teams/',
      expect: WRITE,
      send: async (api) => {
        const ev = await freshEvent();
        const r = await api.post(teamsPath(ev), { name: 'Made', color: '#abcdef' });
        return { r, verify: async (ok) => expect((await teamsOf(ev)).length).toBe(ok ? 1 : 0) };
      },
    },
    {
      call: 'PUT teams/{id}',
      expect: WRITE,
      send: async (api) => {
        const t = await freshTeam();
        const r = await api.put(`${teamsPath(t.eventId)}${t.teamId}`, { name: 'Renamed', color: '#000000' });
        return { r, verify: async (ok) => expect((await teamsOf(t.eventId))[0].name).toBe(ok ? 'Renamed' : t.name) };
      },
    },
    {
      call: 'DELETE teams/{id}',
      expect: WRITE,
      send: async (api) => {
        const t = await freshTeam();
        const r = await api.del(`${teamsPath(t.eventId)}${t.teamId}`);
        return { r, verify: async (ok) => expect((await teamsOf(t.eventId)).length).toBe(ok ? 0 : 1) };
      },
    },
    {
      call: 'GET members',
      expect: READ,
      send: async (api) => {
        const t = await freshTeam();
        return { r: await api.get(membersPath(t.eventId, t.teamId)) };
      },
    },
    {
      call: 'POST members',
      expect: WRITE,
      send: async (api) => {
        const t = await freshTeam();
        const r = await api.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.TmMember, role: 'Leader' });
        return { r, verify: async (ok) => expect((await membersOf(t.eventId, t.teamId)).team_members.length).toBe(ok ? 1 : 0) };
      },
    },
    {
      call: 'PUT members/{id}',
      expect: WRITE,
      send: async (api) => {
        const t = await freshTeam();
        const added = await roles.owner.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.TmMember, role: 'Member' });
        const r = await api.put(`${membersPath(t.eventId, t.teamId)}/${added.body.member.id}`, { role: 'Leader' });
        return { r, verify: async (ok) => expect((await membersOf(t.eventId, t.teamId)).team_members[0].role).toBe(ok ? 'Leader' : 'Member') };
      },
    },
    {
      call: 'DELETE members/{id}',
      expect: WRITE,
      send: async (api) => {
        const t = await freshTeam();
        const added = await roles.owner.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.TmMember, role: 'Member' });
        const r = await api.del(`${membersPath(t.eventId, t.teamId)}/${added.body.member.id}`);
        return { r, verify: async (ok) => expect((await membersOf(t.eventId, t.teamId)).team_members.length).toBe(ok ? 0 : 1) };
      },
    },
  ];

  permissionMatrix(MATRIX, as);

  describe('clans, events and ids', () => {
    it('answers 404 "Clan ID {id} not found." for a missing clan on every call', async () => {
      const m = 987654;
      for (const r of [
        await roles.member.get(`/api/clan/${m}/events/1/teams/`),
        await roles.member.post(`/api/clan/${m}/events/1/teams/`, { name: 'x', color: '#000000' }),
        await roles.member.put(`/api/clan/${m}/events/1/teams/1`, { name: 'x', color: '#000000' }),
        await roles.member.del(`/api/clan/${m}/events/1/teams/1`),
        await roles.member.get(`/api/clan/${m}/events/1/teams/1/members`),
        await roles.member.post(`/api/clan/${m}/events/1/teams/1/members`, { osrs_ign_id: 1, role: 'Member' }),
        await roles.member.put(`/api/clan/${m}/events/1/teams/1/members/1`, { role: 'Leader' }),
        await roles.member.del(`/api/clan/${m}/events/1/teams/1/members/1`),
      ]) {
        expect(r).toMatchObject({ status: 404, body: { error: `Clan ID ${m} not found.` } });
      }
    });

    it('answers 404 for an event of another clan, a team of another event and a member of another team', async () => {
      const a = await freshTeam();
      const b = await freshTeam();
      const added = await roles.owner.post(membersPath(b.eventId, b.teamId), { osrs_ign_id: ign.TmAdmin, role: 'Member' });
      expect(added.status).toBe(200);
      // Event of clan A seen through clan B (whose Owner is otherOwner).
      expect(await otherOwner.get(teamsPath(a.eventId, otherClanId))).toMatchObject({ status: 404, body: { error: `Event ID ${a.eventId} not found.` } });
      expect((await otherOwner.post(teamsPath(a.eventId, otherClanId), { name: 'Sneaky', color: '#000000' })).status).toBe(404);
      expect((await otherOwner.del(`${teamsPath(a.eventId, otherClanId)}${a.teamId}`)).status).toBe(404);
      // Team of event B under event A.
      expect(await roles.owner.put(`${teamsPath(a.eventId)}${b.teamId}`, { name: 'Moved', color: '#000000' })).toMatchObject({ status: 404, body: { error: `Team ID ${b.teamId} not found.` } });
      expect((await roles.owner.del(`${teamsPath(a.eventId)}${b.teamId}`)).status).toBe(404);
      expect((await roles.owner.get(membersPath(a.eventId, b.teamId))).status).toBe(404);
      // Member of team B under team A.
      const mid = added.body.member.id;
      expect(await roles.owner.put(`${membersPath(a.eventId, a.teamId)}/${mid}`, { role: 'Leader' })).toMatchObject({ status: 404, body: { error: `Team member ID ${mid} not found.` } });
      expect((await roles.owner.del(`${membersPath(a.eventId, a.teamId)}/${mid}`)).status).toBe(404);
      expect((await membersOf(b.eventId, b.teamId)).team_members).toHaveLength(1);
      expect((await teamsOf(b.eventId))[0].name).toBe(b.name);
    });

    it('answers 400 for ids that are not positive integers or too large', async () => {
      const t = await freshTeam();
      for (const bad of ['abc', '0', '-3', '9999999999']) {
        expect((await roles.owner.get(`/api/clan/${clanId}/events/${bad}/teams/`)).status, bad).toBe(400);
        expect((await roles.owner.put(`${teamsPath(t.eventId)}${bad}`, { name: 'x', color: '#000000' })).status, bad).toBe(400);
        expect((await roles.owner.get(membersPath(t.eventId, bad as unknown as number))).status, bad).toBe(400);
        expect((await roles.owner.del(`${membersPath(t.eventId, t.teamId)}/${bad}`)).status, bad).toBe(400);
      }
    });

    it('accepts every path with and without a trailing slash', async () => {
      const ev = await freshEvent();
      const base = `/api/clan/${clanId}/events/${ev}/teams`;
      expect((await roles.member.get(base)).status).toBe(200);
      const t = await roles.owner.post(base, { name: 'Slashless', color: '#010203' });
      expect(t.status).toBe(200);
      const id = t.body.team.id;
      expect((await roles.owner.put(`${base}/${id}/`, { name: 'Slashed', color: '#010203' })).status).toBe(200);
      const m = await roles.owner.post(`${base}/${id}/members/`, { osrs_ign_id: ign.TmGuest, role: 'Member' });
      expect(m.status).toBe(200);
      expect((await roles.member.get(`${base}/${id}/members/`)).status).toBe(200);
      expect((await roles.owner.put(`${base}/${id}/members/${m.body.member.id}/`, { role: 'Leader' })).status).toBe(200);
      expect((await roles.owner.del(`${base}/${id}/members/${m.body.member.id}/`)).status).toBe(200);
      expect((await roles.owner.del(`${base}/${id}/`)).status).toBe(200);
    });
  });

  describe('teams', () => {
    it('creates, lists, updates and deletes a team with every field', async () => {
      const ev = await freshEvent();
      const made = await roles.admin.post(teamsPath(ev), { name: '  Red Dragons ', color: '#FF00aa' });
      expect(made.status).toBe(200);
      expect(made.body.team).toEqual({ id: expect.any(Number), name: 'Red Dragons', color: '#ff00aa', member_count: 0, discord_role_id: null });
      expect(made.body.message).toBe("Team 'Red Dragons' created successfully.");
      const second = await roles.owner.post(teamsPath(ev), { name: 'Blue', color: '#0000ff' });
      const list = await roles.guest.get(teamsPath(ev));
      expect(list.body.teams.map((t: any) => t.name)).toEqual(['Red Dragons', 'Blue']);
      await roles.owner.post(membersPath(ev, second.body.team.id), { osrs_ign_id: ign.TmGuest, role: 'Leader' });
      await roles.owner.post(membersPath(ev, second.body.team.id), { osrs_ign_id: ign.TmAdmin, role: 'Member' });
      expect((await teamsOf(ev)).find((t) => t.name === 'Blue').member_count).toBe(2);
      const upd = await roles.admin.put(`${teamsPath(ev)}${made.body.team.id}`, { name: 'Crimson', color: '#aa0000' });
      expect(upd.body).toMatchObject({ team: { id: made.body.team.id, name: 'Crimson', color: '#aa0000', member_count: 0 }, message: "Team 'Crimson' updated successfully." });
      const del = await roles.admin.del(`${teamsPath(ev)}${second.body.team.id}`);
      expect(del.body).toEqual({ ok: true, message: "Team 'Blue' deleted successfully." });
      expect((await teamsOf(ev)).map((t) => t.name)).toEqual(['Crimson']);
      expect(Number((await sql(suite.env, 'SELECT COUNT(*) AS n FROM team_members WHERE team_id = ?', [second.body.team.id]))[0].n)).toBe(0);
    });

    const INVALID: [string, unknown, string][] = [
      ['no name', { color: '#000000' }, TEAM_NAME_REQUIRED],
      ['empty name', { name: '', color: '#000000' }, TEAM_NAME_REQUIRED],
      ['blank name', { name: '   ', color: '#000000' }, TEAM_NAME_REQUIRED],
      ['name of 51 characters', { name: 'n'.repeat(51), color: '#000000' }, TEAM_NAME_TOO_LONG],
      ['name a number', { name: 7, color: '#000000' }, TEAM_NAME_REQUIRED],
      ['no colour', { name: 'Ok' }, TEAM_BAD_COLOR],
      ['colour word', { name: 'Ok', color: 'red' }, TEAM_BAD_COLOR],
      ['short colour', { name: 'Ok', color: '#abc' }, TEAM_BAD_COLOR],
      ['colour with alpha', { name: 'Ok', color: '#11223344' }, TEAM_BAD_COLOR],
      ['colour not hex', { name: 'Ok', color: '#12345g' }, TEAM_BAD_COLOR],
      ['colour without #', { name: 'Ok', color: '123456' }, TEAM_BAD_COLOR],
      ['array body', [], 'Request body must be a JSON object.'],
    ];

    it.each(INVALID)('refuses %s with 400 on create and update, changing nothing', async (_l, body, message) => {
      const t = await freshTeam();
      const c = await roles.owner.post(teamsPath(t.eventId), body);
      expect(c).toMatchObject({ status: 400, body: { error: message } });
      const u = await roles.owner.put(`${teamsPath(t.eventId)}${t.teamId}`, body);
      expect(u).toMatchObject({ status: 400, body: { error: message } });
      expect(await teamsOf(t.eventId)).toEqual([{ id: t.teamId, name: t.name, color: '#123456', member_count: 0, discord_role_id: null }]);
    });

    it('accepts a 50-character name, and keeps names unique per event case-insensitively (409)', async () => {
      const ev = await freshEvent();
      expect((await roles.owner.post(teamsPath(ev), { name: 'n'.repeat(50), color: '#000000' })).status).toBe(200);
      const a = await roles.owner.post(teamsPath(ev), { name: 'Team A', color: '#000000' });
      const dup = await roles.owner.post(teamsPath(ev), { name: ' team a ', color: '#111111' });
      expect(dup.status).toBe(409);
      expect(dup.body.error).toContain('already exists');
      const b = await roles.owner.post(teamsPath(ev), { name: 'Team B', color: '#000000' });
      expect((await roles.owner.put(`${teamsPath(ev)}${b.body.team.id}`, { name: 'TEAM A', color: '#000000' })).status).toBe(409);
      // Renaming a team to its own name in another case is fine.
      expect((await roles.owner.put(`${teamsPath(ev)}${a.body.team.id}`, { name: 'TEAM A', color: '#000000' })).status).toBe(200);
      // The same name in another event is fine.
      expect((await roles.owner.post(teamsPath(await freshEvent()), { name: 'Team A', color: '#000000' })).status).toBe(200);
      expect((await teamsOf(ev)).map((t) => t.name)).toEqual(['n'.repeat(50), 'TEAM A', 'Team B']);
    });
  });

  describe('team members', () => {
    it('adds, lists, changes the role of and removes members with the spec messages', async () => {
      const t = await freshTeam(undefined, 'Wolves');
      const add = await roles.admin.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.TmGuest, role: 'Leader' });
      expect(add.status, JSON.stringify(add.body)).toBe(200);
      expect(add.body.message).toBe('TmGuest added to team Wolves as a Leader.');
      expect(add.body.member).toEqual({ id: expect.any(Number), osrs_ign: 'TmGuest', osrs_ign_id: ign.TmGuest, role: 'Leader', discord_id: expect.any(String) });
      const add2 = await roles.admin.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.Alpha });
      expect(add2.body.message).toBe('Alpha added to team Wolves as a Member.');
      const listed = await roles.member.get(membersPath(t.eventId, t.teamId));
      expect(listed.body.team_members.map((m: any) => `${m.osrs_ign}:${m.role}`)).toEqual(['Alpha:Member', 'TmGuest:Leader']);
      const guestMe = (await roles.guest.get('/api/user/me')).body;
      // A plain Member does not see another member's discord_id (docs/server.md §18); a manager does.
      expect(listed.body.team_members.find((m: any) => m.osrs_ign === 'TmGuest').discord_id).toBeNull();
      const managed = await roles.admin.get(membersPath(t.eventId, t.teamId));
      expect(managed.body.team_members.find((m: any) => m.osrs_ign === 'TmGuest').discord_id).toBe(guestMe.discord_id);
      const role = await roles.admin.put(`${membersPath(t.eventId, t.teamId)}/${add2.body.member.id}`, { role: 'Leader' });
      expect(role.body).toEqual({ member: { ...add2.body.member, role: 'Leader' }, message: 'Role updated to Leader for Alpha.' });
      const rm = await roles.admin.del(`${membersPath(t.eventId, t.teamId)}/${add.body.member.id}`);
      expect(rm.body).toEqual({ ok: true, message: 'TmGuest removed from team.' });
      expect((await membersOf(t.eventId, t.teamId)).team_members.map((m: any) => m.osrs_ign)).toEqual(['Alpha']);
    });

    it('puts an IGN on at most one team per event (409), and on teams of other events freely', async () => {
      const a = await freshTeam();
      const b = await freshTeam(a.eventId);
      expect((await roles.owner.post(membersPath(a.eventId, a.teamId), { osrs_ign_id: ign.zeta, role: 'Member' })).status).toBe(200);
      const again = await roles.owner.post(membersPath(a.eventId, b.teamId), { osrs_ign_id: ign.zeta, role: 'Leader' });
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(`zeta is already on team ${a.name} for this event.`);
      expect((await roles.owner.post(membersPath(a.eventId, a.teamId), { osrs_ign_id: ign.zeta, role: 'Leader' })).status).toBe(409);
      expect((await membersOf(a.eventId, b.teamId)).team_members).toEqual([]);
      const other = await freshTeam();
      expect((await roles.owner.post(membersPath(other.eventId, other.teamId), { osrs_ign_id: ign.zeta, role: 'Leader' })).status).toBe(200);
      // Other IGNs of the same user may join the other team.
      expect((await roles.owner.post(membersPath(a.eventId, b.teamId), { osrs_ign_id: ign.beta, role: 'Leader' })).status).toBe(200);
    });

    it('lists eligible members: clan members with their IGNs on no team of the event, sorted by name', async () => {
      const t = await freshTeam();
      const before = await membersOf(t.eventId, t.teamId);
      const names = before.eligible_members.map((e: any) => e.discord_username);
      expect(names).toEqual(['tm-admin', 'tm-guest', 'tm-member', 'tm-owner']);
      const m = before.eligible_members.find((e: any) => e.discord_username === 'tm-member');
      expect(m.osrs_accounts.map((a: any) => a.ign)).toEqual(['Alpha', 'beta', 'TmMember', 'zeta']);
      expect(m).toEqual({ discord_id: expect.any(String), discord_username: 'tm-member', user_id: expect.any(Number), osrs_accounts: expect.any(Array) });
      expect(JSON.stringify(before)).not.toContain('TmOutsider');
      const add = await roles.owner.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.beta, role: 'Member' });
      await roles.owner.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.TmGuest, role: 'Member' });
      const after = await membersOf(t.eventId, t.teamId);
      expect(after.eligible_members.find((e: any) => e.discord_username === 'tm-member').osrs_accounts.map((a: any) => a.ign)).toEqual(['Alpha', 'TmMember', 'zeta']);
      expect(after.eligible_members.map((e: any) => e.discord_username)).toEqual(['tm-admin', 'tm-member', 'tm-owner']);
      // An IGN on another team of the same event is not eligible there either.
      const other = await freshTeam(t.eventId);
      expect(JSON.stringify((await membersOf(t.eventId, other.teamId)).eligible_members)).not.toContain('"beta"');
      await roles.owner.del(`${membersPath(t.eventId, t.teamId)}/${add.body.member.id}`);
      const back = await membersOf(t.eventId, t.teamId);
      expect(back.eligible_members.find((e: any) => e.discord_username === 'tm-member').osrs_accounts.map((a: any) => a.ign)).toEqual(['Alpha', 'beta', 'TmMember', 'zeta']);
    });

    it('refuses an IGN that is unknown (404) or not a clan member\'s (400), and bad bodies (400)', async () => {
      const t = await freshTeam();
      expect(await roles.owner.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: 987654, role: 'Member' })).toMatchObject({ status: 404, body: { error: 'IGN ID 987654 not found.' } });
      const foreign = await roles.owner.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.TmOutsider, role: 'Member' });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error).toContain('does not belong to a member of this clan');
      for (const [body, message] of [
        [{ role: 'Member' }, TEAM_IGN_REQUIRED],
        [{ osrs_ign_id: String(ign.TmGuest), role: 'Member' }, TEAM_IGN_REQUIRED],
        [{ osrs_ign_id: 1.5, role: 'Member' }, TEAM_IGN_REQUIRED],
        [{ osrs_ign_id: -1, role: 'Member' }, TEAM_IGN_REQUIRED],
        [{ osrs_ign_id: 99999999999, role: 'Member' }, TEAM_IGN_REQUIRED],
        [{ osrs_ign_id: ign.TmGuest, role: 'Captain' }, TEAM_BAD_ROLE],
        [{ osrs_ign_id: ign.TmGuest, role: 'leader' }, TEAM_BAD_ROLE],
      ] as [unknown, string][]) {
        expect(await roles.owner.post(membersPath(t.eventId, t.teamId), body), JSON.stringify(body)).toMatchObject({ status: 400, body: { error: message } });
      }
      expect((await roles.owner.call('POST', membersPath(t.eventId, t.teamId), '{oops')).status).toBe(400);
      const added = await roles.owner.post(membersPath(t.eventId, t.teamId), { osrs_ign_id: ign.TmGuest, role: 'Member' });
      for (const body of [{}, { role: 'Boss' }, { role: null }]) {
        expect(await roles.owner.put(`${membersPath(t.eventId, t.teamId)}/${added.body.member.id}`, body)).toMatchObject({ status: 400, body: { error: TEAM_BAD_ROLE } });
      }
      expect((await membersOf(t.eventId, t.teamId)).team_members).toEqual([added.body.member]);
    });
  });

  describe('teams of an event with a game', () => {
    it('gives a new team its team state at once and turns a PENDING game READY; deleting the team removes its state', async () => {
      const ev = await freshEvent();
      const gameId = await insertGame(suite.env, ev, clanId, 'PENDING');
      const t = await roles.owner.post(teamsPath(ev), { name: 'First', color: '#00ff00' });
      expect(t.status).toBe(200);
      const states = await sql(suite.env, 'SELECT team_id, current_position, revert_count, position_history FROM team_states WHERE game_id = ?', [gameId]);
      expect(states.map((s) => ({ ...s, team_id: Number(s.team_id) }))).toEqual([{ team_id: t.body.team.id, current_position: 1, revert_count: 0, position_history: '[1]' }]);
      const game = (await sql(suite.env, 'SELECT status, version FROM games WHERE id = ?', [gameId]))[0];
      expect(game.status).toBe('READY');
      expect(Number(game.version)).toBeGreaterThan(0);
      const t2 = await roles.owner.post(teamsPath(ev), { name: 'Second', color: '#0000ff' });
      expect((await sql(suite.env, 'SELECT id FROM team_states WHERE game_id = ?', [gameId])).length).toBe(2);
      expect((await roles.owner.get(`/api/clan/${clanId}/events/?past=false`)).body.events.find((e: any) => e.id === ev)).toMatchObject({ game_id: gameId, team_count: 2 });
      expect((await roles.owner.del(`${teamsPath(ev)}${t2.body.team.id}`)).status).toBe(200);
      const left = await sql(suite.env, 'SELECT team_id FROM team_states WHERE game_id = ?', [gameId]);
      expect(left.map((s) => Number(s.team_id))).toEqual([t.body.team.id]);
    });

    it('leaves a game that is not PENDING in its status', async () => {
      const ev = await freshEvent();
      const gameId = await insertGame(suite.env, ev, clanId, 'in-progress');
      expect((await roles.owner.post(teamsPath(ev), { name: 'Late', color: '#00ff00' })).status).toBe(200);
      expect((await sql(suite.env, 'SELECT status FROM games WHERE id = ?', [gameId]))[0].status).toBe('in-progress');
      expect((await sql(suite.env, 'SELECT id FROM team_states WHERE game_id = ?', [gameId])).length).toBe(1);
    });
  });

  describe('bad input never answers 5xx', () => {
    it('answers 4xx to a sweep of odd bodies', async () => {
      const t = await freshTeam();
      const bodies: unknown[] = [null, 'text', 1, {}, { name: {} }, { name: 'x'.repeat(100_000), color: '#000000' }, { name: 'ok', color: ['#000000'] }, { osrs_ign_id: {}, role: [] }, { osrs_ign_id: 1e308 }, { role: 1 }];
      for (const b of bodies) {
        for (const r of [
          await roles.owner.call('POST', teamsPath(t.eventId), typeof b === 'string' ? b : JSON.stringify(b)),
          await roles.owner.put(`${teamsPath(t.eventId)}${t.teamId}`, b),
          await roles.owner.post(membersPath(t.eventId, t.teamId), b),
        ]) {
          expect(r.status, JSON.stringify(b)?.slice(0, 60)).toBeGreaterThanOrEqual(400);
          expect(r.status).toBeLessThan(500);
        }
      }
    });
  });
});
