// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { PROOF_MESSAGES, type Submission } from '../../contract/submission';
import { PROOF_VIEW_TEXTS } from '../../contract/proofView';
import { reviewQueueMachine, type ReviewQueueEvent } from '../../machines/reviewQueue.machine';
import { ReviewsTab, ReviewsTabLabel, usePendingTitle, useReviewQueue, type ReviewEffects, type ReviewQueueRef } from '../../src/features/clan/ReviewsTab';
import { FakeEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { modelPaths } from '../support/graph';

/**
 * Model-based test of the reviewQueue chart (the referee queue of docs/server.md §9)
 * through the rendered Reviews tab: shortest paths generated from the real chart with
 * @xstate/graph; each step caused through the screen or its effects — the viewer becoming a
 * manager (or not), the fake server answering or failing the queue, the review and the undo, the
 * J / K / A keys, a click on a card, the Deny button and its reason dialog, Undo, the sound box,
 * the socket delivering `submission_update` (a new one, one withdrawn) and the clock passing
 * Undo's 5 minutes — and every state asserted on the screen: rows oldest first, the selection,
 * the count on the tab and in the title, recent reviews with Undo, errors, and user texts as text.
 */

type Snap = SnapshotFrom<typeof reviewQueueMachine>;
type ModelEvent =
  | ReviewQueueEvent
  | { type: 'xstate.done.actor.loadQueue'; output: Submission[] }
  | { type: 'xstate.error.actor.loadQueue'; error: Error }
  | { type: 'xstate.done.actor.reviewSubmission'; output: Submission }
  | { type: 'xstate.error.actor.reviewSubmission'; error: Error }
  | { type: 'xstate.done.actor.undoReview'; output: Submission }
  | { type: 'xstate.error.actor.undoReview'; error: Error };

const CLAN = 7;
const REVIEWED_AT = new Date().toISOString();
const REASON = 'Wrong <b>item</b>';

function sub(id: number, team: string, createdAt: string, note: string): Submission {
  return {
    id, game_id: 3, team_id: id, team_name: team, team_color: '#2a5db0', square_index: 40 + id,
    task_description: `Task <i>${id}</i>`, task_difficulty: 'MEDIUM',
    submitted_by: { user_id: 10 + id, username: `user${id}`, ign: `Ign${id}` }, note, image_url: `/api/submissions/${id}/image`, thumb_url: `/api/submissions/${id}/thumb`,
    status: 'pending', reviewer: null, reason: null, created_at: createdAt, reviewed_at: null,
  };
}
const A = sub(1, 'Blue Wizards', '2026-01-01T10:00:00.000Z', 'Note <script>alert(1)</script>');
const B = sub(2, 'Red Dragons', '2026-01-01T10:05:00.000Z', '');
/** Arrives live; older than B, so it goes between A and B. */
const C = sub(3, 'Green Goblins', '2026-01-01T10:02:00.000Z', '');
const reviewed = (s: Submission, decision: 'approve' | 'deny'): Submission => ({
  ...s, status: decision === 'approve' ? 'approved' : 'denied', reviewer: { user_id: 1, username: 'alice' }, reason: decision === 'deny' ? REASON : null, reviewed_at: REVIEWED_AT,
});
const LATER = Date.now() + 6 * 60 * 1000;

const STATE_NODES = ['idle', 'watching.loading', 'watching.failed', 'watching.list.idle', 'watching.list.denying', 'watching.list.reviewing', 'watching.list.undoing'] as const;
type StateNode = (typeof STATE_NODES)[number];
const nodeOf = (s: Snap) => STATE_NODES.filter((k) => s.matches(k.split('.').reduceRight<unknown>((acc, part) => (acc === null ? part : { [part]: acc }), null) as never)).at(-1)!;

/** Events in a state (bounded so the queue's contents stay few: extras are offered on a fresh queue only). */
function eventsOf(s: Snap): ModelEvent[] {
  const c = s.context;
  // After the clock passed Undo's 5 minutes, the queue is only looked at (a review made then would be past its own Undo).
  const fresh = c.recent.length === 0 && c.actionError === null && c.now < LATER;
  if (s.matches('idle')) return [{ type: 'reviews.watch' }];
  if (s.matches({ watching: 'loading' }))
    return [
      { type: 'xstate.done.actor.loadQueue', output: [A, B] },
      { type: 'xstate.done.actor.loadQueue', output: [] },
      { type: 'xstate.error.actor.loadQueue', error: new Error('') },
      { type: 'reviews.unwatch' },
    ];
  if (s.matches({ watching: 'failed' })) return [{ type: 'reviews.reload' }];
  if (s.matches({ watching: { list: 'idle' } })) {
    const out: ModelEvent[] = [];
    if (c.recent.length > 0) return [{ type: 'review.undo', id: c.recent[0].id }, { type: 'clock.ticked', now: LATER }];
    if (!fresh || c.selectedId === null) return out;
    out.push({ type: 'review.approve', id: c.selectedId }, { type: 'review.deny', id: c.selectedId });
    const initial = c.items.length === 2 && c.items[0].id === A.id && c.items[1].id === B.id;
    if (initial && !c.soundOn && c.selectedId === A.id) {
      out.push({ type: 'selection.next' }, { type: 'selection.set', id: B.id }, { type: 'reviews.reload' }, { type: 'sound.toggle' });
      out.push({ type: 'submission.updated', submission: { ...A, status: 'withdrawn' } });
    }
    if (initial && !c.soundOn && c.selectedId === B.id) out.push({ type: 'selection.previous' });
    if (initial && c.selectedId === A.id) out.push({ type: 'submission.updated', submission: C });
    return out;
  }
  if (s.matches({ watching: { list: 'denying' } })) return c.reason === '' ? [{ type: 'reason.change', reason: REASON }, { type: 'review.cancel' }] : [{ type: 'review.confirmDeny' }, { type: 'review.cancel' }];
  if (s.matches({ watching: { list: 'reviewing' } })) {
    const req = c.request!;
    const target = c.items.find((i) => i.id === req.submissionId)!;
    return [
      { type: 'xstate.done.actor.reviewSubmission', output: reviewed(target, req.body!.decision) },
      { type: 'xstate.error.actor.reviewSubmission', error: new Error(PROOF_MESSAGES.ownSubmission) },
    ];
  }
  const undone = c.recent.find((r) => r.id === c.request!.submissionId)!;
  return [
    { type: 'xstate.done.actor.undoReview', output: { ...undone, status: 'pending', reviewer: null, reason: null, reviewed_at: null } },
    { type: 'xstate.error.actor.undoReview', error: new Error(PROOF_MESSAGES.undoExpired) },
  ];
}

const serializeState = (s: Snap, event?: ModelEvent) =>
  JSON.stringify([
    s.value,
    s.context.items.map((i) => i.id),
    s.context.selectedId,
    s.context.recent.map((r) => `${r.id}${r.status}`),
    s.context.soundOn,
    s.context.actionError,
    s.context.reason !== '',
    event?.type ?? null,
  ]);

const paths = modelPaths<Snap, ModelEvent>(reviewQueueMachine, { events: eventsOf, serializeState, input: { clanId: CLAN } });

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  socket: FakeSocket;
  tick: (now: number) => void;
  chimes: number;
  queue: () => ReviewQueueRef;
}

let current: ReviewQueueRef;
/** The clan page's part of the queue: the tab label with its count, the title, and the tab while the viewer is a manager. */
function Host({ effects }: { effects: ReviewEffects }) {
  const [manager, setManager] = useState(false);
  const queue = useReviewQueue(CLAN, effects, manager);
  current = queue;
  usePendingTitle(queue);
  return (
    <>
      <button type="button" onClick={() => setManager((m) => !m)}>
        {manager ? 'Become member' : 'Become manager'}
      </button>
      <span data-testid="tab-label">
        <ReviewsTabLabel queue={queue} />
      </span>
      {manager && <ReviewsTab queue={queue} />}
    </>
  );
}

type Executor = (w: World, e: ModelEvent) => Promise<void>;
const settle = (w: World, name: string, ok: boolean, value: unknown) => act(() => (ok ? w.fx.resolve(name, value) : w.fx.reject(name, value)));
const card = (id: number) => screen.getAllByTestId('review-card').find((el) => el.dataset.id === String(id))!;

const EXECUTORS = {
  'reviews.watch': async (w) => w.user.click(screen.getByRole('button', { name: 'Become manager' })),
  'reviews.unwatch': async (w) => w.user.click(screen.getByRole('button', { name: 'Become member' })),
  'reviews.reload': async (w) => {
    const retry = screen.queryByRole('button', { name: 'Try again' });
    if (retry) await w.user.click(retry);
    else act(() => w.queue().send({ type: 'reviews.reload' }));
  },
  'xstate.done.actor.loadQueue': async (w, e) => settle(w, 'loadQueue', true, (e as { output: Submission[] }).output),
  'xstate.error.actor.loadQueue': async (w) => settle(w, 'loadQueue', false, new Error('')),
  'selection.next': async (w) => w.user.keyboard('j'),
  'selection.previous': async (w) => w.user.keyboard('k'),
  'selection.set': async (w, e) => w.user.click(within(card((e as { id: number }).id)).getByText(/^Sent by/)),
  'review.approve': async (w) => w.user.keyboard('a'),
  'review.deny': async (w, e) => w.user.click(within(card((e as { id: number }).id)).getByRole('button', { name: 'Deny' })),
  'reason.change': async () => {
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: REASON } });
  },
  'review.confirmDeny': async (w) => w.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deny' })),
  'review.cancel': async (w) => w.user.keyboard('{Escape}'),
  'xstate.done.actor.reviewSubmission': async (w, e) => {
    const [, id, body] = w.fx.calls('review').at(-1)!;
    const out = (e as { output: Submission }).output;
    expect([id, (body as { decision: string }).decision]).toEqual([out.id, out.status === 'approved' ? 'approve' : 'deny']);
    if (out.status === 'denied') expect((body as { reason: string }).reason).toBe(REASON);
    await settle(w, 'review', true, out);
  },
  'xstate.error.actor.reviewSubmission': async (w) => settle(w, 'review', false, new Error(PROOF_MESSAGES.ownSubmission)),
  'review.undo': async (w) => w.user.click(screen.getByRole('button', { name: 'Undo' })),
  'xstate.done.actor.undoReview': async (w, e) => settle(w, 'undo', true, (e as { output: Submission }).output),
  'xstate.error.actor.undoReview': async (w) => settle(w, 'undo', false, new Error(PROOF_MESSAGES.undoExpired)),
  'sound.toggle': async (w) => w.user.click(screen.getByLabelText('Sound on new submissions')),
  'submission.updated': async (w, e) => {
    const { submission } = e as { submission: Submission };
    const before = w.queue().getSnapshot().context;
    const due = before.soundOn && submission.status === 'pending' && !before.items.some((i) => i.id === submission.id);
    const chimes = w.chimes;
    act(() => w.socket.serverSends('submission_update', { submission }));
    expect(w.chimes).toBe(chimes + (due ? 1 : 0));
  },
  'clock.ticked': async (w, e) => act(() => w.tick((e as { now: number }).now)),
} satisfies Record<ModelEvent['type'], Executor>;

const countShown = (n: number | null) => {
  expect(screen.getByTestId('tab-label').textContent).toBe(n ? `Reviews (${n})` : 'Reviews');
  expect(document.title.startsWith('(')).toBe(!!n);
  if (n) expect(document.title.startsWith(`(${n}) `)).toBe(true);
};

const listShown = (s: Snap) => {
  const c = s.context;
  countShown(c.items.length);
  if (c.items.length === 0) {
    expect(screen.getByTestId('reviews-empty').textContent).toBe(PROOF_VIEW_TEXTS.emptyQueue);
  } else {
    const cards = screen.getAllByTestId('review-card');
    expect(cards.map((el) => Number(el.dataset.id))).toEqual(c.items.map((i) => i.id));
    expect(cards.filter((el) => el.getAttribute('aria-current') === 'true').map((el) => Number(el.dataset.id))).toEqual([c.selectedId]);
    // Typed texts are text: no element is made from them.
    const a = cards.find((el) => el.dataset.id === String(A.id));
    if (a) {
      expect(a.textContent).toContain(`Note: ${A.note}`);
      expect(a.querySelector('script, i')).toBeNull();
      // The whole thumbnail shows on a button that opens the lightbox (no link to the raw image).
      expect(a.querySelector('a')).toBeNull();
      const thumb = within(a).getByRole('button', { name: `View full size: Proof from ${A.team_name} for square ${A.square_index}` });
      expect(thumb.querySelector('img')!.getAttribute('src')).toBe(A.thumb_url);
    }
  }
  const recent = screen.queryAllByTestId('review-recent');
  expect(recent.map((el) => el.dataset.status)).toEqual(c.recent.map((r) => r.status));
  if (c.actionError) expect(screen.getByTestId('review-action-error').textContent).toBe(c.actionError);
  else expect(screen.queryByTestId('review-action-error')).toBeNull();
  expect((screen.getByLabelText('Sound on new submissions') as HTMLInputElement).checked).toBe(c.soundOn);
};

const ASSERTIONS: Record<StateNode, (s: Snap) => Promise<void>> = {
  idle: async () => {
    expect(screen.queryByRole('heading', { name: 'Proof waiting for review' })).toBeNull();
    countShown(null);
  },
  'watching.loading': async () => {
    expect(await screen.findByText('Loading submissions...')).toBeTruthy();
    countShown(null);
  },
  'watching.failed': async () => {
    expect(screen.getByTestId('reviews-error').textContent).toBe(PROOF_VIEW_TEXTS.queueFailed);
    countShown(null);
  },
  'watching.list.idle': async (s) => {
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    listShown(s);
    for (const b of screen.queryAllByRole('button', { name: /^(Approve|Deny|Undo)$/ })) expect((b as HTMLButtonElement).disabled).toBe(false);
  },
  'watching.list.denying': async (s) => {
    const dialog = screen.getByRole('dialog');
    expect((within(dialog).getByLabelText('Reason') as HTMLTextAreaElement).value).toBe(s.context.reason);
    expect((within(dialog).getByRole('button', { name: 'Deny' }) as HTMLButtonElement).disabled).toBe(s.context.reason === '');
  },
  'watching.list.reviewing': async (s) => {
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(card(s.context.request!.submissionId)).getByRole('button', { name: 'Saving...' })).toBeTruthy();
    for (const b of screen.getAllByRole('button', { name: 'Deny' })) expect((b as HTMLButtonElement).disabled).toBe(true);
  },
  'watching.list.undoing': async () => {
    expect((screen.getByRole('button', { name: 'Undoing...' }) as HTMLButtonElement).disabled).toBe(true);
  },
};

describe('reviewQueue chart through the Reviews tab', () => {
  afterEach(() => {
    cleanup();
    document.title = '';
  });

  it('reaches and asserts every state node, and sends every event (guard)', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => nodeOf(st.state))));
    expect([...reached].sort()).toEqual([...STATE_NODES].sort());
    const types = new Set<string>(paths.flatMap((p) => p.steps.map((st) => st.event.type)));
    for (const t of Object.keys(EXECUTORS)) expect(types.has(t), t).toBe(true);
  });

  for (const path of paths) {
    const name = path.steps
      .slice(1)
      .map(({ event }) => event.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$2.$1'))
      .join(' → ');
    it(name || 'initial', async () => {
      document.title = 'Clan Snakes & Ladders';
      const fx = new FakeEffects();
      const socket = new FakeSocket();
      const w: World = { fx, user: userEvent.setup(), socket, tick: () => {}, chimes: 0, queue: () => current };
      const effects: ReviewEffects = {
        loadQueue: (clanId) => fx.fn('loadQueue')(clanId),
        review: (clanId, id, body) => fx.fn('review')(clanId, id, body),
        undo: (clanId, id) => fx.fn('undo')(clanId, id),
        openSocket: () => {
          queueMicrotask(() => socket.serverConnects());
          return socket;
        },
        startClock: (tick) => {
          w.tick = tick;
          return () => {};
        },
        chime: () => {
          w.chimes += 1;
        },
      };
      render(<Host effects={effects} />);
      await path.test({
        events: Object.fromEntries(Object.entries(EXECUTORS).map(([type, run]) => [type, (step: { event: ModelEvent }) => (run as Executor)(w, step.event)])) as never,
        states: Object.fromEntries(STATE_NODES.map((k) => [k, (s: Snap) => (nodeOf(s) === k ? ASSERTIONS[k](s) : Promise.resolve())])) as never,
      });
      if (socket.connected) expect(socket.sentOf('join_reviews')).toContainEqual({ clan_id: CLAN });
    });
  }
});
