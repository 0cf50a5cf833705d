import { assign, fromPromise, setup } from 'xstate';
import type { Team } from '../contract/team';

export interface TeamListContext {
  teams: Team[];
  error: string | null;
  /** The team whose inline member manager is open (one at a time). */
  expandedTeamId: number | null;
}

export type TeamListEvent =
  | { type: 'teams.reload' }
  | { type: 'team.toggleMembers'; teamId: number }
  | { type: 'team.memberCountChanged'; teamId: number; count: number };

/**
 * The Event Teams view list (product-spec section 2 Event Teams view): loads the event's teams
 * ('Loading teams...' the first time), reloads them in place after a create / edit / delete, opens
 * one team's inline member manager at a time, and keeps each row's 'N Members' in step with the
 * member manager. Effect: the `loadTeams` actor.
 */
export const teamListMachine = setup({
  types: {
    context: {} as TeamListContext,
    events: {} as TeamListEvent,
  },
  actors: {
    loadTeams: fromPromise<Team[], void>(async () => {
      throw new Error("teamList machine: actor 'loadTeams' was not provided");
    }),
  },
  actions: {
    assignTeams: assign(({ context }, teams: Team[]) => ({
      teams,
      error: null,
      expandedTeamId: teams.some((t) => t.id === context.expandedTeamId) ? context.expandedTeamId : null,
    })),
    assignLoadError: assign((_, error: unknown) => ({
      error: error instanceof Error && error.message ? error.message : 'Failed to fetch teams.',
    })),
    toggleMembers: assign(({ context }, teamId: number) => ({ expandedTeamId: context.expandedTeamId === teamId ? null : teamId })),
    assignMemberCount: assign(({ context }, e: { teamId: number; count: number }) => ({
      teams: context.teams.map((t) => (t.id === e.teamId ? { ...t, member_count: e.count } : t)),
    })),
  },
}).createMachine({
  id: 'teamList',
  context: { teams: [], error: null, expandedTeamId: null },
  initial: 'loading',
  on: {
    'team.toggleMembers': { actions: { type: 'toggleMembers', params: ({ event }) => event.teamId } },
    'team.memberCountChanged': { actions: { type: 'assignMemberCount', params: ({ event }) => event } },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadTeams',
        src: 'loadTeams',
        onDone: { target: 'ready', actions: { type: 'assignTeams', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    ready: {
      on: { 'teams.reload': 'refreshing' },
    },
    refreshing: {
      tags: ['busy'],
      invoke: {
        id: 'loadTeams',
        src: 'loadTeams',
        onDone: { target: 'ready', actions: { type: 'assignTeams', params: ({ event }) => event.output } },
        onError: { target: 'ready', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    failed: {
      on: { 'teams.reload': 'loading' },
    },
  },
});
