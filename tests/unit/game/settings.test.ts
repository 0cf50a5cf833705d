import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import {
  autoSplit,
  BOARD_SIZES,
  countsFromSettings,
  countsToSettings,
  DEFAULT_SETTINGS,
  GameSettingsSchema,
  generateConnections,
  seededRandom,
  validateSettings,
  type GameSettings,
} from '../../../contract/game';

/** Valid settings for a board size with the auto split. */
function settingsFor(n: number, extra: Partial<GameSettings> = {}): GameSettings {
  return { ...DEFAULT_SETTINGS, board_size: n, ...countsToSettings(autoSplit(n)), ...extra };
}

const MSG = {
  board: 'Board size must be a perfect square between 25 and 225.',
  snakes: 'Number of snakes must be between 0 and 12.',
  ladders: 'Number of ladders must be between 0 and 12.',
  reverts: 'Max reverts allowed must be between 0 and 10.',
  negative: 'Task counts cannot be negative.',
};

describe('validateSettings boundaries', () => {
  it('board size: 24 and 226 refused, 25 and 225 accepted, non-squares refused', () => {
    expect(validateSettings(settingsFor(24))).toBe(MSG.board);
    expect(validateSettings(settingsFor(226))).toBe(MSG.board);
    expect(validateSettings(settingsFor(25))).toBeNull();
    expect(validateSettings(settingsFor(225))).toBeNull();
    expect(validateSettings(settingsFor(50))).toBe(MSG.board);
    expect(validateSettings(settingsFor(256))).toBe(MSG.board);
    expect(validateSettings({ ...DEFAULT_SETTINGS, board_size: Number.NaN })).toBe(MSG.board);
  });

  it('snakes and ladders 0..12, reverts 0..10', () => {
    expect(validateSettings(settingsFor(100, { num_snakes: 12 }))).toBeNull();
    expect(validateSettings(settingsFor(100, { num_snakes: 13 }))).toBe(MSG.snakes);
    expect(validateSettings(settingsFor(100, { num_snakes: -1 }))).toBe(MSG.snakes);
    expect(validateSettings(settingsFor(100, { num_snakes: 2.5 }))).toBe(MSG.snakes);
    expect(validateSettings(settingsFor(100, { num_snakes: 0, num_ladders: 0 }))).toBeNull();
    expect(validateSettings(settingsFor(100, { num_ladders: 12 }))).toBeNull();
    expect(validateSettings(settingsFor(100, { num_ladders: 13 }))).toBe(MSG.ladders);
    expect(validateSettings(settingsFor(100, { num_ladders: -1 }))).toBe(MSG.ladders);
    expect(validateSettings(settingsFor(100, { max_reverts_allowed: 10 }))).toBeNull();
    expect(validateSettings(settingsFor(100, { max_reverts_allowed: 0 }))).toBeNull();
    expect(validateSettings(settingsFor(100, { max_reverts_allowed: 11 }))).toBe(MSG.reverts);
    expect(validateSettings(settingsFor(100, { max_reverts_allowed: -1 }))).toBe(MSG.reverts);
  });

  it('task counts: negative, N-3, N-2, N-1', () => {
    const base = settingsFor(100);
    expect(validateSettings({ ...base, num_master_tasks: -1, num_easy_tasks: 39 })).toBe(MSG.negative);
    expect(validateSettings({ ...base, num_easy_tasks: 18 })).toBe(
      'Total tasks (97) is less than available task tiles (98). All task tiles must be filled.',
    );
    expect(validateSettings({ ...base, num_easy_tasks: 19 })).toBeNull();
    expect(validateSettings({ ...base, num_easy_tasks: 20 })).toBe(
      'Total tasks (99) exceeds available task tiles (98). Please reduce task numbers.',
    );
    expect(validateSettings({ ...base, num_easy_tasks: 98, num_medium_tasks: 0, num_hard_tasks: 0, num_elite_tasks: 0, num_master_tasks: 0 })).toBeNull();
    expect(validateSettings({ ...base, num_hard_tasks: 19.5, num_elite_tasks: 20.5 })).toBe('Task counts must be whole numbers.');
  });

  it('reports the first failing rule', () => {
    expect(validateSettings({ ...DEFAULT_SETTINGS, board_size: 24, num_snakes: 13 })).toBe(MSG.board);
    expect(validateSettings({ ...DEFAULT_SETTINGS, num_snakes: 13, num_ladders: 13 })).toBe(MSG.snakes);
    expect(validateSettings({ ...DEFAULT_SETTINGS, num_ladders: 13, max_reverts_allowed: 11 })).toBe(MSG.ladders);
    expect(validateSettings({ ...DEFAULT_SETTINGS, max_reverts_allowed: 11, num_easy_tasks: -1 })).toBe(MSG.reverts);
    expect(validateSettings({ ...DEFAULT_SETTINGS, num_easy_tasks: -1 })).toBe(MSG.negative);
  });

  it('refuses more connections than the board holds, with a clear message', () => {
    expect(validateSettings(settingsFor(25, { num_snakes: 12, num_ladders: 12 }))).toBe(
      'A board of 25 squares cannot hold 12 snakes and 12 ladders: at most 11 snakes and ladders together fit.',
    );
    expect(validateSettings(settingsFor(25, { num_snakes: 6, num_ladders: 5 }))).toBeNull();
    expect(validateSettings(settingsFor(25, { num_snakes: 6, num_ladders: 6 }))).not.toBeNull();
    expect(validateSettings(settingsFor(25, { num_snakes: 11, num_ladders: 0 }))).toBeNull();
    expect(validateSettings(settingsFor(25, { num_snakes: 12, num_ladders: 0 }))).not.toBeNull();
    expect(validateSettings(settingsFor(36, { num_snakes: 12, num_ladders: 5 }))).toBeNull();
    expect(validateSettings(settingsFor(36, { num_snakes: 12, num_ladders: 6 }))).not.toBeNull();
    expect(validateSettings(settingsFor(49, { num_snakes: 12, num_ladders: 11 }))).toBeNull();
    expect(validateSettings(settingsFor(49, { num_snakes: 12, num_ladders: 12 }))).not.toBeNull();
    expect(validateSettings(settingsFor(64, { num_snakes: 12, num_ladders: 12 }))).toBeNull();
  });

  it('is infeasible exactly when 2*(snakes+ladders) > N-2, and generation agrees', () => {
    for (const n of BOARD_SIZES) {
      for (let s = 0; s <= 12; s += 1) {
        for (let l = 0; l <= 12; l += 1) {
          const message = validateSettings(settingsFor(n, { num_snakes: s, num_ladders: l }));
          const feasible = 2 * (s + l) <= n - 2;
          expect(message === null).toBe(feasible);
          const generate = () => generateConnections({ board_size: n, num_snakes: s, num_ladders: l }, seededRandom(n * 1000 + s * 13 + l));
          if (feasible) expect(generate).not.toThrow();
          else expect(generate).toThrow(RangeError);
        }
      }
    }
  });
});

describe('GameSettingsSchema', () => {
  const first = (input: unknown) => v.safeParse(GameSettingsSchema, input).issues?.[0]?.message ?? null;

  it('accepts valid settings and gives the validateSettings message first', () => {
    expect(v.parse(GameSettingsSchema, { ...DEFAULT_SETTINGS, extra: 1 })).toEqual({ ...DEFAULT_SETTINGS, proof_required: false, relief_after_hours: null, relief_max_per_team: 2 });
    expect(first({ ...DEFAULT_SETTINGS, board_size: 24 })).toBe(MSG.board);
    expect(first({ ...DEFAULT_SETTINGS, num_ladders: 13 })).toBe(MSG.ladders);
    expect(first({ ...DEFAULT_SETTINGS, num_easy_tasks: 20 })).toBe(
      'Total tasks (99) exceeds available task tiles (98). Please reduce task numbers.',
    );
  });

  it('refuses missing, fractional and non-number fields with the field message', () => {
    const { board_size: _ignored, ...withoutBoard } = DEFAULT_SETTINGS;
    expect(first(withoutBoard)).toBe('All fields are required.');
    expect(first({ ...DEFAULT_SETTINGS, num_snakes: '5' })).toBe(MSG.snakes);
    expect(first({ ...DEFAULT_SETTINGS, max_reverts_allowed: 1.5 })).toBe(MSG.reverts);
    expect(first({ ...DEFAULT_SETTINGS, num_master_tasks: null })).toBe('Task counts must be whole numbers.');
    expect(first('nope')).toBe('All fields are required.');
  });

  it('agrees with validateSettings on random integer settings', () => {
    fc.assert(
      fc.property(
        fc.record({
          board_size: fc.oneof(fc.constantFrom(...BOARD_SIZES), fc.integer({ min: 0, max: 300 })),
          num_snakes: fc.integer({ min: -2, max: 14 }),
          num_ladders: fc.integer({ min: -2, max: 14 }),
          max_reverts_allowed: fc.integer({ min: -2, max: 12 }),
          num_easy_tasks: fc.integer({ min: -1, max: 60 }),
          num_medium_tasks: fc.integer({ min: -1, max: 60 }),
          num_hard_tasks: fc.integer({ min: -1, max: 60 }),
          num_elite_tasks: fc.integer({ min: -1, max: 60 }),
          num_master_tasks: fc.integer({ min: -1, max: 60 }),
        }),
        (settings) => {
          expect(first(settings)).toBe(validateSettings(settings));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('converts counts both ways', () => {
    expect(countsFromSettings(DEFAULT_SETTINGS)).toEqual(autoSplit(100));
    expect(countsToSettings(autoSplit(25))).toEqual({
      num_easy_tasks: 4,
      num_medium_tasks: 5,
      num_hard_tasks: 5,
      num_elite_tasks: 5,
      num_master_tasks: 4,
    });
  });
});
