// @vitest-environment jsdom
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { PendingProof } from '../../contract/pendingProofs';
import type { Submission } from '../../contract/submission';
import { pendingProofsMachine, type PendingProofsEvent } from '../../machines/pendingProofs.machine';
import { PendingProofsBadge } from '../../src/features/layout/PendingProofsBadge';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { deferred, type Deferred } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';

/**
 * Model-based test of the pendingProofs chart (the navbar's count of proofs waiting for review,
 * docs/server.md §9) through the rendered badge of a manager of two clans: paths generated
 * from the real chart with the one harness; each step caused through the badge's effects — the
 * fake server answering or failing each clan's referee queue, the socket delivering
 * `submission_update` (a proof sent in a game the count knows, one in a game it does not, one
 * reviewed) and dropping and coming back (join again, count again once the server acknowledged
 * every join) — and every state asserted on
 * the screen: the count shown (none at 0 or after a failure), its accessible name, and the clan
 * whose Reviews tab it opens.
 */

type Snap = SnapshotFrom<typeof pendingProofsMachine>;
type ModelEvent =
  | PendingProofsEvent
  | { type: 'xstate.done.actor.countPending'; output: PendingProof[] }
  | { type: 'xstate.error.actor.countPending'; error: Error };

/** The managed clans, in the navbar's order; games 30 and 31 are clan 9's. */
const CLANS = [7, 9];
const KNOWN_GAME = 30;
const NEW_GAME = 31;

function sub(id: number, gameId: number, status: Submission['status'] = 'pending'): Submission {
  return {
    id, game_id: gameId, team_id: id, team_name: `Team ${id}`, team_color: '#2a5db0', square_index: 40 + id,
    task_description: `Task ${id}`, task_difficulty: 'MEDIUM',
    submitted_by: { user_id: 10 + id, username: `user${id}`, ign: `Ign${id}` }, note: '', image_url: `/api/submissions/${id}/image`, thumb_url: `/api/submissions/${id}/thumb`,
    status, reviewer: null, reason: null, created_at: `2026-01-01T10:0${id}:00.000Z`, reviewed_at: null, source: 'upload', evidence: null, auto: false,
  };
}
/** The first proof waiting in clan 9 when the count is taken. */
const FIRST: PendingProof = { id: 1, clanId: 9, gameId: KNOWN_GAME };

/** Events in a state, bounded: at most two proofs wait, and an unknown game's proof is offered on a fresh count only. */
function eventsOf(s: Snap): ModelEvent[] {
  const { pending } = s.context;
  const reload: ModelEvent = { type: 'reviews.reload' };
  if (s.matches('counting'))
    return [
      { type: 'xstate.done.actor.countPending', output: [FIRST] },
      { type: 'xstate.done.actor.countPending', output: [] },
      { type: 'xstate.error.actor.countPending', error: new Error('Failed to load the submissions waiting for review.') },
      ...(pending.length === 0 ? [reload, { type: 'submission.updated' as const, submission: sub(1, KNOWN_GAME) }] : []),
    ];
  if (s.matches('failed')) return [reload, { type: 'submission.updated', submission: sub(2, NEW_GAME) }];
  const out: ModelEvent[] = [reload];
  if (pending.some((p) => p.gameId === KNOWN_GAME) && pending.length < 2) out.push({ type: 'submission.updated', submission: sub(2, KNOWN_GAME) });
  if (pending.length === 1) out.push({ type: 'submission.updated', submission: { ...sub(pending[0].id, pending[0].gameId, 'approved'), reviewed_at: '2026-01-01T11:00:00.000Z' } });
  if (pending.length === 0) out.push({ type: 'submission.updated', submission: sub(3, NEW_GAME) });
  return out;
}

/** A FakeSocket whose server acknowledges every join_reviews at once with {joined: true}. */
class AckingSocket extends FakeSocket {
  override emit(event: string, payload: unknown, ack?: (answer: unknown) => void) {
    super.emit(event, payload);
    ack?.({ joined: true });
    return this;
  }
}

interface World {
  socket: AckingSocket;
  /** Every referee-queue call, oldest first: the clan and the promise the test settles. */
  calls: { clanId: number; answer: Deferred<Submission[]> }[];
}

/** The queue calls of the count under way: the last one per managed clan. */
const lastCount = (w: World) => w.calls.slice(-CLANS.length);

async function waitForCount(w: World) {
  await waitFor(() => expect(lastCount(w).map((c) => c.clanId)).toEqual(CLANS));
}

const executors = {
  'xstate.done.actor.countPending': async (w, { event }) => {
    await waitForCount(w);
    const { output } = event as { output: PendingProof[] };
    await act(async () => {
      for (const call of lastCount(w)) call.answer.resolve(output.filter((p) => p.clanId === call.clanId).map((p) => sub(p.id, p.gameId)));
    });
  },
  'xstate.error.actor.countPending': async (w) => {
    await waitForCount(w);
    await act(async () => {
      for (const call of lastCount(w)) call.answer.reject(new Error('Failed to load the submissions waiting for review.'));
    });
  },
  // A reconnect: the feed joins every managers room again and, once they are joined, asks for a new count.
  'reviews.reload': async (w) => {
    const before = w.calls.length;
    const joins = w.socket.sentOf('join_reviews').length;
    act(() => {
      w.socket.drop();
      w.socket.serverConnects();
    });
    expect(w.socket.sentOf('join_reviews').slice(joins)).toEqual(CLANS.map((id) => ({ clan_id: id })));
    await waitFor(() => expect(w.calls.length).toBe(before + CLANS.length));
  },
  'submission.updated': async (w, { event }) => {
    act(() => w.socket.serverSends('submission_update', { submission: (event as { submission: Submission }).submission }));
  },
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

/** The badge as the state says: absent at 0 and after a failure, else the count, its name and its link. */
async function badgeShows(expected: { count: number | null; clanId?: number }) {
  await waitFor(() => {
    const badge = screen.queryByTestId('pending-proofs');
    if (!expected.count) {
      expect(badge).toBeNull();
      return;
    }
    expect(badge).not.toBeNull();
    const name = `${expected.count} proof${expected.count === 1 ? '' : 's'} waiting for review`;
    expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(`/clans/manage/${expected.clanId}/reviews`);
    expect(badge!.textContent).toBe(String(expected.count));
  });
}

const clanWithPending = (s: Snap) => CLANS.find((id) => s.context.pending.some((p) => p.clanId === id)) ?? CLANS[0];

modelTests<Snap, ModelEvent, World>({
  name: 'pendingProofs',
  machine: pendingProofsMachine,
  dropPrefixPaths: true,
  inputs: [{ clanIds: CLANS }],
  events: eventsOf,
  // The state before tells apart a count started by an update in `counted` from one in `counting`.
  serialize: (s, event, prev) => JSON.stringify([s.value, s.context.pending, event?.type ?? null, prev?.value ?? null]),
  executors,
  assertions: {
    // Counting: the last count stays (0 at first: nothing shown) while the queues load.
    counting: async (s, w) => {
      await badgeShows({ count: s.context.pending.length, clanId: clanWithPending(s) });
      await waitForCount(w);
    },
    counted: async (s, w) => {
      await badgeShows({ count: s.context.pending.length, clanId: clanWithPending(s) });
      expect(w.socket.sentOf('join_reviews').slice(0, CLANS.length)).toEqual(CLANS.map((id) => ({ clan_id: id })));
    },
    failed: async () => badgeShows({ count: null }),
  },
  render: async () => {
    const w: World = { socket: new AckingSocket(), calls: [] };
    render(
      <MemoryRouter>
        <PendingProofsBadge
          clanIds={CLANS}
          effects={{
            loadQueue: (clanId) => {
              const answer = deferred<Submission[]>();
              w.calls.push({ clanId, answer });
              return answer.promise;
            },
            openSocket: () => {
              queueMicrotask(() => w.socket.serverConnects());
              return w.socket;
            },
          }}
        />
      </MemoryRouter>,
    );
    // The first connect's joins are acknowledged and the count is taken again: the one the test settles.
    await waitFor(() => expect(w.calls.length).toBe(2 * CLANS.length));
    expect(w.socket.sentOf('join_reviews')).toEqual(CLANS.map((id) => ({ clan_id: id })));
    return w;
  },
  guards: (paths) => {
    // The count reaches two proofs, and a proof of a game it has not seen makes it count again.
    expect(paths.some((p) => p.steps.some((st) => st.state.matches('counted') && st.state.context.pending.length === 2))).toBe(true);
    expect(paths.some((p) => p.steps.some((st, i) => i > 0 && st.event.type === 'submission.updated' && p.steps[i - 1].state.matches('counted') && st.state.matches('counting')))).toBe(true);
  },
});
