import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pick, seededRandom, shuffle } from '../../../contract/game';

describe('seededRandom', () => {
  it('is reproducible per seed and stays in the inclusive range', () => {
    const a = seededRandom(123);
    const b = seededRandom(123);
    const xs = Array.from({ length: 50 }, () => a.int(1, 6));
    expect(Array.from({ length: 50 }, () => b.int(1, 6))).toEqual(xs);
    expect(new Set(xs)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -1000, max: 1000 }), fc.nat(1000), (seed, min, width) => {
        const x = seededRandom(seed).int(min, min + width);
        expect(x >= min && x <= min + width && Number.isInteger(x)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses empty or non-integer ranges', () => {
    const rng = seededRandom(1);
    expect(() => rng.int(3, 2)).toThrow(RangeError);
    expect(() => rng.int(0.5, 2)).toThrow(RangeError);
    expect(rng.int(4, 4)).toBe(4);
  });

  it('shuffle permutes a copy; pick picks a member', () => {
    const items = [1, 2, 3, 4, 5, 6, 7];
    const shuffled = shuffle(items, seededRandom(9));
    expect([...shuffled].sort()).toEqual(items);
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(items).toContain(pick(items, seededRandom(9)));
    expect(() => pick([], seededRandom(9))).toThrow(RangeError);
  });
});
