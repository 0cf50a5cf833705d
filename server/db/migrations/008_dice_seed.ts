import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Verifiable dice and the move history (docs/game-rules.md §9; docs/server.md §12):
 * - games.dice_seed: the round's secret 32-byte seed in lowercase hex (sent only once the game is
 *   finished); dice_commitment: lowercase hex SHA-256 of the seed bytes (sent always); dice_round:
 *   1 at creation, + 1 at every reset. Existing games get a fresh random seed in round 1.
 * - game_log.roll_index and die: set on the roll entry of a roll (k and the die), else null.
 * - game_moves: one row per applied roll or revert of the current round (written in the roll's
 *   transaction, deleted at reset with the log): time, team, kind, roll_index and die (rolls),
 *   from, landing (rolls), to, via ('snake'|'ladder'|null). The team id is kept without a foreign
 *   key, so a team removed later does not take the game's record with it. Rows go with their game.
 */
export const diceSeed: DialectMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('games').addColumn('dice_seed', 'text', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('games').addColumn('dice_commitment', 'text', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('games').addColumn('dice_round', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    const rows = await sql<{ id: number }>`select id from games`.execute(db);
    for (const { id } of rows.rows) {
      const seed = randomBytes(32);
      const commitment = createHash('sha256').update(seed).digest('hex');
      await sql`update games set dice_seed = ${seed.toString('hex')}, dice_commitment = ${commitment} where id = ${id}`.execute(db);
    }
    await db.schema.alterTable('game_log').addColumn('roll_index', 'integer').execute();
    await db.schema.alterTable('game_log').addColumn('die', 'integer').execute();
    await withId(db.schema.createTable('game_moves'), dialect)
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('team_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('roll_index', 'integer')
      .addColumn('die', 'integer')
      .addColumn('from_square', 'integer', (c) => c.notNull())
      .addColumn('landing', 'integer')
      .addColumn('to_square', 'integer', (c) => c.notNull())
      .addColumn('via', 'text')
      .execute();
    await db.schema.createIndex('game_moves_game_idx').on('game_moves').columns(['game_id', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('game_moves').execute();
    await db.schema.alterTable('game_log').dropColumn('die').execute();
    await db.schema.alterTable('game_log').dropColumn('roll_index').execute();
    await db.schema.alterTable('games').dropColumn('dice_round').execute();
    await db.schema.alterTable('games').dropColumn('dice_commitment').execute();
    await db.schema.alterTable('games').dropColumn('dice_seed').execute();
  },
};
