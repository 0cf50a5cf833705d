import type { DinkAccount } from '../contract/dink';
import { listLoader } from './listLoader';

export type DinkAccountsEvent = { type: 'accounts.reload' };

/**
 * The pinned Dink accounts of an event (docs/client.md §7 Dink panel; docs/server.md §13 `GET
 * .../dink/accounts`): the list-loader chart over `loadAccounts`, `loading` → `loaded`;
 * `accounts.reload` (Refresh, or a Clear that succeeded) reads them again in `reloading` while the
 * list stays, and a failed reload keeps the list with the error beside it.
 */
export const dinkAccountsMachine = listLoader<DinkAccount, 'loadAccounts', 'accounts.reload'>({
  id: 'dinkAccounts',
  actor: 'loadAccounts',
  reload: 'accounts.reload',
  fallback: 'Failed to load the pinned Dink accounts.',
  reloadFailure: 'loaded',
});
