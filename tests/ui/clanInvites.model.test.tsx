// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { INVITE_LIST_TEXTS, type Invite } from '../../contract/invite';
import { clanInvitesMachine, type ClanInvitesEvent } from '../../machines/clanInvites.machine';
import { InvitesPanel, INVITE_DIALOG_TEXTS, validateInviteDraft } from '../../src/features/invites/InvitesPanel';
import type { InviteEffects } from '../../src/features/invites/effects';
import { modelTests, type ActorSteps, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based test of the clan page's invite links, the clanInvites chart (docs/client.md §15;
 * docs/server.md §18), through the rendered panel: first load, Refresh, failures, Copy
 * link and its outcome; every state asserted on the screen (each live invite's code, uses, link,
 * Copy and Revoke). Then Make Invite Link (its form rule, the numbers sent, the list read again)
 * and Revoke through their confirm dialogs.
 */

type Snap = SnapshotFrom<typeof clanInvitesMachine>;
type Event = ClanInvitesEvent | ActorSteps<'loadInvites', Invite[]> | ActorSteps<'copyLink'>;

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}

const invite = (code: string, uses: number, max_uses: number): Invite => ({
  code,
  url: `https://snakes.example/invite/${code}`,
  max_uses,
  uses,
  expires_at: '2026-12-05T10:00:00.000Z',
  created_at: '2026-11-28T10:00:00.000Z',
});
const INVITES = [invite('AbCdEfGhIjKlMnOpQrStUvWx', 3, 25), invite('zyx-_0123456789ABCDEFGHIJ', 0, 1)];

function renderPanel(): World {
  const fx = new FakeEffects();
  const effects: InviteEffects = { loadInvites: fx.fn('load'), createInvite: fx.fn('create'), revokeInvite: fx.fn('revoke'), copyText: fx.fn('copy') };
  render(<InvitesPanel clanId={7} effects={effects} />);
  return { fx, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) };
}

const settle = (w: World, name: string, e: Event) => act(() => w.fx.settle(name, e));
const panel = () => screen.getByTestId('invites');
const copyButton = (code: string) => within(panel()).getByRole('button', { name: `Copy link of invite ${code}` }) as HTMLButtonElement;

function events(s: Snap): Event[] {
  const loads: Event[] = [
    { type: 'xstate.done.actor.loadInvites', output: s.context.items.length === 0 ? INVITES : INVITES.slice(1) },
    { type: 'xstate.error.actor.loadInvites', error: new Error('') },
  ];
  if (s.matches('loading')) return [{ type: 'xstate.done.actor.loadInvites', output: [] }, ...loads];
  if (s.matches('reloading')) return loads;
  if (s.matches('copying')) return [{ type: 'xstate.done.actor.copyLink' }, { type: 'xstate.error.actor.copyLink', error: new Error('denied') }];
  if (s.matches('failed')) return [{ type: 'invites.reload' }];
  return [{ type: 'invites.reload' }, ...(s.context.items.length > 0 ? [{ type: 'invite.copy' as const, url: s.context.items[0].url }] : [])];
}

/** The rows as the context says: code (as the row's header), uses of the allowed, the link with Copy, and Revoke; the message and error beside them. */
function rowsShow(s: Snap, copying: boolean): void {
  const rows = within(panel()).queryAllByTestId('invite-row');
  expect(rows).toHaveLength(s.context.items.length);
  s.context.items.forEach((inv, i) => {
    const row = within(rows[i]);
    expect(row.getByRole('rowheader').textContent).toBe(inv.code);
    expect(row.getByText(`${inv.uses} / ${inv.max_uses}`)).toBeTruthy();
    expect(row.getByTestId('invite-url').textContent).toBe(inv.url);
    expect(copyButton(inv.code).disabled).toBe(copying);
    expect(row.getByRole('button', { name: `Revoke invite ${inv.code}` })).toBeTruthy();
  });
  if (s.context.error) expect(screen.getByTestId('invites-error').textContent).toBe(INVITE_LIST_TEXTS.loadFailed);
  else expect(screen.queryByTestId('invites-error')).toBeNull();
  if (s.context.message) expect(screen.getByTestId('invites-message').textContent).toBe(s.context.message.text);
  else expect(screen.queryByTestId('invites-message')).toBeNull();
}

modelTests<Snap, Event, World>({
  name: 'clanInvites',
  machine: clanInvitesMachine,
  events,
  serialize: (s) => JSON.stringify([s.value, s.context.items.length, s.context.error, s.context.message?.tone ?? null]),
  fakeTimers: true,
  dropPrefixPaths: true,
  executors: {
    'xstate.done.actor.loadInvites': (w, { event }) => settle(w, 'load', event),
    'xstate.error.actor.loadInvites': (w, { event }) => settle(w, 'load', event),
    'xstate.done.actor.copyLink': (w, { event }) => settle(w, 'copy', event),
    'xstate.error.actor.copyLink': (w, { event }) => settle(w, 'copy', event),
    'invites.reload': (w) => w.user.click(within(panel()).getByRole('button', { name: 'Refresh invites' })),
    'invite.copy': async (w, { prev }) => w.user.click(copyButton(prev.context.items[0].code)),
  } satisfies Record<Event['type'], ModelExecutor<World, Snap, Event>>,
  assertions: {
    loading: () => {
      expect(within(panel()).getByText('Loading invites...')).toBeTruthy();
      expect(within(panel()).queryAllByTestId('invite-row')).toHaveLength(0);
    },
    loaded: (s) => {
      expect(screen.queryByText('Loading invites...')).toBeNull();
      if (s.context.items.length === 0) expect(screen.getByTestId('invites-empty').textContent).toBe(INVITE_LIST_TEXTS.empty);
      else expect(screen.queryByTestId('invites-empty')).toBeNull();
      expect((within(panel()).getByRole('button', { name: 'Refresh invites' }) as HTMLButtonElement).disabled).toBe(false);
      rowsShow(s, false);
    },
    reloading: (s) => {
      expect((within(panel()).getByRole('button', { name: 'Refreshing invites...' }) as HTMLButtonElement).disabled).toBe(true);
      rowsShow(s, true);
    },
    copying: (s) => rowsShow(s, true),
    failed: () => {
      expect(screen.getByTestId('invites-error').textContent).toBe(INVITE_LIST_TEXTS.loadFailed);
      expect(within(panel()).queryAllByTestId('invite-row')).toHaveLength(0);
      expect((within(panel()).getByRole('button', { name: 'Refresh invites' }) as HTMLButtonElement).disabled).toBe(false);
    },
  },
  render: () => renderPanel(),
});

describe('Make Invite Link and Revoke (confirm dialogs)', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  /** The panel with its invites loaded. */
  async function loadedPanel(): Promise<World> {
    vi.useFakeTimers({ shouldAdvanceTime: true, advanceTimeDelta: 2 });
    const w = renderPanel();
    await act(() => w.fx.resolve('load', INVITES));
    await screen.findByRole('button', { name: `Revoke invite ${INVITES[0].code}` });
    return w;
  }

  it('the form rule: uses 1 to 1,000 and hours 1 to 720, whole numbers', () => {
    expect(validateInviteDraft({ maxUses: '25', hours: '168' })).toBeNull();
    expect(validateInviteDraft({ maxUses: '1', hours: '1' })).toBeNull();
    expect(validateInviteDraft({ maxUses: '1000', hours: '720' })).toBeNull();
    for (const maxUses of ['0', '1001', '2.5', '', 'x', '-1']) expect(validateInviteDraft({ maxUses, hours: '168' })).toBe(INVITE_DIALOG_TEXTS.maxUses);
    for (const hours of ['0', '721', '1.5', '']) expect(validateInviteDraft({ maxUses: '25', hours })).toBe(INVITE_DIALOG_TEXTS.hours);
  });

  it('Make Invite Link offers 25 uses and 168 hours, refuses a bad number, sends the numbers, says so and reads the list again', async () => {
    const w = await loadedPanel();
    await w.user.click(within(panel()).getByRole('button', { name: 'Make Invite Link' }));
    const dialog = await screen.findByRole('dialog', { name: INVITE_DIALOG_TEXTS.makeTitle });
    const uses = within(dialog).getByLabelText('Uses') as HTMLInputElement;
    const hours = within(dialog).getByLabelText('Expires after (hours)') as HTMLInputElement;
    expect([uses.value, hours.value]).toEqual(['25', '168']);
    await w.user.clear(hours);
    await w.user.type(hours, '721');
    await w.user.click(within(dialog).getByRole('button', { name: 'Make Link' }));
    expect(within(dialog).getByText(INVITE_DIALOG_TEXTS.hours)).toBeTruthy();
    expect(w.fx.calls('create')).toEqual([]);
    await w.user.clear(hours);
    await w.user.type(hours, '48');
    await w.user.clear(uses);
    await w.user.type(uses, '3');
    await w.user.click(within(dialog).getByRole('button', { name: 'Make Link' }));
    expect(within(dialog).getByRole('status').textContent).toBe('Making the invite link...');
    const made = invite('NewNewNewNewNewNewNewNewN', 0, 3);
    await act(() => w.fx.resolve('create', made));
    expect(w.fx.calls('create')).toEqual([[7, { max_uses: 3, expires_in_hours: 48 }]]);
    expect((await screen.findByTestId('action-result')).textContent).toContain(INVITE_DIALOG_TEXTS.made(made));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(() => w.fx.resolve('load', [made, ...INVITES]));
    expect(await within(panel()).findByRole('button', { name: `Revoke invite ${made.code}` })).toBeTruthy();
    expect(w.fx.calls('load')).toHaveLength(2);
  });

  it("Revoke: Cancel changes nothing; Revoke sends the code, says so and reads the list again; a refusal shows the server's text with Retry", async () => {
    let w = await loadedPanel();
    const code = INVITES[0].code;
    await w.user.click(within(panel()).getByRole('button', { name: `Revoke invite ${code}` }));
    let dialog = await screen.findByRole('dialog', { name: INVITE_DIALOG_TEXTS.revokeTitle });
    expect(dialog.textContent).toContain(`Revoke the invite ${code}?`);
    await w.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(w.fx.calls('revoke')).toEqual([]);

    await w.user.click(within(panel()).getByRole('button', { name: `Revoke invite ${code}` }));
    dialog = await screen.findByRole('dialog', { name: INVITE_DIALOG_TEXTS.revokeTitle });
    await w.user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await act(() => w.fx.reject('revoke', new Error('This invite does not exist or has been revoked.')));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This invite does not exist or has been revoked.');
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeTruthy();
    await w.user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await w.user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await act(() => w.fx.resolve('revoke', undefined));
    expect(w.fx.calls('revoke')).toEqual([[7, code], [7, code]]);
    expect((await screen.findByTestId('action-result')).textContent).toContain(INVITE_DIALOG_TEXTS.revoked);
    await act(() => w.fx.resolve('load', INVITES.slice(1)));
    expect(await within(panel()).findAllByTestId('invite-row')).toHaveLength(1);
    cleanup();
    w = await loadedPanel();
    expect(w.fx.calls('revoke')).toEqual([]);
  });
});
