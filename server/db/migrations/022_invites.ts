import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Invites to a clan (docs/server.md §18 "Invites"): one row per invite a manager made, found by
 * its `code` (random, base64url, unique); `uses` counts the accepts and never passes `max_uses`
 * (the accept raises it with one conditional UPDATE ... WHERE uses < max_uses); `expires_at` is an
 * ISO time like every stored time; `revoked_at` is set by a revoke (the row stays, so a revoked
 * code answers as unknown and is never made again). `created_by` is the manager (null once their
 * account is gone). Rows go with their clan (ON DELETE CASCADE). Same DDL on both databases.
 */
export const invites: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('invites'), dialect)
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('max_uses', 'integer', (c) => c.notNull())
      .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('invites_clan').on('invites').columns(['clan_id', 'created_at']).execute();
  },
  async down(db) {
    await db.schema.dropTable('invites').execute();
  },
};
