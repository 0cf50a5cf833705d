import type { Db } from '../db/schema';
import { byName } from '../events/shared';
import { isGameStatus, type GameStatus } from '../../contract/game';
import { LIVE_GAME_STATUSES, type ClanLiveGame, type LobbyGame, type SpectateGame } from '../../contract/lobby';

const asStatus = (s: string): GameStatus => (isGameStatus(s) ? s : 'PENDING');

/**
 * The lobby rows of user `userId` (docs/server.md §3; docs/client.md
 * §4): one per (game, IGN of the user on a team of the game's event), every status,
 * with all the event's teams by id (position 1 when a team has no state yet) and `is_mine` on the
 * teams any of the user's IGNs is on. Ordered by clan name, clan id, player IGN, then newest game
 * first (case-insensitive names, the same on both databases).
 */
export async function lobbyGames(db: Db, userId: number): Promise<LobbyGame[]> {
  const rows = await db.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .innerJoin('games', 'games.event_id', 'team_members.event_id')
    .innerJoin('events', 'events.id', 'games.event_id')
    .innerJoin('clans', 'clans.id', 'games.clan_id')
    .select([
      'games.id as game_id', 'games.clan_id', 'clans.name as clan_name', 'events.id as event_id', 'events.name as event_name',
      'games.board_size', 'games.status', 'igns.ign as player_ign', 'team_members.team_id',
    ])
    .where('igns.user_id', '=', userId)
    .execute();
  if (rows.length === 0) return [];

  const gameIds = [...new Set(rows.map((r) => r.game_id))];
  const teams = await db.selectFrom('games')
    .innerJoin('teams', 'teams.event_id', 'games.event_id')
    .leftJoin('team_states', (join) => join.onRef('team_states.team_id', '=', 'teams.id').onRef('team_states.game_id', '=', 'games.id'))
    .select(['games.id as game_id', 'teams.id', 'teams.name', 'teams.color', 'team_states.current_position'])
    .where('games.id', 'in', gameIds)
    .orderBy('teams.id')
    .execute();
  const mine = new Set(rows.map((r) => r.team_id));
  const teamsOf = new Map<number, LobbyGame['teams']>();
  for (const t of teams) {
    const list = teamsOf.get(t.game_id) ?? [];
    list.push({ id: t.id, name: t.name, color: t.color, current_position: t.current_position ?? 1, is_mine: mine.has(t.id) });
    teamsOf.set(t.game_id, list);
  }

  return rows
    .map((r): LobbyGame => ({
      game_id: r.game_id,
      clan_id: r.clan_id,
      clan_name: r.clan_name,
      event_id: r.event_id,
      event_name: r.event_name,
      board_size: r.board_size,
      status: asStatus(r.status),
      player_ign: r.player_ign,
      teams: teamsOf.get(r.game_id) ?? [],
    }))
    .sort((a, b) => byName(a.clan_name, b.clan_name) || a.clan_id - b.clan_id || byName(a.player_ign, b.player_ign) || b.game_id - a.game_id);
}

/**
 * Spectatable games (docs/server.md §3): every game whose status is not
 * PENDING, with its event and clan names and its number of teams, newest first (created_at, then id).
 */
export async function spectatableGames(db: Db): Promise<SpectateGame[]> {
  const rows = await db.selectFrom('games')
    .innerJoin('events', 'events.id', 'games.event_id')
    .innerJoin('clans', 'clans.id', 'games.clan_id')
    .select([
      'games.id as game_id', 'events.name as event_name', 'clans.name as clan_name', 'games.status', 'games.board_size', 'games.created_at',
    ])
    .select((eb) => eb.selectFrom('teams').select(eb.fn.countAll<number>().as('n')).whereRef('teams.event_id', '=', 'games.event_id').as('team_count'))
    .where('games.status', '!=', 'PENDING')
    .orderBy('games.created_at', 'desc')
    .orderBy('games.id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, status: asStatus(r.status), team_count: Number(r.team_count ?? 0) }));
}

/**
 * The live games of clan `clanId` (GET /api/clan/{clanId}/games/live): READY, in-progress and
 * paused, with the event's name and number of teams, newest game first.
 */
export async function clanLiveGames(db: Db, clanId: number): Promise<ClanLiveGame[]> {
  const rows = await db.selectFrom('games')
    .innerJoin('events', 'events.id', 'games.event_id')
    .select(['games.id as game_id', 'events.id as event_id', 'events.name as event_name', 'games.status', 'games.board_size'])
    .select((eb) => eb.selectFrom('teams').select(eb.fn.countAll<number>().as('n')).whereRef('teams.event_id', '=', 'games.event_id').as('team_count'))
    .where('games.clan_id', '=', clanId)
    .where('games.status', 'in', [...LIVE_GAME_STATUSES])
    .orderBy('games.id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, status: r.status as ClanLiveGame['status'], team_count: Number(r.team_count ?? 0) }));
}
