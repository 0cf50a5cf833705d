import { sql } from 'kysely';
import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Who joins a clan (docs/server.md §18 "Joining"):
 * - clans.join_policy: 'open' (the default: every clan made before keeps onboarding as it was),
 *   'request' or 'invite';
 * - clans.listed: 1 (the default) when the clan is in GET /api/clans, 0 when it is not (an
 *   integer on both databases, as the other flags are);
 * - join_requests: one row per request, `status` 'pending', 'approved' or 'denied' (a withdrawn
 *   request is deleted), the manager's `reason` for a denial, `decided_at`/`decided_by` once
 *   decided. At most one pending request per clan and user: a partial unique index, so two asks at
 *   once cannot both be stored on either database. Rows go with their clan and user (ON DELETE CASCADE).
 */
export const joinRequests: DialectMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('clans').addColumn('join_policy', 'text', (c) => c.notNull().defaultTo('open')).execute();
    await db.schema.alterTable('clans').addColumn('listed', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await withId(db.schema.createTable('join_requests'), dialect)
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('join_requests_one_pending').on('join_requests').columns(['clan_id', 'user_id']).unique().where(sql.ref('status'), '=', 'pending').execute();
    await db.schema.createIndex('join_requests_clan_status').on('join_requests').columns(['clan_id', 'status', 'created_at', 'id']).execute();
    await db.schema.createIndex('join_requests_user').on('join_requests').columns(['user_id', 'created_at']).execute();
  },
  async down(db) {
    await db.schema.dropTable('join_requests').execute();
    await db.schema.alterTable('clans').dropColumn('listed').execute();
    await db.schema.alterTable('clans').dropColumn('join_policy').execute();
  },
};
