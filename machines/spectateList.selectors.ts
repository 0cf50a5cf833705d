import type { SnapshotFrom } from 'xstate';
import type { spectateListMachine } from './spectateList.machine';

type S = SnapshotFrom<typeof spectateListMachine>;

/** Named selectors of the spectateList chart. */
export const selectSpectateGames = (s: S) => s.context.games;
export const selectSpectateError = (s: S) => (s.matches('failed') ? s.context.error : null);
export const selectIsFirstLoad = (s: S) => s.matches('loading');
export const selectIsRefreshing = (s: S) => s.matches('refreshing');
export const selectHasLoaded = (s: S) => s.matches('showing') || s.matches('refreshing') || s.matches('failed');
