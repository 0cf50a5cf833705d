import type { Submission } from './submission';

/**
 * The navbar's pending-proof count (docs/server.md §9): which proofs wait for review in
 * which managed clan. A submission names its game, not its clan, so a live update is placed in a
 * clan through a game the count has already seen.
 */

/** A proof waiting for review: the submission, its clan and its game. */
export interface PendingProof {
  id: number;
  clanId: number;
  gameId: number;
}

/** The pending proofs of clan `clanId` from its referee queue (GET /api/clan/{clanId}/submissions?status=pending). */
export function pendingProofsOf(clanId: number, queue: readonly Submission[]): PendingProof[] {
  return queue.filter((s) => s.status === 'pending').map((s) => ({ id: s.id, clanId, gameId: s.game_id }));
}

/**
 * The pending proofs after a `submission_update`: any status but pending leaves; a pending one is
 * added (once) when its game is among the known ones. Null when it is pending in a game not seen
 * yet: its clan is unknown, and the count must be taken again.
 */
export function countPendingProof(pending: readonly PendingProof[], submission: Submission): PendingProof[] | null {
  const rest = pending.filter((p) => p.id !== submission.id);
  if (submission.status !== 'pending') return rest;
  const clanId = pending.find((p) => p.gameId === submission.game_id)?.clanId;
  return clanId === undefined ? null : [...rest, { id: submission.id, clanId, gameId: submission.game_id }];
}
