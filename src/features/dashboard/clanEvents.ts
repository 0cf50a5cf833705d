import type { ClanEventsDesk } from '../../../contract/clanDesk';
import type { ClanMembership } from '../../../contract/user';
import { fetchEvents } from '../../api/events';

/**
 * The `loadClanEvents` actor's work for the dashboard's Clan Events widget (docs/client.md §1):
 * each clan's upcoming and live events (GET /api/clan/{clanId}/events/?past=false, which every
 * member may read, docs/server.md §4), in the order of the memberships. Rejects with the first
 * failure's error.
 */
export function loadClanEvents(clans: readonly ClanMembership[]): Promise<ClanEventsDesk[]> {
  return Promise.all(clans.map(async (clan) => ({ clanId: clan.clan_id, name: clan.name, events: await fetchEvents(clan.clan_id, false) })));
}
