import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { likeFolded } from '../db/like';
import { MEMBER_SEARCH_LIMIT } from '../../contract/memberSearch';
import { nowIso } from '../time';
import { uniqueOrConflict } from '../db/uniqueKey';
import { conflict, badRequest } from '../errors';
import { CLAN_OWN_LIMIT, compareClanMembers, type ClanMember } from '../../contract/clan';
import type { ClanRole } from '../../contract/user';
import { clanMemberView, viewerScope, type Viewer } from './viewer';
import { clanNameKey } from '../../contract/text';
import { ownedClanCount } from '../users/repository';

/**
 * Creates a clan owned by `userId` (docs/server.md §4): `name` has passed the text rule
 * (contract/text.ts); 409 when the name is taken (same clanNameKey: case-insensitively after
 * NFKC), 409 'Clan limit reached: …' past 3 owned clans. Returns the clan id.
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

/**
 * The member rows of a clan (docs/game-rules.md §12), sorted Owner, Admin, Member, Guest, then
 * username, as `viewer` may see them (clanMemberView: last_login and discord_id, docs/server.md §18).
 */
export async function listClanMembers(db: Db, clanId: number, viewer: Viewer): Promise<ClanMember[]> {
  const rows = await memberQuery(db, clanId).execute();
  const scope = await viewerScope(db, viewer, rows.map((r) => r.member_id));
  return rows.map((r) => clanMemberView(r, scope)).sort(compareClanMembers);
}

/** One member row of a clan as `viewer` may see it, or undefined when `userId` is not a member of it. */
export async function findClanMember(db: Db, clanId: number, userId: number, viewer: Viewer): Promise<ClanMember | undefined> {
  const row = await memberQuery(db, clanId).where('clan_memberships.user_id', '=', userId).executeTakeFirst();
  return row ? clanMemberView(row, await viewerScope(db, viewer, [row.member_id])) : undefined;
}

function memberQuery(db: Db, clanId: number) {
  return db.selectFrom('clan_memberships')
    .innerJoin('users', 'users.id', 'clan_memberships.user_id')
    .innerJoin('clans', 'clans.id', 'clan_memberships.clan_id')
    .leftJoin('discord_identities', 'discord_identities.user_id', 'clan_memberships.user_id')
    .select(['users.id as member_id', 'users.username', 'clan_memberships.role', 'clan_memberships.joined_at', 'users.last_login', 'clans.name as clan_name', 'discord_identities.discord_id'])
    .where('clan_memberships.clan_id', '=', clanId);
}

/** The user's role in the clan (docs/game-rules.md §11), or null when they are not a member. */
export async function memberRole(db: Db, clanId: number, userId: number): Promise<ClanRole | null> {
  const row = await db.selectFrom('clan_memberships').select('role').where('clan_id', '=', clanId).where('user_id', '=', userId).executeTakeFirst();
  return (row?.role as ClanRole | undefined) ?? null;
}

/** Orders users by username case-insensitively, then id (Add Member's list). */
function byUsername(a: { id: number; username: string }, b: { id: number; username: string }): number {
  const ua = a.username.toLowerCase();
  const ub = b.username.toLowerCase();
  return ua === ub ? a.id - b.id : ua < ub ? -1 : 1;
}

/**
 * True for a user who can sign in: a deleted account (docs/server.md §18 "Data rights") keeps its
 * row, named 'Deleted user', but has no Discord identity, and is never offered nor added.
 */
const signsIn = (eb: ExpressionBuilder<Database, 'users'>) =>
  eb.exists(eb.selectFrom('discord_identities').select('discord_identities.id').whereRef('discord_identities.user_id', '=', 'users.id'));

/**
 * The users Add Member offers (docs/server.md §18, "What members see"), by username
 * case-insensitively: users outside clan `clanId` who share a clan with the asking manager
 * `managerId` or have a pending join request to this clan; with `q`, also up to
 * MEMBER_SEARCH_LIMIT more users outside the clan whose username starts with `q`
 * (case-insensitively, `q` taken literally: likeFolded). Nobody else is listed, so a manager
 * cannot page through every user of the site.
 */
export async function listAvailableUsers(db: Db, dialect: Dialect, clanId: number, managerId: number, q: string | null): Promise<{ id: number; username: string }[]> {
  const outside = (eb: ExpressionBuilder<Database, 'users'>) =>
    eb.not(eb.exists(eb.selectFrom('clan_memberships').select('clan_memberships.id').where('clan_memberships.clan_id', '=', clanId).whereRef('clan_memberships.user_id', '=', 'users.id')));
  const known = (eb: ExpressionBuilder<Database, 'users'>) =>
    eb.or([
      eb.exists(eb.selectFrom('clan_memberships as mine')
        .innerJoin('clan_memberships as theirs', 'theirs.clan_id', 'mine.clan_id')
        .select('mine.id')
        .where('mine.user_id', '=', managerId)
        .whereRef('theirs.user_id', '=', 'users.id')),
      eb.exists(eb.selectFrom('join_requests')
        .select('join_requests.id')
        .where('join_requests.clan_id', '=', clanId)
        .where('join_requests.status', '=', 'pending')
        .whereRef('join_requests.user_id', '=', 'users.id')),
    ]);
  const rows = await db.selectFrom('users').select(['users.id', 'users.username']).where(outside).where(known).execute();
  if (q !== null) {
    const found = await db.selectFrom('users')
      .select(['users.id', 'users.username'])
      .where(outside)
      .where((eb) => eb.not(known(eb)))
      .where(signsIn)
      .where(likeFolded(dialect, 'users.username', q, 'prefix'))
      .orderBy(sql`lower(users.username)`)
      .orderBy('users.id')
      .limit(MEMBER_SEARCH_LIMIT)
      .execute();
    rows.push(...found);
  }
  return rows.sort(byUsername);
}

/** A user who can sign in (not a deleted account) by id, or undefined. */
export async function findUser(db: Db, userId: number): Promise<{ id: number; username: string } | undefined> {
  return db.selectFrom('users').select(['id', 'username']).where('id', '=', userId).where(signsIn).executeTakeFirst();
}

/**
 * Serialises membership changes of one clan: a no-op update that row-locks the clan on PostgreSQL
 * until the transaction ends (SQLite transactions are serialised already). Call first in a transaction.
 */
export async function lockClan(trx: Db, clanId: number): Promise<void> {
  await trx.updateTable('clans').set((eb) => ({ name: eb.ref('name') })).where('id', '=', clanId).execute();
}

/**
 * Sets a member's role only if it is still `from`; false when the row changed meanwhile (or is gone),
 * so the caller can refuse instead of acting on stale data.
 */
export async function setMemberRole(db: Db, clanId: number, userId: number, from: ClanRole, to: ClanRole): Promise<boolean> {
  const r = await db.updateTable('clan_memberships').set({ role: to })
    .where('clan_id', '=', clanId).where('user_id', '=', userId).where('role', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Number of managers (Owner and Admin) of a clan. */
export async function countManagers(db: Db, clanId: number): Promise<number> {
  const row = await db.selectFrom('clan_memberships').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('clan_id', '=', clanId).where('role', 'in', ['Owner', 'Admin']).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Removes a user from a clan (kick or leave) and takes their IGNs off the teams of that clan's
 * events, since a team member's IGN must belong to a clan member (docs/server.md §4).
 */
export async function removeMembership(db: Db, clanId: number, userId: number): Promise<void> {
  await db.deleteFrom('team_members')
    .where('ign_id', 'in', (eb) => eb.selectFrom('igns').select('igns.id').where('igns.user_id', '=', userId))
    .where('event_id', 'in', (eb) => eb.selectFrom('events').select('events.id').where('events.clan_id', '=', clanId))
    .execute();
  await db.deleteFrom('clan_memberships').where('clan_id', '=', clanId).where('user_id', '=', userId).execute();
}

/**
 * Renames a clan (docs/server.md §4): 409 "A clan named '…' already exists." when another
 * clan has the same clanNameKey (case-insensitively after NFKC; also when a concurrent rename wins
 * the unique key).
 */
export async function renameClan(db: Db, clanId: number, newName: string): Promise<void> {
  const key = clanNameKey(newName);
  const taken = await db.selectFrom('clans').select('id').where('name_key', '=', key).where('id', '!=', clanId).executeTakeFirst();
  if (taken) throw conflict(`A clan named '${newName}' already exists.`);
  await uniqueOrConflict(`A clan named '${newName}' already exists.`, () =>
    db.updateTable('clans').set({ name: newName, name_key: key }).where('id', '=', clanId).execute());
}

/** Deletes a clan; memberships, events, teams, tasks and games go with it (ON DELETE CASCADE). */
export async function deleteClan(db: Db, clanId: number): Promise<void> {
  await db.deleteFrom('clans').where('id', '=', clanId).execute();
}

/**
 * Remembers that a manager kicked `userId` from `clanId` (docs/server.md §8), so
 * setup cannot bring them back; a second kick keeps the first row.
 */
export async function markRemoved(db: Db, clanId: number, userId: number): Promise<void> {
  await db.insertInto('clan_removals').values({ clan_id: clanId, user_id: userId, removed_at: nowIso() })
    .onConflict((oc) => oc.columns(['clan_id', 'user_id']).doNothing())
    .execute();
}

/** Lifts a kick (a manager's Add Member, docs/server.md §8). */
export async function liftRemoval(db: Db, clanId: number, userId: number): Promise<void> {
  await db.deleteFrom('clan_removals').where('clan_id', '=', clanId).where('user_id', '=', userId).execute();
}

/** True when `userId` was kicked from `clanId` and no manager has added them back since. */
export async function wasRemoved(db: Db, clanId: number, userId: number): Promise<boolean> {
  const row = await db.selectFrom('clan_removals').select('user_id').where('clan_id', '=', clanId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** Ids of the games of a clan's events (for moving its members' sockets between rooms). */
export async function listClanGameIds(db: Db, clanId: number): Promise<number[]> {
  const rows = await db.selectFrom('games').select('id').where('clan_id', '=', clanId).execute();
  return rows.map((r) => r.id);
}
