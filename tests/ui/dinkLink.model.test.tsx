// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DinkLink } from '../../contract/dink';
import { DINK_LINK_TEXTS, dinkLinkMachine, type DinkLinkEvent } from '../../machines/dinkLink.machine';
import { DINK_DIALOG_TEXTS } from '../../src/features/dink/DinkPanel';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { dinkButton as button, renderDinkPanel as renderPanel, settleDink as settle, type DinkWorld as World } from '../support/dinkPanel';

/**
 * Model-based test of the Dink panel's link chart, dinkLink (docs/client.md §7; docs/server.md
 * §13), through the rendered panel: load, Make Dink Link, the Auto-approve switch, Copy, and
 * Rotate / Revoke through their confirm dialogs, each answered or refused by the fake server.
 * Every state is asserted on the screen: the link, the switch, the outcome texts.
 */

const LINK_OFF: DinkLink = { url: 'https://snakes.example/api/dink/AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK', auto_approve: false, created_at: '2026-05-01T10:00:00.000Z' };
const LINK_ON: DinkLink = { ...LINK_OFF, auto_approve: true };
const ROTATED: DinkLink = { url: 'https://snakes.example/api/dink/zzzzYYYYxxxxWWWWvvvvUUUUttttSSSSrrrrQQQQppp', auto_approve: false, created_at: '2026-05-01T11:00:00.000Z' };
const LOAD_ERROR = 'Network error. Failed to connect to the server.';
const REFUSED = 'Permission denied. You are not authorized to manage this clan.';

const linkPanel = () => screen.getByTestId('dink-panel');

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
        { type: 'link.copy', what: 'config' },
        { type: 'link.copy', what: 'webhook' },
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
  // The one-link set-up's Copy leads; the raw webhook's sits under Advanced.
  'link.copy': (w, { event }) => w.user.click(button((event as { what: string }).what === 'config' ? 'Copy config URL' : 'Copy')),
  'link.rotated': (w, { event }) => confirmFlow(w, 'Rotate Link', DINK_DIALOG_TEXTS.rotateTitle, 'Make New Link', 'create', (event as { dink: DinkLink }).dink, DINK_DIALOG_TEXTS.rotated),
  'link.revoked': (w) => confirmFlow(w, 'Revoke Link', DINK_DIALOG_TEXTS.revokeTitle, 'Revoke Link', 'revoke', undefined, DINK_DIALOG_TEXTS.revoked),
} satisfies Record<LinkEvent['type'], ModelExecutor<World, LinkSnap, LinkEvent>>;

/** The link part as the context says: the URL, the switch, the buttons, the outcome. */
function linkShows(s: LinkSnap, busy: boolean): void {
  expect(linkPanel().dataset.phase).toBe(s.value);
  const { link, message } = s.context;
  if (link) {
    expect((screen.getByTestId('dink-url') as HTMLInputElement).value).toBe(link.url);
    expect((screen.getByTestId('dink-config-url') as HTMLInputElement).value).toBe(`${link.url}/config`);
    expect(screen.getByTestId('dink-config-where').textContent).toBe('Paste this into Dink → Advanced → Dynamic Config URL.');
    expect(button('Copy config URL').disabled).toBe(busy);
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
  serialize: (s, e) => JSON.stringify([s.value, e?.type === 'dink.reload', s.context.link?.url ?? null, s.context.link?.auto_approve ?? null, s.context.message?.text ?? null, s.matches('copying') ? s.context.copying : null]),
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
      expect(w.fx.calls('copy').at(-1)).toEqual([s.context.copying === 'config' ? `${s.context.link!.url}/config` : s.context.link!.url]);
    },
  },
  guards: (paths) => {
    const texts = new Set(paths.flatMap((p) => p.steps.map((st) => st.state.context.message?.text)));
    for (const t of Object.values(DINK_LINK_TEXTS).filter((t) => t !== DINK_LINK_TEXTS.actionFailed)) expect(texts.has(t), t).toBe(true);
    expect(texts.has(REFUSED)).toBe(true);
    expect(paths.some((p) => p.steps.some((st) => st.state.context.link?.auto_approve === true))).toBe(true);
  },
});
