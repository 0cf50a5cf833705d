import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Every call to Wise Old Man waits in the database, so the line survives a restart and every
 * process serves the same one (docs/server.md §16 and §17 'Wise Old Man checks'):
 * - wom_queue: one row per call waiting: the clan whose turn it takes, its `kind` ('signup' a
 *   sign-up score, 'progress' one IGN of a team total), `subject` (what it belongs to, e.g.
 *   `team:{gameId}:{teamId}`), `payload` (JSON), `due_at` (not before; oldest first),
 *   `attempts`, and `lease_until` while a process is calling (a process that died lets go when
 *   it lapses);
 * - wom_baselines: per team stay (game, team, square_since) and IGN, the numbers at arrival
 *   (`baseline`) and at the last check (`current`) as JSON {metric: value}, and the IGN's last
 *   error;
 * - wom_team_checks: per game and team, the stay being checked, the round of checks (a round is
 *   one call per IGN; the one who ends it schedules the next), the last accepted 'Check now'
 *   (`asked_at`, for its 5-minute wait over every process) and the end of the last round.
 * The baselines and checks go with their game and team (ON DELETE CASCADE). Same DDL on both databases.
 */
export const womQueue: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('wom_queue'), dialect)
      .addColumn('clan_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('wom_queue_due').on('wom_queue').columns(['due_at', 'id']).execute();
    await db.schema.createIndex('wom_queue_subject').on('wom_queue').column('subject').execute();
    await db.schema.createTable('wom_baselines')
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('square_since', 'text', (c) => c.notNull())
      .addColumn('ign', 'text', (c) => c.notNull())
      .addColumn('baseline', 'text')
      .addColumn('current', 'text')
      .addColumn('error', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('wom_baselines_pk', ['game_id', 'team_id', 'square_since', 'ign'])
      .execute();
    await db.schema.createTable('wom_team_checks')
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('square_since', 'text', (c) => c.notNull())
      .addColumn('round', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('asked_at', 'text')
      .addColumn('checked_at', 'text')
      .addPrimaryKeyConstraint('wom_team_checks_pk', ['game_id', 'team_id'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('wom_team_checks').execute();
    await db.schema.dropTable('wom_baselines').execute();
    await db.schema.dropTable('wom_queue').execute();
  },
};
