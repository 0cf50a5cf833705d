import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { idParam } from '../http/context';
import type { Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { badRequest } from '../errors';

/** Largest id both databases store in an `integer` column (PostgreSQL int4). */
const MAX_DB_ID = 2_147_483_647;

/**
 * The path with and without a trailing slash: the client calls `/events/` and `/events/{id}`
 * (product-spec section 7), and both forms are accepted for every route of events, teams and tasks.
 * Use: `for (const p of bothSlashes('/clan/:clanId/events')) app.get(p, handler)`.
 */
export function bothSlashes(path: string): [string, string] {
  return [path, `${path}/`];
}

/**
 * A positive integer path id that fits the database's integer column; 400 'Invalid {label}.'
 * otherwise (so '12abc', '0' and 9999999999 never reach SQL, where PostgreSQL would fail).
 */
export function pathId(c: Context<AppEnv>, name: string, label = name): number {
  const id = idParam(c, name, label);
  if (id > MAX_DB_ID) throw badRequest(`Invalid ${label}.`);
  return id;
}

/**
 * True when `err` is a unique-constraint violation of SQLite (SQLITE_CONSTRAINT_UNIQUE) or
 * PostgreSQL (23505), so a lost race answers 409 instead of 500.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Serializes changes to one event's teams inside a transaction: `SELECT … FOR UPDATE` on the
 * event row in PostgreSQL. SQLite needs nothing: Kysely runs its transactions one at a time on
 * the one connection. Use before checking a team name or an IGN for uniqueness in the event.
 */
export async function lockEvent(trx: Db, dialect: Dialect, eventId: number): Promise<void> {
  if (dialect === 'postgres') {
    await trx.selectFrom('events').select('id').where('id', '=', eventId).forUpdate().execute();
  }
}

/** Case-insensitive, locale-independent name order, the same on SQLite and PostgreSQL. */
export function byName(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
