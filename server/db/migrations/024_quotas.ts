import type { DialectMigration } from './helpers';

/**
 * The clan upload quota (docs/server.md §18 "Quotas"): `image_bytes` on each row that keeps stored
 * proof images, the bytes of its image and thumbnail as written to the store (0 when the row
 * stores none, or reuses another row's). A clan's stored bytes are the sum over its submissions
 * (`submissions.clan_id`, indexed) and its games' counted Dink posts (`progress_entries`, whose
 * screenshots stay stored). Rows written before this migration count 0: their sizes were never
 * kept, and reading every object back from the store to learn them is not worth a start-up.
 * Same DDL on both databases.
 */
export const quotas: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('submissions').addColumn('image_bytes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('progress_entries').addColumn('image_bytes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db) {
    await db.schema.alterTable('progress_entries').dropColumn('image_bytes').execute();
    await db.schema.alterTable('submissions').dropColumn('image_bytes').execute();
  },
};
