import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it, expect, beforeAll } from 'vitest';
import { backends } from '../support/server';
import type { ApiClient } from '../support/api';
import { useServerSuite } from '../support/suite';
import { actorClient, clanWithRoles, csvForm, okBody, permissionMatrix, READ, signInDev, WRITE, type Actor, type MatrixCall, type Person } from '../support/fixtures';
import {
  CSV_BAD_HEADER,
  CSV_BAD_NAME,
  CSV_EMPTY,
  CSV_NO_FILE,
  CSV_NO_ROWS,
  CSV_NOT_UTF8,
  CSV_TOO_LARGE,
  TASK_BAD_DIFFICULTY,
  TASK_DESCRIPTION_TOO_LONG,
  TASK_REQUIRED,
} from '../../contract/task';

/**
 * The clan task pool over real HTTP (docs/game-rules.md §11, §12, §13; docs/server.md
 * §3; docs/server.md §4): the permission matrix of every call × {signed out,
 * non-member, Guest, Member, Admin, Owner}, the validation rules, other clans' tasks, and the CSV
 * import: the sample examples/osrs-tasks.csv (144 rows) imported twice, a mixed file (BOM,
 * reordered columns, CRLF, blank line, bad rows reported by line), and files refused whole.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REAL_CSV = path.resolve(repoRoot, 'examples/osrs-tasks.csv');

const MIB = 1024 * 1024;

describe.each(backends())('task pool API (%s)', (backend) => {
  const suite = useServerSuite(backend);
  /** The clan's people by role (set up in beforeAll). */
  const roles = {} as Record<Person, ApiClient>;
  let clanId: number;
  let serial = 0;

  const client = () => suite.client();
  const tasksPath = (clan = clanId) => `/api/clan/${clan}/tasks/`;
  const upload = (api: ApiClient, form: FormData, clan = clanId) => api.call('POST', `/api/clan/${clan}/tasks/upload_csv`, form);

  const signIn = (name: string) => signInDev(client, name);

  /** A fresh clan owned by a fresh user. */
  async function freshClan(): Promise<{ api: ApiClient; clanId: number }> {
    const n = ++serial;
    const { api } = await signIn(`tk-owner-${n}`);
    const r = await api.post('/api/clans', { clan_name: `Task Clan ${n}` });
    expect(r.status).toBe(200);
    return { api, clanId: r.body.clan_id };
  }

  function as(actor: Actor): ApiClient {
    return actorClient(roles, actor);
  }

  async function freshTask(difficulty = 'EASY'): Promise<{ id: number; description: string }> {
    const description = `Task ${++serial}`;
    const r = await roles.owner.post(tasksPath(), { description, difficulty });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { id: r.body.task.id, description };
  }

  const pool = async (api = roles.owner, clan = clanId): Promise<any[]> => (await okBody(api.get(tasksPath(clan)))).tasks;

  beforeAll(async () => {
    clanId = (await clanWithRoles(suite.url, { prefix: 'tk', clanName: 'Task Clan', signIn, into: roles })).clanId;
  }, 60_000);

  const MATRIX: MatrixCall[] = [
    { call: 'GET clan tasks/', expect: READ, send: async (api) => ({ r: await api.get(tasksPath()) }) },
    // Other clans' tasks: only for a manager of at least one clan.
    { call: 'GET /tasks/', expect: [401, 403, 403, 403, 200, 200], send: async (api) => ({ r: await api.get('/api/tasks/') }), refusal: 'Permission denied.' },
    {
      call: 'POST tasks',
      expect: WRITE,
      send: async (api) => {
        const description = `Matrix ${++serial}`;
        const r = await api.post(`/api/clan/${clanId}/tasks`, { description, difficulty: 'HARD' });
        return { r, verify: async (ok) => expect((await pool()).some((t) => t.description === description)).toBe(ok) };
      },
    },
    {
      call: 'PUT tasks/{id}',
      expect: WRITE,
      send: async (api) => {
        const t = await freshTask();
        const r = await api.put(`/api/clan/${clanId}/tasks/${t.id}`, { description: `${t.description} v2`, difficulty: 'ELITE' });
        return { r, verify: async (ok) => expect((await pool()).find((x) => x.id === t.id)).toMatchObject(ok ? { description: `${t.description} v2`, difficulty: 'ELITE' } : { description: t.description, difficulty: 'EASY' }) };
      },
    },
    {
      call: 'DELETE tasks/{id}',
      expect: WRITE,
      send: async (api) => {
        const t = await freshTask();
        const r = await api.del(`/api/clan/${clanId}/tasks/${t.id}`);
        return { r, verify: async (ok) => expect((await pool()).some((x) => x.id === t.id)).toBe(!ok) };
      },
    },
    {
      call: 'DELETE tasks/ (all)',
      expect: WRITE,
      send: async (api) => {
        await freshTask();
        const before = (await pool()).length;
        const r = await api.del(tasksPath());
        return {
          r,
          verify: async (ok) => {
            expect((await pool()).length).toBe(ok ? 0 : before);
            if (ok) expect(r.body).toEqual({ ok: true, deleted_count: before, message: 'All clan tasks have been successfully deleted.' });
          },
        };
      },
    },
    {
      call: 'POST tasks/upload_csv',
      expect: WRITE,
      send: async (api) => {
        const description = `Csv matrix ${++serial}`;
        const r = await upload(api, csvForm(`description,difficulty\n${description},MASTER\n`));
        return { r, verify: async (ok) => expect((await pool()).some((t) => t.description === description)).toBe(ok) };
      },
    },
  ];

  permissionMatrix(MATRIX, as);

  describe('clans and ids', () => {
    it('answers 404 "Clan ID {id} not found." for a missing clan on every call', async () => {
      const m = 987654;
      for (const r of [
        await roles.member.get(tasksPath(m)),
        await roles.member.post(tasksPath(m), { description: 'x', difficulty: 'EASY' }),
        await roles.member.put(`/api/clan/${m}/tasks/1`, { description: 'x', difficulty: 'EASY' }),
        await roles.member.del(`/api/clan/${m}/tasks/1`),
        await roles.member.del(tasksPath(m)),
        await upload(roles.member, csvForm('description,difficulty\nx,EASY\n'), m),
      ]) {
        expect(r).toMatchObject({ status: 404, body: { error: `Clan ID ${m} not found.` } });
      }
    });

    it("answers 404 for another clan's task and changes nothing", async () => {
      const other = await freshClan();
      const theirs = await other.api.post(tasksPath(other.clanId), { description: 'Theirs', difficulty: 'EASY' });
      const id = theirs.body.task.id;
      expect(await roles.owner.put(`/api/clan/${clanId}/tasks/${id}`, { description: 'Mine now', difficulty: 'EASY' })).toMatchObject({ status: 404, body: { error: `Task ID ${id} not found.` } });
      expect((await roles.owner.del(`/api/clan/${clanId}/tasks/${id}`)).status).toBe(404);
      expect((await roles.owner.put(`/api/clan/${clanId}/tasks/987654`, { description: 'x', difficulty: 'EASY' })).status).toBe(404);
      expect((await pool(other.api, other.clanId)).map((t) => t.description)).toEqual(['Theirs']);
    });

    it('answers 400 for ids that are not positive integers or too large', async () => {
      for (const bad of ['abc', '0', '-1', '9999999999', 'upload_csv']) {
        expect((await roles.owner.put(`/api/clan/${clanId}/tasks/${bad}`, { description: 'x', difficulty: 'EASY' })).status, bad).toBe(400);
        expect((await roles.owner.del(`/api/clan/${clanId}/tasks/${bad}`)).status, bad).toBe(400);
      }
      for (const bad of ['abc', '0', '9999999999']) expect((await roles.owner.get(`/api/clan/${bad}/tasks/`)).status, bad).toBe(400);
    });

    it('accepts every path with and without a trailing slash', async () => {
      const clan = await freshClan();
      const base = `/api/clan/${clan.clanId}/tasks`;
      expect((await clan.api.get(base)).status).toBe(200);
      const made = await clan.api.post(`${base}/`, { description: 'Slashed', difficulty: 'EASY' });
      expect(made.status).toBe(200);
      expect((await clan.api.put(`${base}/${made.body.task.id}/`, { description: 'Slashed 2', difficulty: 'EASY' })).status).toBe(200);
      expect((await clan.api.call('POST', `${base}/upload_csv/`, csvForm('description,difficulty\nSlash csv,EASY\n'))).status).toBe(200);
      expect((await clan.api.del(`${base}/${made.body.task.id}/`)).status).toBe(200);
      expect((await clan.api.del(base)).body).toMatchObject({ ok: true, deleted_count: 1 });
      expect((await clan.api.get('/api/tasks')).status).toBe(200);
    });
  });

  describe('tasks', () => {
    it('creates, lists, updates and deletes tasks with every field, sorted by tier then description', async () => {
      const clan = await freshClan();
      const p = tasksPath(clan.clanId);
      const made = await clan.api.post(p, { description: '  Kill 10 goblins  ', difficulty: 'easy' });
      expect(made.status).toBe(200);
      expect(made.body.task).toEqual({ id: expect.any(Number), description: 'Kill 10 goblins', difficulty: 'EASY', clan_id: clan.clanId, clan_name: expect.stringMatching(/^Task Clan /), auto_rule: null });
      await clan.api.post(p, { description: 'Zulrah kc', difficulty: 'MASTER' });
      await clan.api.post(p, { description: 'Barrows run', difficulty: 'MEDIUM' });
      await clan.api.post(p, { description: 'Agility lap', difficulty: 'EASY' });
      await clan.api.post(p, { description: 'Kill 10 goblins', difficulty: 'HARD' });
      expect((await pool(clan.api, clan.clanId)).map((t) => `${t.difficulty}:${t.description}`)).toEqual([
        'EASY:Agility lap', 'EASY:Kill 10 goblins', 'MEDIUM:Barrows run', 'HARD:Kill 10 goblins', 'MASTER:Zulrah kc',
      ]);
      const upd = await clan.api.put(`/api/clan/${clan.clanId}/tasks/${made.body.task.id}`, { description: 'Kill 20 goblins', difficulty: 'Medium' });
      expect(upd.body.task).toMatchObject({ id: made.body.task.id, description: 'Kill 20 goblins', difficulty: 'MEDIUM' });
      // Saving a task unchanged is fine.
      expect((await clan.api.put(`/api/clan/${clan.clanId}/tasks/${made.body.task.id}`, { description: 'Kill 20 goblins', difficulty: 'MEDIUM' })).status).toBe(200);
      expect((await clan.api.del(`/api/clan/${clan.clanId}/tasks/${made.body.task.id}`)).body).toEqual({ ok: true });
      expect((await pool(clan.api, clan.clanId)).length).toBe(4);
    });

    const INVALID: [string, unknown, string][] = [
      ['no fields', {}, TASK_REQUIRED],
      ['no description', { difficulty: 'EASY' }, TASK_REQUIRED],
      ['blank description', { description: '   ', difficulty: 'EASY' }, TASK_REQUIRED],
      ['no difficulty', { description: 'Do it' }, TASK_REQUIRED],
      ['empty difficulty', { description: 'Do it', difficulty: '' }, TASK_REQUIRED],
      ['unknown difficulty', { description: 'Do it', difficulty: 'LEGENDARY' }, TASK_BAD_DIFFICULTY],
      ['difficulty a number', { description: 'Do it', difficulty: 3 }, TASK_REQUIRED],
      ['description of 501 characters', { description: 'd'.repeat(501), difficulty: 'EASY' }, TASK_DESCRIPTION_TOO_LONG],
    ];

    it.each(INVALID)('refuses %s with 400 on create and update, changing nothing', async (_l, body, message) => {
      const t = await freshTask();
      const before = await pool();
      expect(await roles.owner.post(`/api/clan/${clanId}/tasks`, body)).toMatchObject({ status: 400, body: { error: message } });
      expect(await roles.owner.put(`/api/clan/${clanId}/tasks/${t.id}`, body)).toMatchObject({ status: 400, body: { error: message } });
      expect(await pool()).toEqual(before);
    });

    it('accepts 500 characters and refuses a duplicate (description, difficulty) pair with 409', async () => {
      const clan = await freshClan();
      const p = tasksPath(clan.clanId);
      expect((await clan.api.post(p, { description: 'd'.repeat(500), difficulty: 'EASY' })).status).toBe(200);
      const a = await clan.api.post(p, { description: 'Fish', difficulty: 'EASY' });
      const dup = await clan.api.post(p, { description: ' Fish ', difficulty: 'easy' });
      expect(dup.status).toBe(409);
      expect(typeof dup.body.error).toBe('string');
      const b = await clan.api.post(p, { description: 'Fish', difficulty: 'HARD' });
      expect(b.status).toBe(200);
      expect((await clan.api.put(`/api/clan/${clan.clanId}/tasks/${b.body.task.id}`, { description: 'Fish', difficulty: 'EASY' })).status).toBe(409);
      // The same pair in another clan is fine.
      expect((await roles.owner.post(tasksPath(), { description: 'Fish', difficulty: 'EASY' })).status).toBe(200);
      expect((await pool(clan.api, clan.clanId)).map((t) => `${t.difficulty}:${t.description}`)).toEqual(['EASY:Fish', `EASY:${'d'.repeat(500)}`, 'HARD:Fish']);
      expect(a.status).toBe(200);
    });

    it("shows every clan's tasks on GET /tasks/ to a manager of any clan, with clan names, a page at a time", async () => {
      const c1 = await freshClan();
      const c2 = await freshClan();
      await c1.api.post(tasksPath(c1.clanId), { description: 'From one', difficulty: 'EASY' });
      await c2.api.post(tasksPath(c2.clanId), { description: 'From two', difficulty: 'HARD' });
      const all = await c1.api.get('/api/tasks/?q=from%20');
      expect(all.status).toBe(200);
      expect(all.body.total).toBe(2);
      const [mine, theirs] = all.body.tasks;
      expect(mine).toMatchObject({ description: 'From one', clan_id: c1.clanId, difficulty: 'EASY' });
      expect(theirs).toMatchObject({ description: 'From two', clan_id: c2.clanId, difficulty: 'HARD', clan_name: expect.stringMatching(/^Task Clan /) });
      expect(mine.clan_name).not.toBe(theirs.clan_name);
      // Paging and search in depth: tests/server/task-pool.api.test.ts.
      const first = await c1.api.get('/api/tasks/?limit=1');
      expect(first.body.tasks).toHaveLength(1);
      expect(first.body.total).toBeGreaterThan(2);
    });
  });

  describe('CSV upload', () => {
    it('imports the real osrs-tasks.csv: 144 inserted, then 0 inserted and 144 skipped', async () => {
      const clan = await freshClan();
      const bytes = fs.readFileSync(REAL_CSV);
      const first = await upload(clan.api, csvForm(bytes, 'osrs-tasks.csv'), clan.clanId);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ inserted_count: 144, skipped_count: 0, errors: [] });
      const tasks = await pool(clan.api, clan.clanId);
      expect(tasks.length).toBe(144);
      const texts = tasks.map((t) => `${t.difficulty}:${t.description}`);
      expect(texts).toContain('EASY:Mine 300 ore of any kind, then post the bank screenshot');
      expect(texts).toContain("MEDIUM:Kill 3 of the Wilderness bosses (Vet'ion, Venenatis, Callisto)");
      expect(texts).toContain('ELITE:Obtain a "Voidwaker" piece from any Wilderness boss');
      expect(texts).toContain('EASY:Complete an easy clue scroll');
      const counts = Object.fromEntries(['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'].map((d) => [d, tasks.filter((t) => t.difficulty === d).length]));
      expect(counts).toEqual({ EASY: 32, MEDIUM: 31, HARD: 30, ELITE: 27, MASTER: 24 });
      const second = await upload(clan.api, csvForm(bytes, 'osrs-tasks.csv'), clan.clanId);
      expect(second.body).toMatchObject({ inserted_count: 0, skipped_count: 144, errors: [] });
      expect((await pool(clan.api, clan.clanId)).length).toBe(144);
    });

    it('imports the good rows of a mixed file (BOM, reordered columns, CRLF, blank line) and reports the bad ones by line', async () => {
      const clan = await freshClan();
      await clan.api.post(tasksPath(clan.clanId), { description: 'Already here', difficulty: 'HARD' });
      const lines = [
        '\uFEFF Difficulty ,DESCRIPTION,notes', // line 1: header, columns reordered, an extra column
        'easy,Chop 100 willow logs,', // 2 good
        '', // 3 blank
        'LEGENDARY,Slay a dragon', // 4 bad difficulty
        'HARD,', // 5 missing description
        'medium,"Fish 50 trout, then cook them",x', // 6 good, comma inside quotes
        'ELITE,"Say ""hi"" to Hans"', // 7 good, doubled quotes
        'EASY,Chop 100 willow logs', // 8 repeated in the file: skipped
        'MASTER,"Two-line\r\ntask"', // 9-10 good, a line break inside quotes
        'hard,Already here', // 11 already in the pool: skipped
        `HARD,${'x'.repeat(501)}`, // 12 description too long
        'EASY', // 13 no description cell
        ',Missing difficulty', // 14 no difficulty
        'elite,Last good row', // 15 good, no final line break
      ];
      const r = await upload(clan.api, csvForm(lines.join('\r\n'), 'Mixed.CSV'), clan.clanId);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.inserted_count).toBe(5);
      expect(r.body.skipped_count).toBe(2);
      expect(r.body.errors.map((e: any) => e.row)).toEqual([4, 5, 12, 13, 14]);
      const byRow = Object.fromEntries(r.body.errors.map((e: any) => [e.row, e.message]));
      expect(byRow[4]).toContain("Difficulty 'LEGENDARY' is not one of");
      expect(byRow[5]).toBe('Description is required.');
      expect(byRow[12]).toBe(TASK_DESCRIPTION_TOO_LONG);
      expect(byRow[13]).toBe('Description is required.');
      expect(byRow[14]).toBe('Difficulty is required.');
      expect((await pool(clan.api, clan.clanId)).map((t) => `${t.difficulty}:${t.description}`)).toEqual([
        'EASY:Chop 100 willow logs',
        'MEDIUM:Fish 50 trout, then cook them',
        'HARD:Already here',
        'ELITE:Last good row',
        'ELITE:Say "hi" to Hans',
        'MASTER:Two-line\r\ntask',
      ]);
    });

    it('counts rows in the file line by line with LF line ends too', async () => {
      const clan = await freshClan();
      const r = await upload(clan.api, csvForm('description,difficulty\n\n\nGood,EASY\nBad,NOPE\n'), clan.clanId);
      expect(r.body).toMatchObject({ inserted_count: 1, skipped_count: 0, errors: [{ row: 5, message: expect.stringContaining('NOPE') }] });
    });

    const REFUSED: [string, () => FormData | string, number, string][] = [
      ['a name not ending in .csv', () => csvForm('description,difficulty\nA,EASY\n', 'tasks.txt'), 400, CSV_BAD_NAME],
      ['a name with .csv inside only', () => csvForm('description,difficulty\nA,EASY\n', 'tasks.csv.exe'), 400, CSV_BAD_NAME],
      ['an empty file', () => csvForm('', 'empty.csv'), 400, CSV_EMPTY],
      ['a file of blank lines', () => csvForm('\r\n\r\n  \r\n', 'blank.csv'), 400, CSV_EMPTY],
      ['no file field', () => csvForm('description,difficulty\nA,EASY\n', 'tasks.csv', 'upload'), 400, CSV_NO_FILE],
      ['a text field named file', () => { const fd = new FormData(); fd.append('file', 'description,difficulty'); return fd; }, 400, CSV_NO_FILE],
      ['a JSON body', () => JSON.stringify({ file: 'x' }), 400, CSV_NO_FILE],
      ['a header without description', () => csvForm('task,difficulty\nA,EASY\n'), 400, CSV_BAD_HEADER],
      ['a header without difficulty', () => csvForm('description,tier\nA,EASY\n'), 400, CSV_BAD_HEADER],
      ['a header and no rows', () => csvForm('description,difficulty\r\n'), 400, CSV_NO_ROWS],
      ['an unclosed quote', () => csvForm('description,difficulty\n"Unclosed,EASY\nB,HARD\n'), 400, 'malformed'],
      ['bytes that are not UTF-8', () => csvForm(new Uint8Array([0x64, 0x65, 0x73, 0xff, 0xfe, 0x0a])), 400, CSV_NOT_UTF8],
      ['a file of 1 MiB + 1 byte', () => csvForm(`description,difficulty\n${'a'.repeat(MIB - 23)},EASY\n`), 413, CSV_TOO_LARGE],
      ['a body of 3 MiB', () => csvForm('x'.repeat(3 * MIB)), 413, CSV_TOO_LARGE],
    ];

    it.each(REFUSED)('refuses %s with a clear 4xx and imports nothing', async (_l, make, status, message) => {
      const clan = await freshClan();
      const body = make();
      const r = typeof body === 'string'
        ? await clan.api.call('POST', `/api/clan/${clan.clanId}/tasks/upload_csv`, body)
        : await upload(clan.api, body, clan.clanId);
      expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(status);
      expect(r.body.error).toContain(message);
      expect(await pool(clan.api, clan.clanId)).toEqual([]);
    });

    it('accepts a file of exactly 1 MiB', async () => {
      const clan = await freshClan();
      const rows: string[] = ['description,difficulty'];
      let size = rows[0].length + 1;
      for (let i = 0; size < MIB - 600; i++) {
        const row = `Task number ${i} ${'z'.repeat(400)},HARD`;
        rows.push(row);
        size += row.length + 1;
      }
      let text = rows.join('\n') + '\n';
      text += `Pad,EASY${' '.repeat(MIB - Buffer.byteLength(text) - 'Pad,EASY'.length - 1)}\n`;
      expect(Buffer.byteLength(text)).toBe(MIB);
      const r = await upload(clan.api, csvForm(text), clan.clanId);
      expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(200);
      expect(r.body.inserted_count).toBe(rows.length);
      expect(r.body.errors).toEqual([]);
    });
  });
});
