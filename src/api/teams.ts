import { request, withNetworkMessage } from './client';
import {
  TeamAnswerSchema,
  TeamDeletedAnswerSchema,
  TeamListAnswerSchema,
  TeamMemberAnswerSchema,
  TeamMemberRemovedAnswerSchema,
  TeamMembersAnswerSchema,
  type Team,
  type TeamBody,
  type TeamMember,
  type TeamMembersAnswer,
  type TeamRole,
} from '../../contract/team';

const teamsPath = (clanId: number, eventId: number) => `clan/${clanId}/events/${eventId}/teams`;
const membersPath = (clanId: number, eventId: number, teamId: number) => `${teamsPath(clanId, eventId)}/${teamId}/members`;

/**
 * GET /api/clan/{clanId}/events/{eventId}/teams/ → the event's teams (docs/server.md §3).
 * Fallbacks 'Failed to fetch teams.' / 'Network error fetching teams.' (docs/client.md §11).
 */
export async function fetchTeams(clanId: number, eventId: number): Promise<Team[]> {
  const answer = await withNetworkMessage(
    request(TeamListAnswerSchema, (h) => h.get(`${teamsPath(clanId, eventId)}/`), 'Failed to fetch teams.'),
    'Network error fetching teams.',
  );
  return answer.teams;
}

/** POST .../teams/ {name, color} → {team, message}. Fallback 'Failed to create team.' */
export function createTeam(clanId: number, eventId: number, body: TeamBody): Promise<{ team: Team; message?: string }> {
  return request(TeamAnswerSchema, (h) => h.post(`${teamsPath(clanId, eventId)}/`, { json: body }), 'Failed to create team.');
}

/** PUT .../teams/{teamId} {name, color} → {team, message}. Fallback 'Failed to update team.' */
export function updateTeam(clanId: number, eventId: number, teamId: number, body: TeamBody): Promise<{ team: Team; message?: string }> {
  return request(TeamAnswerSchema, (h) => h.put(`${teamsPath(clanId, eventId)}/${teamId}`, { json: body }), 'Failed to update team.');
}

/** DELETE .../teams/{teamId} → {ok, message}. Fallback 'Failed to delete team.' */
export function deleteTeam(clanId: number, eventId: number, teamId: number): Promise<{ ok: true; message?: string }> {
  return request(TeamDeletedAnswerSchema, (h) => h.delete(`${teamsPath(clanId, eventId)}/${teamId}`), 'Failed to delete team.');
}

/**
 * GET .../teams/{teamId}/members → {team_members, eligible_members}. Fallbacks 'Failed to fetch
 * team members and available list.' / 'Network error fetching members list.'
 */
export function fetchTeamMembers(clanId: number, eventId: number, teamId: number): Promise<TeamMembersAnswer> {
  return withNetworkMessage(
    request(TeamMembersAnswerSchema, (h) => h.get(membersPath(clanId, eventId, teamId)), 'Failed to fetch team members and available list.'),
    'Network error fetching members list.',
  );
}

/**
 * POST .../teams/{teamId}/members {osrs_ign_id, role} → {member, message: '{ign} added to team
 * {team} as a {role}.'}. Fallbacks 'Failed to add member.' / 'Network error. Failed to add member.'
 */
export function addTeamMember(
  clanId: number,
  eventId: number,
  teamId: number,
  body: { osrs_ign_id: number; role: TeamRole },
): Promise<{ member: TeamMember; message: string }> {
  return withNetworkMessage(
    request(TeamMemberAnswerSchema, (h) => h.post(membersPath(clanId, eventId, teamId), { json: body }), 'Failed to add member.'),
    'Network error. Failed to add member.',
  );
}

/**
 * PUT .../teams/{teamId}/members/{id} {role} → {member, message: 'Role updated to {role} for {ign}.'}.
 * Fallbacks 'Failed to update role for {ign}.' / 'Network error updating role.'
 */
export function updateTeamMemberRole(
  clanId: number,
  eventId: number,
  teamId: number,
  member: { id: number; osrs_ign: string },
  role: TeamRole,
): Promise<{ member: TeamMember; message: string }> {
  return withNetworkMessage(
    request(
      TeamMemberAnswerSchema,
      (h) => h.put(`${membersPath(clanId, eventId, teamId)}/${member.id}`, { json: { role } }),
      `Failed to update role for ${member.osrs_ign}.`,
    ),
    'Network error updating role.',
  );
}

/**
 * DELETE .../teams/{teamId}/members/{id} → {ok, message: '{ign} removed from team.'}.
 * Fallbacks 'Failed to remove {ign}.' / 'Network error removing member.'
 */
export function removeTeamMember(
  clanId: number,
  eventId: number,
  teamId: number,
  member: { id: number; osrs_ign: string },
): Promise<{ ok: true; message: string }> {
  return withNetworkMessage(
    request(TeamMemberRemovedAnswerSchema, (h) => h.delete(`${membersPath(clanId, eventId, teamId)}/${member.id}`), `Failed to remove ${member.osrs_ign}.`),
    'Network error removing member.',
  );
}
