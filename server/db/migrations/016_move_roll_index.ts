import type { DialectMigration } from './helpers';

/**
 * An index on game_moves (game_id, roll_index): a roll reads the highest roll_index of its game
 * (the k of the next roll, docs/game-rules.md §9) inside its transaction, which without it scans
 * every move of the game. The same DDL on both databases.
 */
export const moveRollIndex: DialectMigration = {
  async up(db) {
    await db.schema.createIndex('game_moves_game_roll_idx').on('game_moves').columns(['game_id', 'roll_index']).execute();
  },
  async down(db) {
    await db.schema.dropIndex('game_moves_game_roll_idx').execute();
  },
};
