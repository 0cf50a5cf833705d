import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { backends } from '../support/server';
import type { ApiClient } from '../support/api';
import { useServerSuite } from '../support/suite';
import { directSql } from '../support/fixtures';
import {
  CSV_MAX_LISTED_ERRORS,
  TASK_DUPLICATE,
  TASK_PAGE_BAD_LIMIT,
  TASK_PAGE_BAD_OFFSET,
  TASK_POOL_FULL,
  TASK_POOL_MAX,
  TASK_SEARCH_CONTROL,
  TASK_SEARCH_TOO_LONG,
  type Task,
} from '../../contract/task';
import { TIERS } from '../../contract/game/tiers';

/**
 * The task pool cap and the paged GET /api/tasks/ over real HTTP (docs/server.md
 * §8), on SQLite and on PostgreSQL when TEST_DATABASE_URL is set:
 * - at most 5,000 tasks per clan: POST answers 409 'The task pool is full (5,000 tasks).'; a CSV
 *   inserts up to the cap and reports every later new row with that text (duplicates skipped,
 *   not counted); concurrent creates and imports never pass it;
 * - pages `{tasks, total}`: limit default 100, clamped to 500, offset, the order (tier, then
 *   description, then id), q a case-insensitive literal substring of description or clan name;
 * - 400 naming the parameter for a bad limit, offset or q (NUL included, never a 500), 403 for a
 *   user who manages no clan, 401 signed out.
 * Most of a full pool is written straight into the database (fillers), the last rows through the API.
 */

const SEARCH_PATH = '/api/tasks/';

/** GET /api/tasks/ with these query parameters (encoded as a browser would). */
const page = (api: ApiClient, params: Record<string, string | number> = {}) =>
  api.get(`${SEARCH_PATH}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`);

/** A multipart body with one CSV file. */
function csvForm(lines: string[]): FormData {
  const fd = new FormData();
  fd.append('file', new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }), 'tasks.csv');
  return fd;
}

/** The API's page order: tier (EASY..MASTER), then description (code units; the texts here have none at U+E000 and above), then id. */
function byPoolOrder(a: Task, b: Task): number {
  return TIERS.indexOf(a.difficulty) - TIERS.indexOf(b.difficulty) || (a.description < b.description ? -1 : a.description > b.description ? 1 : 0) || a.id - b.id;
}

describe.each(backends())('task pool cap and pages (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let serial = 0;

  async function signIn(name: string): Promise<ApiClient> {
    return suite.client().devLogin(name);
  }

  /** A fresh clan named `name` (default a unique one) owned by a fresh user. */
  async function freshClan(name = `Pool Clan ${++serial}`): Promise<{ api: ApiClient; clanId: number; name: string }> {
    const api = await signIn(`pool-owner-${++serial}`);
    const r = await api.post('/api/clans', { clan_name: name });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { api, clanId: r.body.clan_id, name };
  }

  /** Writes `count` tasks '{prefix}{i}' (i = 1..count, tiers in turn) straight into the clan's pool. */
  async function fill(clanId: number, count: number, prefix = 'Filler '): Promise<void> {
    await directSql(
      suite.env,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO tasks (clan_id, description, difficulty, created_at)
       SELECT ?, CAST(? AS TEXT) || i, CASE i % 5 WHEN 0 THEN 'EASY' WHEN 1 THEN 'MEDIUM' WHEN 2 THEN 'HARD' WHEN 3 THEN 'ELITE' ELSE 'MASTER' END, ? FROM n`,
      [count, clanId, prefix, new Date().toISOString()],
    );
  }

  async function poolSize(clanId: number): Promise<number> {
    const rows = await directSql(suite.env, 'SELECT COUNT(*) AS n FROM tasks WHERE clan_id = ?', [clanId]);
    return Number(rows[0].n);
  }

  describe('5,000 tasks per clan', () => {
    it("answers POST with 409 'The task pool is full (5,000 tasks).' at 5,000 tasks, and takes one again after a delete", async () => {
      expect(TASK_POOL_MAX).toBe(5000);
      const clan = await freshClan();
      const path = `/api/clan/${clan.clanId}/tasks`;
      await fill(clan.clanId, TASK_POOL_MAX - 1);
      const last = await clan.api.post(path, { description: 'The 5,000th task', difficulty: 'HARD' });
      expect(last.status, JSON.stringify(last.body)).toBe(200);
      expect(await poolSize(clan.clanId)).toBe(TASK_POOL_MAX);
      expect(await clan.api.post(path, { description: 'One too many', difficulty: 'EASY' })).toMatchObject({ status: 409, body: { error: TASK_POOL_FULL } });
      // A pair already in the pool is refused as well (it would not have been added anyway).
      expect((await clan.api.post(path, { description: 'The 5,000th task', difficulty: 'HARD' })).status).toBe(409);
      expect(await poolSize(clan.clanId)).toBe(TASK_POOL_MAX);
      // Editing in a full pool is fine; the cap is on the number of tasks.
      expect((await clan.api.put(`${path}/${last.body.task.id}`, { description: 'The 5,000th task, edited', difficulty: 'HARD' })).status).toBe(200);
      expect((await clan.api.del(`${path}/${last.body.task.id}`)).status).toBe(200);
      expect((await clan.api.post(path, { description: 'Room again', difficulty: 'EASY' })).status).toBe(200);
      // Another clan has its own 5,000.
      const other = await freshClan();
      expect((await other.api.post(`/api/clan/${other.clanId}/tasks`, { description: 'One too many', difficulty: 'EASY' })).status).toBe(200);
    });

    it('imports a CSV up to the cap and reports every later new row with the text; duplicates are skipped and take no room', async () => {
      const clan = await freshClan();
      await fill(clan.clanId, TASK_POOL_MAX - 3);
      await clan.api.post(`/api/clan/${clan.clanId}/tasks`, { description: 'Already here', difficulty: 'EASY' }); // 4,998
      const r = await clan.api.call('POST', `/api/clan/${clan.clanId}/tasks/upload_csv`, csvForm([
        'description,difficulty', //     line 1
        'Filler 6,MEDIUM', //             2 in the pool (a filler): skipped
        'New one,EASY', //                3 inserted (4,999)
        'already here,EASY', //           4 another case: a new pair, inserted (5,000)
        'Already here,EASY', //           5 in the pool: skipped
        'New two,HARD', //                6 past the cap
        'Bad row,IMPOSSIBLE', //          7 bad difficulty
        'New one,EASY', //                8 repeated in the file: skipped
        'New three,MASTER', //            9 past the cap
        'New two,HARD', //               10 repeated in the file: skipped
      ]));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({
        inserted_count: 2,
        skipped_count: 4,
        error_count: 3,
        errors: [
          { row: 6, message: TASK_POOL_FULL },
          { row: 7, message: expect.stringContaining("Difficulty 'IMPOSSIBLE' is not one of") },
          { row: 9, message: TASK_POOL_FULL },
        ],
      });
      expect(await poolSize(clan.clanId)).toBe(TASK_POOL_MAX);
      const inserted = await directSql(suite.env, "SELECT description FROM tasks WHERE clan_id = ? AND description IN ('New one', 'already here', 'New two', 'New three') ORDER BY description", [clan.clanId]);
      expect(inserted.map((t) => t.description)).toEqual(['New one', 'already here']);
    });

    it('reports every row of a CSV into a full pool (the count complete, the list at most 100), inserting none', async () => {
      const clan = await freshClan();
      await fill(clan.clanId, TASK_POOL_MAX);
      const rows = Array.from({ length: 150 }, (_, i) => `Overflow ${i},EASY`);
      const r = await clan.api.call('POST', `/api/clan/${clan.clanId}/tasks/upload_csv`, csvForm(['description,difficulty', 'Filler 1,MEDIUM', ...rows]));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ inserted_count: 0, skipped_count: 1, error_count: 150 });
      expect(r.body.errors).toHaveLength(CSV_MAX_LISTED_ERRORS);
      expect(r.body.errors[0]).toEqual({ row: 3, message: TASK_POOL_FULL });
      expect(r.body.errors.every((e: { message: string }) => e.message === TASK_POOL_FULL)).toBe(true);
      expect(await poolSize(clan.clanId)).toBe(TASK_POOL_MAX);
    });

    it('keeps the cap under concurrent creates and imports', async () => {
      const clan = await freshClan();
      await fill(clan.clanId, TASK_POOL_MAX - 10);
      const posts = Array.from({ length: 12 }, (_, i) => clan.api.post(`/api/clan/${clan.clanId}/tasks`, { description: `Racing ${i}`, difficulty: 'ELITE' }));
      const csvs = [0, 1].map((k) =>
        clan.api.call('POST', `/api/clan/${clan.clanId}/tasks/upload_csv`, csvForm(['description,difficulty', ...Array.from({ length: 6 }, (_, i) => `Racing csv ${k}-${i},HARD`)])),
      );
      const [created, imported] = [await Promise.all(posts), await Promise.all(csvs)];
      for (const r of created) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
      for (const r of created.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: TASK_POOL_FULL });
      for (const r of imported) expect(r.status).toBe(200);
      const added = created.filter((r) => r.status === 200).length + imported.reduce((n, r) => n + r.body.inserted_count, 0);
      expect(added).toBe(10);
      expect(imported.reduce((n, r) => n + r.body.error_count, 0)).toBe(12 - (10 - created.filter((r) => r.status === 200).length));
      expect(await poolSize(clan.clanId)).toBe(TASK_POOL_MAX);
    });
  });

  describe('GET /api/tasks/ pages', () => {
    let manager: ApiClient;
    let alpha: { api: ApiClient; clanId: number; name: string };
    let beta: { api: ApiClient; clanId: number; name: string };
    let all: Task[];

    beforeAll(async () => {
      alpha = await freshClan('Alpha Wolves');
      beta = await freshClan('Beta_Pool%');
      manager = alpha.api;
      await fill(alpha.clanId, 620, 'Bulk job ');
      const special = [
        ['Dragon slayer 🐉', 'MASTER'],
        ['École de magie', 'HARD'],
        ['100% accuracy run', 'ELITE'],
        ['Snake_case quest', 'EASY'],
        ['Snakescase quest', 'EASY'],
        ['Back\\slash task', 'MEDIUM'],
        ['Plain task', 'MEDIUM'],
      ];
      for (const [description, difficulty] of special) {
        const r = await alpha.api.post(`/api/clan/${alpha.clanId}/tasks`, { description, difficulty });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      for (const [description, difficulty] of [['Beta task one', 'EASY'], ['Beta task two', 'HARD'], ['Plain task', 'MEDIUM']]) {
        expect((await beta.api.post(`/api/clan/${beta.clanId}/tasks`, { description, difficulty })).status).toBe(200);
      }
      // The expected list: every task in the database (this suite's other tests add theirs too), in the API's order.
      const rows = await directSql(suite.env, 'SELECT tasks.id, tasks.description, tasks.difficulty, tasks.clan_id, clans.name AS clan_name FROM tasks JOIN clans ON clans.id = tasks.clan_id');
      all = rows.map((t) => ({ id: Number(t.id), description: t.description, difficulty: t.difficulty, clan_id: Number(t.clan_id), clan_name: t.clan_name, auto_rule: null })).sort(byPoolOrder);
    }, 60_000);

    /** The tasks of `all` matching `q` the way the API should: case-insensitive, literal. */
    const matching = (q: string) => all.filter((t) => t.description.toLowerCase().includes(q.toLowerCase()) || t.clan_name.toLowerCase().includes(q.toLowerCase()));

    it('answers 100 tasks by default, with the total, in tier, description, id order', async () => {
      const r = await page(manager);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['tasks', 'total']);
      expect(r.body.total).toBe(all.length);
      expect(r.body.tasks).toEqual(all.slice(0, 100));
      expect(Object.keys(r.body.tasks[0]).sort()).toEqual(['auto_rule', 'clan_id', 'clan_name', 'description', 'difficulty', 'id']);
      // The trailing slash is optional.
      expect((await manager.get('/api/tasks?limit=3')).body.tasks).toEqual(all.slice(0, 3));
    });

    it('walks every task in order with limit and offset, pages of at most 500', async () => {
      const seen: Task[] = [];
      for (let offset = 0; offset < all.length; offset += 500) {
        const r = await page(manager, { limit: 500, offset });
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(all.length);
        seen.push(...r.body.tasks);
      }
      expect(seen).toEqual(all);
      expect((await page(manager, { limit: 7, offset: 95 })).body.tasks).toEqual(all.slice(95, 102));
    });

    it('clamps a larger limit to 500, answers only the total for limit 0, and an empty page past the end', async () => {
      expect(all.length).toBeGreaterThan(500);
      for (const limit of ['501', '1000', '99999999999999999999999']) {
        const r = await manager.get(`${SEARCH_PATH}?limit=${limit}`);
        expect(r.status, limit).toBe(200);
        expect(r.body.tasks, limit).toEqual(all.slice(0, 500));
      }
      expect((await page(manager, { limit: 500 })).body.tasks).toHaveLength(500);
      expect((await page(manager, { limit: 0 })).body).toEqual({ tasks: [], total: all.length });
      expect((await page(manager, { offset: all.length })).body).toEqual({ tasks: [], total: all.length });
      expect((await manager.get(`${SEARCH_PATH}?offset=99999999999999999999`)).body).toEqual({ tasks: [], total: all.length });
      expect((await manager.get(`${SEARCH_PATH}?limit=007&offset=0002`)).body.tasks).toEqual(all.slice(2, 9));
    });

    it('searches description and clan name case-insensitively in SQL, with the total of the matches', async () => {
      const cases: [string, number | null][] = [
        ['DRAGON SLAYER', 1],
        ['école', 1],
        ['ÉCOLE DE', 1],
        ['🐉', 1],
        ['alpha wolves', null], // every task of the clan, by its name
        ['bulk JOB 61', 11], // 61 and 610-619
        ['plain task', 2], // one in each clan
        ['no such thing', 0],
      ];
      for (const [q, expected] of cases) {
        const want = matching(q);
        if (expected !== null) expect(want.length, q).toBe(expected);
        const r = await page(manager, { q, limit: 500 });
        expect(r.status, q).toBe(200);
        expect(r.body.total, q).toBe(want.length);
        expect(r.body.tasks, q).toEqual(want.slice(0, 500));
      }
      const byName = await page(manager, { q: 'Alpha Wolves', limit: 10, offset: 600 });
      expect(byName.body.tasks).toEqual(matching('alpha wolves').slice(600, 610));
      const theirs = await page(manager, { q: 'beta_pool%' });
      expect(theirs.body.tasks.map((t: Task) => [t.description, t.clan_id, t.clan_name])).toEqual([
        ['Beta task one', beta.clanId, 'Beta_Pool%'],
        ['Plain task', beta.clanId, 'Beta_Pool%'],
        ['Beta task two', beta.clanId, 'Beta_Pool%'],
      ]);
    });

    it('takes % _ and \\ in q literally (no LIKE wildcards)', async () => {
      const cases: [string, string[]][] = [
        ['%', ['100% accuracy run', 'Beta task one', 'Plain task', 'Beta task two']],
        ['_', ['Snake_case quest', 'Beta task one', 'Plain task', 'Beta task two']],
        ['e_c', ['Snake_case quest']], // not 'Snakescase'
        ['0%', ['100% accuracy run']],
        ['k\\s', ['Back\\slash task']],
        ['\\', ['Back\\slash task']],
      ];
      for (const [q, descriptions] of cases) {
        expect(matching(q).map((t) => t.description).sort(), q).toEqual([...descriptions].sort());
        const r = await page(manager, { q });
        expect(r.status, q).toBe(200);
        expect(r.body.tasks, q).toEqual(matching(q));
        expect(r.body.total, q).toBe(descriptions.length);
      }
      // '+' and spaces arrive as typed.
      expect((await manager.get(`${SEARCH_PATH}?q=${encodeURIComponent('100% acc')}`)).body.total).toBe(1);
    });

    it('refuses a bad limit, offset or q with 400 naming it (NUL and other control characters too), never a 500', async () => {
      const bad: [string, string][] = [
        ['limit=-1', TASK_PAGE_BAD_LIMIT],
        ['limit=1.5', TASK_PAGE_BAD_LIMIT],
        ['limit=abc', TASK_PAGE_BAD_LIMIT],
        ['limit=1e3', TASK_PAGE_BAD_LIMIT],
        ['limit=', TASK_PAGE_BAD_LIMIT],
        ['limit=%2B5', TASK_PAGE_BAD_LIMIT],
        ['offset=-5', TASK_PAGE_BAD_OFFSET],
        ['offset=ten', TASK_PAGE_BAD_OFFSET],
        ['offset=0x10', TASK_PAGE_BAD_OFFSET],
        ['q=a%00b', TASK_SEARCH_CONTROL],
        ['q=%00', TASK_SEARCH_CONTROL],
        ['q=tab%09here', TASK_SEARCH_CONTROL],
        ['q=line%0Abreak', TASK_SEARCH_CONTROL],
        ['q=del%7F', TASK_SEARCH_CONTROL],
        ['q=c1%C2%85', TASK_SEARCH_CONTROL],
        [`q=${'x'.repeat(201)}`, TASK_SEARCH_TOO_LONG],
      ];
      for (const [query, message] of bad) {
        const r = await manager.get(`${SEARCH_PATH}?${query}`);
        expect(r.status, query).toBe(400);
        expect(r.body, query).toEqual({ error: message });
      }
      expect(TASK_SEARCH_CONTROL).toMatch(/^q /);
      expect(TASK_SEARCH_TOO_LONG).toBe('q must be at most 200 characters.');
      expect((await manager.get(`${SEARCH_PATH}?q=${'x'.repeat(200)}`)).body).toEqual({ tasks: [], total: 0 });
      // Bytes that are not UTF-8 reach the search as the text they are, not an error.
      expect((await manager.get(`${SEARCH_PATH}?q=%FF`)).status).toBe(200);
    });

    it('answers any query string with a page or a 400, never a 5xx, and finds what JavaScript finds (fuzz)', async () => {
      const text = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('job 6', 'ÉCOLE', '%', '_', '\\', "'", '', ' ', 'WOLVES', 'plain', 'beta_', '🐉', 'filler 49', 'k\\s') },
        { weight: 2, arbitrary: fc.string({ maxLength: 3 }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
      );
      const number = fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 2000 }).map(String) },
        { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -5, max: -1 }).map(String), fc.constantFrom('', '1.0', '1e2', ' 1', '0x1', '٣'), fc.string({ maxLength: 3 })) },
      );
      const queries = fc.sample(fc.record({ q: text, limit: number, offset: number }, { requiredKeys: [] }), { seed: 20260909, numRuns: 80 });
      let pages = 0;
      for (const query of queries) {
        const r = await page(manager, query as Record<string, string>);
        const where = JSON.stringify(query);
        expect(r.status, `${where} → ${JSON.stringify(r.body).slice(0, 200)}`).toBeLessThan(500);
        if (r.status !== 200) {
          expect(r.status, where).toBe(400);
          expect([TASK_PAGE_BAD_LIMIT, TASK_PAGE_BAD_OFFSET, TASK_SEARCH_CONTROL], where).toContain(r.body.error);
          continue;
        }
        const want = matching((query.q ?? '').normalize('NFC'));
        const limit = Math.min(Number(query.limit ?? 100), 500);
        const offset = Number(query.offset ?? 0);
        expect(r.body.total, where).toBe(want.length);
        expect(r.body.tasks, where).toEqual(want.slice(offset, offset + limit));
        if (r.body.tasks.length > 0) pages++;
      }
      expect(pages).toBeGreaterThan(10);
    });

    it('is for managers of at least one clan: 403 for a member or a user in no clan, 401 signed out', async () => {
      const memberOnly = await signIn(`pool-member-${++serial}`);
      const me = await memberOnly.get('/api/user/me');
      expect((await alpha.api.post(`/api/clan/${alpha.clanId}/members`, { user_id: me.body.id, role: 'Member' })).status).toBe(200);
      for (const api of [memberOnly, await signIn(`pool-nobody-${++serial}`)]) {
        const r = await page(api, { q: 'x' });
        expect(r.status).toBe(403);
        expect(r.body.error).toContain('Permission denied.');
        // Refused before the query is read.
        expect((await api.get(`${SEARCH_PATH}?limit=-1`)).status).toBe(403);
      }
      expect((await suite.client().get(SEARCH_PATH)).status).toBe(401);
      // An Admin of another clan counts as a manager.
      const admin = await signIn(`pool-admin-${++serial}`);
      const adminMe = await admin.get('/api/user/me');
      expect((await beta.api.post(`/api/clan/${beta.clanId}/members`, { user_id: adminMe.body.id, role: 'Admin' })).status).toBe(200);
      expect((await page(admin, { limit: 1 })).body.tasks).toEqual(all.slice(0, 1));
    });
  });
});
