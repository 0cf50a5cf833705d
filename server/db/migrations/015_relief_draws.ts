import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Relief draws (docs/server.md §15; docs/game-rules.md §15), kept so 'Verify dice' can check each
 * substitute from the revealed seed: one row per substitute of the current round with the game,
 * the team, its relief number k, the square, when, the candidates' task ids in the order drawn
 * from (JSON array), and the task drawn with its description. A reset deletes the round's draws.
 */
export const reliefDraws: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('relief_draws'), dialect)
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('team_id', 'integer', (c) => c.notNull())
      .addColumn('k', 'integer', (c) => c.notNull())
      .addColumn('square_index', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('candidate_ids', 'text', (c) => c.notNull())
      .addColumn('task_id', 'integer', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('relief_draws_game').on('relief_draws').column('game_id').execute();
  },
  async down(db) {
    await db.schema.dropTable('relief_draws').execute();
  },
};
