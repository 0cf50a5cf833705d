import type { SnapshotFrom } from 'xstate';
import type { recentNotificationsMachine } from './recentNotifications.machine';

type S = SnapshotFrom<typeof recentNotificationsMachine>;

/** Named selectors of the recentNotifications chart. */
export const selectRecentNotifications = (s: S) => s.context.items;
export const selectRecentNotificationsError = (s: S) => s.context.error;
export const selectRecentNotificationsLoading = (s: S) => s.matches('loading');
