import type { ClanDesk } from '../contract/clanDesk';
import { listLoader } from './listLoader';

export type ClanDesksEvent = { type: 'desks.reload' };

/**
 * The clans the viewer manages, as the dashboard shows them (docs/game-rules.md §1): each with
 * its live games and, until it has had a game, its getting-started steps. The list-loader chart
 * over the `loadDesks` actor; `desks.reload` loads again.
 */
export const clanDesksMachine = listLoader<ClanDesk, 'loadDesks', 'desks.reload'>({
  id: 'clanDesks',
  actor: 'loadDesks',
  reload: 'desks.reload',
  fallback: "Failed to load your clans' games.",
  reloadFrom: 'loading',
});
