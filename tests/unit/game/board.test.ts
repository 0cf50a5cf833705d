import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  autoSplit,
  BOARD_SIZES,
  boardSide,
  boardSizeLabel,
  cellToSquare,
  DEFAULT_SETTINGS,
  isTier,
  maxConnections,
  rowOf,
  squareToCell,
  TIER_LABELS,
  tierRank,
  TIERS,
  totalTasks,
  validateSettings,
} from '../../../contract/game';

describe('tiers', () => {
  it('lists the five tiers in order with labels', () => {
    expect(TIERS).toEqual(['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER']);
    expect(TIERS.map((t) => TIER_LABELS[t])).toEqual(['Easy', 'Medium', 'Hard', 'Elite', 'Master']);
  });

  it('sorts by tierRank into tier order', () => {
    const shuffled = ['MASTER', 'EASY', 'ELITE', 'HARD', 'MEDIUM'] as const;
    expect([...shuffled].sort((a, b) => tierRank(a) - tierRank(b))).toEqual([...TIERS]);
    expect(() => tierRank('easy' as never)).toThrow(RangeError);
    expect(isTier('HARD')).toBe(true);
    expect(isTier('hard')).toBe(false);
  });
});

describe('autoSplit', () => {
  it('splits the default board 19/20/20/20/19', () => {
    expect(autoSplit(100)).toEqual({ easy: 19, medium: 20, hard: 20, elite: 20, master: 19 });
  });

  it('spreads the remainder over medium, hard, elite, then easy; master gets the base', () => {
    // N-2 = 23 (r 3), 34 (r 4), 47 (r 2), 62 (r 2), 79 (r 4), 119 (r 4), 142 (r 2), 167 (r 2), 194 (r 4), 223 (r 3)
    expect(autoSplit(25)).toEqual({ easy: 4, medium: 5, hard: 5, elite: 5, master: 4 });
    expect(autoSplit(36)).toEqual({ easy: 7, medium: 7, hard: 7, elite: 7, master: 6 });
    expect(autoSplit(49)).toEqual({ easy: 9, medium: 10, hard: 10, elite: 9, master: 9 });
    expect(autoSplit(7)).toEqual({ easy: 1, medium: 1, hard: 1, elite: 1, master: 1 });
    expect(autoSplit(8)).toEqual({ easy: 1, medium: 2, hard: 1, elite: 1, master: 1 });
  });

  it('sums to N-2 and follows the remainder rule for every N', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10_000 }), (n) => {
        const split = autoSplit(n);
        const base = Math.floor((n - 2) / 5);
        const r = (n - 2) % 5;
        expect(totalTasks(split)).toBe(n - 2);
        expect(split.master).toBe(base);
        expect(split.medium).toBe(base + (r >= 1 ? 1 : 0));
        expect(split.hard).toBe(base + (r >= 2 ? 1 : 0));
        expect(split.elite).toBe(base + (r >= 3 ? 1 : 0));
        expect(split.easy).toBe(base + (r >= 4 ? 1 : 0));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses sizes below 2', () => {
    expect(() => autoSplit(1)).toThrow(RangeError);
    expect(() => autoSplit(10.5)).toThrow(RangeError);
  });
});

describe('board constants', () => {
  it('has the eleven sizes, a valid default and labels', () => {
    expect(BOARD_SIZES).toEqual([25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225]);
    expect(DEFAULT_SETTINGS).toEqual({
      board_size: 100,
      num_snakes: 5,
      num_ladders: 5,
      max_reverts_allowed: 3,
      num_easy_tasks: 19,
      num_medium_tasks: 20,
      num_hard_tasks: 20,
      num_elite_tasks: 20,
      num_master_tasks: 19,
    });
    expect(validateSettings(DEFAULT_SETTINGS)).toBeNull();
    expect(boardSizeLabel(25)).toBe('25 (5x5)');
    expect(boardSizeLabel(225)).toBe('225 (15x15)');
    expect(BOARD_SIZES.map(boardSide)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(boardSide(26)).toBe(6);
  });

  it('maxConnections is floor((N-2)/2) for every board size', () => {
    for (const n of BOARD_SIZES) expect(maxConnections(n)).toBe(Math.floor((n - 2) / 2));
  });
});

describe('numbering', () => {
  const sizes = [...BOARD_SIZES, 1, 2, 10, 26, 50];

  it('is a bijection between 1..N and the filled cells', () => {
    for (const n of sizes) {
      const side = boardSide(n);
      const seen = new Set<string>();
      for (let square = 1; square <= n; square += 1) {
        const { row, col } = squareToCell(square, n);
        expect(row).toBeGreaterThanOrEqual(0);
        expect(row).toBeLessThan(side);
        expect(col).toBeGreaterThanOrEqual(0);
        expect(col).toBeLessThan(side);
        seen.add(`${row},${col}`);
        expect(cellToSquare(row, col, n)).toBe(square);
        expect(rowOf(square, n)).toBe(row);
      }
      expect(seen.size).toBe(n);
      let filled = 0;
      for (let row = 0; row < side; row += 1) {
        for (let col = 0; col < side; col += 1) {
          const square = cellToSquare(row, col, n);
          if (square !== null) {
            filled += 1;
            expect(squareToCell(square, n)).toEqual({ row, col });
          }
        }
      }
      expect(filled).toBe(n);
    }
  });

  it('starts bottom-left, goes left to right, then alternates upward', () => {
    expect(squareToCell(1, 100)).toEqual({ row: 0, col: 0 });
    expect(squareToCell(10, 100)).toEqual({ row: 0, col: 9 });
    expect(squareToCell(11, 100)).toEqual({ row: 1, col: 9 });
    expect(squareToCell(20, 100)).toEqual({ row: 1, col: 0 });
    expect(squareToCell(21, 100)).toEqual({ row: 2, col: 0 });
    expect(squareToCell(100, 100)).toEqual({ row: 9, col: 0 });
    expect(squareToCell(25, 25)).toEqual({ row: 4, col: 4 });
    for (const n of sizes) {
      for (let square = 1; square < n; square += 1) {
        const a = squareToCell(square, n);
        const b = squareToCell(square + 1, n);
        expect(Math.abs(a.row - b.row) + Math.abs(a.col - b.col)).toBe(1);
      }
    }
  });

  it('returns null beyond N or outside the grid, and refuses squares not on the board', () => {
    expect(cellToSquare(4, 5, 26)).toBeNull(); // row 4 of a 6-wide 26 board holds only 25, 26
    expect(cellToSquare(4, 0, 26)).toBe(25);
    expect(cellToSquare(-1, 0, 25)).toBeNull();
    expect(cellToSquare(0, 5, 25)).toBeNull();
    expect(cellToSquare(5, 0, 25)).toBeNull();
    expect(() => squareToCell(0, 25)).toThrow(RangeError);
    expect(() => squareToCell(26, 25)).toThrow(RangeError);
    expect(() => squareToCell(2.5, 25)).toThrow(RangeError);
    expect(() => rowOf(101, 100)).toThrow(RangeError);
  });
});
