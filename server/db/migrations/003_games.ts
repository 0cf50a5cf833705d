import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/** Games, board squares, team states and the game log (docs/game-rules.md §12; docs/server.md §5, §6). */
export const games: DialectMigration = {
  async up(db, dialect) {
    let t = withId(db.schema.createTable('games'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().unique().references('events.id').onDelete('cascade'))
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull());
    for (const col of ['board_size', 'num_snakes', 'num_ladders', 'max_reverts_allowed', 'num_easy_tasks', 'num_medium_tasks', 'num_hard_tasks', 'num_elite_tasks', 'num_master_tasks']) {
      t = t.addColumn(col, 'integer', (c) => c.notNull());
    }
    await t
      .addColumn('board_connections', 'text', (c) => c.notNull())
      .addColumn('winners', 'text')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('board_squares'), dialect)
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('square_index', 'integer', (c) => c.notNull())
      .addColumn('task_id', 'integer')
      .addColumn('task_description', 'text', (c) => c.notNull())
      .addColumn('task_difficulty', 'text')
      .addUniqueConstraint('board_squares_game_index_unique', ['game_id', 'square_index'])
      .execute();
    await withId(db.schema.createTable('team_states'), dialect)
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('current_position', 'integer', (c) => c.notNull())
      .addColumn('revert_count', 'integer', (c) => c.notNull())
      .addColumn('position_history', 'text', (c) => c.notNull())
      .addUniqueConstraint('team_states_game_team_unique', ['game_id', 'team_id'])
      .execute();
    await withId(db.schema.createTable('game_log'), dialect)
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('timestamp', 'text', (c) => c.notNull())
      .addColumn('team_name', 'text', (c) => c.notNull())
      .addColumn('team_color', 'text')
      .addColumn('message', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('game_log_game_idx').on('game_log').columns(['game_id', 'id']).execute();
  },
  async down(db) {
    for (const t of ['game_log', 'team_states', 'board_squares', 'games']) await db.schema.dropTable(t).execute();
  },
};
