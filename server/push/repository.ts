import type { Db } from '../db/schema';
import type { PushKind, PushSettings } from '../../contract/push';

/** The most subscriptions one user keeps; another replaces the oldest (docs/server.md §20). */
const SUBSCRIPTIONS_PER_USER = 10;

const nowIso = () => new Date().toISOString();

/** The stored VAPID pair (row id 1), or undefined before one is made. */
export async function findVapidPair(db: Db): Promise<{ public_key: string; private_key: string } | undefined> {
  return db.selectFrom('push_vapid').select(['public_key', 'private_key']).where('id', '=', 1).executeTakeFirst();
}

/**
 * Keeps `pair` as the VAPID pair unless one is there already (INSERT ... ON CONFLICT DO NOTHING),
 * then answers the stored one: two processes making a pair at once both end up with the first.
 */
export async function keepVapidPair(db: Db, pair: { public_key: string; private_key: string }): Promise<{ public_key: string; private_key: string }> {
  await db.insertInto('push_vapid').values({ id: 1, ...pair, created_at: nowIso() }).onConflict((oc) => oc.column('id').doNothing()).execute();
  return (await findVapidPair(db))!;
}

/**
 * Stores a subscription of `userId` (one already stored under the endpoint is replaced: the
 * browser subscribed again, maybe as another user), then removes the user's oldest beyond
 * SUBSCRIPTIONS_PER_USER. One transaction.
 */
export async function saveSubscription(db: Db, userId: number, sub: { endpoint: string; p256dh: string; auth: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('push_subscriptions').where('endpoint', '=', sub.endpoint).execute();
    await trx.insertInto('push_subscriptions').values({ user_id: userId, ...sub, created_at: nowIso() }).execute();
    const kept = await trx.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(SUBSCRIPTIONS_PER_USER).execute();
    await trx.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('id', 'not in', kept.map((r) => r.id)).execute();
  });
}

/** Removes the subscription of `endpoint` if it is `userId`'s; nothing otherwise. */
export async function deleteSubscription(db: Db, userId: number, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute();
}

/** Removes subscription `id` (its push service answered 404 or 410); its queued pushes go with it. */
export async function dropSubscription(db: Db, id: number): Promise<void> {
  await db.deleteFrom('push_queue').where('subscription_id', '=', id).execute();
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

/** The switches of `userId`; every one on without a stored row. */
export async function readSettings(db: Db, userId: number): Promise<PushSettings> {
  const row = await db.selectFrom('push_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return {
    proof_decided: row ? row.proof_decided === 1 : true,
    may_roll: row ? row.may_roll === 1 : true,
    proof_waiting: row ? row.proof_waiting === 1 : true,
    draft_turn: row ? row.draft_turn === 1 : true,
  };
}

/** Sets the switches given in `change` (the others keep their value) and answers them all. */
export async function writeSettings(db: Db, userId: number, change: Partial<PushSettings>): Promise<PushSettings> {
  const set: Partial<Record<PushKind, number>> = {};
  for (const [k, on] of Object.entries(change)) if (typeof on === 'boolean') set[k as PushKind] = on ? 1 : 0;
  if (Object.keys(set).length > 0) {
    await db.insertInto('push_settings').values({ user_id: userId, ...set })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(set)).execute();
  }
  return readSettings(db, userId);
}

/** Those of `userIds` whose switch `kind` is on (no row counts as on), each once. */
export async function withSwitchOn(db: Db, userIds: readonly number[], kind: PushKind): Promise<number[]> {
  if (userIds.length === 0) return [];
  const off = await db.selectFrom('push_settings').select('user_id').where('user_id', 'in', [...userIds]).where(kind, '=', 0).execute();
  const offIds = new Set(off.map((r) => r.user_id));
  return [...new Set(userIds)].filter((id) => !offIds.has(id));
}

/** Queues `payload` (JSON text) once for every subscription of `userIds`; answers how many rows. */
export async function enqueuePush(db: Db, userIds: readonly number[], payload: string): Promise<number> {
  if (userIds.length === 0) return 0;
  const subs = await db.selectFrom('push_subscriptions').select('id').where('user_id', 'in', [...userIds]).execute();
  if (subs.length === 0) return 0;
  const now = nowIso();
  await db.insertInto('push_queue').values(subs.map((s) => ({ subscription_id: s.id, payload, next_at: now, created_at: now }))).execute();
  return subs.length;
}

/** A queued push with its subscription (`id` the subscription's). */
export interface QueuedPush {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  queue_id: number;
  payload: string;
  attempts: number;
  claimed_at: string | null;
  created_at: string;
}

/**
 * Up to `limit` queued pushes due at `now` that no process holds (unclaimed, or claimed before
 * `staleBefore`: a process that died while sending).
 */
export async function duePushes(db: Db, now: string, staleBefore: string, limit: number): Promise<QueuedPush[]> {
  return db.selectFrom('push_queue')
    .innerJoin('push_subscriptions', 'push_subscriptions.id', 'push_queue.subscription_id')
    .select(['push_queue.id as queue_id', 'push_queue.payload', 'push_queue.attempts', 'push_queue.claimed_at', 'push_queue.created_at',
      'push_subscriptions.id', 'push_subscriptions.endpoint', 'push_subscriptions.p256dh', 'push_subscriptions.auth'])
    .where('push_queue.next_at', '<=', now)
    .where((eb) => eb.or([eb('push_queue.claimed_at', 'is', null), eb('push_queue.claimed_at', '<', staleBefore)]))
    .orderBy('push_queue.id').limit(limit).execute();
}

/**
 * Takes the queued pushes `ids` (read by duePushes with the same `staleBefore`) for this process in
 * one UPDATE, which sets claimed_at only on those still due at `now`, and unclaimed or claimed
 * before `staleBefore`: a push another process claimed since it was read (or sent, failed and put
 * back for later meanwhile) is left alone, so of several processes exactly one gets each push (on
 * either database). Answers the ids taken.
 */
export async function claimPushes(db: Db, ids: readonly number[], now: string, staleBefore: string): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.updateTable('push_queue').set({ claimed_at: now }).where('id', 'in', [...ids]).where('next_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', staleBefore)]))
    .returning('id').execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/** Removes queued push `id` (sent, or given up). */
export async function deletePush(db: Db, id: number): Promise<void> {
  await db.deleteFrom('push_queue').where('id', '=', id).execute();
}

/** Puts queued push `id` back to be tried again at `nextAt` (attempts counted). */
export async function retryPush(db: Db, id: number, attempts: number, nextAt: string): Promise<void> {
  await db.updateTable('push_queue').set({ claimed_at: null, attempts, next_at: nextAt }).where('id', '=', id).execute();
}

/**
 * Marks a 'Proof waiting' due for manager `userId` of clan `clanId`: now, or `gapMs` after the
 * last one sent; nothing when one is due already (it will count this proof too).
 */
export async function markWaiting(db: Db, userId: number, clanId: number, gapMs: number): Promise<void> {
  await db.insertInto('push_waiting').values({ user_id: userId, clan_id: clanId, last_sent_at: null, due_at: null })
    .onConflict((oc) => oc.columns(['user_id', 'clan_id']).doNothing()).execute();
  const row = await db.selectFrom('push_waiting').select(['last_sent_at', 'due_at']).where('user_id', '=', userId).where('clan_id', '=', clanId).executeTakeFirstOrThrow();
  if (row.due_at !== null) return;
  const last = row.last_sent_at === null ? 0 : Date.parse(row.last_sent_at) + gapMs;
  const due = new Date(Math.max(Date.now(), last)).toISOString();
  await db.updateTable('push_waiting').set({ due_at: due }).where('user_id', '=', userId).where('clan_id', '=', clanId).where('due_at', 'is', null).execute();
}

/** The 'Proof waiting' rows due at `now`. */
export async function dueWaiting(db: Db, now: string): Promise<{ user_id: number; clan_id: number; due_at: string | null }[]> {
  return db.selectFrom('push_waiting').select(['user_id', 'clan_id', 'due_at']).where('due_at', '<=', now).limit(50).execute();
}

/** Takes a due 'Proof waiting' (one UPDATE on the due_at read: one process wins) and records it sent at `now`. */
export async function claimWaiting(db: Db, row: { user_id: number; clan_id: number; due_at: string | null }, now: string): Promise<boolean> {
  if (row.due_at === null) return false;
  const r = await db.updateTable('push_waiting').set({ due_at: null, last_sent_at: now })
    .where('user_id', '=', row.user_id).where('clan_id', '=', row.clan_id).where('due_at', '=', row.due_at).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The clan's name and how many of its submissions wait for review. */
export async function waitingOfClan(db: Db, clanId: number): Promise<{ name: string; count: number } | undefined> {
  const clan = await db.selectFrom('clans').select('name').where('id', '=', clanId).executeTakeFirst();
  if (!clan) return undefined;
  const r = await db.selectFrom('submissions').select((eb) => eb.fn.countAll<string | number>().as('n')).where('clan_id', '=', clanId).where('status', '=', 'pending').executeTakeFirstOrThrow();
  return { name: clan.name, count: Number(r.n) };
}

/** The user ids of the clan's Owners and Admins. */
export async function clanManagerIds(db: Db, clanId: number): Promise<number[]> {
  const rows = await db.selectFrom('clan_memberships').select('user_id').where('clan_id', '=', clanId).where('role', 'in', ['Owner', 'Admin']).execute();
  return rows.map((r) => r.user_id);
}

/** The user ids of the team's members (all of them, or only those of `role`), by their IGNs. */
export async function teamUserIds(db: Db, teamId: number, role?: string): Promise<number[]> {
  let q = db.selectFrom('team_members').innerJoin('igns', 'igns.id', 'team_members.ign_id').select('igns.user_id').where('team_members.team_id', '=', teamId);
  if (role) q = q.where('team_members.role', '=', role);
  return [...new Set((await q.execute()).map((r) => r.user_id))];
}

/** How many in-page notifications a user keeps (docs/server.md §20 "In the page"). */
const NOTIFICATIONS_KEPT = 20;

/**
 * Records one in-page notification for each of `userIds` (docs/server.md §20 "In the page"),
 * whether or not they have a push subscription: a user's earlier row with the same tag goes (as a
 * browser replaces a notification of the same tag), and each keeps its NOTIFICATIONS_KEPT newest.
 */
export async function recordNotifications(db: Db, userIds: readonly number[], n: { title: string; body: string; url: string; tag: string }): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return;
  await db.deleteFrom('notifications').where('user_id', 'in', ids).where('tag', '=', n.tag).execute();
  const now = nowIso();
  await db.insertInto('notifications').values(ids.map((user_id) => ({ user_id, ...n, created_at: now }))).execute();
  // One statement for all of them: each row beyond its user's newest NOTIFICATIONS_KEPT goes.
  await db.deleteFrom('notifications').where('user_id', 'in', ids)
    .where('id', 'not in', (eb) => eb.selectFrom('notifications as kept').select('kept.id')
      .whereRef('kept.user_id', '=', 'notifications.user_id').orderBy('kept.id', 'desc').limit(NOTIFICATIONS_KEPT))
    .execute();
}

/** The user's in-page notifications, newest first (at most NOTIFICATIONS_KEPT). */
export async function recentNotifications(db: Db, userId: number): Promise<{ id: number; title: string; body: string; url: string; created_at: string }[]> {
  return db.selectFrom('notifications').select(['id', 'title', 'body', 'url', 'created_at'])
    .where('user_id', '=', userId).orderBy('id', 'desc').limit(NOTIFICATIONS_KEPT).execute();
}
