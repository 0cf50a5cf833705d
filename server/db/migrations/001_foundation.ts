import type { DialectMigration } from './helpers';
import { withId } from './helpers';

/** Users, Discord identities, sessions, IGNs, clans and memberships (docs/server.md §2, §3, §4). */
export const foundation: DialectMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('users'), dialect)
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('avatar_url', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_login', 'text')
      .execute();
    await withId(db.schema.createTable('discord_identities'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('discord_id', 'text', (c) => c.notNull().unique())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('avatar', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('igns'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('ign', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('igns_user_ign_unique', ['user_id', 'ign'])
      .execute();
    await withId(db.schema.createTable('clans'), dialect)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('clan_memberships'), dialect)
      .addColumn('clan_id', 'integer', (c) => c.notNull().references('clans.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('joined_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('memberships_clan_user_unique', ['clan_id', 'user_id'])
      .execute();
    await db.schema.createIndex('memberships_user_idx').on('clan_memberships').column('user_id').execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  },
  async down(db) {
    for (const t of ['clan_memberships', 'clans', 'igns', 'sessions', 'discord_identities', 'users']) {
      await db.schema.dropTable(t).execute();
    }
  },
};
