import { request } from './client';
import { OkSchema } from '../../contract/common';
import { PushKeyAnswerSchema, PushSettingsSchema, RecentNotificationsSchema, type PushSettings, type PushSubscribeBody, type RecentNotification } from '../../contract/push';

/* The web push calls of the Profile page's Notifications panel (docs/server.md §20). */

/** GET /api/push/key → the VAPID public key (base64url). */
export async function fetchPushKey(): Promise<string> {
  return (await request(PushKeyAnswerSchema, (h) => h.get('push/key'), 'Failed to load the push key.')).public_key;
}

/** POST /api/push/subscriptions with the browser's subscription. */
export async function sendPushSubscription(body: PushSubscribeBody): Promise<void> {
  await request(OkSchema, (h) => h.post('push/subscriptions', { json: body }), 'Failed to turn notifications on.');
}

/** DELETE /api/push/subscriptions {endpoint}. */
export async function removePushSubscription(endpoint: string): Promise<void> {
  await request(OkSchema, (h) => h.delete('push/subscriptions', { json: { endpoint } }), 'Failed to turn notifications off.');
}

/** GET /api/user/me/notifications → the four switches. */
export function fetchPushSettings(): Promise<PushSettings> {
  return request(PushSettingsSchema, (h) => h.get('user/me/notifications'), 'Failed to load your notification settings.');
}

/** PUT /api/user/me/notifications with some switches → all four. */
export function savePushSettings(change: Partial<PushSettings>): Promise<PushSettings> {
  return request(PushSettingsSchema, (h) => h.put('user/me/notifications', { json: change }), 'Failed to save the setting.');
}

/** GET /api/user/me/notifications/recent → the user's latest notifications, newest first (the dashboard's, docs/server.md §20 "In the page"). */
export async function fetchRecentNotifications(): Promise<RecentNotification[]> {
  return (await request(RecentNotificationsSchema, (h) => h.get('user/me/notifications/recent'), 'Failed to load your notifications.')).notifications;
}
