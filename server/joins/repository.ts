import type { Db } from '../db/schema';
import { nowIso } from '../time';
import { uniqueOrConflict } from '../db/uniqueKey';
import {
  ALREADY_ASKED,
  DECIDED_SHOWN_DAYS,
  type ClanJoinRequest,
  type ClanSettings,
  type ClanSettingsBody,
  type JoinPolicy,
  type JoinRequestDecided,
  type OwnJoinRequest,
} from '../../contract/joins';

/** The clan's settings (docs/server.md §18), or undefined for an unknown clan. */
export async function loadClanSettings(db: Db, clanId: number): Promise<ClanSettings | undefined> {
  const row = await db.selectFrom('clans').select(['id', 'name', 'join_policy', 'listed']).where('id', '=', clanId).executeTakeFirst();
  return row ? { id: row.id, name: row.name, join_policy: row.join_policy as JoinPolicy, listed: row.listed === 1 } : undefined;
}

/** Stores the fields of `body` that are given; the others stay. */
export async function saveClanSettings(db: Db, clanId: number, body: ClanSettingsBody): Promise<void> {
  const change = {
    ...(body.join_policy !== undefined ? { join_policy: body.join_policy } : {}),
    ...(body.listed !== undefined ? { listed: body.listed ? 1 : 0 } : {}),
  };
  if (Object.keys(change).length > 0) await db.updateTable('clans').set(change).where('id', '=', clanId).execute();
}

/** The clans in GET /api/clans ({id, name}): the listed ones, by name. */
export async function listListedClans(db: Db): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('clans').select(['id', 'name']).where('listed', '=', 1).orderBy('name').execute();
}

/**
 * Stores a pending request of `userId` to `clanId`; 409 ALREADY_ASKED when one is pending (also
 * when a request made at the same moment took the one-pending index first). Answers the request.
 */
export async function insertJoinRequest(db: Db, clan: { id: number; name: string }, userId: number): Promise<OwnJoinRequest & { status: 'pending' }> {
  const now = nowIso();
  const row = await uniqueOrConflict(ALREADY_ASKED, () =>
    db.insertInto('join_requests').values({ clan_id: clan.id, user_id: userId, status: 'pending', reason: null, created_at: now }).returning('id').executeTakeFirstOrThrow());
  return { id: row.id, clan_id: clan.id, clan_name: clan.name, status: 'pending', reason: null, created_at: now };
}

/** True when `userId` has a pending request to `clanId`. */
export async function hasPendingRequest(db: Db, clanId: number, userId: number): Promise<boolean> {
  const row = await db.selectFrom('join_requests').select('id').where('clan_id', '=', clanId).where('user_id', '=', userId).where('status', '=', 'pending').executeTakeFirst();
  return row !== undefined;
}

/** One request of the clan (any status), or undefined. */
export async function findClanRequest(db: Db, clanId: number, requestId: number): Promise<{ id: number; user_id: number; status: string } | undefined> {
  return db.selectFrom('join_requests').select(['id', 'user_id', 'status']).where('id', '=', requestId).where('clan_id', '=', clanId).executeTakeFirst();
}

/**
 * Decides a pending request: false when it is no longer pending (decided or withdrawn
 * meanwhile), so the caller answers 409 rather than deciding twice.
 */
export async function decideRequest(db: Db, requestId: number, status: 'approved' | 'denied', by: number, reason: string | null): Promise<boolean> {
  const r = await db.updateTable('join_requests').set({ status, reason, decided_at: nowIso(), decided_by: by })
    .where('id', '=', requestId).where('status', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The clan's pending requests with each asker's IGNs, oldest first (ties by id). */
export async function listPendingRequests(db: Db, clanId: number): Promise<ClanJoinRequest[]> {
  const rows = await db.selectFrom('join_requests')
    .innerJoin('users', 'users.id', 'join_requests.user_id')
    .select(['join_requests.id', 'join_requests.user_id', 'users.username', 'join_requests.created_at'])
    .where('join_requests.clan_id', '=', clanId).where('join_requests.status', '=', 'pending')
    .orderBy('join_requests.created_at').orderBy('join_requests.id')
    .execute();
  if (rows.length === 0) return [];
  const igns = await db.selectFrom('igns').select(['user_id', 'ign']).where('user_id', 'in', rows.map((r) => r.user_id)).orderBy('id').execute();
  return rows.map((r) => ({ ...r, igns: igns.filter((i) => i.user_id === r.user_id).map((i) => i.ign) }));
}

/** The number of the clan's pending requests. */
export async function countPendingRequests(db: Db, clanId: number): Promise<number> {
  const row = await db.selectFrom('join_requests').select((eb) => eb.fn.countAll<number>().as('n')).where('clan_id', '=', clanId).where('status', '=', 'pending').executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The user's requests: pending ones and those decided in the last DECIDED_SHOWN_DAYS days, newest first. */
export async function listOwnRequests(db: Db, userId: number): Promise<OwnJoinRequest[]> {
  const since = new Date(Date.now() - DECIDED_SHOWN_DAYS * 86_400_000).toISOString();
  const rows = await db.selectFrom('join_requests')
    .innerJoin('clans', 'clans.id', 'join_requests.clan_id')
    .select(['join_requests.id', 'join_requests.clan_id', 'clans.name as clan_name', 'join_requests.status', 'join_requests.reason', 'join_requests.created_at'])
    .where('join_requests.user_id', '=', userId)
    .where((eb) => eb.or([eb('join_requests.status', '=', 'pending'), eb('join_requests.decided_at', '>=', since)]))
    .orderBy('join_requests.created_at', 'desc').orderBy('join_requests.id', 'desc')
    .execute();
  return rows;
}

/** The user's own request by id: its clan and status, or undefined when it is not theirs. */
export async function findOwnRequest(db: Db, userId: number, requestId: number): Promise<{ clan_id: number; status: string } | undefined> {
  return db.selectFrom('join_requests').select(['clan_id', 'status']).where('id', '=', requestId).where('user_id', '=', userId).executeTakeFirst();
}

/** Deletes a pending request (a withdrawal); false when it was no longer pending. */
export async function deletePendingRequest(db: Db, requestId: number): Promise<boolean> {
  const r = await db.deleteFrom('join_requests').where('id', '=', requestId).where('status', '=', 'pending').executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/**
 * A decided request as its asker's live notice (`join_request_decided`, docs/server.md §18) with
 * the asker's id; undefined when the request is gone or still pending.
 */
export async function loadDecidedRequest(db: Db, requestId: number): Promise<{ user_id: number; notice: JoinRequestDecided } | undefined> {
  const row = await db.selectFrom('join_requests')
    .innerJoin('clans', 'clans.id', 'join_requests.clan_id')
    .select(['join_requests.id', 'join_requests.user_id', 'join_requests.clan_id', 'clans.name as clan_name', 'join_requests.status', 'join_requests.reason'])
    .where('join_requests.id', '=', requestId)
    .executeTakeFirst();
  if (!row || (row.status !== 'approved' && row.status !== 'denied')) return undefined;
  return { user_id: row.user_id, notice: { id: row.id, clan_id: row.clan_id, clan_name: row.clan_name, status: row.status, reason: row.reason } };
}
