import type { SnapshotFrom } from 'xstate';
import type { pendingProofsMachine } from './pendingProofs.machine';

type S = SnapshotFrom<typeof pendingProofsMachine>;

/**
 * The number of proofs waiting for review over every managed clan: 0 before the first count, the
 * last count while counting again (no flicker on a reconnect), null after a failed count.
 */
export const selectPendingTotal = (s: S) => (s.matches('failed') ? null : s.context.pending.length);

/** The clan a click on the count opens: the first managed clan with a proof waiting, else the first managed clan. */
export const selectReviewClanId = (s: S) => s.context.clanIds.find((id) => s.context.pending.some((p) => p.clanId === id)) ?? s.context.clanIds[0];
