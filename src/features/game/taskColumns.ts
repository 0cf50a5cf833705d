import type { BoardSquare } from '../../../contract/gameApi';
import { TIER_LABELS, TIERS, type Tier } from '../../../contract/game/tiers';

/** A column of the Game Tasks screen: Start, the five tiers, Unassigned/Blank, Finish. */
export type TaskColumnKey = 'start' | Tier | 'blank' | 'finish';

/** The columns in screen order with their titles (docs/client.md §7). */
export const TASK_COLUMNS: readonly { key: TaskColumnKey; title: string }[] = [
  { key: 'start', title: 'Start Square' },
  ...TIERS.map((tier) => ({ key: tier as TaskColumnKey, title: TIER_LABELS[tier] })),
  { key: 'blank', title: 'Unassigned/Blank' },
  { key: 'finish', title: 'Finish Square' },
];

/**
 * The column of a square on a board whose last square is `lastSquare`: square 1 → start, the
 * last → finish, a square with a tier → that tier, any other (Snake, Ladder: no difficulty) → blank.
 */
export function columnOf(square: Pick<BoardSquare, 'square_index' | 'task_difficulty'>, lastSquare: number): TaskColumnKey {
  if (square.square_index === 1) return 'start';
  if (square.square_index === lastSquare) return 'finish';
  return square.task_difficulty ?? 'blank';
}

/** The squares of each column, each column by square number. */
export function groupSquares(squares: readonly BoardSquare[]): Record<TaskColumnKey, BoardSquare[]> {
  const last = squares.reduce((max, s) => Math.max(max, s.square_index), 0);
  const groups = Object.fromEntries(TASK_COLUMNS.map((c) => [c.key, [] as BoardSquare[]])) as Record<TaskColumnKey, BoardSquare[]>;
  for (const s of [...squares].sort((a, b) => a.square_index - b.square_index)) groups[columnOf(s, last)].push(s);
  return groups;
}

/** What a square card shows as its task: the description, 'Unassigned' for a tier square without one. */
export function squareTaskLabel(square: Pick<BoardSquare, 'task_description' | 'task_difficulty'>): string {
  if (square.task_description) return square.task_description;
  return square.task_difficulty ? 'Unassigned' : 'Blank';
}
