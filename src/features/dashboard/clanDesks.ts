import { gettingStartedOf, hasHadGame, type ClanDesk } from '../../../contract/clanDesk';
import type { ClanMembership } from '../../../contract/user';
import { fetchEvents } from '../../api/events';
import { fetchClanLiveGames } from '../../api/lobby';
import { fetchClanTasks } from '../../api/tasks';

/**
 * The `loadDesks` actor's work for the dashboard (docs/game-rules.md §1): for each managed clan,
 * its live games (GET /api/clan/{clanId}/games/live) and its events; the task pool is asked for
 * only while the clan has had no game, for the getting-started steps. Rejects with the first
 * failure's error.
 */
export function loadClanDesks(clans: readonly ClanMembership[]): Promise<ClanDesk[]> {
  return Promise.all(
    clans.map(async (clan): Promise<ClanDesk> => {
      const [games, events] = await Promise.all([fetchClanLiveGames(clan.clan_id), fetchEvents(clan.clan_id)]);
      const steps = hasHadGame(events) ? null : gettingStartedOf(events, (await fetchClanTasks(clan.clan_id)).length);
      return { clanId: clan.clan_id, name: clan.name, games, steps };
    }),
  );
}
