import type { RecentNotification } from '../contract/push';
import { polledListLoader } from './listLoader';

export type RecentNotificationsEvent = { type: 'notifications.reload' };

/** How often the dashboard reads the user's notifications again while it is open (ms). */
export const RECENT_NOTIFICATIONS_POLL_MS = 30_000;

/**
 * The user's latest notifications as the dashboard shows them in the page (docs/client.md §1
 * Notifications widget; docs/server.md §20 "In the page"): the list-loader chart over
 * `loadNotifications`, `loading` → `loaded`; every RECENT_NOTIFICATIONS_POLL_MS it reads them
 * again in `reloading` while the list stays (the dashboard has no live feed), and
 * `notifications.reload` (the window regaining focus) reads them at once; a failed reload keeps
 * the list with the error beside it and keeps polling.
 */
export const recentNotificationsMachine = polledListLoader<RecentNotification, 'loadNotifications', 'notifications.reload'>({
  id: 'recentNotifications',
  actor: 'loadNotifications',
  reload: 'notifications.reload',
  fallback: 'Failed to load your notifications.',
  pollInterval: RECENT_NOTIFICATIONS_POLL_MS,
});
