import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/**
 * Team totals (docs/server.md §17 'Progress and Dink totals'):
 * - team_states.progress: JSON text of the team's `progress` on its square
 *   `{have, need, unit, by, errors, updated_at}`, or null when the square has no team-total rule;
 *   written on arrival (and on a relief substitute) and on every count, so it outlives a restart;
 * - progress_entries: what a team total has counted on one stay on a square (game, team and the
 *   team's square_since name the stay). `entry_key` is `post:{digest}` for a counted Dink post
 *   (its amount, the IGN it is credited to, the key of its screenshot when it had one) and
 *   `name:{name}` for a name a distinct rule has counted (amount 0: it only holds the name). The
 *   unique key (game, team, stay, entry_key) is what makes a post or a name count once, whichever
 *   process takes it.
 * Both go with their game and team (ON DELETE CASCADE). The same DDL on both databases.
 */
export const teamProgress: DialectMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('team_states').addColumn('progress', 'text').execute();
    await withId(db.schema.createTable('progress_entries'), dialect)
      .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('square_since', 'text', (c) => c.notNull())
      .addColumn('entry_key', 'text', (c) => c.notNull())
      .addColumn('ign', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('image_key', 'text')
      .addColumn('image_type', 'text')
      .addColumn('thumb_key', 'text')
      .addColumn('thumb_type', 'text')
      .addColumn('at', 'text', (c) => c.notNull())
      .addUniqueConstraint('progress_entries_stay_key', ['game_id', 'team_id', 'square_since', 'entry_key'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('progress_entries').execute();
    await db.schema.alterTable('team_states').dropColumn('progress').execute();
  },
};
