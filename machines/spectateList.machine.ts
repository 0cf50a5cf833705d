import type { SpectateGame } from '../contract/lobby';
import { listLoader } from './listLoader';

export type SpectateListEvent = { type: 'spectate.reload' };

/** How often the spectate list reads the games again while it is open (ms; docs/server.md §3: every 30 s). */
export const SPECTATE_POLL_MS = 30_000;

/**
 * The spectate list (docs/client.md §4, §12; docs/server.md §3: refreshed every
 * 30 s): the list-loader chart over the `loadGames` actor, `loading` → `loaded`; every
 * SPECTATE_POLL_MS (the named delay `pollInterval`) it reloads in `reloading` while the list
 * stays on screen; a failure shows the error the actor raised and keeps polling;
 * `spectate.reload` reloads at once.
 */
export const spectateListMachine = listLoader<SpectateGame, 'loadGames', 'spectate.reload'>({
  id: 'spectateList',
  actor: 'loadGames',
  reload: 'spectate.reload',
  fallback: 'Failed to load spectatable games. Please check the server connection.',
  pollInterval: SPECTATE_POLL_MS,
  retryFrom: 'reloading',
});
