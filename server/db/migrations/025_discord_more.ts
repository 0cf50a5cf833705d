import type { DialectMigration } from './helpers';

/**
 * Discord, where clans live (docs/server.md §19 "Team pings", "Slash commands"):
 * - `teams.discord_role_id`: the team's Discord role (17 to 20 digits) or null; announcements
 *   about the team mention it when the event's webhook has `ping_teams` on;
 * - `discord_webhooks.ping_teams`: 1 when those announcements ping the team's role (default 0);
 * - `discord_guilds`: the one link of a Discord server (guild) to a clan; both are unique (one
 *   clan per guild and one guild per clan: a new link deletes the old rows on either side); rows
 *   go with their clan;
 * - `discord_link_codes`: the one-time codes `/snl link` answers (`code` 16 random bytes as
 *   base64url, the guild it links, `expires_at` 15 minutes on, `used_at` once used).
 * Same DDL on both databases (the guild id is text: Discord snowflakes overflow a JS number).
 */
export const discordMore: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('teams').addColumn('discord_role_id', 'text').execute();
    await db.schema.alterTable('discord_webhooks').addColumn('ping_teams', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createTable('discord_guilds')
      .addColumn('guild_id', 'text', (c) => c.primaryKey())
      .addColumn('clan_id', 'integer', (c) => c.notNull().unique().references('clans.id').onDelete('cascade'))
      .addColumn('linked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('linked_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createTable('discord_link_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('discord_link_codes_expiry').on('discord_link_codes').column('expires_at').execute();
  },
  async down(db) {
    await db.schema.dropTable('discord_link_codes').execute();
    await db.schema.dropTable('discord_guilds').execute();
    await db.schema.alterTable('discord_webhooks').dropColumn('ping_teams').execute();
    await db.schema.alterTable('teams').dropColumn('discord_role_id').execute();
  },
};
