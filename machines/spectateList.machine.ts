import type { SpectateGame } from '../contract/lobby';
import { listLoader } from './listLoader';

export type SpectateListEvent = { type: 'spectate.reload' };

/**
 * The spectate list (docs/client.md §4, §12; docs/server.md §3: refreshed every
 * 30 s): the list-loader chart over the `loadGames` actor, `loading` → `loaded`; after the named
 * delay `pollInterval` it reloads in `reloading` while the list stays on screen; a failure shows
 * the error the actor raised and keeps polling; `spectate.reload` reloads at once.
 */
export const spectateListMachine = listLoader<SpectateGame, 'loadGames', 'spectate.reload'>({
  id: 'spectateList',
  actor: 'loadGames',
  reload: 'spectate.reload',
  fallback: 'Failed to load spectatable games. Please check the server connection.',
  pollInterval: 30_000,
  retryFrom: 'reloading',
});
