import * as v from 'valibot';
import { fromCallback } from 'xstate';
import { SubmissionAnswerSchema, type Submission } from '../../contract/submission';
import type { PendingProofsEvent } from '../../machines/pendingProofs.machine';
import type { ReviewQueueEvent } from '../../machines/reviewQueue.machine';
import { openFeed, openGameSocket, type GameSocketLike } from './gameSocket';

/** What a watch of the managers rooms reports: a changed submission, or that the queue must be loaded again. */
type ReviewFeedEvent = { type: 'reviews.reload' } | { type: 'submission.updated'; submission: Submission };

/**
 * Watches the managers rooms of `clanIds` (docs/server.md §9): opens a socket with `open`,
 * joins each room with `join_reviews` {clan_id} on every connect (and reconnect, after which it
 * asks for `reviews.reload`), and reports each `submission_update` parsed with the contract schema
 * as `submission.updated`. With `reloadOnJoin`, it asks for `reviews.reload` once the server has
 * acknowledged every join of a connect, the first one included: a load taken before the join may
 * miss a submission sent before updates started to arrive. A socket that is not connecting yet
 * connects when the page is idle (connectWhenIdle). Returns the stop, which releases the socket
 * (a lease on the tab's one socket: see openGameSocket).
 */
function watchReviews(open: () => GameSocketLike, clanIds: readonly number[], sendBack: (event: ReviewFeedEvent) => void, reloadOnJoin = false): () => void {
  let connects = 0;
  // A reconnect joins again and reloads: updates sent while away are not replayed.
  const onConnect = (socket: GameSocketLike) => {
    const connect = ++connects;
    let waiting = clanIds.length;
    // Acknowledgements of an earlier connect's joins are stale once the socket connected again.
    const joined = () => {
      if (--waiting === 0 && connect === connects) sendBack({ type: 'reviews.reload' });
    };
    for (const clanId of clanIds) {
      if (reloadOnJoin) socket.emit('join_reviews', { clan_id: clanId }, joined);
      else socket.emit('join_reviews', { clan_id: clanId });
    }
    if (!reloadOnJoin && connect > 1) sendBack({ type: 'reviews.reload' });
  };
  const onUpdate = (payload: unknown) => {
    const parsed = v.safeParse(SubmissionAnswerSchema, payload);
    if (parsed.success) sendBack({ type: 'submission.updated', submission: parsed.output.submission });
    else console.warn('[socket] ignored a malformed submission_update payload', v.flatten(parsed.issues));
  };
  const feed = openFeed(open, onConnect, [['submission_update', onUpdate]]);
  return () => feed.stop();
}

/** The `reviewFeed` actor of the reviewQueue chart: watchReviews over the clan's managers room. */
export function reviewFeedActor(open: () => GameSocketLike = openGameSocket) {
  return fromCallback<ReviewQueueEvent, { clanId: number }>(({ sendBack, input }) => watchReviews(open, [input.clanId], sendBack));
}

/**
 * The `reviewFeed` actor of the pendingProofs chart: watchReviews over every managed clan's room,
 * one socket, counting again once every room is joined.
 */
export function pendingProofsFeedActor(open: () => GameSocketLike = openGameSocket) {
  return fromCallback<PendingProofsEvent, { clanIds: number[] }>(({ sendBack, input }) => watchReviews(open, input.clanIds, sendBack, true));
}

/** A short beep (WebAudio, 0.15 s) for a new submission; silent where audio is unavailable. */
export function playChime(): void {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.15);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.16);
    osc.onended = () => void ctx.close();
  } catch {
    /* no audio: nothing to do */
  }
}
