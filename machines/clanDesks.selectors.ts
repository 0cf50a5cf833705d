import type { SnapshotFrom } from 'xstate';
import type { clanDesksMachine } from './clanDesks.machine';

type S = SnapshotFrom<typeof clanDesksMachine>;

/** Named selectors of the clanDesks chart. */
export const selectClanDesks = (s: S) => s.context.items;
export const selectClanDesksError = (s: S) => (s.matches('failed') ? s.context.error : null);
export const selectClanDesksLoading = (s: S) => s.matches('loading');
