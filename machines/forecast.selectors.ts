import type { SnapshotFrom } from 'xstate';
import type { forecastMachine } from './forecast.machine';

type S = SnapshotFrom<typeof forecastMachine>;

/** Named selectors of the forecast chart. */
export const selectForecast = (s: S) => s.context.forecast;
export const selectChanceHistory = (s: S) => s.context.history;
