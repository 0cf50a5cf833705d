import * as v from 'valibot';
import { jsonBodySchema } from './common';

/**
 * Web push (docs/server.md §20 "Notifications"): the VAPID key answer, a browser's subscription,
 * the four switches and the refusal texts. Shared by the server (server/push/) and the client
 * (the Profile page's Notifications panel).
 */

/** The refusal texts of the push calls. */
export const PUSH_MESSAGES = {
  /** 400, verbatim (docs/server.md §20): not https (outside PUSH_ALLOWED_ORIGINS) or over 2,048 characters. */
  endpoint: 'A push endpoint must be an https URL.',
  /** 400: p256dh not 65 bytes or auth not 16 bytes once base64url-decoded. */
  keys: 'The subscription keys are not valid.',
  /** The client's words when the browser refuses permission. */
  blocked: "Notifications are blocked in this browser's settings.",
  /** The client's words when the browser has no web push. */
  unsupported: 'This browser does not support push notifications.',
} as const;

/** The longest endpoint taken, in characters. */
export const PUSH_ENDPOINT_MAX = 2048;

/** The four switches, in the order the Profile panel lists them. */
export const PUSH_KINDS = ['proof_decided', 'may_roll', 'proof_waiting', 'draft_turn'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** GET /api/push/key's answer: the VAPID public key, base64url of the uncompressed P-256 point. */
export const PushKeyAnswerSchema = v.object({ public_key: v.string() });

/** POST /api/push/subscriptions's body, as PushSubscription.toJSON() gives it. */
export const PushSubscribeBodySchema = jsonBodySchema({
  endpoint: v.string(PUSH_MESSAGES.endpoint),
  keys: v.object({ p256dh: v.string(PUSH_MESSAGES.keys), auth: v.string(PUSH_MESSAGES.keys) }, PUSH_MESSAGES.keys),
});
export type PushSubscribeBody = v.InferOutput<typeof PushSubscribeBodySchema>;

/** DELETE /api/push/subscriptions's body. */
export const PushUnsubscribeBodySchema = jsonBodySchema({ endpoint: v.string(PUSH_MESSAGES.endpoint) });

/** GET|PUT /api/user/me/notifications's answer: every switch. */
export const PushSettingsSchema = v.object({
  proof_decided: v.boolean(),
  may_roll: v.boolean(),
  proof_waiting: v.boolean(),
  draft_turn: v.boolean(),
});
export type PushSettings = v.InferOutput<typeof PushSettingsSchema>;

const switchOf = (name: PushKind) => v.optional(v.boolean(`${name} must be true or false.`));
/** PUT /api/user/me/notifications's body: any subset of the switches. */
export const PushSettingsBodySchema = jsonBodySchema({
  proof_decided: switchOf('proof_decided'),
  may_roll: switchOf('may_roll'),
  proof_waiting: switchOf('proof_waiting'),
  draft_turn: switchOf('draft_turn'),
});

/** One notification as the dashboard shows it in the page: the push's title, body and url (a path of this site). */
const RecentNotificationSchema = v.object({
  id: v.number(),
  title: v.string(),
  body: v.string(),
  url: v.string(),
  /** ISO time it was recorded. */
  created_at: v.string(),
});
export type RecentNotification = v.InferOutput<typeof RecentNotificationSchema>;

/** GET /api/user/me/notifications/recent's answer: the user's latest notifications, newest first (at most 20). */
export const RecentNotificationsSchema = v.object({ notifications: v.array(RecentNotificationSchema) });

/**
 * What a push carries (docs/server.md §20), as JSON: public/sw.js shows `title` and `body`,
 * replaces an earlier notification of the same `tag` and opens `url` (a path of this site) on a
 * click. The same fields are kept for the page (RecentNotification, without `tag`).
 */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}
