import type { SnapshotFrom } from 'xstate';
import type { confirmActionMachine } from './confirmAction.machine';

type S = SnapshotFrom<typeof confirmActionMachine>;

/** Named selectors of the confirmAction chart. */
export const isModalOpen = (s: S) => s.hasTag('modalOpen');
export const isProcessing = (s: S) => s.matches('processing');
export const isSucceeded = (s: S) => s.matches('succeeded');
export const isFailed = (s: S) => s.matches('failed');
export const selectDraft = (s: S) => s.context.draft;
export const selectSubject = (s: S) => s.context.subject;
export const selectResult = (s: S) => s.context.result;
export const selectActionError = (s: S) => s.context.error;
