import { beforeAll, describe, expect, it } from 'vitest';
import { useServerSuite } from '../support/suite';
import { backends, type Backend } from '../support/server';
import { directSql } from '../support/fixtures';
import { ApiClient } from '../support/api';
import { MEMBER_SEARCH_LIMIT, MEMBER_SEARCH_MESSAGES } from '../../contract/memberSearch';

/**
 * What members see of each other (docs/server.md §18, "What members see"), over real HTTP on
 * SQLite and (with TEST_DATABASE_URL) PostgreSQL: every route that answers a user or a sign-up ×
 * every persona (the user themself, a Member, an Admin and the Owner of the clan, the Owner of
 * another clan who is a Member here, a user in no shared clan). A discord_id reaches only its user
 * and the managers of a clan they share; last_login only the clan's managers and its own row; a
 * sign-up's note and score only its owner and the managers. Then Add Member's list: users who
 * share a clan with the manager or asked to join, and with `q` up to 20 more by username prefix.
 */

/** One signed-in person: client, user id, discord_id, IGN ids. */
interface Person {
  api: ApiClient;
  id: number;
  discordId: string;
  igns: number[];
}

/** The personas of the matrix: who asks. */
const PERSONAS = ['self', 'member', 'admin', 'owner', 'otherManager', 'stranger'] as const;
type Persona = (typeof PERSONAS)[number];

/**
 * What a persona may read of others: of `subject` (the persona 'self', a Member of clan A only)
 * and of `shared` (in A and B). Anyone reads all of their own rows.
 */
const SEES: Record<Exclude<Persona, 'stranger'>, { discord: boolean; sharedDiscord: boolean; lastLogin: boolean; note: boolean }> = {
  self: { discord: false, sharedDiscord: false, lastLogin: false, note: false },
  member: { discord: false, sharedDiscord: false, lastLogin: false, note: false },
  admin: { discord: true, sharedDiscord: true, lastLogin: true, note: true },
  owner: { discord: true, sharedDiscord: true, lastLogin: true, note: true },
  // The Owner of clan B, a plain Member of A: sees `shared`'s discord_id (B is a clan they share
  // and manage), not `subject`'s, and no last_login or note in A.
  otherManager: { discord: false, sharedDiscord: true, lastLogin: false, note: false },
};

describe.each(backends())('what members see of each other (%s)', (backend: Backend) => {
  const suite = useServerSuite(backend);
  const tag = backend.slice(0, 2);
  const people = {} as Record<Persona | 'shared', Person>;
  let clanA = 0;
  let clanB = 0;
  let eventId = 0;
  let teamId = 0;
  let subjectSignup = 0;

  /** Dev sign-in and onboarding of `name` with `igns`, joining `setup`'s clan. */
  const person = async (name: string, igns: string[], setup: Record<string, unknown> = { role: 'None' }): Promise<Person> => {
    const api = new ApiClient(suite.url);
    const me = await api.onboard(`${name}-${tag}`, igns, setup);
    return { api, id: me.id, discordId: me.discord_id, igns: me.igns.map((i: { id: number }) => i.id) };
  };
  const ok = async (call: Promise<{ status: number; body: any }>, status = 200) => {
    const r = await call;
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r.body;
  };

  beforeAll(async () => {
    people.owner = await person('pv-owner', [`PvOwner${tag}`], { role: 'Owner', clan_name: `Privacy A ${tag}` });
    clanA = (await ok(people.owner.api.get('/api/user/me'))).clan_memberships_list[0].clan_id;
    const joinA = { role: 'Member', clan_id: clanA };
    people.self = await person('pv-subject', [`PvSubj${tag}`, `PvSubjAlt${tag}`], joinA);
    people.member = await person('pv-member', [`PvMember${tag}`], joinA);
    people.admin = await person('pv-admin', [`PvAdmin${tag}`], joinA);
    await ok(people.owner.api.put(`/api/clan/${clanA}/members/${people.admin.id}/role`, { role: 'Admin' }));
    people.shared = await person('pv-shared', [`PvShared${tag}`], joinA);
    people.otherManager = await person('pv-boss-b', [`PvBossB${tag}`], { role: 'Owner', clan_name: `Privacy B ${tag}` });
    clanB = (await ok(people.otherManager.api.get('/api/user/me'))).clan_memberships_list[0].clan_id;
    await ok(people.owner.api.post(`/api/clan/${clanA}/members`, { user_id: people.otherManager.id, role: 'Member' }));
    await ok(people.otherManager.api.post(`/api/clan/${clanB}/members`, { user_id: people.shared.id, role: 'Member' }));
    people.stranger = await person('pv-stranger', [`PvStranger${tag}`]);

    const ev = await ok(people.owner.api.post(`/api/clan/${clanA}/events/`, { name: `Privacy ${tag}`, start_datetime: '2031-06-01T18:00Z', signups_open: true }));
    eventId = ev.event.id;
    const signups = `/api/clan/${clanA}/events/${eventId}/signups`;
    subjectSignup = (await ok(people.self.api.post(signups, { osrs_ign_id: people.self.igns[0], note: 'Free after 6pm' }), 201)).signup.id;
    await ok(people.owner.api.put(`${signups}/${subjectSignup}`, { score: 321 }));
    await ok(people.shared.api.post(signups, { osrs_ign_id: people.shared.igns[0], note: 'Shared note' }), 201);
    await ok(people.member.api.post(signups, { osrs_ign_id: people.member.igns[0], note: 'My own note' }), 201);
    teamId = (await ok(people.owner.api.post(`/api/clan/${clanA}/events/${eventId}/teams`, { name: 'Privacy Team', color: '#123456' }))).team.id;
    await ok(people.owner.api.post(`/api/clan/${clanA}/events/${eventId}/teams/${teamId}/members`, { osrs_ign_id: people.self.igns[0], role: 'Member' }));
  }, 120_000);

  /** The discord_id `who` should be shown of `subject`. */
  const discordOf = (who: Exclude<Persona, 'stranger'>, subject: 'self' | 'shared') =>
    (who === 'self' && subject === 'self') || (subject === 'self' ? SEES[who].discord : SEES[who].sharedDiscord) ? people[subject].discordId : null;

  /** Every read route that answers a user or a sign-up, and how to find the subject's row in it. */
  const reads: { name: string; path: () => string; rows: (body: any) => { of: 'self' | 'shared'; row: any }[] }[] = [
    {
      name: 'members list',
      path: () => `/api/clan/${clanA}/members`,
      rows: (b) => (['self', 'shared'] as const).map((of) => ({ of, row: b.members.find((m: any) => m.member_id === people[of].id) })),
    },
    {
      name: 'team members',
      path: () => `/api/clan/${clanA}/events/${eventId}/teams/${teamId}/members`,
      rows: (b) => [{ of: 'self', row: b.team_members.find((m: any) => m.osrs_ign_id === people.self.igns[0]) }],
    },
    {
      name: 'eligible members',
      path: () => `/api/clan/${clanA}/events/${eventId}/teams/${teamId}/members`,
      rows: (b) => (['self', 'shared'] as const).map((of) => ({ of, row: b.eligible_members.find((m: any) => m.user_id === people[of].id) })),
    },
    {
      name: 'sign-ups',
      path: () => `/api/clan/${clanA}/events/${eventId}/signups`,
      rows: (b) => (['self', 'shared'] as const).map((of) => ({ of, row: b.signups.find((s: any) => s.user_id === people[of].id) })),
    },
    {
      name: 'draft room sign-ups',
      path: () => `/api/clan/${clanA}/events/${eventId}/draft`,
      rows: (b) => (['self', 'shared'] as const).map((of) => ({ of, row: b.signups.find((s: any) => s.user_id === people[of].id) })),
    },
  ];
  const cases = reads.flatMap((r) => PERSONAS.map((who) => ({ ...r, who })));

  it.each(cases)('$name as $who', async ({ path, rows, who, name }) => {
    const r = await people[who].api.get(path());
    if (who === 'stranger') {
      // In no shared clan: the clan's routes are not reachable at all.
      expect(r.status).toBe(403);
      return;
    }
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (const { of, row } of rows(r.body)) {
      const own = who === 'self' && of === 'self';
      expect(row, `${of}'s row`).toBeDefined();
      expect(row.discord_id, `${of}'s discord_id`).toBe(discordOf(who, of));
      if (name === 'members list') {
        if (own || SEES[who].lastLogin) expect(typeof row.last_login).toBe('string');
        else expect(row.last_login).toBeNull();
      }
      if (name.includes('sign-ups')) {
        const full = own || SEES[who].note;
        const note = of === 'self' ? 'Free after 6pm' : 'Shared note';
        expect(row.note).toBe(full ? note : null);
        expect(row.score).toBe(full && of === 'self' ? 321 : null);
        expect(row.score_source).toBe(full && of === 'self' ? 'manual' : null);
      }
    }
    if (name === 'members list') {
      // Every row but the viewer's own hides last_login from a non-manager; their own shows it.
      for (const m of r.body.members) {
        if (m.member_id === people[who].id) {
          expect(typeof m.last_login).toBe('string');
          expect(m.discord_id).toBe(people[who].discordId);
        } else if (!SEES[who].lastLogin) expect(m.last_login).toBeNull();
      }
    }
    if (name === 'sign-ups' && who === 'member') {
      // A member's own sign-up keeps its note.
      expect(r.body.signups.find((s: any) => s.user_id === people.member.id).note).toBe('My own note');
    }
  });

  it('the answers of a change show the same: a manager sees the member and team member rows whole, a sign-up to its owner', async () => {
    const base = `/api/clan/${clanA}/events/${eventId}`;
    // POST/PUT of a team member, by a manager: the IGN's user is in the clan, so its discord_id is there.
    const added = await ok(people.admin.api.post(`${base}/teams/${teamId}/members`, { osrs_ign_id: people.shared.igns[0], role: 'Member' }));
    expect(added.member.discord_id).toBe(people.shared.discordId);
    const changed = await ok(people.admin.api.put(`${base}/teams/${teamId}/members/${added.member.id}`, { role: 'Leader' }));
    expect(changed.member.discord_id).toBe(people.shared.discordId);
    await ok(people.admin.api.del(`${base}/teams/${teamId}/members/${added.member.id}`));
    // PUT of a score by a manager answers the sign-up whole.
    const scored = await ok(people.admin.api.put(`${base}/signups/${subjectSignup}`, { score: 321 }));
    expect(scored.signup).toMatchObject({ note: 'Free after 6pm', score: 321, discord_id: people.self.discordId });
    // POST of a sign-up answers it whole to its owner.
    const mine = await ok(people.admin.api.post(`${base}/signups`, { osrs_ign_id: people.admin.igns[0], note: 'Admin note' }), 201);
    expect(mine.signup).toMatchObject({ note: 'Admin note', discord_id: people.admin.discordId });
    // Add Member and a role change answer the member row as a manager sees it.
    const newcomer = await person('pv-newcomer', [`PvNew${tag}`]);
    const made = await ok(people.owner.api.post(`/api/clan/${clanA}/members`, { user_id: newcomer.id, role: 'Guest' }));
    expect(made.member).toMatchObject({ member_id: newcomer.id, discord_id: newcomer.discordId, last_login: expect.any(String) });
    const promoted = await ok(people.admin.api.put(`/api/clan/${clanA}/members/${newcomer.id}/role`, { role: 'Member' }));
    expect(promoted.member).toMatchObject({ role: 'Member', discord_id: newcomer.discordId, last_login: expect.any(String) });
    // Seen by a plain Member, the newcomer's row hides both.
    const listed = (await ok(people.member.api.get(`/api/clan/${clanA}/members`))).members.find((m: any) => m.member_id === newcomer.id);
    expect(listed).toMatchObject({ discord_id: null, last_login: null });
  }, 60_000);

  describe('Add Member: who is offered', () => {
    const available = (api: ApiClient, q?: string) =>
      api.get(`/api/clan/${clanA}/available_members${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`);
    const names = async (q?: string) => {
      const body = await ok(available(people.owner.api, q));
      return (body.available_users as { id: number; username: string }[]).map((u) => u.username);
    };
    let friend: Person;
    let asker: Person;

    beforeAll(async () => {
      // The owner of A also belongs to clan C with `friend`; `asker` asked to join A; `denied` was refused.
      friend = await person('pv-friend', [`PvFriend${tag}`], { role: 'Owner', clan_name: `Privacy C ${tag}` });
      const clanC = (await ok(friend.api.get('/api/user/me'))).clan_memberships_list[0].clan_id;
      await ok(friend.api.post(`/api/clan/${clanC}/members`, { user_id: people.owner.id, role: 'Member' }));
      asker = await person('pv-asker', [`PvAsker${tag}`]);
      const denied = await person('pv-denied', [`PvDenied${tag}`]);
      const now = new Date().toISOString();
      await directSql(suite.env, `INSERT INTO join_requests (clan_id, user_id, status, created_at) VALUES (?, ?, 'pending', ?)`, [clanA, asker.id, now]);
      await directSql(suite.env, `INSERT INTO join_requests (clan_id, user_id, status, created_at) VALUES (?, ?, 'denied', ?)`, [clanA, denied.id, now]);
      for (const name of ['pct%user', 'pctXuser', 'und_score', 'undXscore', 'CaseSearch', 'Élodie', 'back\\slash', 'backXslash']) {
        await new ApiClient(suite.url).devLogin(`${name}-${tag}`);
      }
      for (let i = 0; i < MEMBER_SEARCH_LIMIT + 2; i += 1) await new ApiClient(suite.url).devLogin(`bulk${String(i).padStart(2, '0')}-${tag}`);
    }, 120_000);

    it('lists only users who share a clan with the manager or have a pending request, by username', async () => {
      // Clan B's Owner shares A with `shared`, but only the asking manager's clans count.
      expect(await names()).toEqual([`pv-asker-${tag}`, `pv-friend-${tag}`]);
      // The Owner of B asks nothing here: a Member of A gets 403.
      expect((await available(people.otherManager.api)).status).toBe(403);
      expect((await available(people.stranger.api)).status).toBe(403);
    });

    it('with q of 3+ characters adds up to 20 users whose username starts with it, case-insensitively and literally', async () => {
      expect(await names('pct%')).toEqual([`pct%user-${tag}`, `pv-asker-${tag}`, `pv-friend-${tag}`]);
      expect(await names('und_')).toEqual([`pv-asker-${tag}`, `pv-friend-${tag}`, `und_score-${tag}`]);
      expect(await names('back\\')).toEqual([`back\\slash-${tag}`, `pv-asker-${tag}`, `pv-friend-${tag}`]);
      expect(await names('casesEARCH')).toEqual([`CaseSearch-${tag}`, `pv-asker-${tag}`, `pv-friend-${tag}`]);
      expect(await names('éLO')).toEqual([`pv-asker-${tag}`, `pv-friend-${tag}`, `Élodie-${tag}`]);
      const bulk = (await names('BULK')).filter((n) => n.startsWith('bulk'));
      expect(bulk).toEqual(Array.from({ length: MEMBER_SEARCH_LIMIT }, (_, i) => `bulk${String(i).padStart(2, '0')}-${tag}`));
      // A member of the clan is never offered, and a known user is not listed twice.
      expect(await names('pv-')).toEqual([`pv-asker-${tag}`, `pv-denied-${tag}`, `pv-friend-${tag}`, `pv-stranger-${tag}`]);
    });

    it('refuses q shorter than 3 characters (after trimming) with 400', async () => {
      for (const q of ['', 'ab', '  ab  ', '%%']) {
        const r = await available(people.owner.api, q);
        expect(r.status, q).toBe(400);
        expect(r.body).toEqual({ error: MEMBER_SEARCH_MESSAGES.tooShort });
      }
      const long = await available(people.owner.api, 'x'.repeat(101));
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ error: MEMBER_SEARCH_MESSAGES.tooLong });
      // Refusals come after the access check: a Member still gets 403.
      expect((await available(people.member.api, 'ab')).status).toBe(403);
    });
  });
});
