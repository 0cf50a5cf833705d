import * as v from 'valibot';
import { BOARD_SIZES, MAX_LADDERS, MAX_REVERTS, MAX_SNAKES, maxConnections, type BoardSize } from './board';
import { autoSplit, type TierCounts } from './split';

/** Messages of the game settings rules, verbatim from docs/game-rules.md §4. */
export const SETTINGS_MESSAGES = {
  boardSize: 'Board size must be a perfect square between 25 and 225.',
  snakes: 'Number of snakes must be between 0 and 12.',
  ladders: 'Number of ladders must be between 0 and 12.',
  reverts: 'Max reverts allowed must be between 0 and 10.',
  negativeCount: 'Task counts cannot be negative.',
  /** Not in the docs: a count that is missing, fractional or not a number. */
  wholeCount: 'Task counts must be whole numbers.',
  /** Not in the documented messages (its wording: "All fields are required"): a missing field or a non-object. */
  required: 'All fields are required.',
  tooMany: (total: number, tiles: number) =>
    `Total tasks (${total}) exceeds available task tiles (${tiles}). Please reduce task numbers.`,
  tooFew: (total: number, tiles: number) =>
    `Total tasks (${total}) is less than available task tiles (${tiles}). All task tiles must be filled.`,
  /** Not in the docs: proof_required (docs/server.md §9) that is not a boolean. */
  proofRequired: 'proof_required must be true or false.',
  /** Not in the docs: relief_after_hours (docs/server.md §15) out of range. */
  reliefAfterHours: 'relief_after_hours must be null or a whole number of hours from 1 to 168.',
  /** Not in the docs: relief_max_per_team (docs/server.md §15) out of range. */
  reliefMaxPerTeam: 'relief_max_per_team must be a whole number from 0 to 10.',
  /** Not in the docs: more connections than fit (see maxConnections). */
  tooManyConnections: (boardSize: number, snakes: number, ladders: number) =>
    `A board of ${boardSize} squares cannot hold ${snakes} snakes and ${ladders} ladders: ` +
    `at most ${maxConnections(boardSize)} snakes and ladders together fit.`,
} as const;

/**
 * Payload of game create and randomize (docs/server.md §3), all integers:
 * board_size in squares, snake/ladder counts, max reverts per team, and task squares per tier.
 */
export interface GameSettings {
  board_size: number;
  num_snakes: number;
  num_ladders: number;
  max_reverts_allowed: number;
  num_easy_tasks: number;
  num_medium_tasks: number;
  num_hard_tasks: number;
  num_elite_tasks: number;
  num_master_tasks: number;
}

const DEFAULT_BOARD_SIZE: BoardSize = 100;
const DEFAULT_SPLIT = autoSplit(DEFAULT_BOARD_SIZE);

/**
 * Settings a new game form starts with (docs/client.md §12): board 100, 5 snakes,
 * 5 ladders, 3 max reverts, task counts from autoSplit(100) (19/20/20/20/19).
 */
export const DEFAULT_SETTINGS: Readonly<GameSettings> = Object.freeze({
  board_size: DEFAULT_BOARD_SIZE,
  num_snakes: 5,
  num_ladders: 5,
  max_reverts_allowed: 3,
  num_easy_tasks: DEFAULT_SPLIT.easy,
  num_medium_tasks: DEFAULT_SPLIT.medium,
  num_hard_tasks: DEFAULT_SPLIT.hard,
  num_elite_tasks: DEFAULT_SPLIT.elite,
  num_master_tasks: DEFAULT_SPLIT.master,
});

/**
 * The create/randomize payload after parsing: the settings plus proof_required (docs/server.md §9,
 * default false) and the relief settings (docs/server.md §15: relief_after_hours null = off, the
 * default, else 1..168; relief_max_per_team 0..10, default 2; the parsed payload always has them,
 * a sender may leave them out).
 */
export type GameSettingsBody = GameSettings & { proof_required: boolean; relief_after_hours?: number | null; relief_max_per_team?: number };

/** The relief settings' limits (docs/server.md §15). */
export const RELIEF_LIMITS = { minHours: 1, maxHours: 168, maxPerTeam: 10, defaultPerTeam: 2 } as const;

/** relief_after_hours: null (relief off) or a whole number of hours 1..168 (docs/server.md §15). */
export const ReliefAfterHoursSchema = v.nullable(
  v.pipe(v.number(SETTINGS_MESSAGES.reliefAfterHours), v.integer(SETTINGS_MESSAGES.reliefAfterHours), v.minValue(RELIEF_LIMITS.minHours, SETTINGS_MESSAGES.reliefAfterHours), v.maxValue(RELIEF_LIMITS.maxHours, SETTINGS_MESSAGES.reliefAfterHours)),
);

/** relief_max_per_team: a whole number 0..10 (docs/server.md §15). */
export const ReliefMaxPerTeamSchema = v.pipe(
  v.number(SETTINGS_MESSAGES.reliefMaxPerTeam),
  v.integer(SETTINGS_MESSAGES.reliefMaxPerTeam),
  v.minValue(0, SETTINGS_MESSAGES.reliefMaxPerTeam),
  v.maxValue(RELIEF_LIMITS.maxPerTeam, SETTINGS_MESSAGES.reliefMaxPerTeam),
);

/** The five task-count fields of GameSettings, in tier order. */
export const TASK_COUNT_FIELDS = [
  'num_easy_tasks',
  'num_medium_tasks',
  'num_hard_tasks',
  'num_elite_tasks',
  'num_master_tasks',
] as const;

const int = (message: string) => v.pipe(v.number(message), v.integer(message));

/**
 * Shape only: every field present and an integer. A missing field or non-object reports
 * 'All fields are required.'; a present non-integer field reports its rule message. The game
 * create body adds its `board` to these entries (contract/game/boardFile.ts).
 */
export const GameSettingsFieldsSchema = v.object(
  {
    board_size: int(SETTINGS_MESSAGES.boardSize),
    num_snakes: int(SETTINGS_MESSAGES.snakes),
    num_ladders: int(SETTINGS_MESSAGES.ladders),
    max_reverts_allowed: int(SETTINGS_MESSAGES.reverts),
    num_easy_tasks: int(SETTINGS_MESSAGES.wholeCount),
    num_medium_tasks: int(SETTINGS_MESSAGES.wholeCount),
    num_hard_tasks: int(SETTINGS_MESSAGES.wholeCount),
    num_elite_tasks: int(SETTINGS_MESSAGES.wholeCount),
    num_master_tasks: int(SETTINGS_MESSAGES.wholeCount),
    proof_required: v.optional(v.boolean(SETTINGS_MESSAGES.proofRequired), false),
    relief_after_hours: v.optional(ReliefAfterHoursSchema, null),
    relief_max_per_team: v.optional(ReliefMaxPerTeamSchema, RELIEF_LIMITS.defaultPerTeam),
  },
  SETTINGS_MESSAGES.required,
);

/**
 * Game settings payload with every rule of docs/game-rules.md §4 (and the
 * feasibility rule of validateSettings). The first issue's message is the one validateSettings
 * returns, so `firstIssueMessage(v.safeParse(GameSettingsSchema, body).issues)` gives the documented text.
 */
export const GameSettingsSchema = v.pipe(
  GameSettingsFieldsSchema,
  v.rawCheck<v.InferOutput<typeof GameSettingsFieldsSchema>>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const message = validateSettings(dataset.value);
    if (message !== null) addIssue({ message });
  }),
);

/** TierCounts of a settings object: num_easy_tasks → easy, ... */
export function countsFromSettings(settings: GameSettings): TierCounts {
  return {
    easy: settings.num_easy_tasks,
    medium: settings.num_medium_tasks,
    hard: settings.num_hard_tasks,
    elite: settings.num_elite_tasks,
    master: settings.num_master_tasks,
  };
}

/** Settings fields of a TierCounts: easy → num_easy_tasks, ... (to fill the form after autoSplit). */
export function countsToSettings(counts: TierCounts): Pick<GameSettings, (typeof TASK_COUNT_FIELDS)[number]> {
  return {
    num_easy_tasks: counts.easy,
    num_medium_tasks: counts.medium,
    num_hard_tasks: counts.hard,
    num_elite_tasks: counts.elite,
    num_master_tasks: counts.master,
  };
}

const inRange = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;

/**
 * First broken game-settings rule, or null when the settings are valid (docs/game-rules.md
 * §4, docs/server.md §5). Checked in this order, messages verbatim:
 * 1. board_size in BOARD_SIZES (25 ... 225) — 'Board size must be a perfect square between 25 and 225.'
 * 2. num_snakes integer 0..12; 3. num_ladders integer 0..12; 4. max_reverts_allowed integer 0..10.
 * 5. no negative task count — 'Task counts cannot be negative.'; fractional/NaN counts —
 *    'Task counts must be whole numbers.'
 * 6. sum of counts (N) vs task tiles M = board_size-2: 'Total tasks (N) exceeds ...' / 'is less than ...'.
 * 7. feasibility: num_snakes + num_ladders <= maxConnections(board_size) (= floor((board_size-2)/2);
 *    each connection needs two distinct squares of 2..N-1 on different rows), else
 *    'A board of 25 squares cannot hold 12 snakes and 12 ladders: at most 11 ...'.
 * When this returns null, generateConnections always succeeds, and its boards keep the shape
 * rules of boardShape.ts (each connection spans a row to a third of the board): those never make a
 * valid setting infeasible. Never throws.
 */
export function validateSettings(settings: GameSettings): string | null {
  const s = settings;
  if (!(BOARD_SIZES as readonly number[]).includes(s.board_size)) return SETTINGS_MESSAGES.boardSize;
  if (!inRange(s.num_snakes, 0, MAX_SNAKES)) return SETTINGS_MESSAGES.snakes;
  if (!inRange(s.num_ladders, 0, MAX_LADDERS)) return SETTINGS_MESSAGES.ladders;
  if (!inRange(s.max_reverts_allowed, 0, MAX_REVERTS)) return SETTINGS_MESSAGES.reverts;
  const counts = TASK_COUNT_FIELDS.map((field) => s[field]);
  if (counts.some((n) => typeof n === 'number' && n < 0)) return SETTINGS_MESSAGES.negativeCount;
  if (counts.some((n) => !Number.isInteger(n))) return SETTINGS_MESSAGES.wholeCount;
  const total = counts.reduce((a, b) => a + b, 0);
  const tiles = s.board_size - 2;
  if (total > tiles) return SETTINGS_MESSAGES.tooMany(total, tiles);
  if (total < tiles) return SETTINGS_MESSAGES.tooFew(total, tiles);
  if (s.num_snakes + s.num_ladders > maxConnections(s.board_size)) {
    return SETTINGS_MESSAGES.tooManyConnections(s.board_size, s.num_snakes, s.num_ladders);
  }
  return null;
}
