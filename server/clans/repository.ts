import type { Db } from '../db/schema';
import { nowIso } from '../db/connect';
import { conflict, badRequest } from '../errors';
import { CLAN_OWN_LIMIT } from '../../contract/clan';
import { ownedClanCount } from '../users/repository';

/** The case-insensitive uniqueness key of a clan name. */
export function clanNameKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Creates a clan owned by `userId` (server-contract section 3): 409 when the name is taken
 * (case-insensitively), 409 'Clan limit reached: …' past 3 owned clans. Returns the clan id.
 */
export async function createClan(db: Db, userId: number, name: string): Promise<number> {
  const clean = name.trim();
  if (!clean) throw badRequest('Clan name cannot be empty. Please enter a name.');
  if ((await ownedClanCount(db, userId)) >= CLAN_OWN_LIMIT) {
    throw conflict(`Clan limit reached: you already own ${CLAN_OWN_LIMIT} clans.`);
  }
  const taken = await db.selectFrom('clans').select('id').where('name_key', '=', clanNameKey(clean)).executeTakeFirst();
  if (taken) throw conflict(`A clan named '${clean}' already exists.`);
  const now = nowIso();
  const clan = await db.insertInto('clans').values({ name: clean, name_key: clanNameKey(clean), created_at: now }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('clan_memberships').values({ clan_id: clan.id, user_id: userId, role: 'Owner', joined_at: now }).execute();
  return clan.id;
}

/** Adds `userId` to a clan with `role`; 409 when already a member. */
export async function addMembership(db: Db, clanId: number, userId: number, role: string): Promise<void> {
  const existing = await db.selectFrom('clan_memberships').select('id').where('clan_id', '=', clanId).where('user_id', '=', userId).executeTakeFirst();
  if (existing) throw conflict('That user is already a member of this clan.');
  await db.insertInto('clan_memberships').values({ clan_id: clanId, user_id: userId, role, joined_at: nowIso() }).execute();
}
