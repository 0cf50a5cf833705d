import { describe, it, expect } from 'vitest';
import { backends } from '../support/server';
import type { ApiClient } from '../support/api';
import { useServerSuite } from '../support/suite';
import { directSql } from '../support/fixtures';
import {
  CSV_MAX_LISTED_ERRORS,
  TASK_POOL_FULL,
  TASK_POOL_MAX,
} from '../../contract/task';

/**
 * The task pool cap over real HTTP (issue #9, server-contract section 7 Task pool), on SQLite and
 * on PostgreSQL when TEST_DATABASE_URL is set: at most 5,000 tasks per clan: POST answers 409
 * 'The task pool is full (5,000 tasks).'; a CSV inserts up to the cap and reports every later new
 * row with that text (duplicates skipped, not counted); concurrent creates and imports never pass it.
 * Most of a full pool is written straight into the database (fillers), the last rows through the API.
 */

/** A multipart body with one CSV file. */
function csvForm(lines: string[]): FormData {
  const fd = new FormData();
  fd.append('file', new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }), 'tasks.csv');
  return fd;
}

describe.each(backends())('task pool cap (%s)', (backend) => {
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
});
