import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Sign-ups and free agents (docs/server.md §16):
 * - events.signups_open (0/1, default 0) and events.signups_close_at (ISO time or null);
 * - signups: one per user per event (unique event_id + user_id), the IGN signed up with (unique
 *   per event), 'I would lead a team' (0/1), the note, the balancing score (a real or null) with
 *   its source ('manual', 'csv', 'wom' or null), the team it was placed on (null for a free
 *   agent), when it was made and when it last changed (updated_at, so a balancing proposal can
 *   tell that a sign-up changed since it was made).
 * Sign-ups go with their event (ON DELETE CASCADE); a deleted team leaves its sign-ups free agents.
 */
export const signups: DialectMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('events').addColumn('signups_open', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('events').addColumn('signups_close_at', 'text').execute();
    await withId(db.schema.createTable('signups'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('osrs_ign_id', 'integer', (c) => c.notNull().references('igns.id').onDelete('cascade'))
      .addColumn('wants_leader', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('score', dialect === 'postgres' ? 'double precision' : 'real')
      .addColumn('score_source', 'text')
      .addColumn('team_id', 'integer', (c) => c.references('teams.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('signups_event_user', ['event_id', 'user_id'])
      .addUniqueConstraint('signups_event_ign', ['event_id', 'osrs_ign_id'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('signups').execute();
    await db.schema.alterTable('events').dropColumn('signups_close_at').execute();
    await db.schema.alterTable('events').dropColumn('signups_open').execute();
  },
};
