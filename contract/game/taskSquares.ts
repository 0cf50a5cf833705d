import { GAME_TASK_MESSAGES, type BoardSquare } from '../gameApi';
import { isSpecialDescription } from './generate';
import type { Tier } from './tiers';

/** Texts of the Game Tasks screen (docs/client.md §7, §11; docs/game-rules.md §13). */
export const GAME_TASKS_TEXTS = {
  missingGame: 'Game ID is missing.',
  loadError: (detail: string) => `Error loading data: ${detail}`,
  swapError: (detail: string) => `Error saving task swap: ${detail}`,
  optionsError: (detail: string) => `Failed to fetch swap options: ${detail}`,
  noCandidates: (tier: string) => `No unassigned tasks of difficulty '${tier}' are available.`,
  cannotAssign: GAME_TASK_MESSAGES.cannotAssign,
  special: GAME_TASK_MESSAGES.special,
  acrossTiers: GAME_TASK_MESSAGES.acrossTiers,
  selectTask: 'Select a task to assign.',
  /** Why a finished game's squares are shown read-only (the server refuses changes with 409). */
  finished: 'This game is finished: its board is a record now, so its tasks can no longer be swapped or replaced.',
} as const;

/** A square that can neither be dragged nor given a task: Start, Finish, Snake, Ladder, or no tier. */
export function isFixedSquare(square: Pick<BoardSquare, 'task_description' | 'task_difficulty'>): boolean {
  return square.task_difficulty === null || isSpecialDescription(square.task_description);
}

/**
 * Why swapping the tasks of squares `a` and `b` is refused, or null when allowed (docs/game-rules.md
 * §13): a fixed square → 'Cannot swap tasks with Start, Finish, Ladder, or Snake
 * squares.'; two tiers → 'You can only re-order squares within their own Difficulty Tier column.
 * ...'. The same square twice is not a swap (returns null; the caller ignores it).
 */
export function swapRefusal(a: BoardSquare, b: BoardSquare): string | null {
  if (a.id === b.id) return null;
  if (isFixedSquare(a) || isFixedSquare(b)) return GAME_TASKS_TEXTS.special;
  if (a.task_difficulty !== b.task_difficulty) return GAME_TASKS_TEXTS.acrossTiers;
  return null;
}

/** The squares after the tasks of squares `id1` and `id2` changed places (what the server does on swap). */
export function swapSquareTasks(squares: readonly BoardSquare[], id1: number, id2: number): BoardSquare[] {
  const a = squares.find((s) => s.id === id1);
  const b = squares.find((s) => s.id === id2);
  if (!a || !b) return [...squares];
  return squares.map((s) =>
    s.id === a.id ? { ...s, task_id: b.task_id, task_description: b.task_description } : s.id === b.id ? { ...s, task_id: a.task_id, task_description: a.task_description } : s,
  );
}


/** The tier a square's candidates belong to (for the no-candidates text). */
export function tierOfSquare(squares: readonly BoardSquare[], id: number | null): Tier | null {
  return squares.find((s) => s.id === id)?.task_difficulty ?? null;
}
