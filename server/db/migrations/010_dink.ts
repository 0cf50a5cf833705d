import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Dink: proof straight from the game (docs/server.md §13):
 * - tasks.auto_rule: JSON text of the task's rule `{type, names, min}` or null;
 * - submissions.source ('upload' or 'dink'), evidence_type and evidence_summary (what the Dink
 *   post said; null for uploads) and auto (1 when approved automatically, else 0);
 * - dink_links: the event's link (one per event): its token (plain, so GET can answer the URL to
 *   managers; never logged), the auto-approve switch, when it was made;
 * - dink_accounts: the first dinkAccountHash seen per IGN (its ignKey) in the event;
 * - dink_posts: the received posts with their outcome (the recent list keeps the last 200);
 * - dink_digests: SHA-256 of each taken post (JSON and image bytes) with its time, unique per
 *   event, so the same post within 10 minutes is taken once across processes.
 * All go with their event (ON DELETE CASCADE).
 */
export const dink: DialectMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('tasks').addColumn('auto_rule', 'text').execute();
    await db.schema.alterTable('submissions').addColumn('source', 'text', (c) => c.notNull().defaultTo('upload')).execute();
    await db.schema.alterTable('submissions').addColumn('evidence_type', 'text').execute();
    await db.schema.alterTable('submissions').addColumn('evidence_summary', 'text').execute();
    await db.schema.alterTable('submissions').addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await withId(db.schema.createTable('dink_links'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().unique().references('events.id').onDelete('cascade'))
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('auto_approve', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('dink_accounts'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('ign_key', 'text', (c) => c.notNull())
      .addColumn('account_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('dink_accounts_event_ign_key', ['event_id', 'ign_key'])
      .execute();
    await withId(db.schema.createTable('dink_posts'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('player_name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('dink_posts_event_idx').on('dink_posts').columns(['event_id', 'id']).execute();
    await withId(db.schema.createTable('dink_digests'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('digest', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addUniqueConstraint('dink_digests_event_digest', ['event_id', 'digest'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('dink_digests').execute();
    await db.schema.dropTable('dink_posts').execute();
    await db.schema.dropTable('dink_accounts').execute();
    await db.schema.dropTable('dink_links').execute();
    for (const column of ['auto', 'evidence_summary', 'evidence_type', 'source']) await db.schema.alterTable('submissions').dropColumn(column).execute();
    await db.schema.alterTable('tasks').dropColumn('auto_rule').execute();
  },
};
