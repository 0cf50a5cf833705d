import { assign, setup } from 'xstate';
import { errorText } from '../contract/errorText';
import type { PushKind, PushSettings } from '../contract/push';
import { missingPromise } from './shared';

/** What the panel learns on load: whether the browser has web push, whether it refused, whether this browser is subscribed, the switches. */
export interface NotificationsStatus {
  supported: boolean;
  blocked: boolean;
  subscribed: boolean;
  settings: PushSettings;
}

export type NotificationsEvent =
  | { type: 'notifications.enable' }
  | { type: 'notifications.disable' }
  | { type: 'notifications.toggle'; kind: PushKind; on: boolean }
  | { type: 'notifications.retry' };

/** What the chart holds: the last status read, and the text of the last refusal or failure. */
export interface NotificationsContext {
  status: NotificationsStatus | null;
  error: string | null;
}

/**
 * The Profile page's Notifications panel (docs/client.md §3; docs/server.md §20). `loading` (tag
 * `busy`) runs `loadStatus`: to `unsupported` when the browser has no web push, else `ready`; a
 * failure goes to `failed` (`notifications.retry` reads again). From `ready`: Enable runs `enable`
 * (asks the browser, subscribes with the site's key and sends the subscription; a refusal's text,
 * such as the blocked message, stays shown in `ready`), Disable runs `disable` (only while
 * subscribed), a switch runs `saveSwitch` with `{kind, on}` and keeps the answer. Every run is
 * tagged `busy`; none can start while another runs.
 */
export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
  },
  actors: {
    loadStatus: missingPromise<NotificationsStatus>('notifications', 'loadStatus'),
    enable: missingPromise<void>('notifications', 'enable'),
    disable: missingPromise<void>('notifications', 'disable'),
    saveSwitch: missingPromise<PushSettings, { kind: PushKind; on: boolean }>('notifications', 'saveSwitch'),
  },
  guards: {
    unsupported: (_, status: NotificationsStatus) => !status.supported,
    subscribed: ({ context }) => context.status?.subscribed === true,
  },
  actions: {
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'notifications',
  context: { status: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          { guard: { type: 'unsupported', params: ({ event }) => event.output }, target: 'unsupported', actions: assign({ status: ({ event }) => event.output }) },
          { target: 'ready', actions: assign({ status: ({ event }) => event.output, error: null }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error, 'Failed to load your notification settings.') }) },
      },
    },
    unsupported: {},
    failed: { on: { 'notifications.retry': 'loading' } },
    ready: {
      on: {
        'notifications.enable': { target: 'enabling', actions: 'clearError' },
        'notifications.disable': { guard: 'subscribed', target: 'disabling', actions: 'clearError' },
        'notifications.toggle': { target: 'saving', actions: 'clearError' },
      },
    },
    enabling: {
      tags: ['busy'],
      invoke: {
        id: 'enable',
        src: 'enable',
        onDone: { target: 'ready', actions: assign({ status: ({ context }) => context.status && { ...context.status, subscribed: true, blocked: false } }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error, 'Failed to turn notifications on.') }) },
      },
    },
    disabling: {
      tags: ['busy'],
      invoke: {
        id: 'disable',
        src: 'disable',
        onDone: { target: 'ready', actions: assign({ status: ({ context }) => context.status && { ...context.status, subscribed: false } }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error, 'Failed to turn notifications off.') }) },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveSwitch',
        src: 'saveSwitch',
        input: ({ event }) => {
          const e = event as Extract<NotificationsEvent, { type: 'notifications.toggle' }>;
          return { kind: e.kind, on: e.on };
        },
        onDone: { target: 'ready', actions: assign({ status: ({ context, event }) => context.status && { ...context.status, settings: event.output } }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error, 'Failed to save the setting.') }) },
      },
    },
  },
});
