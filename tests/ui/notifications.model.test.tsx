// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { render } from '@testing-library/react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { notificationsMachine, type NotificationsEvent, type NotificationsStatus } from '../../machines/notifications.machine';
import { NOTIFICATIONS_TEXTS, NotificationsPanel, type NotificationsEffects } from '../../src/features/profile/NotificationsPanel';
import { PUSH_MESSAGES, type PushSettings } from '../../contract/push';
import { modelTests, type ActorSteps, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based test of the notifications chart (docs/server.md §20; docs/client.md §3) through the
 * rendered Notifications panel of the Profile page: the first read, a browser without web push,
 * a failed read and Retry, Enable (on, or refused with the blocked message), Disable, a switch
 * saved or refused; every state asserted on the screen.
 */

type Snap = SnapshotFrom<typeof notificationsMachine>;
type ModelEvent =
  | NotificationsEvent
  | ActorSteps<'loadStatus', NotificationsStatus>
  | ActorSteps<'enable'>
  | ActorSteps<'disable'>
  | ActorSteps<'saveSwitch', PushSettings>;

const ALL_ON: PushSettings = { proof_decided: true, may_roll: true, proof_waiting: true, draft_turn: true };
const OFF: NotificationsStatus = { supported: true, blocked: false, subscribed: false, settings: ALL_ON };
const UNSUPPORTED: NotificationsStatus = { supported: false, blocked: false, subscribed: false, settings: ALL_ON };
const LOAD_ERROR = 'Network error. Check your connection and try again.';
const SAVE_ERROR = 'Failed to save the setting.';
const OFF_ERROR = 'Failed to turn notifications off.';

interface World {
  fx: FakeEffects;
}

function events(s: Snap): ModelEvent[] {
  const settings = s.context.status?.settings ?? ALL_ON;
  if (s.matches('loading')) {
    return [
      { type: 'xstate.done.actor.loadStatus', output: OFF },
      { type: 'xstate.done.actor.loadStatus', output: UNSUPPORTED },
      { type: 'xstate.error.actor.loadStatus', error: new Error(LOAD_ERROR) },
    ];
  }
  if (s.matches('failed')) return [{ type: 'notifications.retry' }];
  if (s.matches('enabling')) return [{ type: 'xstate.done.actor.enable' }, { type: 'xstate.error.actor.enable', error: new Error(PUSH_MESSAGES.blocked) }];
  if (s.matches('disabling')) return [{ type: 'xstate.done.actor.disable' }, { type: 'xstate.error.actor.disable', error: new Error(OFF_ERROR) }];
  if (s.matches('saving')) {
    return [{ type: 'xstate.done.actor.saveSwitch', output: { ...settings, may_roll: !settings.may_roll } }, { type: 'xstate.error.actor.saveSwitch', error: new Error(SAVE_ERROR) }];
  }
  if (s.matches('ready')) {
    return [
      s.context.status?.subscribed ? { type: 'notifications.disable' } : { type: 'notifications.enable' },
      { type: 'notifications.toggle', kind: 'may_roll', on: !settings.may_roll },
    ];
  }
  return [];
}

const button = (name: string) => screen.findByRole('button', { name });
const mayRoll = () => screen.getByRole('checkbox', { name: NOTIFICATIONS_TEXTS.switches.may_roll }) as HTMLInputElement;

/** The panel as the chart's context says: on or off, the switches, the shown refusal. */
async function panelShows(s: Snap, busy: boolean): Promise<void> {
  const status = s.context.status!;
  expect((await screen.findByTestId('notifications-state')).textContent).toBe(status.subscribed ? NOTIFICATIONS_TEXTS.on : NOTIFICATIONS_TEXTS.off);
  expect(mayRoll().checked).toBe(status.settings.may_roll);
  expect(mayRoll().disabled).toBe(busy);
  for (const kind of ['proof_decided', 'proof_waiting', 'draft_turn'] as const) {
    expect((screen.getByRole('checkbox', { name: NOTIFICATIONS_TEXTS.switches[kind] }) as HTMLInputElement).checked).toBe(true);
  }
  if (s.context.error) expect(screen.getByTestId('notifications-error').textContent).toBe(s.context.error);
  else expect(screen.queryByTestId('notifications-error')).toBeNull();
}

modelTests<Snap, ModelEvent, World>({
  name: 'notifications',
  machine: notificationsMachine,
  dropPrefixPaths: true,
  events,
  // The event that led there tells apart a ready reached by Disable from the first one, so each gets its path.
  serialize: (s, event) => JSON.stringify([s.value, s.context.status?.subscribed ?? null, s.context.status?.settings.may_roll ?? null, s.context.error, event?.type ?? null]),
  executors: {
    'xstate.done.actor.loadStatus': (w, { event }) => w.fx.settle('loadStatus', event),
    'xstate.error.actor.loadStatus': (w, { event }) => w.fx.settle('loadStatus', event),
    'xstate.done.actor.enable': (w, { event }) => w.fx.settle('enable', event),
    'xstate.error.actor.enable': (w, { event }) => w.fx.settle('enable', event),
    'xstate.done.actor.disable': (w, { event }) => w.fx.settle('disable', event),
    'xstate.error.actor.disable': (w, { event }) => w.fx.settle('disable', event),
    'xstate.done.actor.saveSwitch': (w, { event }) => w.fx.settle('saveSwitch', event),
    'xstate.error.actor.saveSwitch': (w, { event }) => w.fx.settle('saveSwitch', event),
    'notifications.retry': async () => {
      await userEvent.click(await button(NOTIFICATIONS_TEXTS.retry));
    },
    'notifications.enable': async () => {
      await userEvent.click(await button(NOTIFICATIONS_TEXTS.enable));
    },
    'notifications.disable': async () => {
      await userEvent.click(await button(NOTIFICATIONS_TEXTS.disable));
    },
    'notifications.toggle': async (w) => {
      await userEvent.click(mayRoll());
      expect(w.fx.calls('saveSwitch').at(-1)?.[0]).toMatchObject({ kind: 'may_roll' });
    },
  } satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>,
  assertions: {
    loading: async () => {
      expect(await screen.findByText(NOTIFICATIONS_TEXTS.loading)).toBeTruthy();
    },
    unsupported: async () => {
      expect((await screen.findByTestId('notifications-unsupported')).textContent).toBe(PUSH_MESSAGES.unsupported);
      expect(screen.queryByRole('button', { name: NOTIFICATIONS_TEXTS.enable })).toBeNull();
    },
    failed: async () => {
      expect((await screen.findByTestId('notifications-error')).textContent).toBe(LOAD_ERROR);
      expect(await button(NOTIFICATIONS_TEXTS.retry)).toBeTruthy();
    },
    ready: async (s) => {
      await panelShows(s, false);
      const action = await button(s.context.status!.subscribed ? NOTIFICATIONS_TEXTS.disable : NOTIFICATIONS_TEXTS.enable);
      expect((action as HTMLButtonElement).disabled).toBe(false);
    },
    enabling: async (s) => {
      expect(((await button(NOTIFICATIONS_TEXTS.enabling)) as HTMLButtonElement).disabled).toBe(true);
      await panelShows(s, true);
    },
    disabling: async (s) => {
      expect(((await button(NOTIFICATIONS_TEXTS.disabling)) as HTMLButtonElement).disabled).toBe(true);
      await panelShows(s, true);
    },
    saving: async (s) => {
      await panelShows(s, true);
    },
  },
  render: () => {
    const fx = new FakeEffects();
    const effects: NotificationsEffects = {
      loadStatus: fx.fn('loadStatus') as NotificationsEffects['loadStatus'],
      enable: fx.fn('enable') as NotificationsEffects['enable'],
      disable: fx.fn('disable') as NotificationsEffects['disable'],
      saveSwitch: fx.fn('saveSwitch') as NotificationsEffects['saveSwitch'],
    };
    render(<NotificationsPanel effects={effects} />);
    return { fx };
  },
});
