// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DinkAccount, DinkLink, DinkPost } from '../../contract/dink';
import { DINK_LINK_TEXTS, dinkLinkMachine, type DinkLinkEvent } from '../../machines/dinkLink.machine';
import { DINK_POSTS_POLL_MS, dinkPostsMachine, type DinkPostsEvent } from '../../machines/dinkPosts.machine';
import { dinkAccountsMachine, type DinkAccountsEvent } from '../../machines/dinkAccounts.machine';
import { DINK_DIALOG_TEXTS, DinkPanel, type DinkEffects } from '../../src/features/dink/DinkPanel';
import { DINK_OUTCOME_TEXT } from '../../src/features/dink/dinkTexts';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based tests of the Dink panel's two charts (docs/client.md §7; docs/server.md §13)
 * through the rendered panel: dinkLink (load, Make Dink Link, the Auto-approve switch, Copy, and
 * Rotate / Revoke through their confirm dialogs, each answered or refused by the fake server) and
 * dinkPosts (the recent posts: first load, Refresh, the 10 s poll, failures) and dinkAccounts (the
 * pinned accounts: first load, Refresh, failures; Clear through its confirm dialog, then a reload).
 * Every state is asserted on the screen: the link, the switch, the outcome texts, the posts with
 * their outcomes, the pins with their hash prefixes and post counts.
 */

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}

const LINK_OFF: DinkLink = { url: 'https://snakes.example/api/dink/AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK', auto_approve: false, created_at: '2026-05-01T10:00:00.000Z' };
const LINK_ON: DinkLink = { ...LINK_OFF, auto_approve: true };
const ROTATED: DinkLink = { url: 'https://snakes.example/api/dink/zzzzYYYYxxxxWWWWvvvvUUUUttttSSSSrrrrQQQQppp', auto_approve: false, created_at: '2026-05-01T11:00:00.000Z' };
const LOAD_ERROR = 'Network error. Failed to connect to the server.';
const REFUSED = 'Permission denied. You are not authorized to manage this clan.';

function renderPanel(): World {
  const fx = new FakeEffects();
  const effects: DinkEffects = {
    fetchDinkLink: fx.fn('load'),
    createDinkLink: fx.fn('create'),
    saveDinkAutoApprove: (clanId, eventId, autoApprove) => fx.fn('save')(clanId, eventId, autoApprove),
    revokeDinkLink: fx.fn('revoke'),
    fetchDinkPosts: fx.fn('posts'),
    fetchDinkAccounts: fx.fn('accounts'),
    clearDinkAccount: fx.fn('clear'),
    copyText: fx.fn('copy'),
  };
  render(<DinkPanel clanId={7} eventId={3} effects={effects} />);
  return { fx, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) };
}

const settle = (w: World, name: string, e: { type: string; output?: unknown; error?: unknown }) =>
  act(() => (e.type.startsWith('xstate.done') ? w.fx.resolve(name, e.output) : w.fx.reject(name, e.error)));
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const linkPanel = () => screen.getByTestId('dink-panel');

// ---------------------------------------------------------------------------------------------
// dinkLink
// ---------------------------------------------------------------------------------------------

type LinkSnap = SnapshotFrom<typeof dinkLinkMachine>;
type LinkEvent =
  | DinkLinkEvent
  | { type: 'xstate.done.actor.loadLink'; output: DinkLink | null }
  | { type: 'xstate.error.actor.loadLink'; error: Error }
  | { type: 'xstate.done.actor.createLink'; output: DinkLink }
  | { type: 'xstate.error.actor.createLink'; error: Error }
  | { type: 'xstate.done.actor.saveAutoApprove'; output: DinkLink }
  | { type: 'xstate.error.actor.saveAutoApprove'; error: Error }
  | { type: 'xstate.done.actor.copyLink' }
  | { type: 'xstate.error.actor.copyLink'; error: Error };

function linkEvents(s: LinkSnap): LinkEvent[] {
  const { link } = s.context;
  switch (s.value as string) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadLink', output: null },
        { type: 'xstate.done.actor.loadLink', output: LINK_OFF },
        { type: 'xstate.error.actor.loadLink', error: new Error(LOAD_ERROR) },
      ];
    case 'failed':
      return [{ type: 'dink.reload' }];
    case 'loaded':
      if (!link) return [{ type: 'dink.create' }];
      return [
        { type: 'autoApprove.toggle' },
        { type: 'link.copy' },
        // One rotation is enough: a second would only repeat it.
        ...(link.url !== ROTATED.url ? [{ type: 'link.rotated', dink: ROTATED } as const] : []),
        { type: 'link.revoked' },
      ];
    case 'creating':
      return [
        { type: 'xstate.done.actor.createLink', output: LINK_OFF },
        { type: 'xstate.error.actor.createLink', error: new Error(REFUSED) },
      ];
    case 'savingAutoApprove':
      return [
        { type: 'xstate.done.actor.saveAutoApprove', output: { ...link!, auto_approve: !link!.auto_approve } },
        { type: 'xstate.error.actor.saveAutoApprove', error: new Error(REFUSED) },
      ];
    case 'copying':
      return [{ type: 'xstate.done.actor.copyLink' }, { type: 'xstate.error.actor.copyLink', error: new Error('No clipboard.') }];
    default:
      return [];
  }
}

/** Runs a confirm dialog: opens it with `open`, confirms with `confirm`, lets the fake server answer `call`, and closes it on its success message. */
async function confirmFlow(w: World, open: string, title: string, confirm: string, call: string, output: unknown, done: string) {
  await w.user.click(button(open));
  const dialog = await screen.findByRole('dialog', { name: title });
  await w.user.click(within(dialog).getByRole('button', { name: confirm }));
  await act(() => w.fx.resolve(call, output));
  expect(await within(dialog).findByText(done)).toBeTruthy();
  await w.user.click(within(dialog).getByRole('button', { name: 'Close' }));
  expect(screen.queryByRole('dialog')).toBeNull();
}

const linkExecutors = {
  'xstate.done.actor.loadLink': (w, { event }) => settle(w, 'load', event),
  'xstate.error.actor.loadLink': (w, { event }) => settle(w, 'load', event),
  'xstate.done.actor.createLink': (w, { event }) => settle(w, 'create', event),
  'xstate.error.actor.createLink': (w, { event }) => settle(w, 'create', event),
  'xstate.done.actor.saveAutoApprove': (w, { event }) => settle(w, 'save', event),
  'xstate.error.actor.saveAutoApprove': (w, { event }) => settle(w, 'save', event),
  'xstate.done.actor.copyLink': (w, { event }) => settle(w, 'copy', event),
  'xstate.error.actor.copyLink': (w, { event }) => settle(w, 'copy', event),
  'dink.create': (w) => w.user.click(button('Make Dink Link')),
  'dink.reload': (w, { prev }) => (prev.matches('failed') ? w.user.click(button('Retry')) : Promise.reject(new Error('The panel offers no reload of a loaded link.'))),
  'autoApprove.toggle': (w) => w.user.click(screen.getByRole('checkbox', { name: 'Auto-approve matching posts with a screenshot' })),
  'link.copy': (w) => w.user.click(button('Copy')),
  'link.rotated': (w, { event }) => confirmFlow(w, 'Rotate Link', DINK_DIALOG_TEXTS.rotateTitle, 'Make New Link', 'create', (event as { dink: DinkLink }).dink, DINK_DIALOG_TEXTS.rotated),
  'link.revoked': (w) => confirmFlow(w, 'Revoke Link', DINK_DIALOG_TEXTS.revokeTitle, 'Revoke Link', 'revoke', undefined, DINK_DIALOG_TEXTS.revoked),
} satisfies Record<LinkEvent['type'], ModelExecutor<World, LinkSnap, LinkEvent>>;

/** The link part as the context says: the URL, the switch, the buttons, the outcome. */
function linkShows(s: LinkSnap, busy: boolean): void {
  expect(linkPanel().dataset.phase).toBe(s.value);
  const { link, message } = s.context;
  if (link) {
    expect((screen.getByTestId('dink-url') as HTMLInputElement).value).toBe(link.url);
    const toggle = screen.getByRole('checkbox', { name: 'Auto-approve matching posts with a screenshot' }) as HTMLInputElement;
    expect(toggle.checked).toBe(link.auto_approve);
    expect(toggle.disabled).toBe(busy);
    expect(button('Copy').disabled).toBe(busy);
    expect(button('Rotate Link').disabled).toBe(busy);
    expect(button('Revoke Link').disabled).toBe(busy);
    expect(screen.queryByRole('button', { name: 'Make Dink Link' })).toBeNull();
  } else {
    expect(screen.getByTestId('dink-none').textContent).toContain('No Dink link yet');
    expect(button('Make Dink Link').disabled).toBe(busy);
    expect(screen.queryByTestId('dink-url')).toBeNull();
  }
  if (message) {
    expect(screen.getByTestId('dink-message').textContent).toBe(message.text);
    expect(screen.getByTestId('dink-message').className).toContain(`notice--${message.tone}`);
  } else expect(screen.queryByTestId('dink-message')).toBeNull();
}

modelTests<LinkSnap, LinkEvent, World>({
  name: 'dinkLink',
  machine: dinkLinkMachine,
  events: linkEvents,
  // A retry after a failed load is a state of its own (else the first load hides it).
  serialize: (s, e) => JSON.stringify([s.value, e?.type === 'dink.reload', s.context.link?.url ?? null, s.context.link?.auto_approve ?? null, s.context.message?.text ?? null]),
  dropPrefixPaths: true,
  fakeTimers: true,
  executors: linkExecutors,
  render: () => renderPanel(),
  uncovered: {
    'loaded -> dink.reload': 'The panel offers a reload only after a failed load (Retry); a loaded link changes only by this panel.',
  },
  assertions: {
    loading: () => {
      expect(linkPanel().dataset.phase).toBe('loading');
      expect(screen.getByText('Loading the Dink link...')).toBeTruthy();
      expect(screen.queryByTestId('dink-url')).toBeNull();
    },
    failed: (s) => {
      expect(s.context.error).toBe(LOAD_ERROR);
      expect(within(linkPanel()).getAllByRole('alert')[0].textContent).toBe(LOAD_ERROR);
      expect(button('Retry')).toBeTruthy();
      expect(screen.queryByTestId('dink-url')).toBeNull();
    },
    loaded: (s) => linkShows(s, false),
    creating: (s) => {
      linkShows(s, true);
      expect(screen.getByText('Making the link...')).toBeTruthy();
    },
    savingAutoApprove: (s, w) => {
      linkShows(s, true);
      expect(screen.getByText('Saving...')).toBeTruthy();
      // The switch sends the setting turned over.
      expect(w.fx.calls('save').at(-1)).toEqual([7, 3, !s.context.link!.auto_approve]);
    },
    copying: (s, w) => {
      linkShows(s, true);
      expect(w.fx.calls('copy').at(-1)).toEqual([s.context.link!.url]);
    },
  },
  guards: (paths) => {
    const texts = new Set(paths.flatMap((p) => p.steps.map((st) => st.state.context.message?.text)));
    for (const t of Object.values(DINK_LINK_TEXTS).filter((t) => t !== DINK_LINK_TEXTS.actionFailed)) expect(texts.has(t), t).toBe(true);
    expect(texts.has(REFUSED)).toBe(true);
    expect(paths.some((p) => p.steps.some((st) => st.state.context.link?.auto_approve === true))).toBe(true);
  },
});

// ---------------------------------------------------------------------------------------------
// dinkPosts
// ---------------------------------------------------------------------------------------------

type PostsSnap = SnapshotFrom<typeof dinkPostsMachine>;
type PostsEvent =
  | DinkPostsEvent
  | { type: 'xstate.done.actor.loadPosts'; output: DinkPost[] }
  | { type: 'xstate.error.actor.loadPosts'; error: Error }
  | { type: 'xstate.after.pollInterval.dinkPosts.loaded' }
  | { type: 'xstate.after.pollInterval.dinkPosts.failed' };

const POSTS: DinkPost[] = [
  { at: '2026-05-01T10:05:00.000Z', player_name: 'Zezima', type: 'LOOT', summary: 'Dragon warhammer x1 from Lizardman shaman', outcome: 'approved' },
  { at: '2026-05-01T10:04:00.000Z', player_name: 'Woox', type: 'KILL_COUNT', summary: '<b>Vorkath</b> kill count 50', outcome: 'no_match' },
];
const NEWER: DinkPost[] = [{ at: '2026-05-01T10:06:00.000Z', player_name: 'Stranger', type: 'LEVEL', summary: 'Attack level 99', outcome: 'unknown_player' }, ...POSTS];
const POSTS_ERROR = 'Failed to load the recent Dink posts.';

function postsEvents(s: PostsSnap): PostsEvent[] {
  const loads: PostsEvent[] = [
    { type: 'xstate.done.actor.loadPosts', output: s.context.items.length === 0 ? POSTS : s.context.items.length === POSTS.length ? NEWER : [] },
    { type: 'xstate.error.actor.loadPosts', error: new Error('') },
  ];
  if (s.matches('loading')) return [{ type: 'xstate.done.actor.loadPosts', output: [] }, ...loads];
  if (s.matches('reloading')) return loads;
  return [{ type: 'posts.reload' }, { type: `xstate.after.pollInterval.dinkPosts.${s.matches('loaded') ? 'loaded' : 'failed'}` } as PostsEvent];
}

/** The posts as the context says: each row's player, summary (as text) and outcome, and the error beside them. */
function postsShow(s: PostsSnap): void {
  const rows = screen.queryAllByTestId('dink-post');
  expect(rows).toHaveLength(s.context.items.length);
  s.context.items.forEach((p, i) => {
    const row = within(rows[i]);
    expect(row.getByText(p.player_name)).toBeTruthy();
    expect(row.getByText(p.summary)).toBeTruthy();
    expect(rows[i].querySelector('b')).toBeNull();
    expect(row.getByTestId('dink-post-outcome').textContent).toBe(p.outcome);
    expect(row.getByText(DINK_OUTCOME_TEXT[p.outcome])).toBeTruthy();
  });
  if (s.context.error) expect(screen.getByTestId('dink-posts-error').textContent).toBe(POSTS_ERROR);
  else expect(screen.queryByTestId('dink-posts-error')).toBeNull();
}

modelTests<PostsSnap, PostsEvent, World>({
  name: 'dinkPosts',
  machine: dinkPostsMachine,
  events: postsEvents,
  // A reload by the poll is told apart from one by Refresh, so both get paths.
  serialize: (s, e) => JSON.stringify([s.value, e?.type.startsWith('xstate.after') ?? false, s.context.items.length, s.context.error]),
  fakeTimers: true,
  dropPrefixPaths: true,
  executors: {
    'xstate.done.actor.loadPosts': (w, { event }) => settle(w, 'posts', event),
    'xstate.error.actor.loadPosts': (w, { event }) => settle(w, 'posts', event),
    'posts.reload': (w) => w.user.click(within(screen.getByTestId('dink-posts')).getByRole('button', { name: 'Refresh' })),
    'xstate.after.pollInterval.dinkPosts.loaded': async () => act(async () => void vi.advanceTimersByTime(DINK_POSTS_POLL_MS)),
    'xstate.after.pollInterval.dinkPosts.failed': async () => act(async () => void vi.advanceTimersByTime(DINK_POSTS_POLL_MS)),
  } satisfies Record<PostsEvent['type'], ModelExecutor<World, PostsSnap, PostsEvent>>,
  assertions: {
    loading: () => {
      expect(screen.getByText('Loading recent posts...')).toBeTruthy();
      expect(screen.queryAllByTestId('dink-post')).toHaveLength(0);
    },
    loaded: (s) => {
      expect(screen.queryByText('Loading recent posts...')).toBeNull();
      if (s.context.items.length === 0) expect(screen.getByTestId('dink-posts-empty').textContent).toBe('No posts from Dink yet.');
      else expect(screen.queryByTestId('dink-posts-empty')).toBeNull();
      expect(button('Refresh').disabled).toBe(false);
      postsShow(s);
    },
    reloading: (s) => {
      // The list stays while it reloads.
      expect(button('Refreshing...').disabled).toBe(true);
      postsShow(s);
    },
    failed: (s) => {
      expect(screen.getByTestId('dink-posts-error').textContent).toBe(POSTS_ERROR);
      postsShow(s);
    },
  },
  render: () => renderPanel(),
});

// ---------------------------------------------------------------------------------------------
// dinkAccounts
// ---------------------------------------------------------------------------------------------

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
