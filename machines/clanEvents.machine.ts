import type { ClanEventsDesk } from '../contract/clanDesk';
import { listLoader } from './listLoader';

export type ClanEventsEvent = { type: 'clanEvents.reload' };

/**
 * The viewer's clans with their upcoming events, as the dashboard's Clan Events widget shows them
 * to every member (docs/client.md §1, §13, §14). The list-loader chart over the `loadClanEvents`
 * actor; `clanEvents.reload` loads again.
 */
export const clanEventsMachine = listLoader<ClanEventsDesk, 'loadClanEvents', 'clanEvents.reload'>({
  id: 'clanEvents',
  actor: 'loadClanEvents',
  reload: 'clanEvents.reload',
  fallback: "Failed to load your clans' events.",
  reloadFrom: 'loading',
});
