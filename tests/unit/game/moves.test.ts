import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { LastMoveSchema } from '../../../contract/socket';
import {
  applyRoll,
  BOARD_SIZES,
  canRevert,
  generateConnections,
  lastMoveOf,
  parseHistory,
  revertAllowance,
  revertHistory,
  rollDie,
  seededRandom,
  type Connection,
} from '../../../contract/game';

const board: Connection[] = [
  { type: 'ladder', start: 4, end: 14 },
  { type: 'snake', start: 17, end: 7 },
  { type: 'ladder', start: 80, end: 100 },
];

describe('applyRoll', () => {
  it('moves, follows snakes and ladders, caps at N and wins', () => {
    expect(applyRoll({ position: 1, die: 3, board_size: 100, connections: board })).toEqual({
      landing: 4,
      final: 14,
      connection: board[0],
      won: false,
    });
    expect(applyRoll({ position: 14, die: 3, board_size: 100, connections: board })).toEqual({
      landing: 17,
      final: 7,
      connection: board[1],
      won: false,
    });
    expect(applyRoll({ position: 1, die: 1, board_size: 100, connections: board })).toEqual({
      landing: 2,
      final: 2,
      connection: null,
      won: false,
    });
    expect(applyRoll({ position: 97, die: 6, board_size: 100, connections: board })).toMatchObject({ landing: 100, final: 100, won: true });
    expect(applyRoll({ position: 77, die: 3, board_size: 100, connections: board })).toMatchObject({ final: 100, won: true });
  });

  it('refuses impossible input', () => {
    const base = { position: 1, die: 3, board_size: 100, connections: [] };
    expect(() => applyRoll({ ...base, die: 0 })).toThrow(RangeError);
    expect(() => applyRoll({ ...base, die: 7 })).toThrow(RangeError);
    expect(() => applyRoll({ ...base, position: 0 })).toThrow(RangeError);
    expect(() => applyRoll({ ...base, position: 101 })).toThrow(RangeError);
  });

  it('keeps every game inside 1..N on generated boards', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BOARD_SIZES), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.integer(), (n, s, l, seed) => {
        const rng = seededRandom(seed);
        const connections = generateConnections({ board_size: n, num_snakes: s, num_ladders: l }, rng);
        let history = [1];
        const problems: string[] = [];
        for (let turn = 0; turn < 400 && history[history.length - 1] !== n; turn += 1) {
          const position = history[history.length - 1];
          const die = rollDie(rng);
          const out = applyRoll({ position, die, board_size: n, connections });
          const link = connections.find((c) => c.start === out.landing) ?? null;
          if (out.landing !== Math.min(position + die, n)) problems.push('landing');
          if (out.connection !== link || out.final !== (link ? link.end : out.landing)) problems.push('connection');
          if (out.final < 1 || out.final > n || out.won !== (out.final === n)) problems.push('range/won');
          history = [...history, out.final];
          if (turn % 7 === 6 && canRevert({ current_position: out.final, revert_count: 0 }, 1)) {
            const reverted = revertHistory(history);
            if (reverted.position !== position || reverted.history.length !== history.length - 1) problems.push('revert');
            history = reverted.history;
          }
        }
        expect(problems).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('reverts and tracker', () => {
  it('canRevert needs position > 1 and revert_count < max', () => {
    expect(canRevert({ current_position: 5, revert_count: 2 }, 3)).toBe(true);
    expect(canRevert({ current_position: 5, revert_count: 3 }, 3)).toBe(false);
    expect(canRevert({ current_position: 1, revert_count: 0 }, 3)).toBe(false);
    expect(canRevert({ current_position: 2, revert_count: 0 }, 0)).toBe(false);
  });

  it('revertHistory pops the last entry and refuses a lone start', () => {
    const history = [1, 5, 9];
    expect(revertHistory(history)).toEqual({ history: [1, 5], position: 5 });
    expect(history).toEqual([1, 5, 9]);
    expect(revertHistory([1, 7])).toEqual({ history: [1], position: 1 });
    expect(() => revertHistory([1])).toThrow('Nothing to revert');
    expect(() => revertHistory([])).toThrow('Nothing to revert');
  });

  it('parseHistory accepts a list or a JSON string of one', () => {
    expect(parseHistory([1, 4])).toEqual([1, 4]);
    expect(parseHistory('[1, 4, 14]')).toEqual([1, 4, 14]);
    expect(() => parseHistory('[1,')).toThrow('position_history is not valid JSON.');
    expect(() => parseHistory('{"a":1}')).toThrow('position_history must be a list of square numbers.');
    expect(() => parseHistory('[1, "2"]')).toThrow('position_history must be a list of square numbers.');
  });

  it('the revert allowance is max_reverts_allowed times the number of teams', () => {
    expect(revertAllowance(3, 4)).toBe(12);
    expect(revertAllowance(0, 5)).toBe(0);
  });
});

describe('lastMoveOf', () => {
  it('walks from the square rolled from to the landing, then names the connection followed', () => {
    const ladder = applyRoll({ position: 1, die: 3, board_size: 100, connections: board });
    expect(lastMoveOf(7, 1, 3, ladder)).toEqual({ team_id: 7, die: 3, from: 1, landing: 4, to: 14, via: 'ladder', path: [1, 2, 3, 4] });
    const snake = applyRoll({ position: 14, die: 3, board_size: 100, connections: board });
    expect(lastMoveOf(7, 14, 3, snake)).toMatchObject({ landing: 17, to: 7, via: 'snake', path: [14, 15, 16, 17] });
    const capped = applyRoll({ position: 98, die: 6, board_size: 100, connections: [] });
    expect(lastMoveOf(7, 98, 6, capped)).toMatchObject({ landing: 100, to: 100, via: null, path: [98, 99, 100] });
  });

  it('the path has die + 1 squares unless capped at N, ends on the landing and parses as LastMoveSchema (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 6 }), (from, die) => {
        const move = lastMoveOf(1, from, die, applyRoll({ position: from, die, board_size: 100, connections: board }));
        expect(move.path[0]).toBe(from);
        expect(move.path[move.path.length - 1]).toBe(move.landing);
        expect(move.path.length).toBe(Math.min(from + die, 100) - from + 1);
        expect(v.is(LastMoveSchema, move)).toBe(true);
      }),
    );
  });
});
