import type { Tier } from './tiers';

/** Number of task squares per tier: `{easy, medium, hard, elite, master}`, each a count of squares. */
export interface TierCounts {
  easy: number;
  medium: number;
  hard: number;
  elite: number;
  master: number;
}

/** Key of TierCounts for each tier: EASY → 'easy', ... */
export const TIER_COUNT_KEYS: Readonly<Record<Tier, keyof TierCounts>> = {
  EASY: 'easy',
  MEDIUM: 'medium',
  HARD: 'hard',
  ELITE: 'elite',
  MASTER: 'master',
};

/** Order in which the remainder of the split is handed out, one square each (docs/game-rules.md §13). */
const REMAINDER_ORDER: readonly (keyof TierCounts)[] = ['medium', 'hard', 'elite', 'easy'];

/**
 * Default task split for a board of `boardSize` squares (docs/game-rules.md §4; docs/client.md
 * §12): the N-2 task tiles (square 1 and N excluded) are split over the five tiers. Each tier gets
 * base = floor((N-2)/5); the remainder r (0..4) adds one square each to medium, hard, elite, then
 * easy, in that order; master only ever gets the base. 100 → {easy 19, medium 20, hard 20, elite 20,
 * master 19}. The counts always sum to N-2.
 * Throws RangeError when boardSize is not an integer >= 2.
 */
export function autoSplit(boardSize: number): TierCounts {
  if (!Number.isInteger(boardSize) || boardSize < 2) {
    throw new RangeError(`Board size must be an integer of at least 2, got ${boardSize}.`);
  }
  const tiles = boardSize - 2;
  const base = Math.floor(tiles / 5);
  const remainder = tiles % 5;
  const counts: TierCounts = { easy: base, medium: base, hard: base, elite: base, master: base };
  for (let i = 0; i < remainder; i += 1) counts[REMAINDER_ORDER[i]] += 1;
  return counts;
}

/** Sum of the five counts, in squares. */
export function totalTasks(counts: TierCounts): number {
  return counts.easy + counts.medium + counts.hard + counts.elite + counts.master;
}
