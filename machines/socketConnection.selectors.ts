import type { SnapshotFrom } from 'xstate';
import type { socketConnectionMachine } from './socketConnection.machine';

type S = SnapshotFrom<typeof socketConnectionMachine>;

/** Connection state of the live socket (docs/server.md §3). */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

/** Named selectors of the socketConnection chart (docs/architecture.md §3). */
export const selectConnectionState = (s: S): ConnectionState => s.value as ConnectionState;
export const selectIsLive = (s: S) => s.matches('connected');
export const selectReconnectAttempt = (s: S) => s.context.attempt;
