// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { RecentNotification } from '../../contract/push';
import { RECENT_NOTIFICATIONS_POLL_MS, recentNotificationsMachine, type RecentNotificationsEvent } from '../../machines/recentNotifications.machine';
import { RECENT_NOTIFICATIONS_TEXTS as TEXTS, RecentNotifications } from '../../src/features/dashboard/RecentNotifications';
import { modelTests, type ActorSteps, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { fakeUser, renderRoutes, signedInSessionLogic } from '../support/render';

/**
 * Model-based test of the dashboard's Notifications widget, the recentNotifications chart
 * (docs/client.md §1; docs/server.md §20 "In the page"), through the rendered widget: the first
 * load, a read again when the window regains focus, the 30 s poll, failures; every state asserted
 * on the screen (each title linking to its page, its text as text, 'Nothing yet.', the error with
 * Retry on a failed first load, the list kept on a failed later read).
 */

type Snap = SnapshotFrom<typeof recentNotificationsMachine>;
type ModelEvent =
  | RecentNotificationsEvent
  | ActorSteps<'loadNotifications', RecentNotification[]>
  | { type: 'xstate.after.pollInterval.recentNotifications.loaded' }
  | { type: 'xstate.after.pollInterval.recentNotifications.failed' };

const LIST: RecentNotification[] = [
  { id: 9, title: 'Proof denied', body: 'Red Team, square 12: Crop <b>the</b> chat', url: '/games/clan/8/events/44/game/12', created_at: '2026-01-02T10:05:00.000Z' },
  { id: 7, title: 'Proof approved', body: 'Red Team, square 9: approved by referee.', url: '/games/clan/8/events/44/game/12', created_at: '2026-01-02T10:00:00.000Z' },
];
const NEWER: RecentNotification[] = [{ id: 11, title: 'Your pick', body: 'You are on the clock in Autumn Draft.', url: '/clans/8/events/50/draft', created_at: '2026-01-02T10:06:00.000Z' }, ...LIST];
const FAILED = 'Failed to load your notifications.';

interface World {
  fx: FakeEffects;
}

function events(s: Snap): ModelEvent[] {
  const loads: ModelEvent[] = [
    { type: 'xstate.done.actor.loadNotifications', output: s.context.items.length === 0 ? LIST : s.context.items.length === LIST.length ? NEWER : [] },
    { type: 'xstate.error.actor.loadNotifications', error: new Error('') },
  ];
  if (s.matches('loading')) return [{ type: 'xstate.done.actor.loadNotifications', output: [] }, ...loads];
  if (s.matches('reloading')) return loads;
  return [{ type: 'notifications.reload' }, { type: `xstate.after.pollInterval.recentNotifications.${s.matches('loaded') ? 'loaded' : 'failed'}` } as ModelEvent];
}

/** The list as the context says: each title a link to its url, its text as text. */
function listShows(s: Snap): void {
  const widget = screen.getByTestId('recent-notifications');
  const rows = within(widget).queryAllByRole('listitem');
  expect(rows).toHaveLength(s.context.items.length);
  s.context.items.forEach((n, i) => {
    const row = within(rows[i]);
    expect(row.getByRole('link', { name: n.title }).getAttribute('href')).toBe(n.url);
    expect(row.getByText(n.body)).toBeTruthy();
  });
  expect(widget.querySelector('b')).toBeNull();
}

const after = async () => act(async () => void vi.advanceTimersByTime(RECENT_NOTIFICATIONS_POLL_MS));

modelTests<Snap, ModelEvent, World>({
  name: 'recentNotifications',
  machine: recentNotificationsMachine,
  events,
  // A reload by the poll is told apart from one on focus, so both get paths.
  serialize: (s, e) => JSON.stringify([s.value, e?.type.startsWith('xstate.after') ?? false, s.context.items.length, s.context.error]),
  fakeTimers: true,
  dropPrefixPaths: true,
  executors: {
    'xstate.done.actor.loadNotifications': (w, { event }) => act(() => w.fx.settle('loadNotifications', event)),
    'xstate.error.actor.loadNotifications': (w, { event }) => act(() => w.fx.settle('loadNotifications', event)),
    // Loaded: the window regains focus. Failed: Retry.
    'notifications.reload': async (_w, { prev }) => {
      if (prev.matches('failed')) await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(screen.getByRole('button', { name: 'Retry' }));
      else await act(async () => void fireEvent.focus(window));
    },
    'xstate.after.pollInterval.recentNotifications.loaded': after,
    'xstate.after.pollInterval.recentNotifications.failed': after,
  } satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>,
  assertions: {
    loading: () => {
      expect(screen.getByText(TEXTS.loading)).toBeTruthy();
      expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    },
    loaded: (s) => {
      expect(screen.queryByText(TEXTS.loading)).toBeNull();
      if (s.context.items.length === 0 && !s.context.error) expect(screen.getByText(TEXTS.none)).toBeTruthy();
      else expect(screen.queryByText(TEXTS.none)).toBeNull();
      listShows(s);
    },
    // The list stays while it is read again.
    reloading: (s) => listShows(s),
    failed: (s) => {
      expect(screen.getByText(FAILED)).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
      listShows(s);
    },
  },
  render: async () => {
    const fx = new FakeEffects();
    renderRoutes([{ path: '/dashboard', element: <RecentNotifications loadNotifications={fx.fn('loadNotifications')} /> }], '/dashboard', signedInSessionLogic(fakeUser()));
    await screen.findByTestId('recent-notifications');
    return { fx };
  },
});
