import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiClient, type Answer } from './api';
import { SAMPLE_TASKS_CSV } from './e2e';
import { openDatabase, type DbHandle } from '../../server/db/connect';
import type { CsvUploadAnswer } from '../../contract/task';
import { directSql } from './sql';
export { directSql };

/** The 403 text of server/clans/access.ts for a caller who may not do that in the clan. */
export const PERMISSION_TEXT = 'Permission denied. You are not authorized to manage this clan.';
/** The callers of a permission matrix, weakest first. */
const ACTORS = ['signed out', 'non-member', 'Guest', 'Member', 'Admin', 'Owner'] as const;
export type Actor = (typeof ACTORS)[number];
/** Statuses in ACTORS order. */
export type Row = [number, number, number, number, number, number];
/** A read of clan data: members (Guest and up) only. */
export const READ: Row = [401, 403, 200, 200, 200, 200];
/** A change of clan data: managers (Admin and Owner) only. */
export const WRITE: Row = [401, 403, 403, 403, 200, 200];

/** The people of a role fixture, by who they are in the clan. */
export type Person = 'anon' | 'outsider' | 'guest' | 'member' | 'admin' | 'owner';
/** A signed-in person: their client, user id and optionally their profile. */
export interface SignedIn {
  api: ApiClient;
  id: number;
  me?: any;
}

/** One clan with one person of every role (docs/client.md §5) and an outsider. */
export interface ClanWithRoles {
  clanId: number;
  /** Clients by person; `anon` is signed out, `outsider` is signed in but in no clan. */
  people: Record<Person, ApiClient>;
  /** User ids of the signed-in people. */
  ids: Record<Exclude<Person, 'anon'>, number>;
  /** Profiles as the `signIn` option answered them (undefined with the default). */
  me: Record<Exclude<Person, 'anon'>, any>;
}

/** The client of `actor` among `people` (for the ACTORS rows of a permission matrix). */
export function actorClient(people: Record<Person, ApiClient>, actor: Actor): ApiClient {
  return { 'signed out': people.anon, 'non-member': people.outsider, Guest: people.guest, Member: people.member, Admin: people.admin, Owner: people.owner }[actor];
}

/** Signs in the dev user `name` with a fresh client of `client()`: its client and user id. */
export async function signInDev(client: () => ApiClient, name: string): Promise<SignedIn> {
  const api = await client().devLogin(name);
  const me = await api.get('/api/user/me');
  expect(me.status).toBe(200);
  return { api, id: me.body.id };
}

/** The body of a call that must answer 200. */
export async function okBody(call: Promise<Answer>): Promise<any> {
  const r = await call;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** The rows of a permission matrix: every call × every actor with the status expected of it. */
export function matrixRows<T extends { expect: Row }>(matrix: T[]): (T & { actor: Actor; status: number })[] {
  return matrix.flatMap((m) => ACTORS.map((actor, i) => ({ ...m, actor, status: m.expect[i] })));
}

/** One call of a permission matrix: the statuses in ACTORS order, and the call, with a check of what it changed. */
export interface MatrixCall {
  call: string;
  expect: Row;
  send: (api: ApiClient) => Promise<{ r: Answer; verify?: (ok: boolean) => Promise<void> }>;
  /** A part of the 403 text when the call refuses with its own text instead of PERMISSION_TEXT. */
  refusal?: string;
}

/**
 * The permission matrix of a resource (every call × every actor, `as` giving the actor's client):
 * each answers its status, 401 and 403 with their texts, and `verify` checks that a refused call
 * changed nothing (and an allowed one did).
 */
export function permissionMatrix(matrix: MatrixCall[], as: (actor: Actor) => ApiClient): void {
  describe('permission matrix', () => {
    it.each(matrixRows(matrix))('$call as $actor → $status', async ({ send, actor, status, refusal }) => {
      const { r, verify } = await send(as(actor));
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      if (status === 401) expect(r.body).toEqual({ error: 'You must be signed in.' });
      if (status === 403 && refusal) expect(r.body.error).toContain(refusal);
      else if (status === 403) expect(r.body).toEqual({ error: PERMISSION_TEXT });
      await verify?.(status === 200);
    });
  });
}

/**
 * Creates the role fixture on the server at `url`: signs in `${prefix}-owner`, who creates the clan
 * `clanName`, then `${prefix}-admin`, `-member` and `-guest`, whom the Owner adds with their roles,
 * then `${prefix}-outsider` (in that order). `signIn` signs one person in (default: dev sign-in
 * and GET /api/user/me); pass the suite's own to add IGNs or onboard. Every call must answer 200.
 * `into` receives the clients by person (a suite's `roles` record).
 */
export async function clanWithRoles(
  url: string,
  opts: { prefix: string; clanName: string; signIn?: (name: string) => Promise<SignedIn>; into?: Record<Person, ApiClient> },
): Promise<ClanWithRoles> {
  const signIn =
    opts.signIn ??
    (async (name: string): Promise<SignedIn> => {
      const api = await new ApiClient(url).devLogin(name);
      const me = await api.get('/api/user/me');
      expect(me.status).toBe(200);
      return { api, id: me.body.id };
    });
  const people = { anon: new ApiClient(url) } as Record<Person, ApiClient>;
  const ids = {} as ClanWithRoles['ids'];
  const me = {} as ClanWithRoles['me'];
  const join = (who: Exclude<Person, 'anon'>, s: SignedIn) => {
    people[who] = s.api;
    ids[who] = s.id;
    me[who] = s.me;
  };
  join('owner', await signIn(`${opts.prefix}-owner`));
  const created = await people.owner.post('/api/clans', { clan_name: opts.clanName });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const clanId = created.body.clan_id as number;
  for (const [who, role] of [['admin', 'Admin'], ['member', 'Member'], ['guest', 'Guest']] as const) {
    join(who, await signIn(`${opts.prefix}-${who}`));
    const r = await people.owner.post(`/api/clan/${clanId}/members`, { user_id: ids[who], role });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  join('outsider', await signIn(`${opts.prefix}-outsider`));
  if (opts.into) Object.assign(opts.into, people);
  return { clanId, people, ids, me };
}

/** Inserts a bare game row (25 squares, no board) for an event, as a game create would; returns its id. */
export async function insertGame(env: Record<string, string>, eventId: number, clanId: number, status = 'PENDING'): Promise<number> {
  const now = new Date().toISOString();
  await directSql(env, `INSERT INTO games (event_id, clan_id, status, board_size, num_snakes, num_ladders, max_reverts_allowed,
    num_easy_tasks, num_medium_tasks, num_hard_tasks, num_elite_tasks, num_master_tasks, board_connections, winners, version,
    created_at, updated_at) VALUES (?, ?, ?, 25, 0, 0, 3, 5, 5, 5, 4, 4, '[]', NULL, 0, ?, ?)`, [eventId, clanId, status, now, now]);
  return Number((await directSql(env, 'SELECT id FROM games WHERE event_id = ?', [eventId]))[0].id);
}

/** Opens the suite's database (its env from useServerSuite) in the test process; close it after. */
export function openDirectDb(env: Record<string, string>): Promise<DbHandle> {
  return openDatabase({ databaseUrl: env.DATABASE_URL ?? null, sqliteFile: env.SQLITE_FILE ?? '' });
}

/** A multipart body with one CSV file part named `name` in field `field` (upload_csv takes `file`, docs/server.md §4). */
export function csvForm(content: string | Uint8Array, name = 'tasks.csv', field = 'file'): FormData {
  const fd = new FormData();
  fd.append(field, new Blob([content as BlobPart], { type: 'text/csv' }), name);
  return fd;
}

/**
 * Uploads `content` as the CSV file `name` to the task pool of `clanId` as `api` (a manager)
 * through POST upload_csv (docs/server.md §4); expects 200 and answers the body as sent: counts
 * and bad rows.
 */
export function uploadTasksCsv(api: ApiClient, clanId: number, content: string | Uint8Array, name?: string): Promise<CsvUploadAnswer> {
  return okBody(api.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, csvForm(content, name)));
}

/**
 * Imports the sample examples/osrs-tasks.csv into the task pool of `clanId` as `api` (a
 * manager) through POST upload_csv; expects 200 and all 144 rows inserted. Answers the pool by task id.
 */
export async function importTasksCsv(api: ApiClient, clanId: number): Promise<Map<number, PoolTask>> {
  const up = await uploadTasksCsv(api, clanId, fs.readFileSync(SAMPLE_TASKS_CSV), 'osrs-tasks.csv');
  expect(up.inserted_count).toBe(144);
  const tasks: { id: number; description: string; difficulty: string }[] = (await okBody(api.get(`/api/clan/${clanId}/tasks/`))).tasks;
  return new Map(tasks.map((t) => [t.id, { description: t.description, difficulty: t.difficulty }]));
}

/** A task of the clan pool by id, as the game tests compare squares with it. */
export interface PoolTask {
  description: string;
  difficulty: string;
}
