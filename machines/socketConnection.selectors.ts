import type { SnapshotFrom } from 'xstate';
import type { socketConnectionMachine } from './socketConnection.machine';

type S = SnapshotFrom<typeof socketConnectionMachine>;

/** Connection state of the live socket (product-spec section 7 "Live socket"). */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

/** Named selectors of the socketConnection chart (house-style "Components"). */
export const selectConnectionState = (s: S): ConnectionState => s.value as ConnectionState;
export const selectIsLive = (s: S) => s.matches('connected');
export const selectReconnectAttempt = (s: S) => s.context.attempt;
