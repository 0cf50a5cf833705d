import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  assignTasks,
  autoSplit,
  blockPairs,
  BOARD_SIZES,
  connectionSpan,
  countsToSettings,
  DEFAULT_SETTINGS,
  generateConnections,
  isSpecialDescription,
  layoutSquares,
  maxConnections,
  rowLoadLimit,
  seededRandom,
  segmentDistance,
  TIERS,
  validateSettings,
  type Connection,
  type PoolTask,
  type Tier,
  type TierCounts,
} from '../../../contract/game';
import { DEGENERATE_RNGS, generationViolations, rowIndependent, shapeViolations } from './helpers';

const isValid = (n: number, s: number, l: number) =>
  validateSettings({ ...DEFAULT_SETTINGS, board_size: n, num_snakes: s, num_ladders: l, ...countsToSettings(autoSplit(n)) }) ===
  null;

describe('generateConnections', () => {
  it('meets every rule for every size and count, with seeded and degenerate generators', () => {
    let boards = 0;
    const problems: string[] = [];
    for (const n of BOARD_SIZES) {
      for (let s = 0; s <= 12; s += 1) {
        for (let l = 0; l <= 12; l += 1) {
          if (!isValid(n, s, l)) continue;
          const rngs = [
            ...[0, 1, 2].map((k) => seededRandom(n * 10_007 + s * 131 + l * 7 + k)),
            ...Object.values(DEGENERATE_RNGS).map((make) => make()),
          ];
          for (const rng of rngs) {
            const connections = generateConnections({ board_size: n, num_snakes: s, num_ladders: l }, rng);
            for (const problem of [...generationViolations(n, s, l, connections), ...shapeViolations(n, connections)]) {
              problems.push(`${n}/${s}/${l}: ${problem}`);
            }
            boards += 1;
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(boards).toBeGreaterThan(10_000);
  });

  it('meets every rule for thousands of random seeds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BOARD_SIZES),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer(),
        (n, s, l, seed) => {
          fc.pre(isValid(n, s, l));
          const connections = generateConnections({ board_size: n, num_snakes: s, num_ladders: l }, seededRandom(seed));
          expect([...generationViolations(n, s, l, connections), ...shapeViolations(n, connections)]).toEqual([]);
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('fills the densest boards exactly (11 connections on 25 squares)', () => {
    for (let seed = 0; seed < 500; seed += 1) {
      const connections = generateConnections({ board_size: 25, num_snakes: 6, num_ladders: 5 }, seededRandom(seed));
      expect([...generationViolations(25, 6, 5, connections), ...shapeViolations(25, connections)]).toEqual([]);
    }
  });

  it('is deterministic for a seed and varies across seeds', () => {
    const settings = { board_size: 100, num_snakes: 5, num_ladders: 5 };
    expect(generateConnections(settings, seededRandom(42))).toEqual(generateConnections(settings, seededRandom(42)));
    const distinct = new Set(Array.from({ length: 20 }, (_, seed) => JSON.stringify(generateConnections(settings, seededRandom(seed)))));
    expect(distinct.size).toBe(20);
  });

  it('returns snakes then ladders and throws when infeasible or invalid', () => {
    const connections = generateConnections({ board_size: 64, num_snakes: 3, num_ladders: 4 }, seededRandom(7));
    expect(connections.map((c) => c.type)).toEqual(['snake', 'snake', 'snake', 'ladder', 'ladder', 'ladder', 'ladder']);
    expect(generateConnections({ board_size: 25, num_snakes: 0, num_ladders: 0 }, seededRandom(1))).toEqual([]);
    expect(() => generateConnections({ board_size: 25, num_snakes: 12, num_ladders: 0 }, seededRandom(1))).toThrow(
      'A board of 25 squares cannot hold 12 snakes and 0 ladders',
    );
    expect(() => generateConnections({ board_size: 100, num_snakes: -1, num_ladders: 0 }, seededRandom(1))).toThrow(RangeError);
    expect(() => generateConnections({ board_size: 100, num_snakes: 1.5, num_ladders: 0 }, seededRandom(1))).toThrow(RangeError);
  });
});

/** Cell centre of a square, x = column and y = row, computed without contract/game. */
function centre(square: number, n: number): { x: number; y: number } {
  const side = Math.round(Math.sqrt(n));
  const row = rowIndependent(square, n);
  const offset = (square - 1) % side;
  return { x: row % 2 === 0 ? offset : side - 1 - offset, y: row };
}

/** True when the straight lines between the cell centres of two connections cross or touch. */
function linesMeet(a: Connection, b: Connection, n: number): boolean {
  const [p, q, r, s] = [a.start, a.end, b.start, b.end].map((sq) => centre(sq, n));
  const side = (o: typeof p, u: typeof p, w: typeof p) => Math.sign((u.x - o.x) * (w.y - o.y) - (u.y - o.y) * (w.x - o.x));
  const within = (o: typeof p, u: typeof p, w: typeof p) =>
    Math.min(o.x, u.x) <= w.x && w.x <= Math.max(o.x, u.x) && Math.min(o.y, u.y) <= w.y && w.y <= Math.max(o.y, u.y);
  const [d1, d2, d3, d4] = [side(r, s, p), side(r, s, q), side(p, q, r), side(p, q, s)];
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 === 0 && within(r, s, p)) || (d2 === 0 && within(r, s, q)) || (d3 === 0 && within(p, q, r)) || (d4 === 0 && within(p, q, s));
}

/** Tidiness of a generated board: crossings and the most endpoints on one row, against the limit. */
function tidiness(n: number, connections: Connection[]): { crossings: number; crowdedRows: number } {
  let crossings = 0;
  for (let i = 0; i < connections.length; i += 1) {
    for (let j = i + 1; j < connections.length; j += 1) if (linesMeet(connections[i], connections[j], n)) crossings += 1;
  }
  const load = new Map<number, number>();
  for (const c of connections) for (const sq of [c.start, c.end]) load.set(rowIndependent(sq, n), (load.get(rowIndependent(sq, n)) ?? 0) + 1);
  const limit = Math.max(2, Math.ceil((2 * connections.length) / Math.round(Math.sqrt(n))) + 1);
  return { crossings, crowdedRows: [...load.values()].filter((count) => count > limit).length };
}

describe('board shape', () => {
  /** Share of tidy boards asked of every size with up to one connection per row (all of them were when written). */
  const TIDY_SHARE = 0.95;

  it('bounds a connection between a row and a third of the board', () => {
    expect(BOARD_SIZES.map((n) => connectionSpan(n))).toEqual(
      BOARD_SIZES.map((n) => ({ min: Math.round(Math.sqrt(n)), max: Math.floor(n / 3) })),
    );
    expect(connectionSpan(100)).toEqual({ min: 10, max: 33 });
    expect(connectionSpan(8)).toBeNull();
    expect(connectionSpan(9)).toEqual({ min: 3, max: 3 });
    expect(rowLoadLimit(100, 10)).toBe(3);
    expect(rowLoadLimit(225, 1)).toBe(2);
    expect(rowLoadLimit(25, 11)).toBe(6);
  });

  it('lays the fallback blocks for every board size and every count that validateSettings allows', () => {
    const problems: string[] = [];
    for (const n of BOARD_SIZES) {
      const span = connectionSpan(n)!;
      for (let k = 0; k <= maxConnections(n); k += 1) {
        for (const rng of [seededRandom(n + k), ...Object.values(DEGENERATE_RNGS).map((make) => make())]) {
          const pairs = blockPairs(n, k, span, rng);
          if (pairs === null) {
            problems.push(`${n}/${k}: no blocks`);
            continue;
          }
          const connections = pairs.map(([a, b]): Connection => ({ type: 'ladder', start: Math.min(a, b), end: Math.max(a, b) }));
          for (const problem of [...generationViolations(n, 0, k, connections), ...shapeViolations(n, connections)]) {
            problems.push(`${n}/${k}: ${problem}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps the spec rules alone on a board too small for the span rule', () => {
    expect(connectionSpan(10)).toBeNull();
    expect(maxConnections(10)).toBe(4);
    for (let seed = 0; seed < 50; seed += 1) {
      const connections = generateConnections({ board_size: 10, num_snakes: 2, num_ladders: 2 }, seededRandom(seed));
      // generationViolations assumes a perfect square; check the rows of a 4-wide grid here.
      expect(connections.map((c) => c.type)).toEqual(['snake', 'snake', 'ladder', 'ladder']);
      const used = connections.flatMap((c) => [c.start, c.end]);
      expect(new Set(used).size).toBe(8);
      for (const c of connections) {
        expect(Math.min(c.start, c.end)).toBeGreaterThan(1);
        expect(Math.max(c.start, c.end)).toBeLessThan(10);
        expect(Math.floor((c.start - 1) / 4)).not.toBe(Math.floor((c.end - 1) / 4));
        expect(c.type === 'snake' ? c.start > c.end : c.start < c.end).toBe(true);
      }
    }
  });

  it('measures the distance between connection lines', () => {
    const p = (x: number, y: number) => ({ x, y });
    expect(segmentDistance(p(0, 0), p(2, 2), p(0, 2), p(2, 0))).toBe(0);
    expect(segmentDistance(p(0, 0), p(0, 3), p(1, 0), p(1, 3))).toBe(1);
    expect(segmentDistance(p(0, 0), p(0, 3), p(0, 1), p(0, 1))).toBe(0);
    expect(segmentDistance(p(0, 0), p(4, 0), p(2, 1), p(2, 5))).toBe(1);
  });

  it('draws default boards that cross nowhere and spread over the rows', () => {
    const untidy: string[] = [];
    for (let seed = 0; seed < 300; seed += 1) {
      const connections = generateConnections({ board_size: 100, num_snakes: 5, num_ladders: 5 }, seededRandom(seed));
      const { crossings, crowdedRows } = tidiness(100, connections);
      if (crossings > 0 || crowdedRows > 0) untidy.push(`seed ${seed}: ${crossings} crossings, ${crowdedRows} crowded rows`);
    }
    expect(untidy).toEqual([]);
  });

  it('keeps most boards tidy on every size up to a connection per row', () => {
    const report: string[] = [];
    for (const n of BOARD_SIZES) {
      const side = Math.round(Math.sqrt(n));
      for (let k = 2; k <= Math.min(side, maxConnections(n)); k += 1) {
        let tidy = 0;
        const runs = 20;
        for (let seed = 0; seed < runs; seed += 1) {
          const snakes = Math.floor(k / 2);
          const { crossings, crowdedRows } = tidiness(n, generateConnections({ board_size: n, num_snakes: snakes, num_ladders: k - snakes }, seededRandom(seed * 977 + k)));
          if (crossings === 0 && crowdedRows === 0) tidy += 1;
        }
        if (tidy < runs * TIDY_SHARE) report.push(`${n}/${k}: ${tidy} of ${runs} tidy`);
      }
    }
    expect(report).toEqual([]);
  });
});

const countsOf = (n: number): TierCounts => autoSplit(n);

describe('layoutSquares', () => {
  it('lays Start, tiers in order, Finish', () => {
    const squares = layoutSquares({ board_size: 25, counts: countsOf(25), connections: [] });
    expect(squares).toHaveLength(25);
    expect(squares[0]).toEqual({ square_index: 1, task_difficulty: null, kind: 'start' });
    expect(squares[24]).toEqual({ square_index: 25, task_difficulty: null, kind: 'finish' });
    // 25 → easy 4, medium 5, hard 5, elite 5, master 4
    const tiers = squares.slice(1, 24).map((s) => s.task_difficulty);
    expect(tiers).toEqual([
      ...Array(4).fill('EASY'),
      ...Array(5).fill('MEDIUM'),
      ...Array(5).fill('HARD'),
      ...Array(5).fill('ELITE'),
      ...Array(4).fill('MASTER'),
    ]);
    squares.forEach((s, i) => expect(s.square_index).toBe(i + 1));
  });

  it('turns connection starts into snake/ladder squares and keeps ends as tasks', () => {
    const connections: Connection[] = [
      { type: 'snake', start: 12, end: 3 },
      { type: 'ladder', start: 4, end: 20 },
    ];
    const squares = layoutSquares({ board_size: 25, counts: countsOf(25), connections });
    expect(squares[11]).toEqual({ square_index: 12, task_difficulty: null, kind: 'snake' });
    expect(squares[3]).toEqual({ square_index: 4, task_difficulty: null, kind: 'ladder' });
    expect(squares[2]).toEqual({ square_index: 3, task_difficulty: 'EASY', kind: 'task' });
    expect(squares[19]).toEqual({ square_index: 20, task_difficulty: 'ELITE', kind: 'task' });
  });

  it('keeps the tier order for any counts and generated board', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BOARD_SIZES), fc.integer(), fc.array(fc.nat(), { minLength: 4, maxLength: 4 }), (n, seed, cuts) => {
        // random counts summing to N-2 from four cut points
        const points = [0, ...cuts.map((c) => c % (n - 1)).sort((a, b) => a - b), n - 2];
        const [easy, medium, hard, elite, master] = points.slice(1).map((p, i) => p - points[i]);
        const counts = { easy, medium, hard, elite, master };
        const connections = generateConnections({ board_size: n, num_snakes: 5, num_ladders: 5 }, seededRandom(seed));
        const squares = layoutSquares({ board_size: n, counts, connections });
        const startType = new Map(connections.map((c) => [c.start, c.type]));
        const expectedTiers: Tier[] = TIERS.flatMap((tier, i) => Array<Tier>([easy, medium, hard, elite, master][i]).fill(tier));
        const problems: string[] = [];
        squares.slice(1, -1).forEach((square, i) => {
          const type = startType.get(square.square_index);
          const ok =
            type === undefined
              ? square.kind === 'task' && square.task_difficulty === expectedTiers[i]
              : square.kind === type && square.task_difficulty === null;
          if (!ok) problems.push(`square ${square.square_index}: ${square.kind} ${square.task_difficulty}`);
        });
        expect(problems).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses counts not summing to N-2 and connections starting on 1 or N', () => {
    expect(() => layoutSquares({ board_size: 25, counts: { ...countsOf(25), easy: 3 }, connections: [] })).toThrow(RangeError);
    expect(() => layoutSquares({ board_size: 25, counts: { ...countsOf(25), easy: -1, medium: 10 }, connections: [] })).toThrow(
      RangeError,
    );
    expect(() =>
      layoutSquares({ board_size: 25, counts: countsOf(25), connections: [{ type: 'snake', start: 25, end: 3 }] }),
    ).toThrow(RangeError);
  });
});

describe('assignTasks', () => {
  const poolArb = fc.record({
    EASY: fc.nat({ max: 50 }),
    MEDIUM: fc.nat({ max: 50 }),
    HARD: fc.nat({ max: 50 }),
    ELITE: fc.nat({ max: 50 }),
    MASTER: fc.nat({ max: 50 }),
  });

  it('uses each task at most once, respects tiers, leaves the rest unassigned', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BOARD_SIZES), fc.integer(), poolArb, (n, seed, sizes) => {
        const rng = seededRandom(seed);
        const connections = generateConnections({ board_size: n, num_snakes: 4, num_ladders: 4 }, rng);
        const squares = layoutSquares({ board_size: n, counts: countsOf(n), connections });
        let nextId = 1;
        const tierOfTask = new Map<number, Tier>();
        const pool = {} as Record<Tier, PoolTask[]>;
        for (const tier of TIERS) {
          pool[tier] = Array.from({ length: sizes[tier] }, () => {
            const id = nextId++;
            tierOfTask.set(id, tier);
            return { id, description: `${tier} task ${id}` };
          });
        }
        const assigned = assignTasks(squares, pool, rng);
        // Collect problems and assert once: one expect per square makes 500 runs slow.
        const problems: string[] = [];
        const fail = (what: string) => problems.push(`square ${problems.length}: ${what}`);
        if (assigned.length !== n) fail('length');
        const used = new Set<number>();
        const special = { start: 'Start', finish: 'Finish', snake: 'Snake', ladder: 'Ladder' } as const;
        for (const [i, square] of assigned.entries()) {
          const laid = squares[i];
          if (square.square_index !== laid.square_index || square.task_difficulty !== laid.task_difficulty || square.kind !== laid.kind) {
            fail('layout changed');
          }
          if (square.kind !== 'task') {
            if (square.task_id !== null || square.task_description !== special[square.kind]) fail('special square');
            if (!isSpecialDescription(square.task_description)) fail('special description');
          } else if (square.task_id === null) {
            if (square.task_description !== '' || square.task_difficulty === null) fail('unassigned square');
          } else {
            if (used.has(square.task_id)) fail(`task ${square.task_id} used twice`);
            used.add(square.task_id);
            if (tierOfTask.get(square.task_id) !== square.task_difficulty) fail('wrong tier');
            if (square.task_description !== `${square.task_difficulty} task ${square.task_id}`) fail('wrong description');
          }
        }
        for (const tier of TIERS) {
          const squaresOfTier = assigned.filter((s) => s.task_difficulty === tier);
          const filled = squaresOfTier.filter((s) => s.task_id !== null).length;
          if (filled !== Math.min(sizes[tier], squaresOfTier.length)) fail(`${tier} filled ${filled}`);
        }
        expect(problems).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('ignores duplicate ids, tolerates missing tiers and draws at random', () => {
    const squares = layoutSquares({ board_size: 25, counts: { easy: 23, medium: 0, hard: 0, elite: 0, master: 0 }, connections: [] });
    const pool = { EASY: [{ id: 7, description: 'a' }, { id: 7, description: 'a again' }, { id: 8, description: 'b' }] };
    const assigned = assignTasks(squares, pool, seededRandom(3));
    expect(assigned.filter((s) => s.task_id !== null).map((s) => s.task_id).sort()).toEqual([7, 8]);
    expect(assigned.filter((s) => s.kind === 'task' && s.task_id === null)).toHaveLength(21);
    const firsts = new Set(
      Array.from({ length: 30 }, (_, seed) => assignTasks(squares, { EASY: [1, 2, 3, 4, 5].map((id) => ({ id, description: '' })) }, seededRandom(seed))[1].task_id),
    );
    expect(firsts.size).toBeGreaterThan(1);
  });

  it('recognises special descriptions', () => {
    expect(['Start', 'Finish', 'Snake', 'Ladder'].every(isSpecialDescription)).toBe(true);
    expect(isSpecialDescription('')).toBe(false);
    expect(isSpecialDescription('snake')).toBe(false);
    expect(isSpecialDescription(null)).toBe(false);
  });
});
