import { Hono, type Context } from 'hono';
import { imageKeysOf } from '../submissions/repository';
import { deleteImages } from '../submissions/service';
import type { AppEnv } from '../http/context';
import type { Db } from '../db/schema';
import { ids, named, route, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { badRequest, conflict, notFound } from '../errors';
import { recordAudit } from '../audit/service';
import { lockEvent } from '../db/locks';
import { uniqueOrConflict } from '../db/uniqueKey';
import { findEvent, gameOfEvent } from '../events/repository';
import {
  addTeamToGame,
  bumpGameVersion,
  deleteTeam,
  deleteTeamMember,
  eligibleMembers,
  findTeam,
  findTeamMember,
  ignForClan,
  insertTeam,
  insertTeamMember,
  listTeamMembers,
  listTeams,
  loadTeam,
  teamNamedLike,
  teamOfIgn,
  updateTeam,
  updateTeamMemberRole,
} from './repository';
import { broadcastTeamChange } from './service';
import {
  AddTeamMemberBodySchema,
  TeamAnswerSchema,
  TeamBodySchema,
  TeamDeletedAnswerSchema,
  TeamListAnswerSchema,
  TeamMemberAnswerSchema,
  TeamMemberRemovedAnswerSchema,
  TeamMembersAnswerSchema,
  UpdateTeamMemberBodySchema,
  teamCreatedMessage,
  teamDeletedMessage,
  teamMemberAddedMessage,
  teamMemberRemovedMessage,
  teamRoleUpdatedMessage,
  teamUpdatedMessage,
} from '../../contract/team';

/** The path ids of the team routes: 400 'Invalid clan id.', 'Invalid event id.', 'Invalid team id.', 'Invalid team member id.'. */
const EVENT_IDS = ids({ clanId: 'clan id', eventId: 'event id' });
const TEAM_IDS = ids({ clanId: 'clan id', eventId: 'event id', teamId: 'team id' });
const TEAM_MEMBER_IDS = ids({ clanId: 'clan id', eventId: 'event id', teamId: 'team id', memberId: 'team member id' });

/** The ids a team route's path holds (input('param', ...) of EVENT_IDS, TEAM_IDS or TEAM_MEMBER_IDS). */
type ScopeContext = Context<AppEnv, string, { out: { param: { clanId: number; eventId: number; teamId?: number; memberId?: number } } }>;

const TeamBody = named('TeamBody', TeamBodySchema);
const TeamAnswer = named('TeamAnswer', TeamAnswerSchema);
const TeamMemberAnswer = named('TeamMemberAnswer', TeamMemberAnswerSchema);

/**
 * The signed-in user, the path's clan and event, checked: 401 signed out, 400 bad ids, 404 missing
 * clan, 403 non-member (or non-manager when `manager`), 404 'Event ID {id} not found.' for an
 * event of another clan. Also the caller's role in the clan: what they see of people (docs/server.md §18).
 */
async function eventScope(c: ScopeContext, manager: boolean) {
  const { user, role, clanId, eventId, teamId = null, memberId = null, db } = await clanScope(c, manager ? 'manager' : 'member');
  const event = await findEvent(db, clanId, eventId);
  return { user, role, clanId, eventId, event, teamId, memberId };
}

/** As eventScope, plus the path's team of that event (404 'Team ID {id} not found.' otherwise). */
async function teamScope(c: ScopeContext, manager: boolean) {
  const scope = await eventScope(c, manager);
  const team = await findTeam(c.get('deps').db, scope.eventId, scope.teamId as number);
  return { ...scope, team };
}

/**
 * Teams of an event and their members (docs/game-rules.md §12 Team / Team member / Eligible
 * member, 4 Team membership, 5 Teams, 7 Teams; docs/server.md §4). Members read,
 * managers change; errors as eventScope, 404 for a team or team member of another event or team.
 * Every path also answers with a trailing slash. After each change, when the event has a game,
 * the team is broadcast (`team_update`).
 * - GET /clan/{clanId}/events/{eventId}/teams/ → {teams: [{id, name, color, member_count, discord_role_id}]}, oldest first
 * - POST same path {name, color, discord_role_id?} → {team, message}; name trimmed 1-50 ('Team name is required.'),
 *   unique in the event case-insensitively (409); colour `#rrggbb` (400). With a game the team gets
 *   its team state at once and a PENDING game becomes READY
 * - PUT .../teams/{teamId} {name, color, discord_role_id?} → {team, message}; discord_role_id 17-20
 *   digits or null (400 otherwise; absent keeps it; docs/server.md §19 "Team pings")
 * - DELETE .../teams/{teamId} → {ok: true, message}; its members and team state go with it
 * - GET .../teams/{teamId}/members → {team_members: [{id, osrs_ign, osrs_ign_id, role, discord_id}],
 *   eligible_members: [{discord_id, discord_username, user_id, osrs_accounts: [{id, ign}]}]}
 * - POST .../teams/{teamId}/members {osrs_ign_id, role: 'Member'|'Leader'} →
 *   {member, message: '{ign} added to team {team} as a {role}.'}; 404 unknown IGN, 400 IGN of a
 *   non-member of the clan, 409 IGN already on a team of this event
 * - PUT .../teams/{teamId}/members/{id} {role} → {member, message: 'Role updated to {role} for {ign}.'}
 * - DELETE .../teams/{teamId}/members/{id} → {ok: true, message: '{ign} removed from team.'}
 */
export function teamRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/clan/:clanId/events/:eventId/teams',
    ...route({ tag: 'teams', access: 'member', summary: "The event's teams, oldest first.", answer: named('TeamListAnswer', TeamListAnswerSchema), param: EVENT_IDS }),
    async (c) => {
      const { eventId } = await eventScope(c, false);
      return c.json({ teams: await listTeams(c.get('deps').db, eventId) });
    },
  );

  app.post(
    '/clan/:clanId/events/:eventId/teams',
    ...route({ tag: 'teams', access: 'manager', summary: 'Creates a team.', answer: TeamAnswer, param: EVENT_IDS, json: TeamBody }),
    async (c) => {
      const { user, clanId, eventId, event } = await eventScope(c, true);
      const body = valid(c, 'json');
      const deps = c.get('deps');
      const teamId = await deps.db.transaction().execute(async (trx) => {
        await lockEvent(trx, deps.dialect, eventId);
        if (await teamNamedLike(trx, eventId, body.name)) throw conflict(`A team named '${body.name}' already exists for this event.`);
        const id = await insertTeam(trx, eventId, body.name, body.color, body.discord_role_id ?? null);
        await recordAudit(trx, clanId, user.id, 'team.create', body.name, `In ${event.name}`);
        const game = await gameOfEvent(trx, eventId);
        if (game) await addTeamToGame(trx, game, id);
        return id;
      });
      const team = await loadTeam(deps.db, teamId);
      await broadcastTeamChange(deps, eventId, team, { teamSetChanged: true });
      return c.json({ team, message: teamCreatedMessage(team.name) });
    },
  );

  app.put(
    '/clan/:clanId/events/:eventId/teams/:teamId',
    ...route({ tag: 'teams', access: 'manager', summary: 'Renames or recolours a team.', answer: TeamAnswer, param: TEAM_IDS, json: TeamBody }),
    async (c) => {
      const { user, clanId, eventId, event, team } = await teamScope(c, true);
      const body = valid(c, 'json');
      const deps = c.get('deps');
      await deps.db.transaction().execute(async (trx) => {
        await lockEvent(trx, deps.dialect, eventId);
        if (await teamNamedLike(trx, eventId, body.name, team.id)) throw conflict(`A team named '${body.name}' already exists for this event.`);
        await updateTeam(trx, team.id, body.name, body.color, body.discord_role_id);
        await recordAudit(trx, clanId, user.id, 'team.update', body.name, `${team.name === body.name ? 'Colour changed' : `Renamed from ${team.name}`} in ${event.name}`);
      });
      const saved = await loadTeam(deps.db, team.id);
      await broadcastTeamChange(deps, eventId, saved);
      return c.json({ team: saved, message: teamUpdatedMessage(saved.name) });
    },
  );

  app.delete(
    '/clan/:clanId/events/:eventId/teams/:teamId',
    ...route({ tag: 'teams', access: 'manager', summary: 'Deletes a team with its members.', answer: named('TeamDeletedAnswer', TeamDeletedAnswerSchema), param: TEAM_IDS }),
    async (c) => {
      const { user, clanId, eventId, event, team } = await teamScope(c, true);
      const deps = c.get('deps');
      const imageKeys = await deps.db.transaction().execute(async (trx) => {
        const keys = await imageKeysOf(trx, { teamId: team.id });
        await deleteTeam(trx, team.id);
        await recordAudit(trx, clanId, user.id, 'team.delete', team.name, `Deleted from ${event.name}`);
        const game = await gameOfEvent(trx, eventId);
        if (game) await bumpGameVersion(trx, game.id);
        return keys;
      });
      await deleteImages(deps, imageKeys);
      await broadcastTeamChange(deps, eventId, team, { deleted: true, teamSetChanged: true });
      return c.json({ ok: true as const, message: teamDeletedMessage(team.name) });
    },
  );

  app.get(
    '/clan/:clanId/events/:eventId/teams/:teamId/members',
    ...route({ tag: 'teams', access: 'member', summary: "The team's members and the clan members who may join it.", answer: named('TeamMembersAnswer', TeamMembersAnswerSchema), param: TEAM_IDS }),
    async (c) => {
      const scope = await teamScope(c, false);
      const { clanId, eventId, team } = scope;
      const { db } = c.get('deps');
      const [team_members, eligible_members] = await Promise.all([listTeamMembers(db, team.id, scope), eligibleMembers(db, clanId, eventId, scope)]);
      return c.json({ team_members, eligible_members });
    },
  );

  app.post(
    '/clan/:clanId/events/:eventId/teams/:teamId/members',
    ...route({ tag: 'teams', access: 'manager', summary: 'Adds an IGN to the team as Member or Leader.', answer: TeamMemberAnswer, param: TEAM_IDS, json: named('AddTeamMemberBody', AddTeamMemberBodySchema) }),
    async (c) => {
      const scope = await teamScope(c, true);
      const { clanId, eventId, team } = scope;
      const body = valid(c, 'json');
      const deps = c.get('deps');
      const memberId = await deps.db.transaction().execute(async (trx) => {
        await lockEvent(trx, deps.dialect, eventId);
        const ign = await ignForClan(trx, clanId, body.osrs_ign_id);
        if (!ign) throw notFound(`IGN ID ${body.osrs_ign_id} not found.`);
        if (!ign.inClan) throw badRequest(`The IGN '${ign.ign}' does not belong to a member of this clan.`);
        await refuseIfOnTeam(trx, eventId, ign);
        const id = await uniqueOrConflict(`${ign.ign} is already on a team of this event.`, () => insertTeamMember(trx, team, ign.id, body.role));
        await recordAudit(trx, clanId, scope.user.id, 'team.member.add', ign.ign, `Added to ${team.name} as ${body.role}`);
        return id;
      });
      const member = await findTeamMember(deps.db, team.id, memberId, scope);
      await broadcastTeamChange(deps, eventId, team);
      return c.json({ member, message: teamMemberAddedMessage(member.osrs_ign, team.name, member.role) });
    },
  );

  app.put(
    '/clan/:clanId/events/:eventId/teams/:teamId/members/:memberId',
    ...route({ tag: 'teams', access: 'manager', summary: "Changes a team member's role.", answer: TeamMemberAnswer, param: TEAM_MEMBER_IDS, json: named('UpdateTeamMemberBody', UpdateTeamMemberBodySchema) }),
    async (c) => {
      const scope = await teamScope(c, true);
      const { eventId, team, memberId } = scope;
      const deps = c.get('deps');
      const existing = await findTeamMember(deps.db, team.id, memberId as number, scope);
      const { role } = valid(c, 'json');
      await updateTeamMemberRole(deps.db, existing.id, role);
      await recordAudit(deps.db, scope.clanId, scope.user.id, 'team.member.role', existing.osrs_ign, `${existing.role} → ${role} on ${team.name}`);
      const member = { ...existing, role };
      await broadcastTeamChange(deps, eventId, team);
      return c.json({ member, message: teamRoleUpdatedMessage(role, member.osrs_ign) });
    },
  );

  app.delete(
    '/clan/:clanId/events/:eventId/teams/:teamId/members/:memberId',
    ...route({ tag: 'teams', access: 'manager', summary: 'Removes a member from the team.', answer: named('TeamMemberRemovedAnswer', TeamMemberRemovedAnswerSchema), param: TEAM_MEMBER_IDS }),
    async (c) => {
      const scope = await teamScope(c, true);
      const { eventId, team, memberId } = scope;
      const deps = c.get('deps');
      const existing = await findTeamMember(deps.db, team.id, memberId as number, scope);
      await deleteTeamMember(deps.db, existing.id);
      await recordAudit(deps.db, scope.clanId, scope.user.id, 'team.member.remove', existing.osrs_ign, `Removed from ${team.name}`);
      await broadcastTeamChange(deps, eventId, team);
      return c.json({ ok: true as const, message: teamMemberRemovedMessage(existing.osrs_ign) });
    },
  );

  return app;
}

/** 409 '{ign} is already on team {team} for this event.' when the IGN is on a team of the event. */
async function refuseIfOnTeam(db: Db, eventId: number, ign: { id: number; ign: string }): Promise<void> {
  const other = await teamOfIgn(db, eventId, ign.id);
  if (other) throw conflict(`${ign.ign} is already on team ${other.name} for this event.`);
}

