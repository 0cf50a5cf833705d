import type { Team } from '../contract/team';
import { listLoader, type ListContext } from './listLoader';

/** The team list's own context: the team whose inline member manager is open (one at a time). */
export interface TeamRows {
  expandedTeamId: number | null;
}

export type TeamRowEvent = { type: 'team.toggleMembers'; teamId: number } | { type: 'team.memberCountChanged'; teamId: number; count: number };

export type TeamListEvent = { type: 'teams.reload' } | TeamRowEvent;

type Context = ListContext<Team> & TeamRows;

/** A reload keeps the open row only while its team is still listed. */
const keepOpenRow = (context: Context, teams: Team[]) => ({
  expandedTeamId: teams.some((t) => t.id === context.expandedTeamId) ? context.expandedTeamId : null,
});

const toggleMembers = (context: Context, e: { teamId: number }) => ({ expandedTeamId: context.expandedTeamId === e.teamId ? null : e.teamId });

const assignMemberCount = (context: Context, e: { teamId: number; count: number }) => ({
  items: context.items.map((t) => (t.id === e.teamId ? { ...t, member_count: e.count } : t)),
});

/**
 * The Event Teams view list (docs/client.md §6): the list-loader chart over
 * the `loadTeams` actor. It loads the event's teams ('Loading teams...' the first time), reloads
 * them in place on `teams.reload` after a create / edit / delete (a failed reload keeps the rows
 * beside the error), opens one team's inline member manager at a time, and keeps each row's
 * 'N Members' in step with the member manager.
 */
export const teamListMachine = listLoader<Team, 'loadTeams', 'teams.reload', TeamRows, TeamRowEvent>({
  id: 'teamList',
  actor: 'loadTeams',
  reload: 'teams.reload',
  fallback: 'Failed to fetch teams.',
  reloadFailure: 'loaded',
  extra: { expandedTeamId: null },
  onLoaded: keepOpenRow,
  update: { 'team.toggleMembers': toggleMembers, 'team.memberCountChanged': assignMemberCount },
});
