import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Discord announcements (docs/server.md §10):
 * - discord_webhooks: one per event (unique event_id): the URL (with its token; never answered
 *   whole), the four announce flags (0/1), the delivery state ('active', 'failing', 'disabled'),
 *   last_error, and the worker's bookkeeping: `next_attempt_at` (ISO; no post before it: a 429's
 *   retry_after, a backoff, or the 10 s window of coalesced rolls), `failures` (consecutive),
 *   and the lease of the process posting for it (`lease_owner`, `lease_until` ISO), so one
 *   process at a time posts for a webhook and a killed one's lease simply runs out;
 * - discord_outbox: one row per announcement, written in the transaction of the change it
 *   reports: the webhook, the game, its kind ('status', 'roll', 'review', 'result', 'test') and a
 *   JSON payload; rows are deleted only after Discord accepted them (at least once).
 * Both go with their event (ON DELETE CASCADE).
 */
export const discord: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('discord_webhooks'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().unique().references('events.id').onDelete('cascade'))
      .addColumn('webhook_url', 'text', (c) => c.notNull())
      .addColumn('announce_status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('announce_rolls', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('announce_reviews', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('announce_results', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('last_error', 'text')
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('discord_outbox'), dialect)
      .addColumn('webhook_id', 'integer', (c) => c.notNull().references('discord_webhooks.id').onDelete('cascade'))
      .addColumn('game_id', 'integer')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('discord_outbox_webhook_idx').on('discord_outbox').columns(['webhook_id', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('discord_outbox').execute();
    await db.schema.dropTable('discord_webhooks').execute();
  },
};
