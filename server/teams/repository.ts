import type { Db } from '../db/schema';
import { nowIso } from '../time';
import { notFound } from '../errors';
import { byName } from '../events/shared';
import { startingTeamState } from '../games/repository';
import type { EligibleMember, Team, TeamMember, TeamRole } from '../../contract/team';
import { eligibleMemberView, teamMemberView, viewerScope, type EligibleMemberRow, type TeamMemberRow, type Viewer } from '../clans/viewer';

/** A team's stored columns. */
export interface TeamRow {
  id: number;
  event_id: number;
  name: string;
  color: string;
}

/** Team `teamId` of event `eventId`; 404 'Team ID {id} not found.' when missing or of another event. */
export async function findTeam(db: Db, eventId: number, teamId: number): Promise<TeamRow> {
  const row = await db.selectFrom('teams').select(['id', 'event_id', 'name', 'color']).where('id', '=', teamId).where('event_id', '=', eventId).executeTakeFirst();
  if (!row) throw notFound(`Team ID ${teamId} not found.`);
  return row;
}

function teamsQuery(db: Db) {
  return db.selectFrom('teams')
    .select(['teams.id', 'teams.name', 'teams.color', 'teams.discord_role_id'])
    .select((eb) => eb.selectFrom('team_members').select(eb.fn.countAll<number>().as('n')).whereRef('team_members.team_id', '=', 'teams.id').as('member_count'));
}

const toTeam = (r: { id: number; name: string; color: string; member_count: number | string | null; discord_role_id: string | null }): Team => ({
  id: r.id,
  name: r.name,
  color: r.color,
  member_count: Number(r.member_count ?? 0),
  discord_role_id: r.discord_role_id,
});

/** The teams of an event with their member counts (docs/game-rules.md §12), oldest first. */
export async function listTeams(db: Db, eventId: number): Promise<Team[]> {
  const rows = await teamsQuery(db).where('teams.event_id', '=', eventId).orderBy('teams.id').execute();
  return rows.map(toTeam);
}

/** One team in the answer shape; assumes it exists. */
export async function loadTeam(db: Db, teamId: number): Promise<Team> {
  return toTeam(await teamsQuery(db).where('teams.id', '=', teamId).executeTakeFirstOrThrow());
}

/** The team of the event whose name equals `name` case-insensitively, other than `exceptId`, or null. */
export async function teamNamedLike(db: Db, eventId: number, name: string, exceptId?: number): Promise<TeamRow | null> {
  const rows = await db.selectFrom('teams').select(['id', 'event_id', 'name', 'color']).where('event_id', '=', eventId).execute();
  const key = name.toLowerCase();
  return rows.find((r) => r.name.toLowerCase() === key && r.id !== exceptId) ?? null;
}

/** Inserts a team with its Discord role id (null for none; docs/server.md §19); returns its id. */
export async function insertTeam(db: Db, eventId: number, name: string, color: string, discordRoleId: string | null = null): Promise<number> {
  const row = await db.insertInto('teams').values({ event_id: eventId, name, color, discord_role_id: discordRoleId, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Renames and recolours a team, and sets its Discord role id unless `discordRoleId` is undefined (docs/server.md §19). */
export async function updateTeam(db: Db, teamId: number, name: string, color: string, discordRoleId?: string | null): Promise<void> {
  await db.updateTable('teams').set({ name, color, ...(discordRoleId === undefined ? {} : { discord_role_id: discordRoleId }) }).where('id', '=', teamId).execute();
}

/** Deletes a team with its members, its game state and its proof submissions. */
export async function deleteTeam(db: Db, teamId: number): Promise<void> {
  await db.deleteFrom('submissions').where('team_id', '=', teamId).execute();
  await db.deleteFrom('team_members').where('team_id', '=', teamId).execute();
  await db.deleteFrom('team_states').where('team_id', '=', teamId).execute();
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
}

/**
 * Gives a new team its state in the event's game (docs/server.md §5: position 1,
 * history [1], no reverts) and moves a PENDING game to READY; bumps the game's version.
 */
export async function addTeamToGame(db: Db, game: { id: number; status: string }, teamId: number): Promise<void> {
  await db.insertInto('team_states').values({ game_id: game.id, team_id: teamId, ...startingTeamState() }).execute();
  await db.updateTable('games')
    .set((eb) => ({
      status: game.status === 'PENDING' ? 'READY' : game.status,
      version: eb('version', '+', 1),
      updated_at: nowIso(),
    }))
    .where('id', '=', game.id)
    .execute();
}

/** Bumps a game's version after a change of its team set (a team deleted). */
export async function bumpGameVersion(db: Db, gameId: number): Promise<void> {
  await db.updateTable('games').set((eb) => ({ version: eb('version', '+', 1), updated_at: nowIso() })).where('id', '=', gameId).execute();
}

function membersQuery(db: Db) {
  return db.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .leftJoin('discord_identities', 'discord_identities.user_id', 'igns.user_id')
    .select(['team_members.id', 'igns.ign as osrs_ign', 'igns.id as osrs_ign_id', 'team_members.role', 'igns.user_id', 'discord_identities.discord_id']);
}

/** Rows of membersQuery as `viewer` may see them (teamMemberView, docs/server.md §18). */
async function membersFor(db: Db, rows: TeamMemberRow[], viewer: Viewer): Promise<TeamMember[]> {
  const scope = await viewerScope(db, viewer, rows.map((r) => r.user_id));
  return rows.map((r) => teamMemberView(r, scope));
}

/** A team's member rows, sorted by IGN (ties by id). */
async function teamRows(db: Db, teamId: number): Promise<TeamMemberRow[]> {
  const rows = await membersQuery(db).where('team_members.team_id', '=', teamId).execute();
  return rows.sort((a, b) => byName(a.osrs_ign, b.osrs_ign) || a.id - b.id);
}

/** The members of a team (docs/game-rules.md §12), sorted by IGN, as `viewer` may see them. */
export async function listTeamMembers(db: Db, teamId: number, viewer: Viewer): Promise<TeamMember[]> {
  return membersFor(db, await teamRows(db, teamId), viewer);
}

/** The IGNs and roles of a team's members, sorted by IGN: what `team_update` tells the rooms (no one's discord_id). */
export async function listTeamIgns(db: Db, teamId: number): Promise<{ osrs_ign_id: number; osrs_ign: string; role: TeamRole }[]> {
  return (await teamRows(db, teamId)).map((r) => ({ osrs_ign_id: r.osrs_ign_id, osrs_ign: r.osrs_ign, role: r.role as TeamRole }));
}

/** Team member `memberId` of team `teamId` as `viewer` may see it; 404 'Team member ID {id} not found.' otherwise. */
export async function findTeamMember(db: Db, teamId: number, memberId: number, viewer: Viewer): Promise<TeamMember> {
  const row = await membersQuery(db).where('team_members.id', '=', memberId).where('team_members.team_id', '=', teamId).executeTakeFirst();
  if (!row) throw notFound(`Team member ID ${memberId} not found.`);
  return (await membersFor(db, [row], viewer))[0];
}

/**
 * Clan members with their IGNs that are on no team of the event (docs/game-rules.md
 * §12): users sorted by name, their IGNs sorted by name; users with none left omitted; as
 * `viewer` may see them (eligibleMemberView, docs/server.md §18).
 */
export async function eligibleMembers(db: Db, clanId: number, eventId: number, viewer: Viewer): Promise<EligibleMember[]> {
  const rows = await db.selectFrom('clan_memberships')
    .innerJoin('users', 'users.id', 'clan_memberships.user_id')
    .innerJoin('igns', 'igns.user_id', 'clan_memberships.user_id')
    .leftJoin('discord_identities', 'discord_identities.user_id', 'clan_memberships.user_id')
    .select(['users.id as user_id', 'users.username', 'discord_identities.discord_id', 'igns.id as ign_id', 'igns.ign'])
    .where('clan_memberships.clan_id', '=', clanId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('team_members').select('team_members.id').whereRef('team_members.ign_id', '=', 'igns.id').where('team_members.event_id', '=', eventId))))
    .execute();
  const byUser = new Map<number, EligibleMemberRow>();
  for (const r of rows) {
    let m = byUser.get(r.user_id);
    if (!m) {
      m = { discord_id: r.discord_id, discord_username: r.username, user_id: r.user_id, osrs_accounts: [] };
      byUser.set(r.user_id, m);
    }
    m.osrs_accounts.push({ id: r.ign_id, ign: r.ign });
  }
  const out = [...byUser.values()];
  for (const m of out) m.osrs_accounts.sort((a, b) => byName(a.ign, b.ign) || a.id - b.id);
  const scope = await viewerScope(db, viewer, out.map((m) => m.user_id));
  return out.sort((a, b) => byName(a.discord_username, b.discord_username) || a.user_id - b.user_id).map((m) => eligibleMemberView(m, scope));
}

/** An IGN with whether its owner is a member of the clan; null when no such IGN. */
export async function ignForClan(db: Db, clanId: number, ignId: number): Promise<{ id: number; ign: string; inClan: boolean } | null> {
  const row = await db.selectFrom('igns')
    .leftJoin('clan_memberships', (j) => j.onRef('clan_memberships.user_id', '=', 'igns.user_id').on('clan_memberships.clan_id', '=', clanId))
    .select(['igns.id', 'igns.ign', 'clan_memberships.id as membership_id'])
    .where('igns.id', '=', ignId)
    .executeTakeFirst();
  return row ? { id: row.id, ign: row.ign, inClan: row.membership_id !== null } : null;
}

/** The team of the event that the IGN is on, or null (an IGN is on at most one team per event). */
export async function teamOfIgn(db: Db, eventId: number, ignId: number): Promise<{ id: number; name: string } | null> {
  const row = await db.selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['teams.id', 'teams.name'])
    .where('team_members.event_id', '=', eventId)
    .where('team_members.ign_id', '=', ignId)
    .executeTakeFirst();
  return row ?? null;
}

/** Adds an IGN to a team; returns the team membership id. */
export async function insertTeamMember(db: Db, team: TeamRow, ignId: number, role: TeamRole): Promise<number> {
  const row = await db.insertInto('team_members')
    .values({ team_id: team.id, event_id: team.event_id, ign_id: ignId, role, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Changes a team member's role. */
export async function updateTeamMemberRole(db: Db, memberId: number, role: TeamRole): Promise<void> {
  await db.updateTable('team_members').set({ role }).where('id', '=', memberId).execute();
}

/** Removes a team member. */
export async function deleteTeamMember(db: Db, memberId: number): Promise<void> {
  await db.deleteFrom('team_members').where('id', '=', memberId).execute();
}
