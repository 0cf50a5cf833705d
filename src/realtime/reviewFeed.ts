import * as v from 'valibot';
import { fromCallback } from 'xstate';
import { SubmissionAnswerSchema } from '../../contract/submission';
import type { ReviewQueueEvent } from '../../machines/reviewQueue.machine';
import { connectWhenIdle, openGameSocket, type GameSocketLike } from './gameSocket';

/**
 * The `reviewFeed` actor of the reviewQueue chart (server-contract section 8): opens a socket with
 * `open`, joins the clan's managers room with `join_reviews` {clan_id} on every connect (and
 * reconnect, after which it asks for `reviews.reload`), and reports each `submission_update` parsed with the contract schema as
 * `submission.updated`. A socket that is not connecting yet connects when the page is idle
 * (connectWhenIdle). Stopping the actor closes the socket.
 */
export function reviewFeedActor(open: () => GameSocketLike = openGameSocket) {
  return fromCallback<ReviewQueueEvent, { clanId: number }>(({ sendBack, input }) => {
    const socket = open();
    let connects = 0;
    // A reconnect joins again and reloads the queue: updates sent while away are not replayed.
    const onConnect = () => {
      socket.emit('join_reviews', { clan_id: input.clanId });
      if (++connects > 1) sendBack({ type: 'reviews.reload' });
    };
    const onUpdate = (payload: unknown) => {
      const parsed = v.safeParse(SubmissionAnswerSchema, payload);
      if (parsed.success) sendBack({ type: 'submission.updated', submission: parsed.output.submission });
      else console.warn('[socket] ignored a malformed submission_update payload', v.flatten(parsed.issues));
    };
    socket.on('connect', onConnect);
    socket.on('submission_update', onUpdate);
    if (socket.connected) onConnect();
    const cancelConnect = connectWhenIdle(socket);
    return () => {
      cancelConnect();
      socket.off('connect', onConnect);
      socket.off('submission_update', onUpdate);
      socket.disconnect();
    };
  });
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
