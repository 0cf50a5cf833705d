import type { UserTeam } from '../gameApi';
import type { HeldGame, TeamAction } from '../socket';
import { canRevert } from './moves';

/** Game roles of the viewer (docs/game-rules.md §11): pure rules over the game a screen holds. */

/** Who the viewer is in this game (docs/game-rules.md §11). */
export type ViewerRole = 'leader' | 'member' | 'none';

const NO_TEAMS: readonly UserTeam[] = Object.freeze([]);

/** The viewer's team entries (none in the public shape). */
export function userTeamsOf(game: HeldGame | null): readonly UserTeam[] {
  return game && 'user_teams' in game ? game.user_teams : NO_TEAMS;
}

/** The first of the viewer's entries that leads a team of the game, or null. */
export function leaderEntryOf(game: HeldGame | null): UserTeam | null {
  return userTeamsOf(game).find((t) => t.role === 'Leader') ?? null;
}

/** 'leader' when one of the viewer's IGNs leads a team, 'member' when on a team, else 'none'. */
export function viewerRoleOf(game: HeldGame | null): ViewerRole {
  const teams = userTeamsOf(game);
  if (teams.some((t) => t.role === 'Leader')) return 'leader';
  return teams.length > 0 ? 'member' : 'none';
}

/** The roll/revert payload of the viewer's led team, or null when the viewer leads none. */
export function leaderActionOf(game: HeldGame | null): TeamAction | null {
  const entry = leaderEntryOf(game);
  return game && entry ? { game_id: game.id, team_id: entry.id, performer_ign_id: entry.osrs_ign_id } : null;
}

/**
 * Whether the viewer's led team may revert now (docs/game-rules.md §6): position > 1 and
 * revert_count < max_reverts_allowed (contract canRevert). False without a led team or revert counts.
 */
export function leaderCanRevert(game: HeldGame | null): boolean {
  const entry = leaderEntryOf(game);
  if (!game || !entry) return false;
  const team = game.team_states.find((t) => t.team_id === entry.id) as { current_position: number; revert_count?: number } | undefined;
  if (!team || typeof team.revert_count !== 'number') return false;
  return canRevert({ current_position: team.current_position, revert_count: team.revert_count }, game.max_reverts_allowed);
}
