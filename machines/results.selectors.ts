import type { SnapshotFrom } from 'xstate';
import { isGameOn, type resultsMachine } from './results.machine';

type S = SnapshotFrom<typeof resultsMachine>;

/** Named selectors of the results chart. selectResults: the results on screen (loaded, and kept while they are read again). */
export const selectResults = (s: S) => (s.matches('loaded') || s.matches('refreshing') ? s.context.data : null);
export const selectIsLoading = (s: S) => s.matches('loading');
export const selectIsNotFound = (s: S) => s.matches('notFound');
export const selectLoadError = (s: S) => (s.matches('failed') ? s.context.error : null);
/** The game is still on: its results are read again every RESULTS_REFRESH_MS (the chart's own condition). */
export const selectIsGameOn = (s: S) => isGameOn(s.context);
