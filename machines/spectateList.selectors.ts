import type { SnapshotFrom } from 'xstate';
import type { spectateListMachine } from './spectateList.machine';

type S = SnapshotFrom<typeof spectateListMachine>;

/** Named selectors of the spectateList chart. */
export const selectSpectateGames = (s: S) => s.context.items;
export const selectSpectateError = (s: S) => (s.matches('failed') ? s.context.error : null);
export const selectIsFirstLoad = (s: S) => s.matches('loading');
export const selectHasLoaded = (s: S) => !s.matches('loading');
