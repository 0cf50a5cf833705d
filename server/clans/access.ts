import type { Db } from '../db/schema';
import { forbidden, notFound } from '../errors';
import type { ClanRole } from '../../contract/user';
import { isManagerRole } from '../../contract/user';
import { wasRemoved } from './repository';

/** The refusal of a kicked user's way back into the clan (docs/server.md §8, §18). */
const KICKED = 'You were removed from this clan. Ask a manager to add you again.';

/**
 * 403 KICKED when a manager kicked `userId` from `clanId` and no manager has added them back
 * since: onboarding, setup and every way of joining (open, a request, an invite) ask it first
 * (docs/server.md §8, §18).
 */
export async function refuseKicked(db: Db, clanId: number, userId: number): Promise<void> {
  if (await wasRemoved(db, clanId, userId)) throw forbidden(KICKED);
}

/** A clan with the acting user's role in it. */
export interface ClanAccess {
  clan: { id: number; name: string };
  role: ClanRole;
}

/**
 * The clan and the user's role in it (docs/game-rules.md §11; docs/server.md §4).
 * Raises 404 'Clan ID {id} not found.' for a missing clan and 403 for a non-member: the documented
 * permission text unless `notMember` gives the refusal of a members' route.
 */
export async function requireMember(db: Db, clanId: number, userId: number, notMember?: string): Promise<ClanAccess> {
  const clan = await db.selectFrom('clans').select(['id', 'name']).where('id', '=', clanId).executeTakeFirst();
  if (!clan) throw notFound(`Clan ID ${clanId} not found.`);
  const m = await db.selectFrom('clan_memberships').select('role').where('clan_id', '=', clanId).where('user_id', '=', userId).executeTakeFirst();
  if (!m) throw forbidden(notMember);
  return { clan, role: m.role as ClanRole };
}

/** As requireMember, and 403 unless the role is Owner or Admin. */
export async function requireManager(db: Db, clanId: number, userId: number): Promise<ClanAccess> {
  const access = await requireMember(db, clanId, userId);
  if (!isManagerRole(access.role)) throw forbidden();
  return access;
}

/** As requireMember, and 403 unless the role is Owner. */
async function requireOwner(db: Db, clanId: number, userId: number): Promise<ClanAccess> {
  const access = await requireMember(db, clanId, userId);
  if (access.role !== 'Owner') throw forbidden('Permission denied. Only the clan Owner can do this.');
  return access;
}

/** Who may call a clan route (the clan's Access levels of http/route.ts). */
export type ClanAccessLevel = 'member' | 'manager' | 'owner';

/** The check of each level. */
const CHECKS = { member: requireMember, manager: requireManager, owner: requireOwner } as const;

/** requireMember, requireManager or requireOwner, by `level`: 404 'Clan ID {id} not found.', then 403. */
export function requireAccess(db: Db, clanId: number, userId: number, level: ClanAccessLevel): Promise<ClanAccess> {
  return CHECKS[level](db, clanId, userId);
}
