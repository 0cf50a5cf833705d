import { describe, it, expect, beforeAll } from 'vitest';
import { backends, createTestDatabase } from '../support/server';
import { ApiClient, type Answer } from '../support/api';
import { useServerSuite } from '../support/suite';
import { csvForm, directSql, openDirectDb } from '../support/fixtures';
import { CLAN_NAME_EMPTY, RENAME_EMPTY_OR_SAME } from '../../contract/clan';
import { clanNameKey } from '../../contract/text';

/**
 * The text rule over real HTTP on both databases (docs/server.md §8):
 * NUL, a C0 and a C1 character in every typed text answer 400 naming the field (never a 500 on
 * PostgreSQL) and store nothing; line breaks only in task descriptions; zero-width and bidi
 * controls removed before length and uniqueness checks ('Iron\u200B Dragons' is 'Iron Dragons');
 * a CSV with a bad row inserts the good rows and reports the bad one; migration 004 recomputes
 * the clan keys of existing rows.
 */

/** The control characters thrown at every field: NUL, a C0 (BEL) and a C1 (NEL). */
const BAD: [string, string][] = [['NUL', '\u0000'], ['C0 BEL', '\u0007'], ['C1 NEL', '\u0085']];

const refused = (label: string, field: string) => `${label} (${field}) must not contain control characters.`;
const future = () => new Date(Date.now() + 86_400_000).toISOString();

describe.each(backends())('the text rule over HTTP (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let owner: ApiClient;
  let fresh: ApiClient;
  let clanId: number;
  let ignId: number;
  let eventId: number;
  let teamId: number;
  let taskId: number;
  let serial = 0;

  beforeAll(async () => {
    owner = suite.client();
    const me = await owner.onboard('text-owner', ['TextIgn'], { role: 'Owner', clan_name: 'Text Clan' });
    clanId = me.clan_memberships_list[0].clan_id;
    ignId = me.igns[0].id;
    const ev = await owner.post(`/api/clan/${clanId}/events/`, { name: 'Text Event', type: 'Snakes and Ladders', start_datetime: future(), end_datetime: null });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    eventId = ev.body.event.id;
    const team = await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Text Team', color: '#112233' });
    expect(team.status, JSON.stringify(team.body)).toBe(200);
    teamId = team.body.team.id;
    const task = await owner.post(`/api/clan/${clanId}/tasks`, { description: 'Text task', difficulty: 'EASY' });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    taskId = task.body.task.id;
    // Signed in, not set up: for the setup calls.
    fresh = await suite.client().devLogin('text-fresh');
  });

  /** Every typed-text field: how to send `text` in it, and its label and JSON name. */
  const FIELDS: { name: string; label: string; field: string; send: (text: string) => Promise<Answer> }[] = [
    { name: 'dev sign-in username', label: 'Username', field: 'username', send: (t) => suite.client().post('/api/auth/dev', { username: t }) },
    { name: 'setup IGN', label: 'IGN', field: 'igns', send: (t) => fresh.post('/api/user/setup', { igns: ['Fine', t], clan_setup: { role: 'None' } }) },
    { name: 'setup clan name', label: 'Clan name', field: 'clan_name', send: (t) => fresh.post('/api/user/setup', { igns: ['Fine'], clan_setup: { role: 'Owner', clan_name: t } }) },
    { name: 'link IGN', label: 'IGN', field: 'ign', send: (t) => owner.post('/api/user/igns', { ign: t }) },
    { name: 'edit IGN', label: 'IGN', field: 'ign', send: (t) => owner.put(`/api/user/igns/${ignId}`, { ign: t }) },
    { name: 'create clan', label: 'Clan name', field: 'clan_name', send: (t) => owner.post('/api/clans', { clan_name: t }) },
    { name: 'rename clan', label: 'Clan name', field: 'new_name', send: (t) => owner.put(`/api/clan/${clanId}/name`, { new_name: t }) },
    { name: 'create team', label: 'Team name', field: 'name', send: (t) => owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: t, color: '#445566' }) },
    { name: 'edit team', label: 'Team name', field: 'name', send: (t) => owner.put(`/api/clan/${clanId}/events/${eventId}/teams/${teamId}`, { name: t, color: '#445566' }) },
    { name: 'create event', label: 'Event name', field: 'name', send: (t) => owner.post(`/api/clan/${clanId}/events/`, { name: t, type: 'Snakes and Ladders', start_datetime: future(), end_datetime: null }) },
    { name: 'edit event', label: 'Event name', field: 'name', send: (t) => owner.put(`/api/clan/${clanId}/events/${eventId}`, { name: t, type: 'Snakes and Ladders', start_datetime: future(), end_datetime: null }) },
    { name: 'create task', label: 'Description', field: 'description', send: (t) => owner.post(`/api/clan/${clanId}/tasks`, { description: t, difficulty: 'MEDIUM' }) },
    { name: 'edit task', label: 'Description', field: 'description', send: (t) => owner.put(`/api/clan/${clanId}/tasks/${taskId}`, { description: t, difficulty: 'MEDIUM' }) },
  ];

  it.each(FIELDS)('$name: NUL, C0 and C1 answer 400 naming the field', async (f) => {
    for (const [what, c] of BAD) {
      for (const text of [`Ab${c}cd`, c, `${c}Abcd`]) {
        const r = await f.send(text);
        expect(r.status, `${what} ${JSON.stringify(text)} → ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body).toEqual({ error: refused(f.label, f.field) });
      }
    }
  });

  it('stored nothing from the refused calls', async () => {
    const me = (await owner.get('/api/user/me')).body;
    expect(me.igns).toEqual([{ id: ignId, ign: 'TextIgn' }]);
    expect(me.clan_memberships_list.map((m: { name: string }) => m.name)).toEqual(['Text Clan']);
    expect((await owner.get(`/api/clan/${clanId}/events/`)).body.events.map((e: { name: string }) => e.name)).toEqual(['Text Event']);
    expect((await owner.get(`/api/clan/${clanId}/events/${eventId}/teams/`)).body.teams.map((t: { name: string }) => t.name)).toEqual(['Text Team']);
    expect((await owner.get(`/api/clan/${clanId}/tasks/`)).body.tasks.map((t: { description: string }) => t.description)).toEqual(['Text task']);
    expect((await fresh.get('/api/user/me')).body.igns).toEqual([]);
  });

  it('line breaks are kept in task descriptions and refused in names', async () => {
    const r = await owner.post(`/api/clan/${clanId}/tasks`, { description: 'Kill 5 goblins\r\nthen bank', difficulty: 'HARD' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.task.description).toBe('Kill 5 goblins\r\nthen bank');
    const tab = await owner.post(`/api/clan/${clanId}/tasks`, { description: 'Kill\tgoblins', difficulty: 'HARD' });
    expect(tab).toMatchObject({ status: 400, body: { error: refused('Description', 'description') } });
    const team = await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Two\nlines', color: '#445566' });
    expect(team).toMatchObject({ status: 400, body: { error: refused('Team name', 'name') } });
  });

  it('stores text NFC-normalised without zero-width and bidi controls', async () => {
    const team = await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: ' \u2066Cafe\u0301\u200B Crew\u2069 ', color: '#445566' });
    expect(team.status, JSON.stringify(team.body)).toBe(200);
    expect(team.body.team.name).toBe('Caf\u00E9 Crew');
    const ign = await owner.post('/api/user/igns', { ign: 'Zez\u200Dima' });
    expect(ign.status, JSON.stringify(ign.body)).toBe(200);
    expect(ign.body.ign.ign).toBe('Zezima');
    // The same IGN with an invisible character is the same IGN.
    expect((await owner.post('/api/user/igns', { ign: '\u200EZezima' })).status).toBe(409);
  });

  it("'Iron\\u200B Dragons', full-width and upper-case variants collide with 'Iron Dragons' (409)", async () => {
    const first = await suite.client().devLogin(`iron-${++serial}`);
    const made = await first.post('/api/clans', { clan_name: 'Iron Dragons' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const other = await suite.client().devLogin(`iron-${++serial}`);
    for (const name of ['Iron\u200B Dragons', '\uFF29\uFF52\uFF4F\uFF4E Dragons', 'IRON DRAGONS', '\u202EIron Dragons\u202C']) {
      const r = await other.post('/api/clans', { clan_name: name });
      expect(r.status, `${JSON.stringify(name)} → ${JSON.stringify(r.body)}`).toBe(409);
      expect(r.body.error).toMatch(/^A clan named '.+' already exists\.$/);
    }
    expect((await other.post('/api/clans', { clan_name: 'Iron\u200B Dragons' })).body).toEqual({ error: "A clan named 'Iron Dragons' already exists." });
    // A rename meets the same key.
    const own = await other.post('/api/clans', { clan_name: 'Bronze Dragons' });
    expect(own.status).toBe(200);
    const rename = await other.put(`/api/clan/${own.body.clan_id}/name`, { new_name: 'iron\u2060 dragons' });
    expect(rename).toMatchObject({ status: 409, body: { error: "A clan named 'iron dragons' already exists." } });
    // Setup too.
    const setup = await suite.client().devLogin(`iron-${++serial}`);
    const s = await setup.post('/api/user/setup', { igns: ['Setup'], clan_setup: { role: 'Owner', clan_name: 'Iron\uFEFF Dragons' } });
    expect(s.status).toBe(409);
    // The stored key is the NFKC case-folded one.
    const rows = await directSql(suite.env, 'SELECT name, name_key FROM clans WHERE id = ?', [made.body.clan_id]);
    expect(rows).toEqual([{ name: 'Iron Dragons', name_key: clanNameKey('Iron Dragons') }]);
  });

  it('a clan name of invisible characters only is empty (400)', async () => {
    const api = await suite.client().devLogin(`empty-${++serial}`);
    expect(await api.post('/api/clans', { clan_name: '\u200B' })).toMatchObject({ status: 400, body: { error: CLAN_NAME_EMPTY } });
    expect(await api.post('/api/clans', { clan_name: ' \u200B\u202E ' })).toMatchObject({ status: 400, body: { error: CLAN_NAME_EMPTY } });
    expect(await owner.put(`/api/clan/${clanId}/name`, { new_name: '\u2066\u2069' })).toMatchObject({ status: 400, body: { error: RENAME_EMPTY_OR_SAME } });
  });

  it.each(BAD)('a CSV with a %s row inserts the good rows and reports the bad one', async (what, c) => {
    const up = await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, csvForm(`description,difficulty\nCsv good ${what} A,EASY\nCsv bad${c}row,EASY\nCsv good ${what} B,HARD\n`));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ inserted_count: 2, skipped_count: 0, errors: [{ row: 3, message: refused('Description', 'description') }] });
    const descriptions = (await owner.get(`/api/clan/${clanId}/tasks/`)).body.tasks.map((t: { description: string }) => t.description);
    expect(descriptions).toEqual(expect.arrayContaining([`Csv good ${what} A`, `Csv good ${what} B`]));
    expect(descriptions.some((d: string) => d.includes('Csv bad'))).toBe(false);
  });

  it('never answered a 5xx', () => {
    expect(suite.server.output()).not.toMatch(/unexpected error/);
  });
});

describe.each(backends())('migration 004_text_rule (%s)', (backend) => {
  it('recomputes the stored clan keys; a younger colliding clan keeps a distinct legacy key', async () => {
    const test = await createTestDatabase(backend);
    try {
      // Migrate fully, then play the database as it was before 004: old keys, 004 not run.
      await (await openDirectDb(test.env)).close();
      const now = new Date().toISOString();
      const old: [string, string][] = [['Iron Dragons', 'iron dragons'], ['Iron\u200B Dragons', 'iron\u200b dragons'], ['\uFF29\uFF52\uFF4F\uFF4E Legion', '\uff49\uff52\uff4f\uff4e legion'], ['Straße', 'straße']];
      for (const [name, key] of old) await directSql(test.env, 'INSERT INTO clans (name, name_key, created_at) VALUES (?, ?, ?)', [name, key, now]);
      await directSql(test.env, "DELETE FROM kysely_migration WHERE name = '004_text_rule'");
      const handle = await openDirectDb(test.env);
      await handle.close();
      const rows = await directSql(test.env, 'SELECT id, name, name_key FROM clans ORDER BY id');
      expect(rows.map((r) => r.name_key)).toEqual(['iron dragons', `iron dragons\u0001${rows[1].id}`, 'iron legion', 'strasse']);
    } finally {
      await test.drop();
    }
  });
});
