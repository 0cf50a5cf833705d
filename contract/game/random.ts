import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

/**
 * Source of random integers used by every game rule that draws (board generation, task
 * assignment, dice). `int(min, max)` returns an integer in [min, max], both inclusive.
 * Tests use `seededRandom(seed)`; the server supplies a crypto-backed implementation for dice
 * (docs/server.md §5: "Randomness comes from a seedable generator so tests can fix it").
 */
export interface Rng {
  int(min: number, max: number): number;
}

/**
 * Deterministic Rng from a 32-bit integer seed, built on pure-rand's xoroshiro128+ with unbiased
 * uniform integers: the same seed gives the same sequence in the browser and in Node.
 * `int(min, max)` throws RangeError unless min and max are safe integers with min <= max.
 */
export function seededRandom(seed: number): Rng {
  const generator = xoroshiro128plus(seed | 0);
  return {
    int(min: number, max: number): number {
      checkRange(min, max);
      return uniformInt(generator, min, max);
    },
  };
}

/** Throws RangeError unless [min, max] is a non-empty range of safe integers. */
export function checkRange(min: number, max: number): void {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
    throw new RangeError(`Invalid random range [${min}, ${max}].`);
  }
}

/** One element of a non-empty list chosen with `rng`. Throws RangeError for an empty list. */
export function pick<T>(items: readonly T[], rng: Rng): T {
  if (items.length === 0) throw new RangeError('Cannot pick from an empty list.');
  return items[rng.int(0, items.length - 1)];
}

/** A shuffled copy of `items` (Fisher-Yates with `rng`); the input is left as it is. */
export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = rng.int(0, i);
    const tmp = out[i];
    out[i] = out[j];
    out[j] = tmp;
  }
  return out;
}
