import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  assignTasks,
  autoSplit,
  BOARD_SIZES,
  countsToSettings,
  DEFAULT_SETTINGS,
  generateConnections,
  isSpecialDescription,
  layoutSquares,
  seededRandom,
  TIERS,
  validateSettings,
  type Connection,
  type PoolTask,
  type Tier,
  type TierCounts,
} from '../../../contract/game';
import { DEGENERATE_RNGS, generationViolations } from './helpers';

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
            for (const problem of generationViolations(n, s, l, connections)) problems.push(`${n}/${s}/${l}: ${problem}`);
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
          expect(generationViolations(n, s, l, connections)).toEqual([]);
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('fills the densest boards exactly (11 connections on 25 squares)', () => {
    for (let seed = 0; seed < 500; seed += 1) {
      const connections = generateConnections({ board_size: 25, num_snakes: 6, num_ladders: 5 }, seededRandom(seed));
      expect(generationViolations(25, 6, 5, connections)).toEqual([]);
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
