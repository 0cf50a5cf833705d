import type { SnapshotFrom } from 'xstate';
import type { clanEventsMachine } from './clanEvents.machine';

type S = SnapshotFrom<typeof clanEventsMachine>;

/** Named selectors of the clanEvents chart. */
export const selectClanEvents = (s: S) => s.context.items;
export const selectClanEventsError = (s: S) => (s.matches('failed') ? s.context.error : null);
export const selectClanEventsLoading = (s: S) => s.matches('loading');
