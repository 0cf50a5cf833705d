import type { Db } from '../db/schema';

/** An invite row as the service reads it (docs/server.md §18 "Invites"). */
export interface InviteRow {
  id: number;
  clan_id: number;
  code: string;
  max_uses: number;
  uses: number;
  expires_at: string;
  created_at: string;
}

const COLUMNS = ['invites.id', 'invites.clan_id', 'invites.code', 'invites.max_uses', 'invites.uses', 'invites.expires_at', 'invites.created_at'] as const;

/** Stores a new invite of `clanId` made by `createdBy`; answers its row. */
export async function insertInvite(
  db: Db,
  invite: { clanId: number; code: string; maxUses: number; expiresAt: string; createdAt: string; createdBy: number },
): Promise<InviteRow> {
  const row = await db.insertInto('invites')
    .values({ clan_id: invite.clanId, code: invite.code, max_uses: invite.maxUses, expires_at: invite.expiresAt, created_at: invite.createdAt, created_by: invite.createdBy })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, clan_id: invite.clanId, code: invite.code, max_uses: invite.maxUses, uses: 0, expires_at: invite.expiresAt, created_at: invite.createdAt };
}

/**
 * The clan's invites that are neither revoked nor expired at `now`, newest first (ties by id);
 * the caller leaves out the used-up ones by the contract's rule (inviteState).
 */
export async function listUnexpiredInvites(db: Db, clanId: number, now: string): Promise<InviteRow[]> {
  return db.selectFrom('invites').select(COLUMNS)
    .where('clan_id', '=', clanId).where('revoked_at', 'is', null).where('expires_at', '>', now)
    .orderBy('created_at', 'desc').orderBy('id', 'desc')
    .execute();
}

/** The invite of `code` with its clan's name, unless it was revoked (or never made). */
export async function findInvite(db: Db, code: string): Promise<(InviteRow & { clan_name: string }) | undefined> {
  return db.selectFrom('invites')
    .innerJoin('clans', 'clans.id', 'invites.clan_id')
    .select([...COLUMNS, 'clans.name as clan_name'])
    .where('invites.code', '=', code).where('invites.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Revokes the clan's invite `code`; false when the clan has no such invite or it was revoked already. */
export async function revokeInvite(db: Db, clanId: number, code: string, now: string): Promise<boolean> {
  const r = await db.updateTable('invites').set({ revoked_at: now })
    .where('clan_id', '=', clanId).where('code', '=', code).where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Takes one use of invite `id`: one conditional UPDATE that raises `uses` only while it is below
 * `max_uses` and the invite is neither revoked nor expired at `now`, so however many accepts run
 * at once (on one process or several, on either database) the uses never pass max_uses: on
 * PostgreSQL the row lock makes a second UPDATE wait and test its WHERE again on the committed
 * row; SQLite has one writer. False when no use was left to take.
 */
export async function takeInviteUse(db: Db, id: number, now: string): Promise<boolean> {
  const r = await db.updateTable('invites').set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', id).where('revoked_at', 'is', null).where('expires_at', '>', now)
    .whereRef('uses', '<', 'max_uses')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The number of members of a clan (every role). */
export async function countMembers(db: Db, clanId: number): Promise<number> {
  const row = await db.selectFrom('clan_memberships').select((eb) => eb.fn.countAll<number>().as('n')).where('clan_id', '=', clanId).executeTakeFirst();
  return Number(row?.n ?? 0);
}
