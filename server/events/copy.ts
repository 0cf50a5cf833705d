import type { Db } from '../db/schema';
import type { Config } from '../config';
import { insertEvent, type EventRow } from './repository';
import { checkEventRoom } from '../quotas/repository';
import { insertTeam, insertTeamMember } from '../teams/repository';
import { listSquares, parseConnections, settingsOf } from '../games/repository';
import { insertGameWithBoard } from '../games/service';
import { fillBoard } from '../games/boardFile';
import { EVENT_TYPE, type CopyEventBody } from '../../contract/event';
import type { TeamRole } from '../../contract/team';

/**
 * Copies the teams of event `fromEventId` into event `toEventId` (docs/server.md §18 "The next
 * event"): each team with its name and colour, oldest first, and on it the same IGNs with the same
 * roles, leaving out an IGN whose owner is no longer a member of clan `clanId` (a team member's IGN
 * must belong to a clan member, docs/server.md §3).
 */
async function copyTeams(trx: Db, clanId: number, fromEventId: number, toEventId: number): Promise<void> {
  const teams = await trx.selectFrom('teams').select(['id', 'name', 'color']).where('event_id', '=', fromEventId).orderBy('id').execute();
  const members = await trx.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .innerJoin('clan_memberships', (j) => j.onRef('clan_memberships.user_id', '=', 'igns.user_id').on('clan_memberships.clan_id', '=', clanId))
    .select(['team_members.team_id', 'team_members.ign_id', 'team_members.role'])
    .where('team_members.event_id', '=', fromEventId)
    .orderBy('team_members.id')
    .execute();
  for (const team of teams) {
    const id = await insertTeam(trx, toEventId, team.name, team.color);
    for (const m of members.filter((x) => x.team_id === team.id)) {
      await insertTeamMember(trx, { id, event_id: toEventId, name: team.name, color: team.color }, m.ign_id, m.role as TeamRole);
    }
  }
}

/**
 * Copies event `source` of clan `clanId` as a new event with the checked `body`'s name and times
 * (docs/server.md §18 "The next event"), in the caller's transaction: of the one event type,
 * sign-ups closed; with
 * `body.teams` the same teams, colours, members and roles (copyTeams); and when the source has a
 * game, a new game with the same settings, proof and relief rules, snakes, ladders and task on
 * every square, no progress (READY with a team, else PENDING), an empty log but its creation entry,
 * and a dice seed of its own (insertGameWithBoard). First the open-events quota: 409 when the clan
 * already has its limit of events that have not ended (docs/server.md §18 "Quotas"). Returns the
 * new event's id.
 */
export async function copyEvent(trx: Db, config: Config, clanId: number, source: EventRow, body: CopyEventBody): Promise<number> {
  await checkEventRoom(trx, config, clanId);
  const eventId = await insertEvent(trx, clanId, { ...body, type: EVENT_TYPE, signups_open: false, signups_close_at: null });
  if (body.teams) await copyTeams(trx, clanId, source.id, eventId);
  const game = await trx.selectFrom('games').selectAll().where('event_id', '=', source.id).executeTakeFirst();
  if (!game) return eventId;
  const settings = settingsOf(game);
  const connections = parseConnections(game.board_connections);
  const stored = new Map((await listSquares(trx, game.id)).map((s) => [s.square_index, s]));
  const squares = fillBoard(settings, connections, (index) => {
    const square = stored.get(index);
    return square ? { task_id: square.task_id, task_description: square.task_description } : null;
  });
  await insertGameWithBoard(trx, {
    clanId,
    eventId,
    settings: { ...settings, proof_required: game.proof_required === 1, relief_after_hours: game.relief_after_hours, relief_max_per_team: game.relief_max_per_team },
    board: { connections, squares },
  }, config);
  return eventId;
}
