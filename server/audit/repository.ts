import type { Selectable } from 'kysely';
import type { Database, Db } from '../db/schema';

/** A new History entry as the service stores it (docs/server.md §18 "History"): the table's row without its id. */
export type NewAuditRow = Omit<Selectable<Database['audit_entries']>, 'id'>;

/** A History entry as the page reads it, with the actor's username (null once the account is gone). */
export interface AuditRow extends NewAuditRow {
  id: number;
  username: string | null;
}

/** Stores one entry: a single INSERT, the only cost a manager action pays. */
export async function insertAuditEntry(db: Db, row: NewAuditRow): Promise<void> {
  await db.insertInto('audit_entries').values(row).execute();
}

/**
 * Up to `limit` entries of the clan, newest first (ties by id, higher first); with `before`,
 * only those after that entry in this order. Answers undefined when `before` is not an entry of
 * the clan (the caller's 400). Reads through the (clan_id, at, id) index.
 */
export async function listAuditEntries(db: Db, clanId: number, before: number | undefined, limit: number): Promise<AuditRow[] | undefined> {
  let cursor: { at: string; id: number } | undefined;
  if (before !== undefined) {
    cursor = await db.selectFrom('audit_entries').select(['at', 'id']).where('id', '=', before).where('clan_id', '=', clanId).executeTakeFirst();
    if (!cursor) return undefined;
  }
  let q = db.selectFrom('audit_entries')
    .leftJoin('users', 'users.id', 'audit_entries.actor_user_id')
    .select(['audit_entries.id', 'audit_entries.clan_id', 'audit_entries.at', 'audit_entries.actor_user_id', 'audit_entries.action', 'audit_entries.target', 'audit_entries.detail', 'users.username'])
    .where('audit_entries.clan_id', '=', clanId);
  if (cursor) {
    const { at, id } = cursor;
    q = q.where((eb) => eb.or([eb('audit_entries.at', '<', at), eb.and([eb('audit_entries.at', '=', at), eb('audit_entries.id', '<', id)])]));
  }
  return q.orderBy('audit_entries.at', 'desc').orderBy('audit_entries.id', 'desc').limit(limit).execute();
}

/** Deletes every entry older than `cutoff` (ISO), of every clan; answers how many. */
export async function deleteAuditBefore(db: Db, cutoff: string): Promise<number> {
  const r = await db.deleteFrom('audit_entries').where('at', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
