import { assign, setup } from 'xstate';
import type { ReviewBody, Submission } from '../contract/submission';
import { PROOF_VIEW_TEXTS, denyReasonProblem, isUndoable, mergeQueue } from '../contract/proofView';
import { listLoad } from './listLoader';
import { missingCallback, missingPromise } from './shared';
import { errorText } from '../contract/errorText';

export interface ReviewQueueInput {
  clanId: number;
}

/** A review the referee asked for: the submission and the decision. */
export interface ReviewRequest {
  clanId: number;
  submissionId: number;
  body: ReviewBody;
}

export interface ReviewQueueContext {
  clanId: number;
  /** Pending submissions of the clan's games, oldest first. */
  items: Submission[];
  /** The submission the keyboard acts on (J/K), or null. */
  selectedId: number | null;
  /** Submissions this referee reviewed here, newest first, while their Undo lasts (5 minutes). */
  recent: Submission[];
  /** The deny reason being typed, and the submission it is for. */
  denyId: number | null;
  reason: string;
  /** The review or undo under way. */
  request: { submissionId: number; body: ReviewBody | null } | null;
  /** The load failure text, or null. */
  error: string | null;
  /** The last review or undo failure (the server's text), or null. */
  actionError: string | null;
  /** A short sound when a new submission arrives (off by default). */
  soundOn: boolean;
  /** The time (ms) of the last clock tick: how long each has waited, and which Undo still lasts. */
  now: number;
  /** Only what needs a person is shown: pending submissions not approved automatically (the auto-approved ones hidden). */
  needsPerson: boolean;
  /** Submissions approved automatically from Dink that arrived live, newest first (at most AUTO_SEEN_MAX). */
  autoApproved: Submission[];
}

/** How many automatic approvals the queue keeps in view. */
const AUTO_SEEN_MAX = 20;

export type ReviewQueueEvent =
  | { type: 'reviews.watch' }
  | { type: 'reviews.unwatch' }
  | { type: 'reviews.reload' }
  | { type: 'selection.next' }
  | { type: 'selection.previous' }
  | { type: 'selection.set'; id: number }
  | { type: 'review.approve'; id: number }
  | { type: 'review.deny'; id: number }
  | { type: 'reason.change'; reason: string }
  | { type: 'review.confirmDeny' }
  | { type: 'review.cancel' }
  | { type: 'review.undo'; id: number }
  | { type: 'sound.toggle' }
  | { type: 'filter.toggle' }
  /** Facts: a submission changed (socket submission_update), the clock ticked. */
  | { type: 'submission.updated'; submission: Submission }
  | { type: 'clock.ticked'; now: number };

/** The selection after the queue changed: kept while listed, else the first row. */
const keepSelection = (items: Submission[], selectedId: number | null) =>
  items.some((s) => s.id === selectedId) ? selectedId : (items[0]?.id ?? null);

const move = (items: Submission[], selectedId: number | null, by: 1 | -1) => {
  if (items.length === 0) return null;
  const at = items.findIndex((s) => s.id === selectedId);
  const next = at < 0 ? 0 : Math.min(items.length - 1, Math.max(0, at + by));
  return items[next].id;
};

/** The list-loader load step of the queue: a load keeps the selection while its row is listed. */
const queue = listLoad<Submission, ReviewQueueContext, 'loadQueue', { clanId: number }>({
  id: 'reviewQueue',
  actor: 'loadQueue',
  fallback: PROOF_VIEW_TEXTS.queueFailed,
  input: (context) => ({ clanId: context.clanId }),
  onLoaded: (context, items) => ({ selectedId: keepSelection(items, context.selectedId) }),
});

/**
 * The referee queue of the clan's Reviews tab (docs/server.md §9), for managers.
 * `reviews.watch` (the viewer is a manager) starts it; `reviews.unwatch` stops it.
 * - watching: the `reviewFeed` actor (join_reviews on the socket, given from src/) reports every
 *   `submission.updated`, merged into the queue in place (contract mergeQueue: pending rows
 *   oldest first, reviewed or withdrawn rows leave) with the `chime` action for a new pending one
 *   when the sound is on; the `clock` actor ticks (`clock.ticked`) for the waits and Undo's 5 minutes.
 * - loading (`loadQueue`) → list, or failed with the error (`reviews.reload` tries again): the
 *   list-loader load step (listLoader.ts), nested here beside the review states.
 * - list.idle: J/K move the selection (`selection.next` / `selection.previous`); `review.approve`
 *   sends the approval at once (reviewing); `review.deny` opens the reason dialog (denying: a
 *   reason of 1 to 300 characters is required); `review.undo` within 5 minutes (undoing).
 *   A refusal (`actionError`) is shown and the queue stays as it was.
 * - Submissions approved automatically from Dink (docs/server.md §13) that arrive live are kept
 *   in view (`autoApproved`); `filter.toggle` turns 'Needs a person' on or off, which shows only
 *   pending submissions not approved automatically.
 */
export const reviewQueueMachine = setup({
  types: {
    context: {} as ReviewQueueContext,
    events: {} as ReviewQueueEvent,
    input: {} as ReviewQueueInput,
  },
  actors: {
    ...queue.actors,
    reviewSubmission: missingPromise<Submission, ReviewRequest>('reviewQueue', 'reviewSubmission'),
    undoReview: missingPromise<Submission, { clanId: number; submissionId: number }>('reviewQueue', 'undoReview'),
    reviewFeed: missingCallback<ReviewQueueEvent, { clanId: number }>('reviewQueue', 'reviewFeed'),
    clock: missingCallback<ReviewQueueEvent>('reviewQueue', 'clock'),
  },
  guards: {
    isListed: ({ context }, id: number) => context.items.some((s) => s.id === id),
    isUndoable: ({ context }, id: number) => context.recent.some((s) => s.id === id && isUndoable(s.reviewed_at, context.now)),
    isReasonValid: ({ context }) => denyReasonProblem(context.reason) === null,
    /** A new pending submission arrives and the sound is on. */
    isChimeDue: ({ context }, submission: Submission) => context.soundOn && submission.status === 'pending' && !context.items.some((s) => s.id === submission.id),
  },
  actions: {
    assignItems: assign(({ context }, items: Submission[]) => queue.loaded(context, items)),
    assignError: assign((_, error: unknown) => queue.failed(error)),
    /** A live change: merged into the queue (and the recent reviews: pending again means undone). */
    applyUpdate: assign(({ context }, submission: Submission) => {
      const items = mergeQueue(context.items, submission);
      const recent = submission.status === 'pending' ? context.recent.filter((s) => s.id !== submission.id) : context.recent;
      const others = context.autoApproved.filter((s) => s.id !== submission.id);
      // An automatic approval is kept in view; undone or withdrawn, it leaves.
      const autoApproved = submission.auto && submission.status === 'approved' ? [submission, ...others].slice(0, AUTO_SEEN_MAX) : others;
      return { items, recent, autoApproved, selectedId: keepSelection(items, context.selectedId) };
    }),
    toggleFilter: assign(({ context }) => ({ needsPerson: !context.needsPerson })),
    selectNext: assign(({ context }) => ({ selectedId: move(context.items, context.selectedId, 1) })),
    selectPrevious: assign(({ context }) => ({ selectedId: move(context.items, context.selectedId, -1) })),
    select: assign((_, id: number) => ({ selectedId: id })),
    requestApprove: assign((_, id: number) => ({ request: { submissionId: id, body: { decision: 'approve' as const, reason: null } }, actionError: null })),
    openDeny: assign((_, id: number) => ({ denyId: id, reason: '', selectedId: id, actionError: null })),
    assignReason: assign((_, reason: string) => ({ reason })),
    requestDeny: assign(({ context }) => ({ request: { submissionId: context.denyId ?? 0, body: { decision: 'deny' as const, reason: context.reason.trim() } }, denyId: null, reason: '' })),
    closeDeny: assign({ denyId: null, reason: '' }),
    requestUndo: assign((_, id: number) => ({ request: { submissionId: id, body: null }, actionError: null })),
    /** The server's answer to a review: the row leaves the queue and waits under Recent reviews for its Undo. */
    assignReviewed: assign(({ context }, submission: Submission) => {
      const items = context.items.filter((s) => s.id !== submission.id);
      return { items, recent: [submission, ...context.recent.filter((s) => s.id !== submission.id)], request: null, selectedId: keepSelection(items, context.selectedId) };
    }),
    /** The server's answer to an undo: pending again, back in the queue. */
    assignUndone: assign(({ context }, submission: Submission) => {
      const items = mergeQueue(context.items, submission);
      return { items, recent: context.recent.filter((s) => s.id !== submission.id), request: null, selectedId: submission.id };
    }),
    assignActionError: assign((_, text: string) => ({ actionError: text, request: null })),
    toggleSound: assign(({ context }) => ({ soundOn: !context.soundOn })),
    /** The clock: the time, and the recent reviews whose 5 minutes are over dropped. */
    tick: assign(({ context }, now: number) => ({ now, recent: context.recent.filter((s) => isUndoable(s.reviewed_at, now)) })),
    /** A short sound on arrival (provided from src/; the default throws). */
    chime: (): void => {
      throw new Error("reviewQueue machine: action 'chime' was not provided");
    },
  },
}).createMachine({
  id: 'reviewQueue',
  context: ({ input }) => ({
    clanId: input.clanId,
    items: [],
    selectedId: null,
    recent: [],
    denyId: null,
    reason: '',
    request: null,
    error: null,
    actionError: null,
    soundOn: false,
    now: Date.now(),
    needsPerson: false,
    autoApproved: [],
  }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'reviews.watch': 'watching' },
    },
    watching: {
      invoke: [
        { id: 'reviewFeed', src: 'reviewFeed', input: ({ context }) => ({ clanId: context.clanId }) },
        { id: 'clock', src: 'clock' },
      ],
      on: {
        'reviews.unwatch': 'idle',
        'submission.updated': [
          {
            guard: { type: 'isChimeDue', params: ({ event }) => event.submission },
            actions: [{ type: 'applyUpdate', params: ({ event }) => event.submission }, 'chime'],
          },
          { actions: { type: 'applyUpdate', params: ({ event }) => event.submission } },
        ],
        'clock.ticked': { actions: { type: 'tick', params: ({ event }) => event.now } },
        'sound.toggle': { actions: 'toggleSound' },
        'filter.toggle': { actions: 'toggleFilter' },
      },
      initial: 'loading',
      states: {
        loading: { tags: ['busy'], invoke: queue.load({ done: 'list' }) },
        failed: {
          on: { 'reviews.reload': 'loading' },
        },
        list: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'reviews.reload': '#reviewQueue.watching.loading',
                'selection.next': { actions: 'selectNext' },
                'selection.previous': { actions: 'selectPrevious' },
                'selection.set': { guard: { type: 'isListed', params: ({ event }) => event.id }, actions: { type: 'select', params: ({ event }) => event.id } },
                'review.approve': {
                  guard: { type: 'isListed', params: ({ event }) => event.id },
                  target: 'reviewing',
                  actions: { type: 'requestApprove', params: ({ event }) => event.id },
                },
                'review.deny': { guard: { type: 'isListed', params: ({ event }) => event.id }, target: 'denying', actions: { type: 'openDeny', params: ({ event }) => event.id } },
                'review.undo': { guard: { type: 'isUndoable', params: ({ event }) => event.id }, target: 'undoing', actions: { type: 'requestUndo', params: ({ event }) => event.id } },
              },
            },
            denying: {
              tags: ['modalOpen'],
              on: {
                'reason.change': { actions: { type: 'assignReason', params: ({ event }) => event.reason } },
                'review.confirmDeny': { guard: 'isReasonValid', target: 'reviewing', actions: 'requestDeny' },
                'review.cancel': { target: 'idle', actions: 'closeDeny' },
              },
            },
            reviewing: {
              tags: ['busy'],
              invoke: {
                id: 'reviewSubmission',
                src: 'reviewSubmission',
                input: ({ context }) => ({ clanId: context.clanId, submissionId: context.request!.submissionId, body: context.request!.body! }),
                onDone: { target: 'idle', actions: { type: 'assignReviewed', params: ({ event }) => event.output } },
                onError: { target: 'idle', actions: { type: 'assignActionError', params: ({ event }) => errorText(event.error, PROOF_VIEW_TEXTS.reviewFailed) } },
              },
            },
            undoing: {
              tags: ['busy'],
              invoke: {
                id: 'undoReview',
                src: 'undoReview',
                input: ({ context }) => ({ clanId: context.clanId, submissionId: context.request!.submissionId }),
                onDone: { target: 'idle', actions: { type: 'assignUndone', params: ({ event }) => event.output } },
                onError: { target: 'idle', actions: { type: 'assignActionError', params: ({ event }) => errorText(event.error, PROOF_VIEW_TEXTS.undoFailed) } },
              },
            },
          },
        },
      },
    },
  },
});
