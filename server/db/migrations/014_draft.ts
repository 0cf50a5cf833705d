import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * The captains' draft (docs/server.md §16, "Captains' draft"):
 * - drafts: one per event (unique event_id): its status ('running', 'paused', 'done'), the seconds
 *   per pick, the first round's order of team ids and the captains ({team_id, signup_id}) as JSON,
 *   the clock's `deadline` (ISO time, null unless running), the milliseconds left when it was
 *   paused, and a `version` that every change raises, so of two processes whose clocks fire at
 *   once only the one whose conditional UPDATE still sees the version it read writes a pick;
 * - draft_picks: one row per pick, numbered from 0 in the order made (`pick_no`, unique per
 *   event, so two picks for one turn can never both land), the team, the sign-up (unique per
 *   event: nobody is picked twice), when (ISO) and whether the clock made it (`auto`, 0/1).
 * Both go with their event; picks go with their team and sign-up.
 */
export const draft: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('drafts'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().unique().references('events.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('pick_seconds', 'integer', (c) => c.notNull())
      .addColumn('team_order', 'text', (c) => c.notNull())
      .addColumn('captains', 'text', (c) => c.notNull())
      .addColumn('deadline', 'text')
      .addColumn('paused_remaining_ms', 'integer')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('draft_picks'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('pick_no', 'integer', (c) => c.notNull())
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('signup_id', 'integer', (c) => c.notNull().references('signups.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('draft_picks_event_no', ['event_id', 'pick_no'])
      .addUniqueConstraint('draft_picks_event_signup', ['event_id', 'signup_id'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('draft_picks').execute();
    await db.schema.dropTable('drafts').execute();
  },
};
