import * as teamsApi from '../../api/teams';

/**
 * The calls of the Event Teams view and its member manager (docs/server.md §3), replaceable in
 * tests; kept apart from both views so neither imports the other for it.
 */
export interface TeamsEffects {
  fetchTeams: typeof teamsApi.fetchTeams;
  createTeam: typeof teamsApi.createTeam;
  updateTeam: typeof teamsApi.updateTeam;
  deleteTeam: typeof teamsApi.deleteTeam;
  fetchTeamMembers: typeof teamsApi.fetchTeamMembers;
  addTeamMember: typeof teamsApi.addTeamMember;
  updateTeamMemberRole: typeof teamsApi.updateTeamMemberRole;
  removeTeamMember: typeof teamsApi.removeTeamMember;
}

/** The real calls. */
export const liveTeamsEffects: TeamsEffects = {
  fetchTeams: teamsApi.fetchTeams,
  createTeam: teamsApi.createTeam,
  updateTeam: teamsApi.updateTeam,
  deleteTeam: teamsApi.deleteTeam,
  fetchTeamMembers: teamsApi.fetchTeamMembers,
  addTeamMember: teamsApi.addTeamMember,
  updateTeamMemberRole: teamsApi.updateTeamMemberRole,
  removeTeamMember: teamsApi.removeTeamMember,
};
