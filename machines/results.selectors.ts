import type { SnapshotFrom } from 'xstate';
import type { resultsMachine } from './results.machine';

type S = SnapshotFrom<typeof resultsMachine>;

/** Named selectors of the results chart. */
export const selectResults = (s: S) => (s.matches('loaded') ? s.context.data : null);
export const selectIsLoading = (s: S) => s.matches('loading');
export const selectIsNotFound = (s: S) => s.matches('notFound');
export const selectLoadError = (s: S) => (s.matches('failed') ? s.context.error : null);
