import type { DialectMigration } from './helpers';

/**
 * Stuck-tile relief (docs/server.md §15; docs/game-rules.md §4):
 * - games.relief_after_hours: hours on a square before its team may ask for a substitute task,
 *   null when relief is off (the default); games.relief_max_per_team: substitutes a team may get
 *   in a game (default 2);
 * - team_states.relief_count: substitutes the team got so far in this game; task_override: JSON
 *   `{description, difficulty}` of the substitute for the team's current square, null otherwise.
 */
export const relief: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('games').addColumn('relief_after_hours', 'integer').execute();
    await db.schema.alterTable('games').addColumn('relief_max_per_team', 'integer', (c) => c.notNull().defaultTo(2)).execute();
    await db.schema.alterTable('team_states').addColumn('relief_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('team_states').addColumn('task_override', 'text').execute();
  },
  async down(db) {
    await db.schema.alterTable('team_states').dropColumn('task_override').execute();
    await db.schema.alterTable('team_states').dropColumn('relief_count').execute();
    await db.schema.alterTable('games').dropColumn('relief_max_per_team').execute();
    await db.schema.alterTable('games').dropColumn('relief_after_hours').execute();
  },
};
