import type { Deps } from '../http/context';
import { gameOfEvent } from '../events/repository';
import { listTeamIgns } from './repository';
import type { TeamUpdate } from '../../contract/socket';
import { log } from '../observability/log';

/**
 * Tells the live rooms of the event's game about a team after a committed change
 * (docs/server.md §6 `team_update`); nothing when the event has no game.
 * - `team` is the team as it now is; after a delete pass it with `deleted: true` and it is sent
 *   with no members
 * - `teamSetChanged` (a team created or deleted) also sends the game's progress
 *   (`gameChanged(gameId, 'progress')`), since its team states changed
 * A failing broadcast is logged and never fails the request: the change is already stored.
 */
export async function broadcastTeamChange(
  deps: Deps,
  eventId: number,
  team: { id: number; name: string; color: string },
  opts: { deleted?: boolean; teamSetChanged?: boolean } = {},
): Promise<void> {
  try {
    const game = await gameOfEvent(deps.db, eventId);
    if (!game) return;
    const members = opts.deleted ? [] : await listTeamIgns(deps.db, team.id);
    const update: TeamUpdate['updated_team_data'] = {
      id: team.id,
      name: team.name,
      color: team.color,
      members,
    };
    deps.broadcaster.teamUpdated(game.id, update);
    if (opts.teamSetChanged) await deps.broadcaster.gameChanged(game.id, 'progress');
  } catch (err) {
    log.error({ err }, '[teams] broadcast failed');
  }
}
