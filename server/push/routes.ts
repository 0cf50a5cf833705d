import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { requireUser } from '../http/context';
import { named, route, valid } from '../http/route';
import { OkSchema } from '../../contract/common';
import {
  PushKeyAnswerSchema,
  PushSettingsBodySchema,
  PushSettingsSchema,
  PushSubscribeBodySchema,
  PushUnsubscribeBodySchema,
  RecentNotificationsSchema,
} from '../../contract/push';
import { subscribe } from './service';
import { vapidKeys } from './vapid';
import { deleteSubscription, readSettings, recentNotifications, writeSettings } from './repository';

/**
 * Web push (docs/server.md §20 "Notifications"). Errors are `{"error": ...}`; 401 signed out where
 * a sign-in is needed.
 * - GET    /push/key → {public_key}; no sign-in; the VAPID public key (base64url, uncompressed P-256)
 * - POST   /push/subscriptions {endpoint, keys: {p256dh, auth}} → 201 {ok}; 400 'A push endpoint
 *          must be an https URL.' (also over 2,048 characters; http only for PUSH_ALLOWED_ORIGINS),
 *          400 for keys not of 65 and 16 bytes; an 11th replaces the user's oldest (service.ts)
 * - DELETE /push/subscriptions {endpoint} → {ok}; removes the user's subscription of that endpoint
 * - GET    /user/me/notifications → {proof_decided, may_roll, proof_waiting, draft_turn}
 * - PUT    /user/me/notifications {any subset of the four} → all four as they are now
 * - GET    /user/me/notifications/recent → {notifications: [{id, title, body, url, created_at}]}, the
 *          user's latest 20 newest first, kept with or without a push subscription ("In the page")
 */
export function pushRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/push/key',
    ...route({ tag: 'push', access: 'public', summary: 'The VAPID public key push subscriptions are made with.', answer: named('PushKeyAnswer', PushKeyAnswerSchema) }),
    async (c) => {
      const { db, config } = c.get('deps');
      return c.json({ public_key: (await vapidKeys(db, config)).publicKey });
    },
  );

  app.post(
    '/push/subscriptions',
    ...route({ tag: 'push', access: 'signed-in', status: 201, summary: "Keeps a browser's push subscription of the user (at most 10; an 11th replaces the oldest).", answer: named('Ok', OkSchema), json: named('PushSubscribeBody', PushSubscribeBodySchema) }),
    async (c) => {
      const user = requireUser(c);
      await subscribe(c.get('deps'), user.id, valid(c, 'json'));
      return c.json({ ok: true as const }, 201);
    },
  );

  app.delete(
    '/push/subscriptions',
    ...route({ tag: 'push', access: 'signed-in', summary: "Removes one of the user's push subscriptions by its endpoint.", answer: named('Ok', OkSchema), json: named('PushUnsubscribeBody', PushUnsubscribeBodySchema) }),
    async (c) => {
      const user = requireUser(c);
      await deleteSubscription(c.get('deps').db, user.id, valid(c, 'json').endpoint.trim());
      return c.json({ ok: true as const });
    },
  );

  app.get(
    '/user/me/notifications',
    ...route({ tag: 'push', access: 'signed-in', summary: "The user's four notification switches.", answer: named('PushSettings', PushSettingsSchema) }),
    async (c) => {
      const user = requireUser(c);
      return c.json(await readSettings(c.get('deps').db, user.id));
    },
  );

  app.put(
    '/user/me/notifications',
    ...route({ tag: 'push', access: 'signed-in', summary: "Sets any of the user's notification switches; answers all four.", answer: named('PushSettings', PushSettingsSchema), json: named('PushSettingsBody', PushSettingsBodySchema) }),
    async (c) => {
      const user = requireUser(c);
      return c.json(await writeSettings(c.get('deps').db, user.id, valid(c, 'json')));
    },
  );

  app.get(
    '/user/me/notifications/recent',
    ...route({ tag: 'push', access: 'signed-in', summary: "The user's latest notifications (at most 20, newest first), as the dashboard shows them in the page.", answer: named('RecentNotifications', RecentNotificationsSchema) }),
    async (c) => {
      const user = requireUser(c);
      return c.json({ notifications: await recentNotifications(c.get('deps').db, user.id) });
    },
  );

  return app;
}
