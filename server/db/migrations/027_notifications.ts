import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * The in-page notifications (docs/server.md §20 "In the page"): the latest notifications of each
 * user, kept whether or not the user has a push subscription, so the dashboard can show them to
 * those without push. One row per user and notification, the texts the push carries; a newer row
 * with the same tag replaces the older (as a browser replaces a notification of the same tag).
 * Rows go with their user (ON DELETE CASCADE).
 */
export const notifications: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('notifications'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('tag', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('notifications').execute();
  },
};
