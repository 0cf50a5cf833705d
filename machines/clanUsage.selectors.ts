import type { SnapshotFrom } from 'xstate';
import type { clanUsageMachine } from './clanUsage.machine';

type S = SnapshotFrom<typeof clanUsageMachine>;

/** Named selectors of the clanUsage chart: reading now, the failure text (only while failed), the last figures. */
export const isUsageLoading = (s: S) => s.hasTag('busy');
export const selectUsageError = (s: S) => (s.matches('failed') ? s.context.error : null);
export const selectUsage = (s: S) => s.context.usage;
