import type { Kysely, Selectable } from 'kysely';
import type { Database, Db, DiscordWebhooksTable } from '../db/schema';
import { nowIso } from '../time';
import { compiledQuery } from '../db/compiled';
import type { Announce, WebhookState } from '../../contract/discord';
import type { Announcement, QueuedAnnouncement } from './embeds';

/** A discord_webhooks row. */
export type WebhookRow = Selectable<DiscordWebhooksTable>;

/**
 * What queuing an announcement needs of a game's webhook: its id, state and flags, and its event's
 * name; `ping_teams` where the caller read it (a roll's own read leaves it out: rolls ping no one).
 */
export type GameWebhook = Pick<WebhookRow, 'id' | 'state' | 'announce_status' | 'announce_rolls' | 'announce_reviews' | 'announce_results'> & { event_name: string; ping_teams?: number };

/** The announce flags of a row as booleans. */
export function announceOf(row: Pick<WebhookRow, 'announce_status' | 'announce_rolls' | 'announce_reviews' | 'announce_results'>): Announce {
  return { status: row.announce_status === 1, rolls: row.announce_rolls === 1, reviews: row.announce_reviews === 1, results: row.announce_results === 1 };
}

/** The webhook of an event, or undefined. */
export async function findWebhook(db: Db, eventId: number): Promise<WebhookRow | undefined> {
  return db.selectFrom('discord_webhooks').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

/**
 * Sets an event's webhook (insert or update): the URL, flags and ping_teams; the state starts over as
 * 'active' with no error, failures or pending wait (a new URL deserves a fresh try).
 */
export async function saveWebhook(db: Db, eventId: number, url: string, announce: Announce, pingTeams = false): Promise<void> {
  const now = nowIso();
  const values = {
    webhook_url: url,
    ping_teams: pingTeams ? 1 : 0,
    announce_status: announce.status ? 1 : 0,
    announce_rolls: announce.rolls ? 1 : 0,
    announce_reviews: announce.reviews ? 1 : 0,
    announce_results: announce.results ? 1 : 0,
    state: 'active',
    last_error: null,
    failures: 0,
    next_attempt_at: null,
    updated_at: now,
  };
  const updated = await db.updateTable('discord_webhooks').set(values).where('event_id', '=', eventId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await db.insertInto('discord_webhooks').values({ ...values, event_id: eventId, created_at: now }).execute();
  }
}

/** Deletes an event's webhook and its queue. */
export async function deleteWebhook(db: Db, eventId: number): Promise<void> {
  await db.deleteFrom('discord_webhooks').where('event_id', '=', eventId).execute();
}

/** Appends an announcement to a webhook's queue (inside the transaction of the change it reports). */
export async function insertAnnouncement(db: Db, webhookId: number, gameId: number | null, a: Announcement): Promise<void> {
  await INSERT_ANNOUNCEMENT.execute(db, { webhookId, gameId, kind: a.kind, payload: JSON.stringify(a), createdAt: nowIso() });
}

/**
 * insertAnnouncement's statement, compiled once (server/db/compiled.ts): a discord_outbox row of
 * webhook `webhookId` and game `gameId` (null for none), `kind`, the announcement as JSON
 * `payload`, `createdAt` (ISO).
 */
export const INSERT_ANNOUNCEMENT = compiledQuery((db, p: { webhookId: number; gameId: number | null; kind: string; payload: string; createdAt: string }) =>
  db.insertInto('discord_outbox').values({ webhook_id: p.webhookId, game_id: p.gameId, kind: p.kind, payload: p.payload, created_at: p.createdAt }));

/** The oldest `limit` announcements of a webhook's queue, oldest first. */
export async function queueHead(db: Db, webhookId: number, limit: number): Promise<QueuedAnnouncement[]> {
  const rows = await db.selectFrom('discord_outbox').select(['id', 'created_at', 'payload'])
    .where('webhook_id', '=', webhookId).orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, created_at: r.created_at, announcement: JSON.parse(r.payload) as Announcement }));
}

/** Deletes delivered (or given up) announcements. */
export async function deleteAnnouncements(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('discord_outbox').where('id', 'in', [...ids]).execute();
}

/** What the worker records about a webhook after a post (only while it holds the lease). */
export interface DeliveryUpdate {
  state?: WebhookState;
  last_error?: string | null;
  failures?: number;
  next_attempt_at?: string | null;
}

/** Records `update` and gives the lease back, when `owner` still holds it. */
export async function releaseWebhook(db: Db, webhookId: number, owner: string, update: DeliveryUpdate = {}): Promise<void> {
  await db.updateTable('discord_webhooks')
    .set({ ...update, lease_owner: null, lease_until: null })
    .where('id', '=', webhookId).where('lease_owner', '=', owner).execute();
}

/**
 * Gives back every lease `owner` still holds (a shutting-down process, docs/server.md §14), so
 * another process claims those webhooks on its next round instead of after the lease runs out.
 */
export async function releaseLeases(db: Db, owner: string): Promise<void> {
  await db.updateTable('discord_webhooks').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).execute();
}

/**
 * Claims up to `limit` webhooks that have queued announcements, are not disabled, are due
 * (next_attempt_at passed) and are not leased by a live lease: each gets `owner`'s lease until
 * `now + leaseMs`. On PostgreSQL the candidate rows are read `FOR UPDATE SKIP LOCKED`, so
 * processes claiming at once take different webhooks and never wait for each other.
 */
export async function claimWebhooks(db: Kysely<Database>, postgres: boolean, owner: string, leaseMs: number, limit: number): Promise<{ id: number; webhook_url: string }[]> {
  const now = new Date();
  const nowText = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('discord_webhooks').select(['id', 'webhook_url'])
      .where('state', '<>', 'disabled')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowText)]))
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', nowText)]))
      .where((eb) => eb.exists(eb.selectFrom('discord_outbox').select('discord_outbox.id').whereRef('discord_outbox.webhook_id', '=', 'discord_webhooks.id')))
      .orderBy('id')
      .limit(limit);
    if (postgres) q = q.forUpdate().skipLocked();
    const rows = await q.execute();
    const until = new Date(now.getTime() + leaseMs).toISOString();
    for (const r of rows) {
      await trx.updateTable('discord_webhooks').set({ lease_owner: owner, lease_until: until }).where('id', '=', r.id).execute();
    }
    return rows;
  });
}

/** The webhook of a game's event with the event's name, or undefined when none is set. */
export async function webhookOfGame(db: Db, gameId: number): Promise<(WebhookRow & { event_name: string }) | undefined> {
  return db.selectFrom('games')
    .innerJoin('discord_webhooks', 'discord_webhooks.event_id', 'games.event_id')
    .innerJoin('events', 'events.id', 'games.event_id')
    .selectAll('discord_webhooks')
    .select('events.name as event_name')
    .where('games.id', '=', gameId)
    .executeTakeFirst();
}
