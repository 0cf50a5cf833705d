import type { Db } from '../db/schema';
import type { Config } from '../config';
import { findVapidPair, keepVapidPair } from './repository';

/** web-push, loaded on first use only: process start-up stays light (docs/server.md §20). */
export type WebPush = typeof import('web-push');
let webPush: Promise<WebPush> | null = null;
/** The web-push module, imported the first time it is needed. */
export function loadWebPush(): Promise<WebPush> {
  webPush ??= import('web-push').then((m) => ((m as unknown as { default?: WebPush }).default ?? m) as WebPush);
  return webPush;
}

/** The VAPID pair of each database, once read (the settings' pair needs no database). */
const PAIRS = new WeakMap<object, Promise<{ publicKey: string; privateKey: string }>>();

/**
 * The VAPID key pair (base64url): VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when both are set, else
 * the pair kept in the database, made once by whichever process needs it first (keepVapidPair).
 */
export function vapidKeys(db: Db, config: Config): Promise<{ publicKey: string; privateKey: string }> {
  if (config.push.vapidPublicKey && config.push.vapidPrivateKey) {
    return Promise.resolve({ publicKey: config.push.vapidPublicKey, privateKey: config.push.vapidPrivateKey });
  }
  let pair = PAIRS.get(db);
  if (!pair) {
    pair = (async () => {
      const stored = (await findVapidPair(db)) ?? (await keepVapidPair(db, await (async () => {
        const made = (await loadWebPush()).generateVAPIDKeys();
        return { public_key: made.publicKey, private_key: made.privateKey };
      })()));
      return { publicKey: stored.public_key, privateKey: stored.private_key };
    })();
    pair.catch(() => PAIRS.delete(db));
    PAIRS.set(db, pair);
  }
  return pair;
}
