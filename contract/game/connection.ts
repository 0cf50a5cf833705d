import * as v from 'valibot';

/*
 * The drawn board's own shapes (docs/game-rules.md §12): a snake or ladder and the fixed squares'
 * descriptions. They live apart from board generation (./generate.ts, which re-exports them) so
 * that the public game's schema (contract/gameApi.ts) and the board's drawing import them without
 * the generator, its board shaping and its random numbers.
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
