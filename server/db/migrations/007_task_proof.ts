import { sql } from 'kysely';
import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Task proof and referee review (docs/server.md §9):
 * - games.proof_required: 0/1 (an integer on both databases, so one code path reads it);
 * - team_states.task_state ('none', 'open', 'submitted', 'denied', 'approved') and square_since
 *   (ISO time the team arrived on its square; existing rows get the migration's time);
 * - submissions: one row per proof sent, with the square and task it proves (kept as sent, so a
 *   later board change does not rewrite history), who sent it, the stored image and thumbnail
 *   keys and types (server/submissions/storage.ts), the review, and the team's square_since when
 *   it was sent (a review changes the team's state only while the team is still on that square).
 *   Rows go with their game, team or clan (ON DELETE CASCADE; the server also deletes them
 *   explicitly together with their images).
 */
export const taskProof: DialectMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('games').addColumn('proof_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('team_states').addColumn('task_state', 'text', (c) => c.notNull().defaultTo('none')).execute();
    await db.schema.alterTable('team_states').addColumn('square_since', 'text', (c) => c.notNull().defaultTo('1970-01-01T00:00:00.000Z')).execute();
    await sql`update team_states set square_since = ${new Date().toISOString()}`.execute(db);
    await withId(db.schema.createTable('submissions'), dialect)
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('square_index', 'integer', (c) => c.notNull())
      .addColumn('square_since', 'text', (c) => c.notNull())
      .addColumn('task_description', 'text', (c) => c.notNull())
      .addColumn('task_difficulty', 'text')
      .addColumn('submitted_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('submitted_ign', 'text', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull())
      .addColumn('image_key', 'text', (c) => c.notNull())
      .addColumn('image_type', 'text', (c) => c.notNull())
      .addColumn('thumb_key', 'text', (c) => c.notNull())
      .addColumn('thumb_type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reviewer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('reviewed_at', 'text')
      .execute();
    await db.schema.createIndex('submissions_game_idx').on('submissions').columns(['game_id', 'id']).execute();
    await db.schema.createIndex('submissions_clan_status_idx').on('submissions').columns(['clan_id', 'status', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('submissions').execute();
    await db.schema.alterTable('team_states').dropColumn('square_since').execute();
    await db.schema.alterTable('team_states').dropColumn('task_state').execute();
    await db.schema.alterTable('games').dropColumn('proof_required').execute();
  },
};
