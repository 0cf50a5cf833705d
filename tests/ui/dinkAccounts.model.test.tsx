// @vitest-environment jsdom
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DinkAccount } from '../../contract/dink';
import { dinkAccountsMachine, type DinkAccountsEvent } from '../../machines/dinkAccounts.machine';
import { DINK_DIALOG_TEXTS } from '../../src/features/dink/DinkPanel';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { renderDinkPanel as renderPanel, settleDink as settle, type DinkWorld as World } from '../support/dinkPanel';

/**
 * Model-based test of the Dink panel's pinned accounts chart, dinkAccounts (docs/client.md §7;
 * docs/server.md §13), through the rendered panel: first load, Refresh, failures; every state
 * asserted on the screen (the pins with their hash prefixes and post counts); then Clear through
 * its confirm dialog and the reload after it.
 */

type AccountsSnap = SnapshotFrom<typeof dinkAccountsMachine>;
type AccountsEvent =
  | DinkAccountsEvent
  | { type: 'xstate.done.actor.loadAccounts'; output: DinkAccount[] }
  | { type: 'xstate.error.actor.loadAccounts'; error: Error };

const ACCOUNTS: DinkAccount[] = [
  { ign_id: 11, ign: 'Iron Bob', account_hash_prefix: 'madeUpHa', pinned_at: '2026-05-01T10:01:00.000Z', posts: 3 },
  { ign_id: 12, ign: '<b>Woox</b>', account_hash_prefix: 'Zp4kS9vQ', pinned_at: '2026-05-01T10:02:00.000Z', posts: 1 },
];
const ACCOUNTS_ERROR = 'Failed to load the pinned Dink accounts.';
const EMPTY_PINS = 'No accounts pinned yet: the first post from Dink with an IGN pins its account.';
const accountsSection = () => screen.getByTestId('dink-accounts');

function accountsEvents(s: AccountsSnap): AccountsEvent[] {
  const loads: AccountsEvent[] = [
    { type: 'xstate.done.actor.loadAccounts', output: s.context.items.length === 0 ? ACCOUNTS : ACCOUNTS.slice(1) },
    { type: 'xstate.error.actor.loadAccounts', error: new Error('') },
  ];
  if (s.matches('loading')) return [{ type: 'xstate.done.actor.loadAccounts', output: [] }, ...loads];
  if (s.matches('reloading')) return loads;
  return [{ type: 'accounts.reload' }];
}

/** The pins as the context says: each row's IGN (as text), hash prefix, post count and its Clear button, and the error beside them. */
function accountsShow(s: AccountsSnap, busy: boolean): void {
  const rows = within(accountsSection()).queryAllByTestId('dink-account');
  expect(rows).toHaveLength(s.context.items.length);
  s.context.items.forEach((a, i) => {
    const row = within(rows[i]);
    expect(row.getByRole('rowheader').textContent).toBe(a.ign);
    expect(rows[i].querySelector('b')).toBeNull();
    expect(row.getByText(a.account_hash_prefix)).toBeTruthy();
    expect(row.getByText(String(a.posts))).toBeTruthy();
    expect(row.getByRole('button', { name: `Clear the pin of ${a.ign}` })).toBeTruthy();
  });
  if (s.context.error) expect(screen.getByTestId('dink-accounts-error').textContent).toBe(ACCOUNTS_ERROR);
  else expect(screen.queryByTestId('dink-accounts-error')).toBeNull();
  const refresh = within(accountsSection()).getByRole('button', { name: busy ? 'Refreshing pinned accounts...' : 'Refresh pinned accounts' }) as HTMLButtonElement;
  expect(refresh.disabled).toBe(busy);
}

modelTests<AccountsSnap, AccountsEvent, World>({
  name: 'dinkAccounts',
  machine: dinkAccountsMachine,
  events: accountsEvents,
  serialize: (s) => JSON.stringify([s.value, s.context.items.length, s.context.error]),
  fakeTimers: true,
  dropPrefixPaths: true,
  executors: {
    'xstate.done.actor.loadAccounts': (w, { event }) => settle(w, 'accounts', event),
    'xstate.error.actor.loadAccounts': (w, { event }) => settle(w, 'accounts', event),
    'accounts.reload': (w) => w.user.click(within(accountsSection()).getByRole('button', { name: 'Refresh pinned accounts' })),
  } satisfies Record<AccountsEvent['type'], ModelExecutor<World, AccountsSnap, AccountsEvent>>,
  assertions: {
    loading: () => {
      expect(within(accountsSection()).getByText('Loading pinned accounts...')).toBeTruthy();
      expect(within(accountsSection()).queryAllByTestId('dink-account')).toHaveLength(0);
    },
    loaded: (s) => {
      expect(screen.queryByText('Loading pinned accounts...')).toBeNull();
      if (s.context.items.length === 0) expect(screen.getByTestId('dink-accounts-empty').textContent).toBe(EMPTY_PINS);
      else expect(screen.queryByTestId('dink-accounts-empty')).toBeNull();
      accountsShow(s, false);
    },
    reloading: (s) => accountsShow(s, true),
    failed: () => {
      expect(screen.getByTestId('dink-accounts-error').textContent).toBe(ACCOUNTS_ERROR);
      expect(within(accountsSection()).queryAllByTestId('dink-account')).toHaveLength(0);
      expect(screen.queryByTestId('dink-accounts-empty')).toBeNull();
    },
  },
  render: () => renderPanel(),
});

describe('Clear a pinned account (confirm, DELETE, reload)', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  /** The panel with its pins loaded, and the Clear dialog of Iron Bob open. */
  async function openClear(): Promise<{ w: World; dialog: HTMLElement }> {
    vi.useFakeTimers({ shouldAdvanceTime: true, advanceTimeDelta: 2 });
    const w = renderPanel();
    await act(() => w.fx.resolve('accounts', ACCOUNTS));
    await w.user.click(await screen.findByRole('button', { name: 'Clear the pin of Iron Bob' }));
    const dialog = await screen.findByRole('dialog', { name: DINK_DIALOG_TEXTS.clearTitle });
    expect(dialog.textContent).toContain('Clear the Dink account pinned to Iron Bob?');
    return { w, dialog };
  }

  it('Cancel clears nothing; Clear calls DELETE with the IGN id, says so, and reads the pins again', async () => {
    let { w, dialog } = await openClear();
    await w.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(w.fx.calls('clear')).toEqual([]);
    cleanup();
    ({ w, dialog } = await openClear());
    await w.user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    expect(within(dialog).getByRole('status').textContent).toBe('Clearing the pin...');
    await act(() => w.fx.resolve('clear', undefined));
    expect(await within(dialog).findByText(DINK_DIALOG_TEXTS.cleared('Iron Bob'))).toBeTruthy();
    expect(w.fx.calls('clear')).toEqual([[7, 3, 11]]);
    // The list is read again, and shows what the server now has.
    await act(() => w.fx.resolve('accounts', ACCOUNTS.slice(1)));
    await w.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(w.fx.calls('accounts')).toHaveLength(2);
    const rows = within(accountsSection()).getAllByTestId('dink-account');
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['<b>Woox</b>']);
  });

  it("a refused Clear shows the server's error with Retry, and the list stays as it was", async () => {
    const { w, dialog } = await openClear();
    await w.user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    await act(() => w.fx.reject('clear', new Error('IGN ID 11 is not on a team of this event.')));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('IGN ID 11 is not on a team of this event.');
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeTruthy();
    await w.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(w.fx.calls('accounts')).toHaveLength(1);
    expect(within(accountsSection()).getAllByTestId('dink-account')).toHaveLength(2);
  });
});