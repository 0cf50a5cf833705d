import type { SnapshotFrom } from 'xstate';
import type { confirmActionChart } from './confirmAction.machine';

/** A snapshot of the confirmAction chart of one use (typed by its draft and subject). */
type S<D extends object, T extends object> = SnapshotFrom<ReturnType<typeof confirmActionChart<D, T>>>;

/** Named selectors of the confirmAction chart. */
/** The modal shows while confirming, processing, failed, or on a partial success; a full success is the banner's. */
export const isModalOpen = <D extends object, T extends object>(s: S<D, T>) => s.hasTag('modalOpen') && !(s.matches('succeeded') && !s.context.partial);
/** The fading banner of a full success (the invoked banner chart), or undefined. */
export const selectResultBanner = <D extends object, T extends object>(s: S<D, T>) => s.children.message;
export const isProcessing = <D extends object, T extends object>(s: S<D, T>) => s.matches('processing');
export const isSucceeded = <D extends object, T extends object>(s: S<D, T>) => s.matches('succeeded');
export const isFailed = <D extends object, T extends object>(s: S<D, T>) => s.matches('failed');
export const selectDraft = <D extends object, T extends object>(s: S<D, T>) => s.context.draft;
export const selectSubject = <D extends object, T extends object>(s: S<D, T>) => s.context.subject;
export const selectResult = <D extends object, T extends object>(s: S<D, T>) => s.context.result;
export const isPartialResult = <D extends object, T extends object>(s: S<D, T>) => s.context.partial;
export const selectActionError = <D extends object, T extends object>(s: S<D, T>) => s.context.error;
