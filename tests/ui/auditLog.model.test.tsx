// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { AUDIT_PAGE_SIZE, type AuditEntry } from '../../contract/audit';
import { auditLogMachine, type AuditLogEvent } from '../../machines/auditLog.machine';
import { HistoryTab } from '../../src/features/clan/HistoryTab';
import { modelTests, type ActorSteps, type ModelExecutor } from '../support/chartModel';
import { loadExecutors, renderAt, type ListWorld } from '../support/listScreens';

/**
 * Model-based test of the auditLog chart through the clan page's History tab (docs/client.md §5
 * History; docs/server.md §18 "History"): the fake server answering the first page (a full page
 * of 100, or none: 'No history yet.') or failing it (Retry), and 'Load more' asking for the page
 * after the last row (`before` its id) and adding it below, or failing beside the rows. Shortest
 * paths are generated from the REAL chart by the chart-model harness; each step is caused through
 * the screen and every state asserted on it. Targets and details are text: markup in them shows
 * as written.
 */

const CLAN = 7;
const FAILED = 'Failed to load the history.';
/** A failed 'Load more' shows the same text, beside the rows. */
const MORE_FAILED = FAILED;

/** An entry by the manager Ali Cat, or (every tenth) by an account that is gone. */
const entry = (id: number): AuditEntry => ({
  id,
  at: new Date(Date.UTC(2026, 10, 20, 10, 0, id)).toISOString(),
  actor: id % 10 === 0 ? null : { user_id: 3, username: 'Ali Cat' },
  action: id % 2 === 0 ? 'member.role' : 'team.create',
  target: id % 2 === 0 ? `<b>User ${id}</b>` : `Team ${id}`,
  detail: id % 2 === 0 ? 'Member → Admin' : 'In Winter Ladder',
});
/** A full first page: ids 300 down to 201. */
const FULL = Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => entry(300 - i));
/** The last, short page after it. */
const LAST = [entry(200), entry(199)];

type Snap = SnapshotFrom<typeof auditLogMachine>;
type Event = AuditLogEvent | ActorSteps<'loadAuditEntries', AuditEntry[]> | ActorSteps<'loadMoreAuditEntries', AuditEntry[]>;

/** Every row on screen in order, each with its action, target (as text), detail, who and when. */
function expectRows(s: Snap) {
  const list = within(screen.getByTestId('audit-log')).getByRole('list');
  const rows = within(list).getAllByRole('listitem');
  expect(rows).toHaveLength(s.context.items.length);
  s.context.items.forEach((e, i) => {
    expect(rows[i].getAttribute('data-testid')).toBe(`audit-entry-${e.id}`);
    expect(rows[i].textContent).toContain(e.action);
    expect(rows[i].textContent).toContain(e.target);
    expect(rows[i].textContent).toContain(e.detail);
    expect(rows[i].textContent).toContain(e.actor ? e.actor.username : 'Deleted user');
    expect(rows[i].querySelector('time')?.getAttribute('dateTime')).toBe(e.at);
    expect(rows[i].querySelector('b')).toBeNull();
  });
}

/** 'Load more' shows exactly while the last page was full. */
function expectLoadMore(s: Snap, label: 'Load more' | 'Loading...') {
  const button = screen.queryByRole('button', { name: label });
  if (s.context.hasMore) expect(button).toBeTruthy();
  else expect(screen.queryByRole('button', { name: /Load more|Loading/ })).toBeNull();
}

modelTests<Snap, Event, ListWorld>({
  name: 'auditLog',
  machine: auditLogMachine,
  render: renderAt('/', (fx) => (
    <HistoryTab clanId={CLAN} loadAudit={(clanId, before) => (before === undefined ? fx.fn('loadAuditEntries')(clanId) : fx.fn('loadMoreAuditEntries')(clanId, before))} />
  )),
  events: (s) => {
    if (s.matches('loading')) {
      return [
        { type: 'xstate.done.actor.loadAuditEntries', output: FULL },
        { type: 'xstate.done.actor.loadAuditEntries', output: [] },
        { type: 'xstate.error.actor.loadAuditEntries', error: new Error('') },
      ];
    }
    if (s.matches('failed')) return [{ type: 'auditLog.reload' }];
    if (s.matches('loadingMore')) {
      return [
        { type: 'xstate.done.actor.loadMoreAuditEntries', output: LAST },
        { type: 'xstate.error.actor.loadMoreAuditEntries', error: new Error('') },
      ];
    }
    return s.context.hasMore ? [{ type: 'auditLog.loadMore' }] : [];
  },
  executors: {
    'auditLog.reload': async (w) => w.user.click(screen.getByRole('button', { name: 'Retry' })),
    'auditLog.loadMore': async (w, { prev }) => {
      await w.user.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(() => expect(w.fx.calls('loadMoreAuditEntries').at(-1)).toEqual([CLAN, prev.context.items.at(-1)!.id]));
    },
    ...loadExecutors<'loadAuditEntries', Snap, Event>('loadAuditEntries'),
    ...loadExecutors<'loadMoreAuditEntries', Snap, Event>('loadMoreAuditEntries'),
  } satisfies Record<Event['type'], ModelExecutor<ListWorld, Snap, Event>>,
  assertions: {
    loading: async () => {
      expect(await screen.findByText('Loading history...')).toBeTruthy();
      expect(screen.queryByRole('list')).toBeNull();
      expect(screen.queryByText(FAILED)).toBeNull();
    },
    loaded: async (s) => {
      await waitFor(() => expect(screen.queryByText('Loading history...')).toBeNull());
      if (s.context.items.length === 0) {
        expect(screen.getByText('No history yet.')).toBeTruthy();
        expect(screen.queryByRole('list')).toBeNull();
      } else {
        await waitFor(() => expectRows(s));
        expect(screen.queryByText('No history yet.')).toBeNull();
      }
      // A failed 'Load more' keeps the rows, with the error beside them and the button to try again.
      if (s.context.error) expect(screen.getByText(MORE_FAILED)).toBeTruthy();
      else expect(screen.queryByText(MORE_FAILED)).toBeNull();
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
      await waitFor(() => expectLoadMore(s, 'Load more'));
    },
    loadingMore: async (s) => {
      const button = await screen.findByRole('button', { name: 'Loading...' });
      expect((button as HTMLButtonElement).disabled).toBe(true);
      expectRows(s);
      // A retried 'Load more' keeps the last failure shown until it is answered.
      if (s.context.error) expect(screen.getByText(MORE_FAILED)).toBeTruthy();
      else expect(screen.queryByText(MORE_FAILED)).toBeNull();
    },
    failed: async () => {
      expect(await screen.findByText(FAILED)).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
      expect(screen.queryByRole('list')).toBeNull();
      expect(screen.queryByText('No history yet.')).toBeNull();
    },
  },
});
