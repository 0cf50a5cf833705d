import type { SnapshotFrom } from 'xstate';
import type { progressCheckMachine } from './progressCheck.machine';

type S = SnapshotFrom<typeof progressCheckMachine>;

/** Selectors of the progressCheck chart ('Check now', docs/client.md §9). */
export const isCheckAsking = (s: S) => s.hasTag('busy');
/** Seconds left of the wait, or null outside it. */
export const selectCheckWaitLeft = (s: S) => (s.matches('waiting') ? s.context.waitLeft : null);
/** The server's 429 text while its wait runs, else null. */
export const selectCheckRefusal = (s: S) => (s.matches('waiting') ? s.context.refusal : null);
/** The text of the last failed ask, else null. */
export const selectCheckError = (s: S) => s.context.error;
