import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { notificationsMachine, type NotificationsStatus } from '../../../machines/notifications.machine';
import { isNotificationsBusy, isNotificationsFailed, isPushUnsupported, selectNotificationsError, selectPushStatus } from '../../../machines/notifications.selectors';
import { PUSH_KINDS, PUSH_MESSAGES, type PushKind, type PushSettings } from '../../../contract/push';
import { fetchPushKey, fetchPushSettings, removePushSubscription, savePushSettings, sendPushSubscription } from '../../api/push';
import { pushSupported, SERVICE_WORKER_URL } from '../../base/serviceWorker';
import { Notice } from '../../ui/Notice';

/** The panel's texts. */
export const NOTIFICATIONS_TEXTS = {
  title: 'Notifications',
  loading: 'Loading notification settings...',
  on: 'Notifications are on in this browser.',
  off: 'Notifications are off in this browser.',
  enable: 'Enable',
  enabling: 'Enabling...',
  disable: 'Disable',
  disabling: 'Disabling...',
  retry: 'Retry',
  switches: {
    proof_decided: 'Proof reviewed (my team)',
    may_roll: 'My team may roll (Leaders)',
    proof_waiting: 'Proof waiting for review (managers)',
    draft_turn: 'My pick in a captains’ draft',
  } satisfies Record<PushKind, string>,
} as const;

/** The panel's calls (docs/server.md §20); tests give fakes. */
export interface NotificationsEffects {
  loadStatus(): Promise<NotificationsStatus>;
  enable(): Promise<void>;
  disable(): Promise<void>;
  saveSwitch(change: { kind: PushKind; on: boolean }): Promise<PushSettings>;
}

const ALL_ON: PushSettings = { proof_decided: true, may_roll: true, proof_waiting: true, draft_turn: true };

/** The service worker's registration, registering it when the page has none yet. */
async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration();
  if (!existing) await navigator.serviceWorker.register(SERVICE_WORKER_URL);
  return navigator.serviceWorker.ready;
}

/** The key's base64url text as the bytes pushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * The browser's side of web push: support and permission from the browser, the switches from the
 * server; Enable asks for permission (PUSH_MESSAGES.blocked when refused), subscribes with the
 * site's VAPID key and sends the subscription; Disable removes it on both sides.
 */
const liveNotificationsEffects: NotificationsEffects = {
  async loadStatus() {
    if (!pushSupported()) return { supported: false, blocked: false, subscribed: false, settings: ALL_ON };
    const settings = await fetchPushSettings();
    const reg = await navigator.serviceWorker.getRegistration();
    const sub = await reg?.pushManager.getSubscription();
    return { supported: true, blocked: Notification.permission === 'denied', subscribed: Boolean(sub) && Notification.permission === 'granted', settings };
  },
  async enable() {
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') throw new Error(PUSH_MESSAGES.blocked);
    const reg = await registration();
    const key = await fetchPushKey();
    const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
    const json = sub.toJSON();
    await sendPushSubscription({ endpoint: sub.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } });
  },
  async disable() {
    const reg = await navigator.serviceWorker.getRegistration();
    const sub = await reg?.pushManager.getSubscription();
    if (!sub) return;
    await removePushSubscription(sub.endpoint);
    await sub.unsubscribe();
  },
  saveSwitch: ({ kind, on }) => savePushSettings({ [kind]: on }),
};

/**
 * The Profile page's Notifications panel (docs/client.md §3; docs/server.md §20): whether
 * notifications are on in this browser, Enable (asks the browser) or Disable, and the four
 * switches; the blocked message when the browser refuses, another when it has no web push.
 * The notifications chart runs the calls.
 */
export function NotificationsPanel({ effects = liveNotificationsEffects }: { effects?: NotificationsEffects }) {
  const logic = useMemo(
    () =>
      notificationsMachine.provide({
        actors: {
          loadStatus: fromPromise(() => effects.loadStatus()),
          enable: fromPromise(() => effects.enable()),
          disable: fromPromise(() => effects.disable()),
          saveSwitch: fromPromise(({ input }) => effects.saveSwitch(input)),
        },
      }),
    [effects],
  );
  const actor = useActorRef(logic);
  const status = useSelector(actor, selectPushStatus);
  const busy = useSelector(actor, isNotificationsBusy);
  const unsupported = useSelector(actor, isPushUnsupported);
  const failed = useSelector(actor, isNotificationsFailed);
  const error = useSelector(actor, selectNotificationsError);
  const enabling = useSelector(actor, (s) => s.matches('enabling'));
  const disabling = useSelector(actor, (s) => s.matches('disabling'));
  return (
    <section className="panel profile__section" aria-labelledby="profile-notifications" data-testid="notifications-panel">
      <h2 id="profile-notifications">{NOTIFICATIONS_TEXTS.title}</h2>
      {unsupported ? (
        <Notice tone="info" testId="notifications-unsupported">{PUSH_MESSAGES.unsupported}</Notice>
      ) : failed ? (
        <>
          <Notice tone="error" testId="notifications-error">{error}</Notice>
          <button type="button" className="btn btn--small" onClick={() => actor.send({ type: 'notifications.retry' })}>{NOTIFICATIONS_TEXTS.retry}</button>
        </>
      ) : !status ? (
        <p className="muted">{NOTIFICATIONS_TEXTS.loading}</p>
      ) : (
        <>
          <p data-testid="notifications-state">{status.subscribed ? NOTIFICATIONS_TEXTS.on : NOTIFICATIONS_TEXTS.off}</p>
          {status.blocked && error === null && <Notice tone="warning" testId="notifications-blocked">{PUSH_MESSAGES.blocked}</Notice>}
          {error !== null && <Notice tone="error" testId="notifications-error">{error}</Notice>}
          {status.subscribed ? (
            <button type="button" className="btn" disabled={busy} onClick={() => actor.send({ type: 'notifications.disable' })}>
              {disabling ? NOTIFICATIONS_TEXTS.disabling : NOTIFICATIONS_TEXTS.disable}
            </button>
          ) : (
            <button type="button" className="btn btn--primary" disabled={busy} onClick={() => actor.send({ type: 'notifications.enable' })}>
              {enabling ? NOTIFICATIONS_TEXTS.enabling : NOTIFICATIONS_TEXTS.enable}
            </button>
          )}
          <fieldset className="notifications__switches">
            <legend>Tell me when</legend>
            {PUSH_KINDS.map((kind) => (
              <label key={kind} className="checkbox">
                <input type="checkbox" disabled={busy} checked={status.settings[kind]} onChange={(e) => actor.send({ type: 'notifications.toggle', kind, on: e.currentTarget.checked })} />
                {NOTIFICATIONS_TEXTS.switches[kind]}
              </label>
            ))}
          </fieldset>
        </>
      )}
    </section>
  );
}
