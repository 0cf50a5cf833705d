// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { pendingRequestsText, type ClanJoinRequest } from '../../contract/joins';
import { joinRequestsMachine, type JoinRequestsEvent } from '../../machines/joinRequests.machine';
import { JoinRequestsPanel } from '../../src/features/joins/JoinRequestsPanel';
import type { JoinEffects } from '../../src/features/joins/effects';
import { FakeEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { firstLoadShows, loadExecutors, renderAt, type ListWorld, type Loaded } from '../support/listScreens';

/**
 * Model-based test of the joinRequests chart through the managers' requests panel of the clan page
 * (docs/client.md §5; docs/server.md §18): the fake server answering or failing the load, a
 * manager approving the first request (which reloads the list), Retry, and the live count arriving
 * over a fake socket as `join_request` (shown at once, and reloading the rows). Shortest paths are
 * generated from the REAL chart by the chart-model harness; each step is caused through the screen
 * and every state asserted on it.
 */

const CLAN = 7;
const ALI: ClanJoinRequest = { id: 11, user_id: 3, username: 'Ali Cat', igns: ['AliCat'], created_at: '2026-11-20T10:00:00.000Z' };
const BOB: ClanJoinRequest = { id: 12, user_id: 4, username: 'Bob Ross', igns: ['Bobby', 'BobAlt'], created_at: '2026-11-21T10:00:00.000Z' };
const FAILED = 'Failed to load the requests to join.';

type Snap = SnapshotFrom<typeof joinRequestsMachine>;
type Event = JoinRequestsEvent | Loaded<'loadJoinRequests', ClanJoinRequest>;
type World = ListWorld & { socket: FakeSocket };

const effectsOf = (fx: FakeEffects, socket: FakeSocket): JoinEffects => ({
  loadJoinRequests: fx.fn('loadJoinRequests'),
  approve: fx.fn('approve'),
  deny: fx.fn('deny'),
  saveSettings: fx.fn('saveSettings'),
  withdraw: fx.fn('withdraw'),
  openSocket: () => socket,
});

/** The count badge reads the live count, or the rows loaded before any word. */
function expectCount(s: Snap) {
  expect(screen.getByTestId('join-request-count').textContent).toBe(pendingRequestsText(s.context.pending ?? s.context.items.length));
}

/** The rows on screen: each asker with their IGNs, and Approve / Deny. */
function expectRows(s: Snap) {
  const panel = screen.getByTestId('join-requests');
  if (s.context.items.length === 0) expect(within(panel).getByText('No requests to join.')).toBeTruthy();
  for (const r of s.context.items) {
    const row = within(panel).getByTestId(`join-request-${r.id}`);
    expect(within(row).getByText(r.username)).toBeTruthy();
    expect(row.textContent).toContain(`IGNs: ${r.igns.join(', ')}`);
    expect(within(row).getByRole('button', { name: `Approve ${r.username}` })).toBeTruthy();
    expect(within(row).getByRole('button', { name: `Deny ${r.username}` })).toBeTruthy();
  }
}

let socket = new FakeSocket();

modelTests<Snap, Event, World>({
  name: 'joinRequests',
  machine: joinRequestsMachine,
  dropPrefixPaths: true,
  render: async () => {
    socket = new FakeSocket();
    const w = renderAt('/', (fx) => <JoinRequestsPanel clanId={CLAN} effects={effectsOf(fx, socket)} onApproved={() => {}} />)();
    return { ...w, socket };
  },
  events: (s) => {
    const loads: Event[] = [
      { type: 'xstate.done.actor.loadJoinRequests', output: s.matches('loading') ? [ALI] : [BOB] },
      { type: 'xstate.error.actor.loadJoinRequests', error: new Error('') },
    ];
    if (s.matches('loading')) return s.context.pending === null ? [...loads, { type: 'joinRequests.counted', pending: 1 }] : loads;
    if (s.matches('reloading')) return s.context.pending === 5 ? loads : [...loads, { type: 'joinRequests.counted', pending: 5 }];
    if (s.matches('failed')) return [{ type: 'joinRequests.reload' }];
    const out: Event[] = [];
    if (s.context.items.length > 0) out.push({ type: 'joinRequests.reload' });
    if (s.context.pending !== 2) out.push({ type: 'joinRequests.counted', pending: 2 });
    return out;
  },
  executors: {
    // From a failure: Retry. From the list: a manager approves the first request, which reloads it.
    'joinRequests.reload': async (w, { prev }) => {
      const retry = screen.queryByRole('button', { name: 'Retry' });
      if (retry) return w.user.click(retry);
      const first = prev.context.items[0];
      await w.user.click(screen.getByRole('button', { name: `Approve ${first.username}` }));
      expect(await screen.findByText(`Make ${first.username} a Member of the clan?`)).toBeTruthy();
      await w.user.click(screen.getByRole('button', { name: 'Approve' }));
      await act(() => w.fx.resolve('approve', { member_id: first.user_id }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(w.fx.calls('approve').at(-1)).toEqual([CLAN, first.id]);
    },
    // The server tells the managers' room the count changed. During a reload the load starts again:
    // the earlier one is answered too, and its answer is not taken.
    'joinRequests.counted': async (w, { event, prev }) => {
      const calls = w.fx.calls('loadJoinRequests').length;
      act(() => w.socket.serverSends('join_request', { clan_id: CLAN, pending: (event as { pending: number }).pending }));
      if (prev.matches('reloading')) {
        await waitFor(() => expect(w.fx.calls('loadJoinRequests').length).toBe(calls + 1));
        await act(() => w.fx.resolve('loadJoinRequests', [ALI, BOB, BOB]));
      }
    },
    ...loadExecutors<'loadJoinRequests', Snap, Event>('loadJoinRequests'),
  } satisfies Record<Event['type'], ModelExecutor<World, Snap, Event>>,
  assertions: {
    loading: firstLoadShows('Loading requests to join...', () => screen.queryByRole('list')),
    loaded: async (s) => {
      await waitFor(() => expectRows(s));
      expectCount(s);
      // A failed reload keeps the rows, with the error beside them and no Retry.
      if (s.context.error) expect(screen.getByText(FAILED)).toBeTruthy();
      else expect(screen.queryByText(FAILED)).toBeNull();
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    },
    reloading: async (s) => {
      // The rows stay while the list reloads; no first-load text.
      await waitFor(() => expectRows(s));
      expectCount(s);
      expect(screen.queryByText('Loading requests to join...')).toBeNull();
    },
    failed: async (s) => {
      expect(await screen.findByText(FAILED)).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
      expect(screen.queryByRole('list')).toBeNull();
      expectCount(s);
    },
  },
});
