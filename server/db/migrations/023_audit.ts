import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * The clan History (docs/server.md §18 "History"): one row per manager action, `at` an ISO time
 * like every stored time, `actor_user_id` the manager (null once their account is gone, or for a
 * change no user made), `action` one of the contract's names (contract/audit.ts AUDIT_ACTIONS),
 * `target` and `detail` plain words (never a token, secret, webhook URL or invite code). Rows go
 * with their clan (ON DELETE CASCADE) and are pruned after 365 days (server/audit/service.ts). The
 * index serves both the page read (clan, newest first) and the prune. Same DDL on both databases.
 */
export const audit: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('audit_entries'), dialect)
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_entries_clan').on('audit_entries').columns(['clan_id', 'at', 'id']).execute();
    await db.schema.createIndex('audit_entries_at').on('audit_entries').column('at').execute();
  },
  async down(db) {
    await db.schema.dropTable('audit_entries').execute();
  },
};
