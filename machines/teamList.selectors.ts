import type { SnapshotFrom } from 'xstate';
import type { teamListMachine } from './teamList.machine';

type S = SnapshotFrom<typeof teamListMachine>;

/** Named selectors of the teamList chart. */
export const selectTeams = (s: S) => s.context.items;
export const selectTeamsError = (s: S) => s.context.error;
export const selectTeamsLoading = (s: S) => s.matches('loading');
export const selectTeamsFailed = (s: S) => s.matches('failed');
export const selectExpandedTeamId = (s: S) => s.context.expandedTeamId;
