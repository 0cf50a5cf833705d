import type { SnapshotFrom } from 'xstate';
import type { dinkAccountsMachine } from './dinkAccounts.machine';

type S = SnapshotFrom<typeof dinkAccountsMachine>;

/** Named selectors of the dinkAccounts chart. */
export const selectDinkAccounts = (s: S) => s.context.items;
export const selectDinkAccountsError = (s: S) => s.context.error;
export const isDinkAccountsFirstLoad = (s: S) => s.matches('loading');
export const isDinkAccountsReloading = (s: S) => s.matches('reloading');
export const hasDinkAccountsLoaded = (s: S) => s.matches('loaded') || s.matches('reloading');
