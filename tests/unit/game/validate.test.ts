import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BOARD_SIZES,
  configFromConnections,
  connectionsFromConfig,
  generateConnections,
  parseConfig,
  seededRandom,
  validateBoard,
  type Connection,
} from '../../../contract/game';
import { rowIndependent } from './helpers';

const BAD_ENTRY = 'Each entry must be an array of two positive numbers: [[start, end], ...].';

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected invalid JSON');
}

describe('parseConfig', () => {
  it('gives the spec messages exactly', () => {
    for (const text of ['', '[1,', '{', '[[1, 2],]', 'snakes']) {
      expect(parseConfig(text, 'Snakes')).toEqual({ ok: false, error: `Invalid JSON format in Snakes config: ${jsonError(text)}` });
      expect(parseConfig(text, 'Ladders')).toEqual({ ok: false, error: `Invalid JSON format in Ladders config: ${jsonError(text)}` });
    }
    for (const text of ['{"a": 1}', '"[[1,2]]"', '12', 'null', 'true']) {
      expect(parseConfig(text, 'Snakes')).toEqual({ ok: false, error: 'Config must be a JSON array.' });
    }
    for (const text of ['[1, 2]', '[[1]]', '[[1, 2, 3]]', '[[0, 2]]', '[[3, -2]]', '[["1", 2]]', '[[1, null]]', '[[1, 2], {}]', '[[]]']) {
      expect(parseConfig(text, 'Ladders')).toEqual({ ok: false, error: BAD_ENTRY });
    }
  });

  it('returns the pairs of valid configs', () => {
    expect(parseConfig('[]', 'Snakes')).toEqual({ ok: true, pairs: [] });
    expect(parseConfig(' [[12, 30], [45, 2.5]] ', 'Ladders')).toEqual({ ok: true, pairs: [[12, 30], [45, 2.5]] });
  });
});

describe('validateBoard messages', () => {
  it('names the offending pair', () => {
    expect(validateBoard(100, [[12, 30]], [])).toBe('Snake [12, 30] must go down: start must be greater than end.');
    expect(validateBoard(100, [], [[5, 5]])).toBe('Ladder [5, 5] must go up: start must be less than end.');
    expect(validateBoard(100, [], [[50, 15]])).toBe('Ladder [50, 15] must go up: start must be less than end.');
    expect(validateBoard(100, [[1, 40]], [])).toBe('Snake [1, 40] cannot start or end on square 1 or 100.');
    expect(validateBoard(100, [[60, 1]], [])).toBe('Snake [60, 1] cannot start or end on square 1 or 100.');
    expect(validateBoard(100, [], [[20, 100]])).toBe('Ladder [20, 100] cannot start or end on square 1 or 100.');
    expect(validateBoard(25, [[25, 3]], [])).toBe('Snake [25, 3] cannot start or end on square 1 or 25.');
    expect(validateBoard(100, [], [[3, 7]])).toBe('Ladder [3, 7]: start and end must be on different rows.');
    expect(validateBoard(100, [[20, 11]], [])).toBe('Snake [20, 11]: start and end must be on different rows.');
    expect(validateBoard(100, [[0, 120]], [])).toBe('Snake [0, 120]: squares must be between 1 and 100.');
    expect(validateBoard(100, [], [[50, 101]])).toBe('Ladder [50, 101]: squares must be between 1 and 100.');
    expect(validateBoard(100, [[40.5, 3]], [])).toBe('Snake [40.5, 3]: squares must be whole numbers.');
    expect(validateBoard(100, [[80, 34]], [[34, 60]])).toBe('Square 34 is used by two connections (Snake [80, 34] and Ladder [34, 60]).');
    expect(validateBoard(100, [], [[34, 60], [20, 60]])).toBe(
      'Square 60 is used by two connections (Ladder [34, 60] and Ladder [20, 60]).',
    );
  });

  it('checks sizes and counts first', () => {
    const thirteen = Array.from({ length: 13 }, (_, i): [number, number] => [99 - i, 2 + i]);
    expect(validateBoard(100, thirteen, [])).toBe('Number of snakes must be between 0 and 12.');
    expect(validateBoard(100, thirteen.slice(0, 12), [])).toBeNull();
    expect(validateBoard(100, [], thirteen.map(([s, e]) => [e, s]))).toBe('Number of ladders must be between 0 and 12.');
    expect(validateBoard(99, [], [])).toBe('Board size must be a perfect square between 25 and 225.');
    expect(validateBoard(100, [], [])).toBeNull();
    expect(validateBoard(100, [[98, 12]], [[2, 99]])).toBeNull();
  });

  it('reports per-pair rules before overlaps', () => {
    expect(validateBoard(100, [[80, 34]], [[34, 60], [3, 7]])).toBe('Ladder [3, 7]: start and end must be on different rows.');
  });
});

describe('validateBoard on generated boards', () => {
  type Mutation = 'endpoint' | 'flip' | 'sameRow' | 'shared' | 'outOfRange';
  const split = (cs: Connection[]) => configFromConnections(cs);

  it('accepts every generated board', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BOARD_SIZES), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), fc.integer(), (n, s, l, seed) => {
        fc.pre(2 * (s + l) <= n - 2);
        const { snakes_config, ladders_config } = split(generateConnections({ board_size: n, num_snakes: s, num_ladders: l }, seededRandom(seed)));
        expect(validateBoard(n, snakes_config, ladders_config)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects mutated boards, naming the mutated pair', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BOARD_SIZES),
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer(),
        fc.constantFrom<Mutation>('endpoint', 'flip', 'sameRow', 'shared', 'outOfRange'),
        fc.nat(),
        fc.boolean(),
        (n, s, l, seed, mutation, which, onEnd) => {
          fc.pre(2 * (s + l) <= n - 2);
          const connections = generateConnections({ board_size: n, num_snakes: s, num_ladders: l }, seededRandom(seed));
          const i = which % connections.length;
          const c = { ...connections[i] };
          const key = onEnd ? 'end' : 'start';
          const other = connections[(i + 1) % connections.length];
          switch (mutation) {
            case 'endpoint':
              c[key] = which % 2 === 0 ? 1 : n;
              break;
            case 'flip':
              [c.start, c.end] = [c.end, c.start];
              break;
            case 'sameRow': {
              const fixed = onEnd ? c.start : c.end;
              const side = Math.round(Math.sqrt(n));
              const row = rowIndependent(fixed, n);
              const candidates = Array.from({ length: side }, (_, k) => row * side + 1 + k).filter((sq) => sq !== fixed);
              c[key] = candidates[which % candidates.length];
              break;
            }
            case 'shared':
              c[key] = which % 2 === 0 ? other.start : other.end;
              break;
            case 'outOfRange':
              c[key] = which % 2 === 0 ? 0 : n + 1 + (which % 50);
              break;
          }
          const mutated = connections.map((x, k) => (k === i ? c : x));
          const { snakes_config, ladders_config } = split(mutated);
          const error = validateBoard(n, snakes_config, ladders_config);
          expect(error).not.toBeNull();
          const name = `${c.type === 'snake' ? 'Snake' : 'Ladder'} [${c.start}, ${c.end}]`;
          // Only the mutated pair breaks a per-pair rule; an overlap message names it too.
          expect(error).toContain(name);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('converts between connections and config pairs', () => {
    const connections: Connection[] = [
      { type: 'snake', start: 80, end: 34 },
      { type: 'ladder', start: 3, end: 60 },
      { type: 'snake', start: 50, end: 9 },
    ];
    const config = configFromConnections(connections);
    expect(config).toEqual({ snakes_config: [[80, 34], [50, 9]], ladders_config: [[3, 60]] });
    expect(connectionsFromConfig(config.snakes_config, config.ladders_config)).toEqual([connections[0], connections[2], connections[1]]);
  });
});
