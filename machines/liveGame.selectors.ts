import type { SnapshotFrom } from 'xstate';
import type { liveGameMachine } from './liveGame.machine';

type S = SnapshotFrom<typeof liveGameMachine>;

/** Connection state of the live socket (docs/server.md §3): the chart's state names. */
export type ConnectionState = S['value'];

/** Named selectors of the liveGame chart (docs/architecture.md §3). */
export const selectConnectionState = (s: S) => s.value;
export const selectIsLive = (s: S) => s.matches('connected');
export const selectReconnectAttempt = (s: S) => s.context.attempt;
