import * as v from 'valibot';

/*
 * The drawn board's own shapes (docs/game-rules.md §12): a snake or ladder, the fixed squares'
 * descriptions and the manual board config's messages. They live apart from board generation
 * (./generate.ts) and the board editor's checks (./validate.ts), which re-export them, so that the
 * public game's schema (contract/gameApi.ts) and the board's drawing import them without the
 * generator, its board shaping and random numbers, or the editor's parsing.
 */

/** 'snake' (goes down) or 'ladder' (goes up). */
export type ConnectionType = 'snake' | 'ladder';

/**
 * One snake or ladder as stored in `board_connections` (docs/game-rules.md §12):
 * start and end are square numbers 1..N; snakes have start > end, ladders start < end.
 */
export interface Connection {
  type: ConnectionType;
  start: number;
  end: number;
}

/** Valibot schema of one board connection (shape only; validateBoard checks the rules). */
export const ConnectionSchema = v.object({
  type: v.picklist(['snake', 'ladder']),
  start: v.pipe(v.number(), v.integer()),
  end: v.pipe(v.number(), v.integer()),
});

/** Descriptions of the fixed squares (docs/game-rules.md §12). */
export const SPECIAL_DESCRIPTIONS = {
  start: 'Start',
  finish: 'Finish',
  snake: 'Snake',
  ladder: 'Ladder',
} as const;

/** Description of a task square whose tier pool ran out; shown as 'Unassigned'. */
export const UNASSIGNED_DESCRIPTION = '';
/** True for 'Start', 'Finish', 'Snake', 'Ladder': squares that cannot be swapped or given a task. */
export function isSpecialDescription(description: string | null | undefined): boolean {
  return (Object.values(SPECIAL_DESCRIPTIONS) as string[]).includes(description ?? '');
}

/** Label of a config box in the manual board editor. */
export type ConfigLabel = 'Snakes' | 'Ladders';

/** Messages of the manual board config, verbatim from docs/game-rules.md §4. */
export const CONFIG_MESSAGES = {
  invalidJson: (label: ConfigLabel, detail: string) => `Invalid JSON format in ${label} config: ${detail}`,
  notArray: 'Config must be a JSON array.',
  badEntry: 'Each entry must be an array of two positive numbers: [[start, end], ...].',
} as const;
