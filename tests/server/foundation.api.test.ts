/**
 * Foundation API over real HTTP: session and user calls (docs/server.md
 * §3), identity and sessions (docs/server.md §2), setup / clans / create
 * clan / IGN paths (docs/server.md §3), the IGN and clan rules (docs/server.md §4) and running it (docs/server.md §7).
 * One real server process per backend; every person is an ApiClient keeping its own cookies.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ApiClient, type Answer } from '../support/api';
import { backends, createTestDatabase, startServer, type TestDatabase, type TestServer } from '../support/server';
import { useServerSuite } from '../support/suite';
import { directSql } from '../support/fixtures';

/** Number of stored sessions of one user. */
async function sessionCount(env: Record<string, string>, userId: number): Promise<number> {
  const rows = await directSql(env, 'SELECT count(*) AS n FROM sessions WHERE user_id = ?', [userId]);
  return Number(rows[0].n);
}

/** Expects a 4xx `{"error": "<text>"}` answer with `status`. */
function expectError(r: Answer, status: number): void {
  expect({ status: r.status, type: typeof r.body?.error }).toEqual({ status, type: 'string' });
  expect(r.body.error.length).toBeGreaterThan(0);
}

let nameSeq = 0;
/** A fresh user name per test (dev sign-in names are global to the server). */
const uniqueName = (label: string) => `${label}-${++nameSeq}`;

describe.each(backends())('foundation API (%s)', (backend) => {
  const suite = useServerSuite(backend);
  const person = () => suite.client();

  describe('session (docs/server.md §2, §3)', () => {
    it('auth status signed out: not authorized, no token, no keys, dev sign-in on', async () => {
      const r = await person().get('/api/games/auth/status');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ authorized: false, has_token: false, session_keys: [], error: null, dev_login: true, discord_login: false });
    });

    it('GET /api/user/me answers 401 when signed out', async () => {
      expectError(await person().get('/api/user/me'), 401);
    });

    it('dev sign-in starts a session in an httpOnly SameSite=Lax cookie and creates the user', async () => {
      const alice = person();
      const name = uniqueName('Alice');
      const r = await alice.post('/api/auth/dev', { username: name });
      expect(r.status).toBe(200);
      const cookie = r.headers.getSetCookie().find((l) => l.startsWith('sid='));
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).toMatch(/;\s*Path=\//i);
      expect(cookie).not.toMatch(/;\s*Secure/i); // plain http here

      const status = await alice.get('/api/games/auth/status');
      expect(status.body).toMatchObject({ authorized: true, has_token: true, error: null, dev_login: true });
      expect(status.body.session_keys.length).toBeGreaterThan(0);
      expect(status.body.session_keys.every((k: unknown) => typeof k === 'string')).toBe(true);

      const me = await alice.get('/api/user/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ username: name, discord_username: name, igns: [], clan_memberships_list: [], can_create_clan: true });
      expect(typeof me.body.id).toBe('number');
      expect(typeof me.body.discord_id).toBe('string');
      expect(me.body.discord_id.length).toBeGreaterThan(0);
    });

    it('dev sign-in gives the same name the same stable fake discord_id and user', async () => {
      const name = uniqueName('Stable Sam');
      const first = await (await person().devLogin(name)).get('/api/user/me');
      const second = await (await person().devLogin(name)).get('/api/user/me');
      const other = await (await person().devLogin(uniqueName('Other Olly'))).get('/api/user/me');
      expect(second.body.discord_id).toBe(first.body.discord_id);
      expect(second.body.id).toBe(first.body.id);
      expect(other.body.discord_id).not.toBe(first.body.discord_id);
      expect(other.body.id).not.toBe(first.body.id);
    });

    it('dev sign-in refuses a bad body with 400 and sets no cookie', async () => {
      for (const body of [{}, { username: '' }, { username: '   ' }, { username: 42 }, { username: 'x'.repeat(10_000) }, 'not json{', null]) {
        const p = person();
        const r = await p.call('POST', '/api/auth/dev', body === null ? 'null' : body);
        expectError(r, 400);
        expect(p.cookies.has('sid')).toBe(false);
      }
    });

    it('an unknown session cookie counts as a token but not as authorized', async () => {
      const p = person();
      p.cookies.set('sid', 'no-such-session');
      const status = await p.get('/api/games/auth/status');
      expect(status.body).toMatchObject({ authorized: false, has_token: true, session_keys: [] });
      expectError(await p.get('/api/user/me'), 401);
    });

    it('an expired session cookie counts as a token but not as authorized', async () => {
      const p = await person().devLogin(uniqueName('Expiring Ed'));
      const me = await p.get('/api/user/me');
      await directSql(suite.env, 'UPDATE sessions SET expires_at = ? WHERE user_id = ?', ['2000-01-01T00:00:00.000Z', me.body.id]);
      const status = await p.get('/api/games/auth/status');
      expect(status.body).toMatchObject({ authorized: false, has_token: true, session_keys: [], dev_login: true });
      expectError(await p.get('/api/user/me'), 401);
      expectError(await p.post('/api/clans', { clan_name: uniqueName('Expired Clan') }), 401);
    });

    it('logout deletes the session server-side: the old cookie no longer authorizes', async () => {
      const p = await person().devLogin(uniqueName('Leaving Lou'));
      const me = await p.get('/api/user/me');
      const oldSid = p.cookies.get('sid')!;
      expect(await sessionCount(suite.env, me.body.id)).toBe(1);

      const out = await p.post('/api/logout');
      expect(out.status).toBe(200);
      expect(p.cookies.has('sid')).toBe(false); // the cookie is cleared too
      expect(await sessionCount(suite.env, me.body.id)).toBe(0);

      const replay = person();
      replay.cookies.set('sid', oldSid);
      expect((await replay.get('/api/games/auth/status')).body).toMatchObject({ authorized: false, has_token: true });
      expectError(await replay.get('/api/user/me'), 401);
    });

    it('logout when signed out is harmless', async () => {
      expect((await person().post('/api/logout')).status).toBe(200);
    });
  });

  describe('setup (docs/server.md §3, §4; docs/game-rules.md §13 onboarding)', () => {
    it('Owner: stores the IGNs, creates the clan and makes the user its Owner', async () => {
      const owner = await person().devLogin(uniqueName('Owner Olga'));
      const r = await owner.post('/api/user/setup', { igns: ['Olga Main', 'Olga Iron'], clan_setup: { role: 'Owner', clan_name: 'Setup Owners' } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ign_count: 2 });
      const me = (await owner.get('/api/user/me')).body;
      expect(me.igns.map((i: { ign: string }) => i.ign)).toEqual(['Olga Main', 'Olga Iron']);
      expect(me.igns.every((i: { id: unknown }) => typeof i.id === 'number')).toBe(true);
      expect(me.clan_memberships_list).toHaveLength(1);
      expect(me.clan_memberships_list[0]).toMatchObject({ name: 'Setup Owners', role: 'Owner' });
      expect(typeof me.clan_memberships_list[0].joined_at).toBe('string');
      const clans = (await owner.get('/api/clans')).body.clans;
      expect(clans).toContainEqual({ id: me.clan_memberships_list[0].clan_id, name: 'Setup Owners' });
    });

    it('Member: joins an existing clan as Member', async () => {
      const owner = person();
      await owner.onboard(uniqueName('Owner Oscar'), ['Oscar'], { role: 'Owner', clan_name: 'Join Me' });
      const clanId = (await owner.get('/api/user/me')).body.clan_memberships_list[0].clan_id;
      const member = await person().devLogin(uniqueName('Member Mia'));
      const r = await member.post('/api/user/setup', { igns: ['Mia'], clan_setup: { role: 'Member', clan_id: clanId } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ign_count: 1 });
      const me = (await member.get('/api/user/me')).body;
      expect(me.clan_memberships_list).toEqual([expect.objectContaining({ clan_id: clanId, name: 'Join Me', role: 'Member' })]);
    });

    it('None: stores the IGNs and no membership', async () => {
      const p = await person().devLogin(uniqueName('Solo Sol'));
      const r = await p.post('/api/user/setup', { igns: ['Sol'], clan_setup: { role: 'None' } });
      expect(r.body).toEqual({ ign_count: 1 });
      const me = (await p.get('/api/user/me')).body;
      expect(me.igns.map((i: { ign: string }) => i.ign)).toEqual(['Sol']);
      expect(me.clan_memberships_list).toEqual([]);
    });

    it('setup signed out answers 401', async () => {
      expectError(await person().post('/api/user/setup', { igns: ['Nobody'], clan_setup: { role: 'None' } }), 401);
    });

    it('every payload that breaks the rules gets 400 with an error text and stores nothing', async () => {
      const p = await person().devLogin(uniqueName('Bad Bert'));
      const clansBefore = (await p.get('/api/clans')).body.clans;
      const ok = ['Bert'];
      const cases: [string, unknown][] = [
        ['no igns field', { clan_setup: { role: 'None' } }],
        ['empty IGN list', { igns: [], clan_setup: { role: 'None' } }],
        ['blank IGN only', { igns: ['   '], clan_setup: { role: 'None' } }],
        ['a 13-character IGN only', { igns: ['ABCDEFGHIJKLM'], clan_setup: { role: 'Owner', clan_name: 'Ghost Clan A' } }],
        ['a 13-character IGN after trimming', { igns: ['  ABCDEFGHIJKLM  '], clan_setup: { role: 'None' } }],
        ['a huge IGN', { igns: ['x'.repeat(60_000)], clan_setup: { role: 'None' } }],
        ['Owner without clan name', { igns: ok, clan_setup: { role: 'Owner' } }],
        ['Owner with a blank clan name', { igns: ok, clan_setup: { role: 'Owner', clan_name: '   ' } }],
        ['Owner with a 41-character clan name', { igns: ok, clan_setup: { role: 'Owner', clan_name: 'C'.repeat(41) } }],
        ['Owner with a numeric clan name', { igns: ok, clan_setup: { role: 'Owner', clan_name: 12 } }],
        ['Member without clan id', { igns: ok, clan_setup: { role: 'Member' } }],
        ['Member with a null clan id', { igns: ok, clan_setup: { role: 'Member', clan_id: null } }],
        ['Member with a string clan id', { igns: ok, clan_setup: { role: 'Member', clan_id: '1' } }],
        ['Member with a fractional clan id', { igns: ok, clan_setup: { role: 'Member', clan_id: 1.5 } }],
        ['Member with clan id 0', { igns: ok, clan_setup: { role: 'Member', clan_id: 0 } }],
        ['unknown role', { igns: ok, clan_setup: { role: 'Admin' } }],
        ['role in the wrong case', { igns: ok, clan_setup: { role: 'owner', clan_name: 'Ghost Clan B' } }],
        ['no clan_setup', { igns: ok }],
        ['clan_setup as a string', { igns: ok, clan_setup: 'Owner' }],
        ['igns as a string', { igns: 'Bert', clan_setup: { role: 'None' } }],
        ['igns holding a number', { igns: [42], clan_setup: { role: 'None' } }],
        ['igns holding null', { igns: [null], clan_setup: { role: 'None' } }],
        ['body is an array', []],
        ['body is null', 'null'],
        ['body is a number', '42'],
        ['body is not JSON', '{"igns": ["Bert"'],
      ];
      for (const [label, body] of cases) {
        const r = await p.call('POST', '/api/user/setup', body);
        expect({ label, status: r.status, hasError: typeof r.body?.error === 'string' && r.body.error.length > 0 }).toEqual({ label, status: 400, hasError: true });
      }
      const me = (await p.get('/api/user/me')).body;
      expect(me.igns).toEqual([]);
      expect(me.clan_memberships_list).toEqual([]);
      expect((await p.get('/api/clans')).body.clans).toEqual(clansBefore);
      // The same user can still complete setup afterwards.
      expect((await p.post('/api/user/setup', { igns: ok, clan_setup: { role: 'None' } })).body).toEqual({ ign_count: 1 });
    });

    it('Member with an unknown clan gets 404 and stores nothing', async () => {
      const p = await person().devLogin(uniqueName('Lost Lena'));
      expectError(await p.post('/api/user/setup', { igns: ['Lena'], clan_setup: { role: 'Member', clan_id: 999_999 } }), 404);
      // Ids beyond a 32-bit integer column: 404 or 400, never a 500.
      for (const clan_id of [2 ** 31, 9_007_199_254_740_991]) {
        const r = await p.post('/api/user/setup', { igns: ['Lena'], clan_setup: { role: 'Member', clan_id } });
        expect({ clan_id, status: [400, 404].includes(r.status) }).toEqual({ clan_id, status: true });
        expect(typeof r.body.error).toBe('string');
      }
      const me = (await p.get('/api/user/me')).body;
      expect(me.igns).toEqual([]);
      expect(me.clan_memberships_list).toEqual([]);
    });

    it('a second setup answers 409 and changes nothing', async () => {
      const p = person();
      await p.onboard(uniqueName('Twice Tom'), ['Tom'], { role: 'None' });
      const r = await p.post('/api/user/setup', { igns: ['Tom Again'], clan_setup: { role: 'Owner', clan_name: 'Second Setup Clan' } });
      expectError(r, 409);
      const me = (await p.get('/api/user/me')).body;
      expect(me.igns.map((i: { ign: string }) => i.ign)).toEqual(['Tom']);
      expect(me.clan_memberships_list).toEqual([]);
      expect((await p.get('/api/clans')).body.clans.map((c: { name: string }) => c.name)).not.toContain('Second Setup Clan');
    });

    it('IGNs are trimmed, 1-12 characters, case-sensitive, and duplicates count once', async () => {
      const p = await person().devLogin(uniqueName('Trim Tia'));
      const r = await p.post('/api/user/setup', {
        igns: ['  Zezima  ', 'TwelveChars1', '  TwelveChars2 ', 'Z', 'zezima', 'Zezima'],
        clan_setup: { role: 'None' },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ign_count: 5 });
      const me = (await p.get('/api/user/me')).body;
      expect(me.igns.map((i: { ign: string }) => i.ign).sort()).toEqual(['TwelveChars1', 'TwelveChars2', 'Z', 'Zezima', 'zezima'].sort());
    });
  });

  describe('clans (docs/server.md §3, §4)', () => {
    it('lists clans as {id, name} and answers 401 when signed out', async () => {
      expectError(await person().get('/api/clans'), 401);
      const p = await person().devLogin(uniqueName('Lister Lin'));
      const created = await p.post('/api/clans', { clan_name: 'Listed Clan' });
      expect(created.status).toBe(200);
      const r = await p.get('/api/clans');
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body.clans)).toBe(true);
      expect(r.body.clans).toContainEqual({ id: created.body.clan_id, name: 'Listed Clan' });
      for (const c of r.body.clans) expect(Object.keys(c).sort()).toEqual(['id', 'name']);
    });

    it('creates a clan with a trimmed name and makes the creator Owner', async () => {
      const p = await person().devLogin(uniqueName('Founder Fay'));
      const r = await p.post('/api/clans', { clan_name: '   Spaced Out   ' });
      expect(r.status).toBe(200);
      expect(typeof r.body.clan_id).toBe('number');
      const me = (await p.get('/api/user/me')).body;
      expect(me.clan_memberships_list).toEqual([expect.objectContaining({ clan_id: r.body.clan_id, name: 'Spaced Out', role: 'Owner' })]);
    });

    it('refuses a name taken case-insensitively with 409', async () => {
      const a = await person().devLogin(uniqueName('Wolf Wes'));
      const b = await person().devLogin(uniqueName('Wolf Wyn'));
      expect((await a.post('/api/clans', { clan_name: 'Iron Wolves' })).status).toBe(200);
      expectError(await b.post('/api/clans', { clan_name: 'iron wolves' }), 409);
      expectError(await b.post('/api/clans', { clan_name: '  IRON WOLVES ' }), 409);
      expectError(await a.post('/api/clans', { clan_name: 'Iron Wolves' }), 409);
      expectError(await b.post('/api/user/setup', { igns: ['Wyn'], clan_setup: { role: 'Owner', clan_name: 'IRON wolves' } }), 409);
      expect((await b.get('/api/user/me')).body).toMatchObject({ igns: [], clan_memberships_list: [] });
      const names = (await a.get('/api/clans')).body.clans.map((c: { name: string }) => c.name.toLowerCase());
      expect(names.filter((n: string) => n === 'iron wolves')).toHaveLength(1);
    });

    it('two simultaneous creates of one name: one succeeds, the other is a 409, never a 500', async () => {
      const a = await person().devLogin(uniqueName('Race Ray'));
      const b = await person().devLogin(uniqueName('Race Rex'));
      const answers = await Promise.all([a.post('/api/clans', { clan_name: 'Race Clan' }), b.post('/api/clans', { clan_name: 'race clan' })]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    });

    it('accepts 40 characters and refuses 41, blank, missing and non-string names with 400', async () => {
      const p = await person().devLogin(uniqueName('Long Lars'));
      const forty = 'L'.repeat(39) + backend[0];
      expect((await p.post('/api/clans', { clan_name: forty })).status).toBe(200);
      const before = (await p.get('/api/clans')).body.clans;
      for (const body of [{ clan_name: 'M'.repeat(41) }, { clan_name: '' }, { clan_name: '    ' }, {}, { clan_name: 7 }, { clan_name: null }, '{oops', { clan_name: 'N'.repeat(60_000) }]) {
        expectError(await p.call('POST', '/api/clans', body), 400);
      }
      expect((await p.get('/api/clans')).body.clans).toEqual(before);
      expectError(await person().post('/api/clans', { clan_name: 'Signed Out Clan' }), 401);
    });

    it('a user owns at most 3 clans: the 4th is 409 "Clan limit reached: ..." and can_create_clan turns false', async () => {
      const p = person();
      await p.onboard(uniqueName('Limit Liv'), ['Liv'], { role: 'Owner', clan_name: 'Limit One' });
      expect((await p.get('/api/user/me')).body.can_create_clan).toBe(true);
      expect((await p.post('/api/clans', { clan_name: 'Limit Two' })).status).toBe(200);
      expect((await p.get('/api/user/me')).body.can_create_clan).toBe(true);
      expect((await p.post('/api/clans', { clan_name: 'Limit Three' })).status).toBe(200);
      expect((await p.get('/api/user/me')).body.can_create_clan).toBe(false);
      const fourth = await p.post('/api/clans', { clan_name: 'Limit Four' });
      expectError(fourth, 409);
      expect(fourth.body.error).toMatch(/^Clan limit reached: /);
      const me = (await p.get('/api/user/me')).body;
      expect(me.can_create_clan).toBe(false);
      expect(me.clan_memberships_list.map((m: { name: string }) => m.name).sort()).toEqual(['Limit One', 'Limit Three', 'Limit Two']);
      expect((await p.get('/api/clans')).body.clans.map((c: { name: string }) => c.name)).not.toContain('Limit Four');
    });

    it('being a Member of clans does not count toward the limit', async () => {
      const owner = person();
      await owner.onboard(uniqueName('Host Hal'), ['Hal'], { role: 'Owner', clan_name: 'Host Clan' });
      const clanId = (await owner.get('/api/user/me')).body.clan_memberships_list[0].clan_id;
      const member = person();
      await member.onboard(uniqueName('Guest Gil'), ['Gil'], { role: 'Member', clan_id: clanId });
      for (const name of ['Gil One', 'Gil Two', 'Gil Three']) expect((await member.post('/api/clans', { clan_name: name })).status).toBe(200);
      expect((await member.get('/api/user/me')).body.can_create_clan).toBe(false);
    });
  });

  describe('IGNs (docs/server.md §3, §4; docs/game-rules.md §13)', () => {
    it('links, edits and deletes the user\'s own IGNs', async () => {
      const p = person();
      await p.onboard(uniqueName('Ign Ida'), ['Ida'], { role: 'None' });
      const linked = await p.post('/api/user/igns', { ign: '  Ida Alt  ' });
      expect(linked.status).toBe(200);
      expect(linked.body).toEqual({ ign: { id: expect.any(Number), ign: 'Ida Alt' } });
      const id = linked.body.ign.id;
      expect((await p.post('/api/user/igns', { ign: 'ida alt' })).status).toBe(200); // case-sensitive

      const edited = await p.put(`/api/user/igns/${id}`, { ign: ' Ida Main2 ' });
      expect(edited.status).toBe(200);
      expect(edited.body).toEqual({ ign: { id, ign: 'Ida Main2' } });
      let igns = (await p.get('/api/user/me')).body.igns;
      expect(igns).toContainEqual({ id, ign: 'Ida Main2' });

      const deleted = await p.del(`/api/user/igns/${id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ ok: true });
      igns = (await p.get('/api/user/me')).body.igns;
      expect(igns.map((i: { ign: string }) => i.ign).sort()).toEqual(['Ida', 'ida alt']);
      expectError(await p.del(`/api/user/igns/${id}`), 404);
      expectError(await p.put(`/api/user/igns/${id}`, { ign: 'Gone' }), 404);
    });

    it('refuses duplicates (409), bad lengths and types (400), and same-as-current edits (400)', async () => {
      const p = person();
      await p.onboard(uniqueName('Rule Rae'), ['Rae', 'Rae Two'], { role: 'None' });
      const igns: { id: number; ign: string }[] = (await p.get('/api/user/me')).body.igns;
      const rae = igns.find((i) => i.ign === 'Rae')!;

      expectError(await p.post('/api/user/igns', { ign: 'Rae' }), 409);
      expectError(await p.post('/api/user/igns', { ign: '  Rae ' }), 409);
      for (const body of [{ ign: 'ABCDEFGHIJKLM' }, { ign: '' }, { ign: '   ' }, {}, { ign: 5 }, { ign: null }, { ign: ['Rae3'] }, '{bad', { ign: 'y'.repeat(60_000) }]) {
        expectError(await p.call('POST', '/api/user/igns', body), 400);
      }

      const same = await p.put(`/api/user/igns/${rae.id}`, { ign: 'Rae' });
      expectError(same, 400);
      expect(same.body.error).toBe('The new IGN is the same as the current one. No change was made.');
      expectError(await p.put(`/api/user/igns/${rae.id}`, { ign: ' Rae  ' }), 400);
      expectError(await p.put(`/api/user/igns/${rae.id}`, { ign: 'Rae Two' }), 409);
      for (const body of [{ ign: 'ABCDEFGHIJKLM' }, { ign: '' }, {}, { ign: 1 }, 'nope']) {
        expectError(await p.call('PUT', `/api/user/igns/${rae.id}`, body), 400);
      }
      expect((await p.get('/api/user/me')).body.igns).toEqual(igns);
    });

    it('two simultaneous links of one IGN: one succeeds, the other is a 409, never a 500', async () => {
      const p = person();
      await p.onboard(uniqueName('Twin Tara'), ['Tara'], { role: 'None' });
      const answers = await Promise.all([p.post('/api/user/igns', { ign: 'Tara Alt' }), p.post('/api/user/igns', { ign: 'Tara Alt' })]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect((await p.get('/api/user/me')).body.igns.map((i: { ign: string }) => i.ign)).toEqual(['Tara', 'Tara Alt']);
    });

    it('another user\'s IGN ids answer 404 and stay unchanged; signed out is 401', async () => {
      const owner = person();
      await owner.onboard(uniqueName('Mine Max'), ['Max'], { role: 'None' });
      const before = (await owner.get('/api/user/me')).body.igns;
      const other = person();
      await other.onboard(uniqueName('Thief Theo'), ['Theo'], { role: 'None' });
      expectError(await other.put(`/api/user/igns/${before[0].id}`, { ign: 'Stolen' }), 404);
      expectError(await other.del(`/api/user/igns/${before[0].id}`), 404);
      expectError(await other.put('/api/user/igns/999999', { ign: 'Nowhere' }), 404);
      expectError(await other.del('/api/user/igns/999999'), 404);
      expect((await owner.get('/api/user/me')).body.igns).toEqual(before);

      const anon = person();
      expectError(await anon.post('/api/user/igns', { ign: 'Anon' }), 401);
      expectError(await anon.put(`/api/user/igns/${before[0].id}`, { ign: 'Anon' }), 401);
      expectError(await anon.del(`/api/user/igns/${before[0].id}`), 401);
      expect((await owner.get('/api/user/me')).body.igns).toEqual(before);
    });

    it('bad IGN ids answer 400 (or 404 when well-formed but absent), never 500', async () => {
      const p = person();
      await p.onboard(uniqueName('Ids Ivo'), ['Ivo'], { role: 'None' });
      for (const id of ['abc', '0', '-1', '1e3', '1.5', '0x1', '%20', '12abc', '99999999999999999999']) {
        expectError(await p.put(`/api/user/igns/${id}`, { ign: 'Whatever' }), 400);
        expectError(await p.del(`/api/user/igns/${id}`), 400);
      }
      // Well-formed but beyond any stored id (and beyond a 32-bit integer column).
      for (const id of ['2147483648', '9999999999']) {
        for (const r of [await p.put(`/api/user/igns/${id}`, { ign: 'Whatever' }), await p.del(`/api/user/igns/${id}`)]) {
          expect([400, 404]).toContain(r.status);
          expect(typeof r.body.error).toBe('string');
        }
      }
      expect((await p.get('/api/user/me')).body.igns.map((i: { ign: string }) => i.ign)).toEqual(['Ivo']);
    });
  });

  describe('origin check and routing (docs/server.md §2, §3)', () => {
    it('refuses mutating requests from a foreign Origin with 403 and changes nothing', async () => {
      const p = person();
      await p.onboard(uniqueName('Origin Ola'), ['Ola'], { role: 'None' });
      const before = (await p.get('/api/user/me')).body;
      const ignId = before.igns[0].id;
      for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${suite.server.port + 1}`]) {
        const h = { origin };
        expectError(await p.call('POST', '/api/clans', { clan_name: 'Forged Clan' }, h), 403);
        expectError(await p.call('POST', '/api/user/igns', { ign: 'Forged' }, h), 403);
        expectError(await p.call('PUT', `/api/user/igns/${ignId}`, { ign: 'Forged' }, h), 403);
        expectError(await p.call('DELETE', `/api/user/igns/${ignId}`, undefined, h), 403);
        expectError(await p.call('POST', '/api/logout', {}, h), 403);
        expectError(await person().call('POST', '/api/auth/dev', { username: uniqueName('Forged Fred') }, h), 403);
      }
      expect((await p.get('/api/user/me')).body).toEqual(before); // still signed in, nothing changed
      expect((await p.get('/api/clans')).body.clans.map((c: { name: string }) => c.name)).not.toContain('Forged Clan');
      // GET from another origin is fine (no state change).
      expect((await p.call('GET', '/api/user/me', undefined, { origin: 'http://evil.example' })).status).toBe(200);
    });

    it('unknown /api paths answer 404 JSON', async () => {
      const p = await person().devLogin(uniqueName('Lost Lou'));
      for (const [method, path] of [['GET', '/api/nope'], ['POST', '/api/nope/deeper'], ['DELETE', '/api/user'], ['GET', '/api']] as const) {
        const r = await p.call(method, path, method === 'GET' ? undefined : {});
        expectError(r, 404);
        expect(r.headers.get('content-type')).toMatch(/application\/json/);
      }
      expectError(await person().get('/api/definitely/not/here'), 404);
    });
  });
});

describe('dev sign-in is off in production or when Discord is configured (docs/server.md §2)', () => {
  let dbs: TestDatabase[] = [];
  let production: TestServer;
  let discord: TestServer;

  beforeAll(async () => {
    dbs = await Promise.all([createTestDatabase('sqlite'), createTestDatabase('sqlite')]);
    [production, discord] = await Promise.all([
      startServer({ ...dbs[0].env, NODE_ENV: 'production' }),
      startServer({ ...dbs[1].env, DISCORD_CLIENT_ID: 'test-client-id', DISCORD_CLIENT_SECRET: 'test-secret' }),
    ]);
  });
  afterAll(async () => {
    await production?.stop();
    await discord?.stop();
    for (const db of dbs) await db.drop();
  });

  it('NODE_ENV=production: POST /api/auth/dev is 404 and status says dev_login false', async () => {
    const p = new ApiClient(production.url);
    expect((await p.get('/api/games/auth/status')).body).toEqual({ authorized: false, has_token: false, session_keys: [], error: null, dev_login: false, discord_login: false });
    expectError(await p.post('/api/auth/dev', { username: 'Prod Pat' }), 404);
    expect(p.cookies.has('sid')).toBe(false);
    expectError(await p.get('/api/user/me'), 401);
  });

  it('DISCORD_CLIENT_ID set: POST /api/auth/dev is 404 and status says dev_login false', async () => {
    const p = new ApiClient(discord.url);
    expect((await p.get('/api/games/auth/status')).body).toMatchObject({ dev_login: false, discord_login: true });
    expectError(await p.post('/api/auth/dev', { username: 'Disco Dan' }), 404);
    expect(p.cookies.has('sid')).toBe(false);
  });
});
