import type { DialectMigration } from './helpers';

/**
 * dink_accounts.posts (docs/server.md §13 'Pinned accounts'): how many posts came under the IGN
 * with its pinned hash since the pin, shown to managers beside the pin. Pins made before this
 * column existed start at 1 (the post that pinned them; later ones were not counted). The same
 * DDL on both databases.
 */
export const dinkAccountPosts: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('dink_accounts').addColumn('posts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.updateTable('dink_accounts').set({ posts: 1 }).execute();
  },
  async down(db) {
    await db.schema.alterTable('dink_accounts').dropColumn('posts').execute();
  },
};
