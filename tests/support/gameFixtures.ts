import type { Game, PublicGame, UserTeam } from '../../contract/gameApi';
import type { GameProgress } from '../../contract/socket';
import type { GameStatus } from '../../contract/game';

/** Who the fixture viewer is: Leader of team 11, plain member of team 11, or on no team. */
export type FixtureRole = 'leader' | 'member' | 'none';

const LEADER: UserTeam = { id: 11, osrs_ign_id: 501, user_id: 1, role: 'Leader', player_ign: 'Zezima', name: 'Red Dragons', color: '#cc2222' };
const MEMBER: UserTeam = { ...LEADER, role: 'Member' };

/** A 25-square game of two teams (11 Red Dragons, 12 Blue Moons) as the members' GET answers it. */
export function fixtureGame(over: Partial<Game> = {}, role: FixtureRole = 'leader'): Game {
  const squares = Array.from({ length: 25 }, (_, i) => {
    const n = i + 1;
    const special = n === 1 ? 'Start' : n === 25 ? 'Finish' : n === 6 ? 'Snake' : n === 3 ? 'Ladder' : null;
    return {
      id: 1000 + n,
      square_index: n,
      task_id: special ? null : 2000 + n,
      task_description: special ?? `Task number ${n}`,
      task_difficulty: special ? null : ('EASY' as const),
    };
  });
  return {
    id: 5,
    clan_id: 2,
    clan_name: 'Iron Legion',
    event_id: 3,
    event_name: 'Spring Bash',
    event_type: 'Snakes and Ladders',
    status: 'in-progress',
    board_size: 25,
    num_snakes: 1,
    num_ladders: 1,
    max_reverts_allowed: 2,
    num_easy_tasks: 21,
    num_medium_tasks: 0,
    num_hard_tasks: 0,
    num_elite_tasks: 0,
    num_master_tasks: 0,
    proof_required: false,
    relief_after_hours: null,
    relief_max_per_team: 2,
    board_connections: [
      { type: 'snake', start: 6, end: 2 },
      { type: 'ladder', start: 3, end: 14 },
    ],
    board_squares: squares.map((sq) => ({ ...sq, auto_rule: null })),
    log_entries: [{ id: 1, timestamp: '2025-05-01T10:00:00.000Z', team_name: 'Server', team_color: null, message: 'Game started.' }],
    winners: null,
    version: 1,
    dice_commitment: '679c7eb2f0fb3d3f0230f2cde4aeb80a5fc5f2a3b5ce1a12100fc1848b9d958e',
    dice_seed: null,
    created_at: '2025-05-01T09:00:00.000Z',
    team_states: [
      { team_id: 11, team_name: 'Red Dragons', team_color: '#cc2222', current_position: 1, revert_count: 0, position_history: [1], task_state: 'none', square_since: '2025-05-01T10:00:00.000Z' },
      { team_id: 12, team_name: 'Blue Moons', team_color: '#2244cc', current_position: 1, revert_count: 0, position_history: [1], task_state: 'none', square_since: '2025-05-01T10:00:00.000Z' },
    ],
    user_teams: role === 'leader' ? [LEADER] : role === 'member' ? [MEMBER] : [],
    ...over,
  };
}

/** The public shape of a fixture game (no user_teams, no revert counts). */
export function toPublic(game: Game): PublicGame {
  const { user_teams: _omit, ...rest } = game;
  return { ...rest, team_states: game.team_states.map(({ revert_count: _r, ...t }) => t) };
}

/** A progress update of `game`: next version unless given, with `status`, team 11 moved to `position` or its last move reverted. */
export function progressOf(
  game: Game | PublicGame,
  change: { status?: GameStatus; position?: number; revert?: boolean; revertCount?: number; version?: number; winners?: GameProgress['winners']; publicShape?: boolean } = {},
): GameProgress {
  return {
    id: game.id,
    status: change.status ?? game.status,
    winners: change.winners ?? game.winners,
    version: change.version ?? game.version + 1,
    team_states: game.team_states.map((t) => {
      const mine = t.team_id === 11;
      const moved = mine && change.position !== undefined;
      const reverted = mine && change.revert === true && t.position_history.length > 1;
      const history = reverted ? t.position_history.slice(0, -1) : moved ? [...t.position_history, change.position!] : t.position_history;
      const position = history[history.length - 1] ?? t.current_position;
      const squareSince = moved || reverted ? '2025-05-01T10:05:00.000Z' : t.square_since;
      const base = { team_id: t.team_id, team_name: t.team_name, team_color: t.team_color, current_position: position, position_history: history, task_state: t.task_state, square_since: squareSince };
      if (change.publicShape) return base;
      const held = (t as { revert_count?: number }).revert_count ?? 0;
      const count = mine && change.revertCount !== undefined ? change.revertCount : reverted ? held + 1 : held;
      return { ...base, revert_count: count };
    }),
  };
}
