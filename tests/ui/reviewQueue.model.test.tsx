// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { PROOF_MESSAGES, type Submission } from '../../contract/submission';
import { PROOF_VIEW_TEXTS } from '../../contract/proofView';
import { reviewQueueMachine, type ReviewQueueEvent } from '../../machines/reviewQueue.machine';
import { ReviewsTab, ReviewsTabLabel, usePendingTitle, useReviewQueue, type ReviewEffects, type ReviewQueueRef } from '../../src/features/clan/ReviewsTab';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';

/**
 * Model-based test of the reviewQueue chart (the referee queue of docs/server.md §9)
 * through the rendered Reviews tab, with the one harness (docs/architecture.md §6): shortest
 * paths generated from the real chart; each step caused through the screen or its effects — the
 * viewer becoming a manager (or not), the fake server answering or failing the queue, the review
 * and the undo, the J / K / A keys, a click on a card, the Deny button and its reason dialog,
 * Undo, the sound box, Try again, the socket reconnecting (join again, load again), the socket
 * delivering `submission_update` (a new one, one withdrawn) and the clock passing Undo's
 * 5 minutes — and every state asserted on the screen: rows oldest first, the selection, the
 * count on the tab and in the title, recent reviews with Undo, errors, and user texts as text.
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
    status: 'pending', reviewer: null, reason: null, created_at: createdAt, reviewed_at: null, source: 'upload', evidence: null, auto: false,
  };
}
const A = sub(1, 'Blue Wizards', '2026-01-01T10:00:00.000Z', 'Note <script>alert(1)</script>');
/** Sent by Dink: its evidence shows beside the image, as text. */
const B: Submission = { ...sub(2, 'Red Dragons', '2026-01-01T10:05:00.000Z', ''), source: 'dink', evidence: { type: 'LOOT', summary: 'Dragon warhammer x1 from <b>Lizardman shaman</b>' } };
/** Approved automatically from Dink, arriving live: listed apart, hidden by 'Needs a person'. */
const D: Submission = {
  ...sub(4, 'Yellow Yaks', '2026-01-01T10:03:00.000Z', ''),
  source: 'dink', evidence: { type: 'KILL_COUNT', summary: 'Vorkath kill count 50' }, status: 'approved', auto: true, reviewed_at: '2026-01-01T10:03:00.000Z',
};
/** Arrives live; older than B, so it goes between A and B. */
const C = sub(3, 'Green Goblins', '2026-01-01T10:02:00.000Z', '');
const reviewed = (s: Submission, decision: 'approve' | 'deny'): Submission => ({
  ...s, status: decision === 'approve' ? 'approved' : 'denied', reviewer: { user_id: 1, username: 'alice' }, reason: decision === 'deny' ? REASON : null, reviewed_at: REVIEWED_AT,
});
const LATER = Date.now() + 6 * 60 * 1000;

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
    const initial = c.items.length === 2 && c.items[0].id === A.id && c.items[1].id === B.id;
    // With an automatic approval in view, only the filter is turned (on and off again).
    if (c.autoApproved.length > 0 || c.needsPerson) return initial && c.autoApproved.length > 0 ? [{ type: 'filter.toggle' }] : [];
    if (initial && !c.soundOn && c.selectedId === A.id) out.push({ type: 'submission.updated', submission: D });
    // Reviews are made on the queue as loaded with the sound off (A selected, or B after J or a click).
    if (initial && !c.soundOn) out.push({ type: 'review.approve', id: c.selectedId }, { type: 'review.deny', id: c.selectedId });
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
    s.context.needsPerson,
    s.context.autoApproved.map((i) => i.id),
    event?.type ?? null,
  ]);

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** Every socket the feed opened, the last one live. */
  sockets: FakeSocket[];
  tick: (now: number) => void;
  /** How many clocks started and stopped. */
  clocks: { started: number; stopped: number };
  chimes: number;
  queue: () => ReviewQueueRef;
}
const socketOf = (w: World) => w.sockets.at(-1)!;

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

const settle = (w: World, name: string, ok: boolean, value: unknown) => act(() => (ok ? w.fx.resolve(name, value) : w.fx.reject(name, value)));
const card = (id: number) => screen.getAllByTestId('review-card').find((el) => el.dataset.id === String(id))!;

const EXECUTORS = {
  'reviews.watch': async (w) => w.user.click(screen.getByRole('button', { name: 'Become manager' })),
  'reviews.unwatch': async (w) => w.user.click(screen.getByRole('button', { name: 'Become member' })),
  // After a failure, Try again; on the list, a reconnect of the socket (the feed joins again and
  // asks for a load: updates sent while away are not replayed).
  'reviews.reload': async (w, { prev }) => {
    if (prev.matches({ watching: 'failed' })) {
      await w.user.click(screen.getByRole('button', { name: 'Try again' }));
      return;
    }
    const socket = socketOf(w);
    const joins = socket.sentOf('join_reviews').length;
    const loads = w.fx.calls('loadQueue').length;
    act(() => {
      socket.drop();
      socket.serverConnects();
    });
    expect(socket.sentOf('join_reviews').slice(joins)).toEqual([{ clan_id: CLAN }]);
    await waitFor(() => expect(w.fx.calls('loadQueue')).toHaveLength(loads + 1));
  },
  'xstate.done.actor.loadQueue': async (w, { event }) => {
    expect(w.fx.calls('loadQueue').at(-1)).toEqual([CLAN]);
    await settle(w, 'loadQueue', true, (event as { output: Submission[] }).output);
  },
  'xstate.error.actor.loadQueue': async (w) => settle(w, 'loadQueue', false, new Error('')),
  'selection.next': async (w) => w.user.keyboard('j'),
  'selection.previous': async (w) => w.user.keyboard('k'),
  'selection.set': async (w, { event }) => w.user.click(within(card((event as { id: number }).id)).getByText(/^Sent by/)),
  'review.approve': async (w) => w.user.keyboard('a'),
  'review.deny': async (w, { event }) => w.user.click(within(card((event as { id: number }).id)).getByRole('button', { name: 'Deny' })),
  'reason.change': async () => {
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: REASON } });
  },
  'review.confirmDeny': async (w) => w.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deny' })),
  'review.cancel': async (w) => w.user.keyboard('{Escape}'),
  'xstate.done.actor.reviewSubmission': async (w, { event }) => {
    const [, id, body] = w.fx.calls('review').at(-1)!;
    const out = (event as { output: Submission }).output;
    expect([id, (body as { decision: string }).decision]).toEqual([out.id, out.status === 'approved' ? 'approve' : 'deny']);
    if (out.status === 'denied') expect((body as { reason: string }).reason).toBe(REASON);
    await settle(w, 'review', true, out);
  },
  'xstate.error.actor.reviewSubmission': async (w) => settle(w, 'review', false, new Error(PROOF_MESSAGES.ownSubmission)),
  'review.undo': async (w) => w.user.click(screen.getByRole('button', { name: 'Undo' })),
  'xstate.done.actor.undoReview': async (w, { event }) => settle(w, 'undo', true, (event as { output: Submission }).output),
  'xstate.error.actor.undoReview': async (w) => settle(w, 'undo', false, new Error(PROOF_MESSAGES.undoExpired)),
  'sound.toggle': async (w) => w.user.click(screen.getByLabelText('Sound on new submissions')),
  'filter.toggle': async (w) => w.user.click(screen.getByLabelText('Needs a person')),
  // The chime sounds only for a new pending submission while the sound is on.
  'submission.updated': async (w, { event, prev }) => {
    const { submission } = event as { submission: Submission };
    const before = prev.context;
    const due = before.soundOn && submission.status === 'pending' && !before.items.some((i) => i.id === submission.id);
    const chimes = w.chimes;
    act(() => socketOf(w).serverSends('submission_update', { submission }));
    expect(w.chimes).toBe(chimes + (due ? 1 : 0));
  },
  'clock.ticked': async (w, { event }) => act(() => w.tick((event as { now: number }).now)),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

const countShown = (n: number | null) => {
  expect(screen.getByTestId('tab-label').textContent).toBe(n ? `Reviews (${n})` : 'Reviews');
  expect(document.title.startsWith('(')).toBe(!!n);
  if (n) expect(document.title.startsWith(`(${n}) `)).toBe(true);
};

/** The list as the chart holds it: rows oldest first, the selection, recent reviews, the last refusal, the sound box. */
const listShown = async (s: Snap) => {
  const c = s.context;
  // Behind the deny dialog the list is hidden from assistive technology (the dialog is modal); else the dialog is gone first.
  const modal = s.hasTag('modalOpen');
  if (!modal) await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  countShown(c.items.length);
  expect((screen.getByLabelText('Needs a person', { selector: 'input' }) as HTMLInputElement).checked).toBe(c.needsPerson);
  // Automatic approvals are listed apart, unless only what needs a person is shown.
  const autoShown = c.needsPerson ? [] : c.autoApproved;
  expect(screen.queryAllByTestId('review-auto').map((el) => Number(el.dataset.id))).toEqual(autoShown.map((i) => i.id));
  for (const d of autoShown) expect(screen.getAllByTestId('review-auto').find((el) => el.dataset.id === String(d.id))!.textContent).toBe(`${d.team_name}, square ${d.square_index}: ${d.evidence!.summary}`);
  if (c.items.length === 0) {
    expect(screen.getByTestId('reviews-empty').textContent).toBe(PROOF_VIEW_TEXTS.emptyQueue);
  } else {
    const cards = screen.getAllByTestId('review-card');
    expect(cards.map((el) => Number(el.dataset.id))).toEqual(c.items.filter((i) => !c.needsPerson || (i.status === 'pending' && !i.auto)).map((i) => i.id));
    // Where each proof came from, beside its image: an upload, or Dink with its evidence as text.
    for (const el of cards) {
      const item = c.items.find((i) => i.id === Number(el.dataset.id))!;
      const source = within(el).getByTestId('review-source');
      if (item.source === 'dink') {
        expect(source.textContent).toBe(`Dink ${item.evidence!.type === 'LOOT' ? 'Loot' : 'Kill Count'}: ${item.evidence!.summary}`);
        expect(source.querySelector('b')).toBeNull();
      } else expect(source.textContent).toBe('Upload');
    }
    expect(cards.filter((el) => el.getAttribute('aria-current') === 'true').map((el) => Number(el.dataset.id))).toEqual([c.selectedId]);
    // Typed texts are text: no element is made from them.
    const a = cards.find((el) => el.dataset.id === String(A.id));
    if (a) {
      expect(a.textContent).toContain(`Note: ${A.note}`);
      expect(a.querySelector('script, i')).toBeNull();
      // The whole thumbnail shows on a button that opens the lightbox (no link to the raw image).
      expect(a.querySelector('a')).toBeNull();
      const thumb = within(a).getByRole('button', { name: `View full size: Proof from ${A.team_name} for square ${A.square_index}`, hidden: modal });
      expect(thumb.querySelector('img')!.getAttribute('src')).toBe(A.thumb_url);
    }
  }
  const recent = screen.queryAllByTestId('review-recent');
  expect(recent.map((el) => el.dataset.status)).toEqual(c.recent.map((r) => r.status));
  if (c.actionError) expect(screen.getByTestId('review-action-error').textContent).toBe(c.actionError);
  else expect(screen.queryByTestId('review-action-error')).toBeNull();
};

modelTests<Snap, ModelEvent, World>({
  name: 'reviewQueue',
  machine: reviewQueueMachine,
  inputs: [{ clanId: CLAN }],
  events: eventsOf,
  serialize: serializeState,
  // A path that a longer one starts with takes the same steps and asserts the same states.
  dropPrefixPaths: true,
  executors: EXECUTORS,
  assertions: {
    // Not a manager: no tab, no count, and the feed and the clock stopped once they ran.
    idle: (_s, w) => {
      expect(screen.queryByRole('heading', { name: 'Proof waiting for review' })).toBeNull();
      countShown(null);
      for (const socket of w.sockets) expect(socket.closed).toBe(true);
      expect(w.clocks.stopped).toBe(w.clocks.started);
    },
    // A manager: the tab with its keys and sound box, the managers room joined, the clock running.
    watching: async (s, w) => {
      // Behind the deny dialog the tab is hidden from assistive technology (the dialog is modal).
      expect(screen.getByRole('heading', { name: 'Proof waiting for review', hidden: s.hasTag('modalOpen') })).toBeTruthy();
      expect(screen.getByText('Keys: J / K move, A approve, D deny.')).toBeTruthy();
      expect((screen.getByLabelText('Sound on new submissions') as HTMLInputElement).checked).toBe(s.context.soundOn);
      await waitFor(() => expect(socketOf(w).sentOf('join_reviews')).toContainEqual({ clan_id: CLAN }));
      expect(socketOf(w).closed).toBe(false);
      expect(w.clocks.started - w.clocks.stopped).toBe(1);
    },
    'watching.loading': async () => {
      expect(await screen.findByText('Loading submissions...')).toBeTruthy();
      expect(screen.queryAllByTestId('review-card')).toHaveLength(0);
      countShown(null);
    },
    'watching.failed': () => {
      expect(screen.getByTestId('reviews-error').textContent).toBe(PROOF_VIEW_TEXTS.queueFailed);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
      countShown(null);
    },
    'watching.list': (s) => listShown(s),
    'watching.list.idle': () => {
      for (const b of screen.queryAllByRole('button', { name: /^(Approve|Deny|Undo)$/ })) expect((b as HTMLButtonElement).disabled).toBe(false);
    },
    'watching.list.denying': (s) => {
      const dialog = screen.getByRole('dialog');
      const target = s.context.items.find((i) => i.id === s.context.denyId)!;
      expect(within(dialog).getByText(`${target.team_name}, square ${target.square_index}: the team sees this reason and may send the proof again.`)).toBeTruthy();
      expect((within(dialog).getByLabelText('Reason') as HTMLTextAreaElement).value).toBe(s.context.reason);
      expect((within(dialog).getByRole('button', { name: 'Deny' }) as HTMLButtonElement).disabled).toBe(s.context.reason === '');
    },
    'watching.list.reviewing': (s) => {
      expect(within(card(s.context.request!.submissionId)).getByRole('button', { name: 'Saving...' })).toBeTruthy();
      for (const b of screen.getAllByRole('button', { name: 'Deny' })) expect((b as HTMLButtonElement).disabled).toBe(true);
    },
    'watching.list.undoing': () => {
      expect((screen.getByRole('button', { name: 'Undoing...' }) as HTMLButtonElement).disabled).toBe(true);
    },
  },
  render: () => {
    document.title = 'Clan Snakes & Ladders';
    const fx = new FakeEffects();
    const w: World = { fx, user: userEvent.setup(), sockets: [], tick: () => {}, clocks: { started: 0, stopped: 0 }, chimes: 0, queue: () => current };
    const effects: ReviewEffects = {
      loadQueue: (clanId) => fx.fn('loadQueue')(clanId),
      review: (clanId, id, body) => fx.fn('review')(clanId, id, body),
      undo: (clanId, id) => fx.fn('undo')(clanId, id),
      openSocket: () => {
        const socket = new FakeSocket();
        w.sockets.push(socket);
        queueMicrotask(() => socket.serverConnects());
        return socket;
      },
      startClock: (tick) => {
        w.tick = tick;
        w.clocks.started += 1;
        return () => void (w.clocks.stopped += 1);
      },
      chime: () => {
        w.chimes += 1;
      },
    };
    render(<Host effects={effects} />);
    return w;
  },
  guards: (paths) => {
    // A new submission chimes with the sound on and not with it off; a withdrawn one leaves the queue.
    const updates = paths.flatMap((p) => p.steps.flatMap((st, i) => (st.event.type === 'submission.updated' ? [{ prev: p.steps[i - 1].state, event: st.event as { submission: Submission } }] : [])));
    expect(updates.some((u) => u.prev.context.soundOn && u.event.submission.id === C.id)).toBe(true);
    expect(updates.some((u) => !u.prev.context.soundOn && u.event.submission.id === C.id)).toBe(true);
    expect(updates.some((u) => u.event.submission.status === 'withdrawn')).toBe(true);
    // An automatic approval arrives, and 'Needs a person' hides it.
    expect(paths.some((p) => p.steps.some((st) => st.state.context.needsPerson && st.state.context.autoApproved.length > 0))).toBe(true);
    // The queue empty, a refusal of each kind, and a review past its 5 minutes all reach the screen.
    const states = paths.flatMap((p) => p.steps.map((st) => st.state));
    expect(states.some((s) => s.matches({ watching: 'list' }) && s.context.items.length === 0)).toBe(true);
    for (const text of [PROOF_MESSAGES.ownSubmission, PROOF_MESSAGES.undoExpired]) expect(states.some((s) => s.context.actionError === text), text).toBe(true);
    expect(states.some((s) => s.context.now >= LATER)).toBe(true);
  },
});
