import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/** Events, teams, team members and the clan task pool (docs/game-rules.md §12; docs/server.md §4). */
export const eventsTeamsTasks: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('events'), dialect)
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('start_datetime', 'text', (c) => c.notNull())
      .addColumn('end_datetime', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('events_clan_idx').on('events').column('clan_id').execute();
    await withId(db.schema.createTable('teams'), dialect)
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('teams_event_idx').on('teams').column('event_id').execute();
    await withId(db.schema.createTable('team_members'), dialect)
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('ign_id', 'integer', (c) => c.notNull().references('igns.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('team_members_event_ign_unique', ['event_id', 'ign_id'])
      .execute();
    await db.schema.createIndex('team_members_team_idx').on('team_members').column('team_id').execute();
    await withId(db.schema.createTable('tasks'), dialect)
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('difficulty', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('tasks_clan_desc_diff_unique', ['clan_id', 'description', 'difficulty'])
      .execute();
  },
  async down(db) {
    for (const t of ['tasks', 'team_members', 'teams', 'events']) await db.schema.dropTable(t).execute();
  },
};
