import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Web push (docs/server.md §20 "Notifications"): the browsers' push subscriptions of each user
 * (endpoint unique: a browser that subscribes again takes its row over), the four switches of a
 * user (a missing row means every switch on), the VAPID key pair made once when the settings give
 * none (one row, id 1, inserted if absent so two processes starting together keep the same),
 * the delivery queue every process sends from (a row is claimed by an UPDATE on claimed_at, so it
 * is sent once), and the coalescing state of 'Proof waiting' per manager and clan. Times are ISO
 * texts like every stored time; rows go with their user or subscription (ON DELETE CASCADE).
 */
export const push: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('push_subscriptions'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('endpoint', 'text', (c) => c.notNull().unique())
      .addColumn('p256dh', 'text', (c) => c.notNull())
      .addColumn('auth', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').columns(['user_id', 'created_at']).execute();
    await db.schema.createTable('push_settings')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('proof_decided', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('may_roll', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('proof_waiting', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('draft_turn', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createTable('push_vapid')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('push_queue'), dialect)
      .addColumn('subscription_id', 'integer', (c) => c.notNull().references('push_subscriptions.id').onDelete('cascade'))
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_at', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('push_queue_next').on('push_queue').column('next_at').execute();
    await db.schema.createTable('push_waiting')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('last_sent_at', 'text')
      .addColumn('due_at', 'text')
      .addPrimaryKeyConstraint('push_waiting_pk', ['user_id', 'clan_id'])
      .execute();
    await db.schema.createIndex('push_waiting_due').on('push_waiting').column('due_at').execute();
  },
  async down(db) {
    for (const t of ['push_waiting', 'push_queue', 'push_vapid', 'push_settings', 'push_subscriptions']) await db.schema.dropTable(t).execute();
  },
};
