import type { DialectMigration } from './helpers';

/**
 * Wise Old Man score fetches (docs/server.md §16), one row per event, shared by every process so
 * GET .../signups/scores/wom answers the same wherever it lands: the metric, the run (a random id;
 * a new fetch replaces the row, and the old run stops at its next look-up), how many look-ups in
 * all and how many finished (errors included), the errors as a JSON array of {ign, error}.
 * Also events.signups_close_announced (0/1): whether 'Sign-ups closed' went out for the current
 * close, so reaching signups_close_at is announced once over every process.
 */
export const signupScores: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('events').addColumn('signups_close_announced', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createTable('wom_fetches')
      .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('metric', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('wom_fetches').execute();
    await db.schema.alterTable('events').dropColumn('signups_close_announced').execute();
  },
};
