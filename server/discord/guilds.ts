import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import { nowIso } from '../time';
import { forbidden, notFound } from '../errors';
import { memberRole } from '../clans/repository';
import { isManagerRole } from '../../contract/user';
import { DISCORD_LINK_MESSAGES, LINK_CODE_TTL_MS, type DiscordLink } from '../../contract/discordLink';

/**
 * The links of Discord servers (guilds) to clans and the one-time codes of `/snl link`
 * (docs/server.md §19 "Slash commands"; tables of migration 025_discord_more).
 */

/** The clan linked to `guildId`, with its name, or undefined. */
export async function clanOfGuild(db: Db, guildId: string): Promise<{ id: number; name: string } | undefined> {
  return db.selectFrom('discord_guilds').innerJoin('clans', 'clans.id', 'discord_guilds.clan_id')
    .select(['clans.id', 'clans.name']).where('discord_guilds.guild_id', '=', guildId).executeTakeFirst();
}

/** The guild linked to clan `clanId`, or null. */
export async function guildOfClan(db: Db, clanId: number): Promise<string | null> {
  const row = await db.selectFrom('discord_guilds').select('guild_id').where('clan_id', '=', clanId).executeTakeFirst();
  return row?.guild_id ?? null;
}

/** Unlinks clan `clanId` from its guild (nothing when none is linked). */
export async function unlinkClan(db: Db, clanId: number): Promise<void> {
  await db.deleteFrom('discord_guilds').where('clan_id', '=', clanId).execute();
}

/**
 * A new one-time code for guild `guildId` (16 random bytes, base64url), valid LINK_CODE_TTL_MS (15
 * minutes) from `now` (ms epoch). Codes that expired over a day ago are deleted on the way.
 */
export async function createLinkCode(db: Db, guildId: string, now = Date.now()): Promise<string> {
  const code = crypto.randomBytes(16).toString('base64url');
  await db.deleteFrom('discord_link_codes').where('expires_at', '<', new Date(now - 24 * 3600_000).toISOString()).execute();
  await db.insertInto('discord_link_codes').values({ code, guild_id: guildId, expires_at: new Date(now + LINK_CODE_TTL_MS).toISOString(), used_at: null }).execute();
  return code;
}

/**
 * POST /api/discord/links/{code} {clan_id} by `userId` (docs/server.md §19): 404
 * DISCORD_LINK_MESSAGES.unknownCode for an unknown, used or expired code; 403 .notManager unless
 * the user is an Owner or Admin of the clan. In one transaction the code is used (a conditional
 * update, so two pages racing link once) and the guild linked to the clan: a link of that guild
 * or of that clan is replaced (one clan per guild, one guild per clan).
 */
export async function linkGuild(db: Kysely<Database>, code: string, clanId: number, userId: number, now = new Date()): Promise<DiscordLink> {
  return db.transaction().execute(async (trx) => {
    const at = now.toISOString();
    const row = await trx.selectFrom('discord_link_codes').select(['guild_id']).where('code', '=', code).where('used_at', 'is', null).where('expires_at', '>', at).executeTakeFirst();
    if (!row) throw notFound(DISCORD_LINK_MESSAGES.unknownCode);
    if (!isManagerRole(await memberRole(trx, clanId, userId))) throw forbidden(DISCORD_LINK_MESSAGES.notManager);
    const used = await trx.updateTable('discord_link_codes').set({ used_at: at }).where('code', '=', code).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) throw notFound(DISCORD_LINK_MESSAGES.unknownCode);
    await trx.deleteFrom('discord_guilds').where((eb) => eb.or([eb('guild_id', '=', row.guild_id), eb('clan_id', '=', clanId)])).execute();
    await trx.insertInto('discord_guilds').values({ guild_id: row.guild_id, clan_id: clanId, linked_by: userId, linked_at: at }).execute();
    return { guild_id: row.guild_id, clan_id: clanId };
  });
}
