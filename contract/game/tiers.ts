import * as v from 'valibot';

/**
 * The five task tiers, easiest first (docs/game-rules.md §13; docs/client.md §12).
 * This order is the board order (tiers are laid along squares 2..N-1 in it) and the sort order.
 */
export const TIERS = ['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'] as const;

/** One task difficulty as the server sends it: 'EASY' | 'MEDIUM' | 'HARD' | 'ELITE' | 'MASTER'. */
export type Tier = (typeof TIERS)[number];

/** Valibot schema for a tier (docs/game-rules.md §13). */
export const TierSchema = v.picklist(TIERS, 'Difficulty must be one of EASY, MEDIUM, HARD, ELITE, MASTER.');

/** Display labels: EASY → 'Easy', ... (docs/client.md §7). */
export const TIER_LABELS: Readonly<Record<Tier, string>> = {
  EASY: 'Easy',
  MEDIUM: 'Medium',
  HARD: 'Hard',
  ELITE: 'Elite',
  MASTER: 'Master',
};

/** Type guard: true when `value` is one of TIERS (case-sensitive). */
export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

/**
 * Position of a tier in TIERS (EASY 0 ... MASTER 4), for sorting in tier order
 * (`a.sort((x, y) => tierRank(x) - tierRank(y))`). Throws RangeError for a string that is no tier.
 */
export function tierRank(tier: Tier): number {
  const rank = (TIERS as readonly string[]).indexOf(tier);
  if (rank < 0) throw new RangeError(`Unknown task difficulty: ${String(tier)}`);
  return rank;
}
