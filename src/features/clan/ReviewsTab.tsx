import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useRef, type FormEvent } from 'react';
import { fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import { REVIEW_REASON_MAX, type ReviewBody, type Submission } from '../../../contract/submission';
import { formatDuration } from '../../../contract/duration';
import { isUndoable, PROOF_VIEW_TEXTS, proofImageOf, type LightboxImage } from '../../../contract/proofView';
import { TIER_LABELS } from '../../../contract/game/tiers';
import { reviewQueueMachine, type ReviewQueueEvent } from '../../../machines/reviewQueue.machine';
import * as sel from '../../../machines/reviewQueue.selectors';
import { fetchReviewQueue, reviewSubmission, undoReview } from '../../api/submissions';
import { playChime, reviewFeedActor } from '../../realtime/reviewFeed';
import { openGameSocket, type GameSocketLike } from '../../realtime/gameSocket';
import { Notice } from '../../ui/Notice';
import { DialogButtons, Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { Lightbox, LightboxThumb, useLightbox, type LightboxRef } from '../../ui/Lightbox';
import { isLightboxOpen } from '../../../machines/lightbox.selectors';
import { DINK_TYPE_LABELS } from '../dink/dinkTexts';
import { hasScreenshot, NoScreenshot } from '../dink/NoScreenshot';

/** The referee calls of the Reviews tab (docs/server.md §9), replaceable in tests. */
export interface ReviewEffects {
  loadQueue: (clanId: number) => Promise<Submission[]>;
  review: (clanId: number, submissionId: number, body: ReviewBody) => Promise<Submission>;
  undo: (clanId: number, submissionId: number) => Promise<Submission>;
  /** Opens the socket that joins the managers room. */
  openSocket: () => GameSocketLike;
  /** Starts the clock; calls `tick` with the time (ms) now and then; returns the stop function. */
  startClock: (tick: (now: number) => void) => () => void;
  chime: () => void;
}

/** The real calls. */
export const liveReviewEffects: ReviewEffects = {
  loadQueue: fetchReviewQueue,
  review: reviewSubmission,
  undo: undoReview,
  openSocket: openGameSocket,
  startClock: (tick) => {
    const timer = setInterval(() => tick(Date.now()), 15_000);
    return () => clearInterval(timer);
  },
  chime: playChime,
};

/** The reviewQueue actor as the clan page holds it. */
export type ReviewQueueRef = ActorRefFrom<typeof reviewQueueMachine>;

/**
 * The reviewQueue actor of the clan page (it lives with the page, so the pending count shows on
 * the tab and in the page title whichever tab is open); it watches only while `watch` (the
 * viewer is a manager).
 */
export function useReviewQueue(clanId: number, effects: ReviewEffects, watch: boolean): ReviewQueueRef {
  const latest = useRef(effects);
  latest.current = effects;
  const queue = useActorRef(
    reviewQueueMachine.provide({
      actors: {
        loadQueue: fromPromise(({ input }) => latest.current.loadQueue(input.clanId)),
        reviewSubmission: fromPromise(({ input }) => latest.current.review(input.clanId, input.submissionId, input.body)),
        undoReview: fromPromise(({ input }) => latest.current.undo(input.clanId, input.submissionId)),
        reviewFeed: reviewFeedActor(() => latest.current.openSocket()),
        clock: fromCallback<ReviewQueueEvent, void>(({ sendBack }) => latest.current.startClock((now) => sendBack({ type: 'clock.ticked', now }))),
      },
      actions: { chime: () => latest.current.chime() },
    }),
    { input: { clanId } },
  );
  useEffect(() => {
    queue.send({ type: watch ? 'reviews.watch' : 'reviews.unwatch' });
  }, [queue, watch]);
  return queue;
}

/** 'Reviews' with the pending count, for the tab button. */
export function ReviewsTabLabel({ queue }: { queue: ReviewQueueRef }) {
  const count = useSelector(queue, sel.selectPendingCount);
  return (
    <>
      Reviews{count ? <span className="tab__count" data-testid="reviews-count"> ({count})</span> : null}
    </>
  );
}

/** Puts the pending count in front of the page title while the clan page shows: '(3) Clan Snakes & Ladders'. */
export function usePendingTitle(queue: ReviewQueueRef): void {
  const count = useSelector(queue, sel.selectPendingCount);
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, '');
    document.title = count ? `(${count}) ${base}` : base;
    return () => {
      document.title = document.title.replace(/^\(\d+\) /, '');
    };
  }, [count]);
}

/** Keys typed into a text box are text, not shortcuts (a checkbox or button keeps them shortcuts). */
const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    ['TEXTAREA', 'SELECT'].includes(target.tagName) ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type)));

/**
 * The Reviews tab of clan management (docs/server.md §9, managers): pending submissions
 * of the clan's games oldest first, each with the team colour, square and task, the whole
 * screenshot as a thumbnail (opening the lightbox, which steps through the queue's images), or for
 * a Dink proof sent without one 'No screenshot was sent' and its evidence, the note, who sent it
 * and how long it has waited; Approve, Deny with
 * a required reason, keyboard shortcuts (J/K move, A approve, D deny), Undo for 5 minutes, live
 * arrivals, and an optional sound (off by default). Each card says where the proof came from
 * (an upload, or Dink with the post's evidence beside the image); submissions approved
 * automatically from Dink that arrive live are listed apart, and 'Needs a person' shows only
 * pending ones not approved automatically (docs/client.md §10). Typed texts are shown as text.
 */
export function ReviewsTab({ queue }: { queue: ReviewQueueRef }) {
  const items = useSelector(queue, sel.selectShownQueue);
  const autoApproved = useSelector(queue, sel.selectShownAutoApproved);
  const needsPerson = useSelector(queue, sel.selectNeedsPerson);
  const loading = useSelector(queue, sel.isQueueLoading);
  const listed = useSelector(queue, sel.isQueueListed);
  const error = useSelector(queue, sel.selectQueueError);
  const actionError = useSelector(queue, sel.selectActionError);
  const selectedId = useSelector(queue, sel.selectSelectedId);
  const soundOn = useSelector(queue, sel.selectSoundOn);
  const recent = useSelector(queue, sel.selectRecentReviews);
  const now = useSelector(queue, sel.selectNow);
  const busy = useSelector(queue, sel.isReviewBusy);
  const requestId = useSelector(queue, sel.selectRequestId);
  const denyOpen = useSelector(queue, sel.isDenyOpen);
  const lightbox = useLightbox();
  const viewing = useSelector(lightbox, isLightboxOpen);
  // The lightbox steps through the screenshots only; a Dink proof sent without one has none to show.
  const shots = useMemo(() => items.filter(hasScreenshot), [items]);
  const images = useMemo(() => shots.map(proofImageOf), [shots]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // While a dialog shows, its keys are its own.
      if (denyOpen || viewing || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const id = queue.getSnapshot().context.selectedId;
      const key = e.key.toLowerCase();
      if (key === 'j') queue.send({ type: 'selection.next' });
      else if (key === 'k') queue.send({ type: 'selection.previous' });
      else if (key === 'a' && id !== null) queue.send({ type: 'review.approve', id });
      else if (key === 'd' && id !== null) queue.send({ type: 'review.deny', id });
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [queue, denyOpen, viewing]);

  useEffect(() => {
    if (selectedId === null) return;
    const row = document.getElementById(`review-${selectedId}`);
    if (row && typeof row.scrollIntoView === 'function') row.scrollIntoView({ block: 'nearest' });
  }, [selectedId]);

  const undoable = recent.filter((s) => isUndoable(s.reviewed_at, now));
  return (
    <section className="reviews" aria-labelledby="reviews-title">
      <div className="reviews__toolbar">
        <h2 id="reviews-title" className="toolbar__title">
          Proof waiting for review
        </h2>
        <label className="checkbox">
          <input type="checkbox" checked={soundOn} onChange={() => queue.send({ type: 'sound.toggle' })} /> Sound on new submissions
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={needsPerson} onChange={() => queue.send({ type: 'filter.toggle' })} /> Needs a person
        </label>
      </div>
      <p className="muted reviews__keys">Keys: J / K move, A approve, D deny.</p>
      {loading && <Spinner text="Loading submissions..." />}
      {error && (
        <div className="row">
          <Notice tone="error" testId="reviews-error">{error}</Notice>
          <button type="button" className="btn" onClick={() => queue.send({ type: 'reviews.reload' })}>
            Try again
          </button>
        </div>
      )}
      {actionError && <Notice tone="error" testId="review-action-error">{actionError}</Notice>}
      {listed && items.length === 0 && (
        <p className="muted" data-testid="reviews-empty">
          {PROOF_VIEW_TEXTS.emptyQueue}
        </p>
      )}
      {listed && items.length > 0 && (
        <ol className="reviews__list" aria-label="Submissions waiting for review" data-testid="reviews-list">
          {items.map((s) => (
            <ReviewCard
              key={s.id}
              submission={s}
              lightbox={lightbox}
              images={images}
              index={shots.findIndex((shot) => shot.id === s.id)}
              now={now}
              selected={s.id === selectedId}
              busy={busy}
              working={busy && requestId === s.id}
              onSelect={() => queue.send({ type: 'selection.set', id: s.id })}
              onApprove={() => queue.send({ type: 'review.approve', id: s.id })}
              onDeny={() => queue.send({ type: 'review.deny', id: s.id })}
            />
          ))}
        </ol>
      )}
      {undoable.length > 0 && (
        <section className="review-recent" aria-labelledby="review-recent-title">
          <h3 id="review-recent-title">Recent reviews</h3>
          <ul className="reviews__list" data-testid="reviews-recent">
            {undoable.map((s) => (
              <li key={s.id} className="review-recent__item" data-testid="review-recent" data-status={s.status}>
                <span>
                  {s.status === 'approved' ? 'Approved' : 'Denied'}: {s.team_name}, square {s.square_index}
                  {s.status === 'denied' && s.reason ? ` (${s.reason})` : ''}
                </span>{' '}
                <button type="button" className="btn btn--small" disabled={busy} onClick={() => queue.send({ type: 'review.undo', id: s.id })}>
                  {busy && requestId === s.id ? 'Undoing...' : 'Undo'}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {autoApproved.length > 0 && (
        <section className="review-recent" aria-labelledby="review-auto-title">
          <h3 id="review-auto-title">Approved automatically from Dink</h3>
          <ul className="reviews__list" data-testid="reviews-auto">
            {autoApproved.map((s) => (
              <li key={s.id} className="review-recent__item" data-testid="review-auto" data-id={s.id}>
                <span>
                  {s.team_name}, square {s.square_index}: {s.evidence?.summary ?? s.task_description}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <DenyDialog queue={queue} />
      <Lightbox lightbox={lightbox} />
    </section>
  );
}

function ReviewCard({
  submission: s,
  lightbox,
  images,
  index,
  now,
  selected,
  busy,
  working,
  onSelect,
  onApprove,
  onDeny,
}: {
  submission: Submission;
  lightbox: LightboxRef;
  /** The queue's screenshots, this card's at `index` (-1: it has none). */
  images: LightboxImage[];
  index: number;
  now: number;
  selected: boolean;
  busy: boolean;
  working: boolean;
  onSelect: () => void;
  onApprove: () => void;
  onDeny: () => void;
}) {
  return (
    <li
      id={`review-${s.id}`}
      className={selected ? 'review-card review-card--selected' : 'review-card'}
      style={{ ['--team' as string]: s.team_color }}
      aria-current={selected ? 'true' : undefined}
      data-testid="review-card"
      data-id={s.id}
      onClick={onSelect}
    >
      {hasScreenshot(s) ? <LightboxThumb lightbox={lightbox} images={images} index={index} thumb={s.thumb_url} /> : <NoScreenshot evidence={s.evidence} testId="review-no-screenshot" />}
      <div className="review-card__body">
        <p className="review-card__team">
          <span className="team-positions__swatch" style={{ background: s.team_color }} aria-hidden="true" /> <strong>{s.team_name}</strong> · Square {s.square_index}
          {s.task_difficulty && <span className="muted"> · {TIER_LABELS[s.task_difficulty]}</span>}
        </p>
        <p className="review-card__task">{s.task_description}</p>
        <ProofSource submission={s} />
        {s.note && <p className="review-card__note">Note: {s.note}</p>}
        <p className="muted review-card__who">
          Sent by {s.submitted_by.ign} ({s.submitted_by.username}) · waiting {formatDuration(now - Date.parse(s.created_at), 'min')}
        </p>
        <div className="review-card__actions">
          <button type="button" className="btn btn--primary" disabled={busy} onClick={onApprove}>
            {working ? 'Saving...' : 'Approve'}
          </button>
          <button type="button" className="btn btn--danger" disabled={busy} onClick={onDeny}>
            Deny
          </button>
        </div>
      </div>
    </li>
  );
}

/** Where a proof came from: an upload, or Dink with the post's type and summary (docs/server.md §13). */
function ProofSource({ submission: s }: { submission: Submission }) {
  if (s.source !== 'dink') {
    return (
      <p className="review-card__evidence" data-testid="review-source">
        <span className="source-badge">Upload</span>
      </p>
    );
  }
  return (
    <p className="review-card__evidence" data-testid="review-source">
      <span className="source-badge">Dink</span>{' '}
      {s.evidence ? (
        <span data-testid="review-evidence">
          {DINK_TYPE_LABELS[s.evidence.type]}: {s.evidence.summary}
        </span>
      ) : (
        <span className="muted">no evidence</span>
      )}
    </p>
  );
}

/** The deny dialog: a required reason of 1 to 300 characters (opened by the chart). */
function DenyDialog({ queue }: { queue: ReviewQueueRef }) {
  const open = useSelector(queue, sel.isDenyOpen);
  const reason = useSelector(queue, sel.selectDenyReason);
  const denyId = useSelector(queue, sel.selectDenyId);
  const canConfirm = useSelector(queue, sel.canConfirmDeny);
  const target = useSelector(queue, (s) => s.context.items.find((i) => i.id === denyId) ?? null);
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    queue.send({ type: 'review.confirmDeny' });
  };
  const cancel = () => queue.send({ type: 'review.cancel' });
  return (
    <Modal open={open} onClose={cancel} title="Deny Proof">
      <form className="form" onSubmit={submit}>
        {target && <p>{target.team_name}, square {target.square_index}: the team sees this reason and may send the proof again.</p>}
        <div className="field">
          <label className="field__label" htmlFor={id}>Reason</label>
          <textarea id={id} className="input" rows={3} autoFocus required maxLength={REVIEW_REASON_MAX} value={reason} onChange={(e) => queue.send({ type: 'reason.change', reason: e.target.value })} />
          <span className="field__hint">Required, at most {REVIEW_REASON_MAX} characters ({reason.length}/{REVIEW_REASON_MAX}).</span>
        </div>
        <DialogButtons onCancel={cancel} submitLabel="Deny" submitDisabled={!canConfirm} danger />
      </form>
    </Modal>
  );
}
