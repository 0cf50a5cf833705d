import type { Selectable } from 'kysely';
import type { Db, Database } from '../db/schema';
import { nowIso } from '../time';
import { DINK_RECENT_MAX, DINK_OUTCOMES, shownPostText, type DinkOutcome, type DinkPost } from '../../contract/dink';

/** A stored Dink link row (migration 010_dink). */
export type DinkLinkRow = Selectable<Database['dink_links']>;

/** The event's Dink link, or null. */
export async function findLinkOfEvent(db: Db, eventId: number): Promise<DinkLinkRow | null> {
  return (await db.selectFrom('dink_links').selectAll().where('event_id', '=', eventId).executeTakeFirst()) ?? null;
}

/** The live link of `token`, or null (a rotated or revoked token is gone from the table). */
export async function findLinkByToken(db: Db, token: string): Promise<DinkLinkRow | null> {
  return (await db.selectFrom('dink_links').selectAll().where('token', '=', token).executeTakeFirst()) ?? null;
}

/**
 * Makes the event's link or gives it a new token (the old one stops working at once: it is
 * overwritten in the same row); `auto_approve` is kept on a rotation, off on a new link.
 */
export async function saveLinkToken(db: Db, eventId: number, token: string): Promise<DinkLinkRow> {
  const now = nowIso();
  await db.insertInto('dink_links')
    .values({ event_id: eventId, token, auto_approve: 0, created_at: now })
    .onConflict((oc) => oc.column('event_id').doUpdateSet({ token, created_at: now }))
    .execute();
  return (await findLinkOfEvent(db, eventId))!;
}

/** Sets the auto-approve switch; false when the event has no link. */
export async function setAutoApprove(db: Db, eventId: number, on: boolean): Promise<boolean> {
  const r = await db.updateTable('dink_links').set({ auto_approve: on ? 1 : 0 }).where('event_id', '=', eventId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Revokes the event's link (its URL answers 404 from now on). */
export async function deleteLink(db: Db, eventId: number): Promise<void> {
  await db.deleteFrom('dink_links').where('event_id', '=', eventId).execute();
}

/**
 * Takes a post's digest for the event: true when it is new or its last taking is older than
 * `windowMs` (the stored time moves to now), false for a duplicate. One statement (an upsert whose
 * update only applies to an expired row), so two processes taking the same post at once agree.
 */
export async function takeDigest(db: Db, eventId: number, digest: string, windowMs: number, now = Date.now()): Promise<boolean> {
  const at = new Date(now).toISOString();
  const cutoff = new Date(now - windowMs).toISOString();
  const row = await db.insertInto('dink_digests')
    .values({ event_id: eventId, digest, at })
    .onConflict((oc) => oc.columns(['event_id', 'digest']).doUpdateSet({ at }).where('dink_digests.at', '<', cutoff))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The account hash pinned for an IGN key in the event: the first one seen is stored (a
 * concurrent first post of another hash loses to whichever insert came first) and returned.
 */
export async function pinAccountHash(db: Db, eventId: number, ignKey: string, hash: string): Promise<string> {
  await db.insertInto('dink_accounts')
    .values({ event_id: eventId, ign_key: ignKey, account_hash: hash, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['event_id', 'ign_key']).doNothing())
    .execute();
  const row = await db.selectFrom('dink_accounts').select('account_hash').where('event_id', '=', eventId).where('ign_key', '=', ignKey).executeTakeFirstOrThrow();
  return row.account_hash;
}

/** The account hash pinned for an IGN key in the event, or null. */
export async function pinnedAccountHash(db: Db, eventId: number, ignKey: string): Promise<string | null> {
  const row = await db.selectFrom('dink_accounts').select('account_hash').where('event_id', '=', eventId).where('ign_key', '=', ignKey).executeTakeFirst();
  return row?.account_hash ?? null;
}

/**
 * Counts one post under the IGN key with `hash` when that is the hash pinned for it (a post from
 * another account, or one made before a pin or after it was cleared, changes nothing).
 */
export async function countAccountPost(db: Db, eventId: number, ignKey: string, hash: string): Promise<void> {
  await db.updateTable('dink_accounts')
    .set((eb) => ({ posts: eb('posts', '+', 1) }))
    .where('event_id', '=', eventId).where('ign_key', '=', ignKey).where('account_hash', '=', hash)
    .execute();
}

/** A pinned account as stored: the IGN key, the full hash, when it was pinned and its post count. */
export interface PinnedAccountRow {
  ign_key: string;
  account_hash: string;
  created_at: string;
  posts: number;
}

/** Every account hash pinned in the event. */
export async function pinnedAccounts(db: Db, eventId: number): Promise<PinnedAccountRow[]> {
  return db.selectFrom('dink_accounts').select(['ign_key', 'account_hash', 'created_at', 'posts']).where('event_id', '=', eventId).execute();
}

/** Removes the pin of an IGN key in the event (the next post with a hash pins it again). */
export async function clearPinnedAccount(db: Db, eventId: number, ignKey: string): Promise<void> {
  await db.deleteFrom('dink_accounts').where('event_id', '=', eventId).where('ign_key', '=', ignKey).execute();
}

/** The IGNs on the event's teams (id and name), in the order they were added. */
export async function eventTeamIgns(db: Db, eventId: number): Promise<{ ign_id: number; ign: string }[]> {
  return db.selectFrom('team_members').innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .select(['igns.id as ign_id', 'igns.ign'])
    .where('team_members.event_id', '=', eventId)
    .orderBy('team_members.id')
    .execute();
}

/** Records a judged post and keeps only the event's last DINK_RECENT_MAX. Returns it as listed. */
export async function recordPost(db: Db, eventId: number, post: DinkPost): Promise<DinkPost> {
  const row = await db.insertInto('dink_posts').values({ event_id: eventId, ...post }).returning('id').executeTakeFirstOrThrow();
  if (row.id % 20 === 0) {
    // Trimmed now and then (every 20th id), not on every post: the list reads only the newest 200.
    const keep = await db.selectFrom('dink_posts').select('id').where('event_id', '=', eventId).orderBy('id', 'desc').offset(DINK_RECENT_MAX - 1).limit(1).executeTakeFirst();
    if (keep) await db.deleteFrom('dink_posts').where('event_id', '=', eventId).where('id', '<', keep.id).execute();
  }
  return post;
}

/** The event's last DINK_RECENT_MAX posts, newest first. */
export async function recentPosts(db: Db, eventId: number): Promise<DinkPost[]> {
  const rows = await db.selectFrom('dink_posts').select(['at', 'player_name', 'type', 'summary', 'outcome'])
    .where('event_id', '=', eventId).orderBy('id', 'desc').limit(DINK_RECENT_MAX).execute();
  // Cleaned again on the way out: rows stored before bidi controls were removed keep them.
  return rows.map((r) => ({
    ...r,
    player_name: shownPostText(r.player_name, 64),
    type: shownPostText(r.type, 40),
    summary: shownPostText(r.summary, 300),
    outcome: (DINK_OUTCOMES as readonly string[]).includes(r.outcome) ? (r.outcome as DinkOutcome) : 'no_match',
  }));
}
