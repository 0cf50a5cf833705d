import type { HeldGame } from '../socket';
import type { TeamState } from '../gameApi';
import type { Tier } from './tiers';
import { formatDuration } from '../duration';
import { leaderEntryOf } from './roles';

/**
 * What the play screen shows of stuck-tile relief (docs/game-rules.md §15; docs/server.md §15):
 * pure rules over the game a screen holds, shared by the gamePlay chart and its components.
 */

/** Texts of the Leader's relief button that the docs leave to the client. */
export const RELIEF_VIEW_TEXTS = {
  button: 'Ask for a new task',
  asking: 'Asking for a new task...',
  /** The button while the team has not been on its square long enough: the wait as formatDuration says it to the minute. */
  waiting: (wait: string) => `Ask for a new task in ${wait}`,
  substitute: 'New task (relief)',
} as const;

const HOUR_MS = 3_600_000;

/**
 * The viewer's led team's relief, when relief is on and the team's task on its square is open or
 * denied (the states relief replaces): the team and the time (ms since the epoch) from which it may
 * ask (square_since + relief_after_hours). Null otherwise: no led team, relief off, or no task to
 * replace. The limit per team is the server's to check (the count is not in the game shape).
 */
export function leaderReliefOf(game: HeldGame | null): { teamId: number; allowedAt: number } | null {
  const entry = leaderEntryOf(game);
  if (!game || !entry || typeof game.relief_after_hours !== 'number') return null;
  const team = game.team_states.find((t) => t.team_id === entry.id);
  if (!team || (team.task_state !== 'open' && team.task_state !== 'denied')) return null;
  const since = Date.parse(team.square_since);
  return { teamId: team.team_id, allowedAt: (Number.isNaN(since) ? 0 : since) + game.relief_after_hours * HOUR_MS };
}

/**
 * The relief button's label at `now` (ms): 'Ask for a new task' once allowed, else 'Ask for a new
 * task in 2 h 14 min' (the wait to the nearest minute, at least 1 min: the browser's clock and the
 * server's differ by moments).
 */
export function reliefButtonText(allowedAt: number, now: number): string {
  const left = allowedAt - now;
  return left <= 0 ? RELIEF_VIEW_TEXTS.button : RELIEF_VIEW_TEXTS.waiting(formatDuration(Math.max(1, Math.round(left / 60_000)) * 60_000, 'min'));
}

/**
 * The task a team works on at its square: the substitute relief gave it (task_override), else the
 * square's own task; null on a square without a task.
 */
export function currentTaskOf(
  team: Pick<TeamState, 'task_override'>,
  square: { task_description: string; task_difficulty: Tier | null } | null,
): { description: string; tier: Tier | null; substitute: boolean } | null {
  if (team.task_override) return { description: team.task_override.description, tier: team.task_override.difficulty, substitute: true };
  if (!square?.task_difficulty) return null;
  return { description: square.task_description, tier: square.task_difficulty, substitute: false };
}
