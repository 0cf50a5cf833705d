import type { DialectMigration } from './helpers';

/**
 * Kicked members (docs/server.md §8): one row per (clan, user) that a manager
 * removed; setup as Member of that clan is refused while the row exists, and a manager's Add
 * Member deletes it.
 */
export const clanRemovals: DialectMigration = {
  async up(db) {
    await db.schema.createTable('clan_removals')
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('removed_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('clan_removals_pk', ['clan_id', 'user_id'])
      .execute();
    await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();
  },
  async down(db) {
    await db.schema.dropIndex('sessions_expires_idx').execute();
    await db.schema.dropTable('clan_removals').execute();
  },
};
