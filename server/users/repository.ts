import type { Db } from '../db/schema';
import { nowIso } from '../time';
import type { ClanMembership, User } from '../../contract/user';
import { CLAN_OWN_LIMIT } from '../../contract/clan';
import { listOwnRequests } from '../joins/repository';

/**
 * Creates or updates the user behind a Discord identity (docs/server.md §2) and stamps
 * last_login. Returns the user id.
 */
export async function upsertDiscordUser(db: Db, who: { discord_id: string; username: string; avatar_url: string | null }): Promise<number> {
  const now = nowIso();
  const existing = await db.selectFrom('discord_identities').select(['user_id']).where('discord_id', '=', who.discord_id).executeTakeFirst();
  if (existing) {
    await db.updateTable('discord_identities').set({ username: who.username, avatar: who.avatar_url, updated_at: now }).where('discord_id', '=', who.discord_id).execute();
    await db.updateTable('users').set({ username: who.username, avatar_url: who.avatar_url, last_login: now }).where('id', '=', existing.user_id).execute();
    return existing.user_id;
  }
  const user = await db.insertInto('users').values({ username: who.username, avatar_url: who.avatar_url, created_at: now, last_login: now }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('discord_identities').values({ user_id: user.id, discord_id: who.discord_id, username: who.username, avatar: who.avatar_url, updated_at: now }).execute();
  return user.id;
}

/** Number of clans the user owns (for the limit of docs/server.md §4). */
export async function ownedClanCount(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('clan_memberships').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('role', '=', 'Owner').executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The user's IGNs, oldest first. */
export async function listIgns(db: Db, userId: number): Promise<{ id: number; ign: string }[]> {
  return db.selectFrom('igns').select(['id', 'ign']).where('user_id', '=', userId).orderBy('id').execute();
}

/** The user's clan memberships, by clan name. */
async function listMemberships(db: Db, userId: number): Promise<ClanMembership[]> {
  const rows = await db.selectFrom('clan_memberships')
    .innerJoin('clans', 'clans.id', 'clan_memberships.clan_id')
    .select(['clans.id as clan_id', 'clans.name', 'clan_memberships.role', 'clan_memberships.joined_at'])
    .where('clan_memberships.user_id', '=', userId)
    .orderBy('clans.name')
    .execute();
  return rows as ClanMembership[];
}

/** The GET /api/user/me profile (docs/game-rules.md §12) with the user's join requests (docs/server.md §18), or null for an unknown id. */
export async function loadProfile(db: Db, userId: number): Promise<User | null> {
  const row = await db.selectFrom('users')
    .innerJoin('discord_identities', 'discord_identities.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.avatar_url', 'discord_identities.discord_id'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const [igns, memberships, owned, joinRequests] = await Promise.all([listIgns(db, userId), listMemberships(db, userId), ownedClanCount(db, userId), listOwnRequests(db, userId)]);
  return {
    id: row.id,
    username: row.username,
    discord_username: row.username,
    discord_id: row.discord_id,
    avatar_url: row.avatar_url,
    igns,
    clan_memberships_list: memberships,
    can_create_clan: owned < CLAN_OWN_LIMIT,
    join_requests: joinRequests,
  };
}
