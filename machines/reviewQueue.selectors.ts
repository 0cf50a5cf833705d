import type { SnapshotFrom } from 'xstate';
import type { reviewQueueMachine } from './reviewQueue.machine';

type S = SnapshotFrom<typeof reviewQueueMachine>;

/** Named selectors of the reviewQueue chart. */
export const selectQueue = (s: S) => s.context.items;
export const selectPendingCount = (s: S) => (s.matches({ watching: 'list' }) ? s.context.items.length : null);
export const selectSelectedId = (s: S) => s.context.selectedId;
export const selectRecentReviews = (s: S) => s.context.recent;
export const selectQueueError = (s: S) => (s.matches({ watching: 'failed' }) ? s.context.error : null);
export const selectActionError = (s: S) => s.context.actionError;
export const selectDenyReason = (s: S) => s.context.reason;
export const selectDenyId = (s: S) => s.context.denyId;
export const selectSoundOn = (s: S) => s.context.soundOn;
export const selectNow = (s: S) => s.context.now;
export const isQueueLoading = (s: S) => s.matches({ watching: 'loading' });
export const isQueueListed = (s: S) => s.matches({ watching: 'list' });
export const isDenyOpen = (s: S) => s.hasTag('modalOpen');
/** A review or undo is under way (the buttons wait). */
export const isReviewBusy = (s: S) => s.matches({ watching: { list: 'reviewing' } }) || s.matches({ watching: { list: 'undoing' } });
/** The submission under review or undo, or null. */
export const selectRequestId = (s: S) => s.context.request?.submissionId ?? null;
/** Deny may be confirmed: a reason of 1 to 300 characters (derived with `can`). */
export const canConfirmDeny = (s: S) => s.can({ type: 'review.confirmDeny' });
/** 'Needs a person' is on. */
export const selectNeedsPerson = (s: S) => s.context.needsPerson;
/** The queue as shown: with 'Needs a person' on, only pending submissions not approved automatically. */
export const selectShownQueue = (s: S) => (s.context.needsPerson ? s.context.items.filter((i) => i.status === 'pending' && !i.auto) : s.context.items);
/** The automatic approvals shown (none with 'Needs a person' on). */
export const selectShownAutoApproved = (s: S) => (s.context.needsPerson ? NONE : s.context.autoApproved);
const NONE: never[] = [];
