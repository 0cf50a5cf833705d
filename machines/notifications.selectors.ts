import type { SnapshotFrom } from 'xstate';
import type { notificationsMachine } from './notifications.machine';

type S = SnapshotFrom<typeof notificationsMachine>;

/** Named selectors of the notifications chart: a call under way, the browser without push, the status read, the shown refusal or failure. */
export const isNotificationsBusy = (s: S) => s.hasTag('busy');
export const isPushUnsupported = (s: S) => s.matches('unsupported');
export const isNotificationsFailed = (s: S) => s.matches('failed');
export const selectPushStatus = (s: S) => s.context.status;
export const selectNotificationsError = (s: S) => s.context.error;
