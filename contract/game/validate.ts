import { isBoardSize, MAX_LADDERS, MAX_SNAKES, rowOf } from './board';
import { CONFIG_MESSAGES, type ConfigLabel, type Connection, type ConnectionType } from './connection';
import { SETTINGS_MESSAGES } from './settings';
import { errorText } from '../errorText';

export { CONFIG_MESSAGES, type ConfigLabel } from './connection';

/** A [start, end] pair of square numbers as typed in the board editor. */
export type SquarePair = [number, number];

/** Result of parseConfig. */
export type ParsedConfig = { ok: true; pairs: SquarePair[] } | { ok: false; error: string };

const isPositiveNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/**
 * Parses one box of the manual board editor (docs/game-rules.md §13):
 * `text` must be JSON; an array; each entry an array of exactly two positive numbers. Errors,
 * first failing: 'Invalid JSON format in {label} config: {JSON.parse message}',
 * 'Config must be a JSON array.', 'Each entry must be an array of two positive numbers: [[start, end], ...].'
 * Board rules (range, direction, rows, overlaps) are left to validateBoard. Never throws.
 */
export function parseConfig(text: string, label: ConfigLabel): ParsedConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: CONFIG_MESSAGES.invalidJson(label, errorText(error, String(error))) };
  }
  if (!Array.isArray(value)) return { ok: false, error: CONFIG_MESSAGES.notArray };
  const pairs: SquarePair[] = [];
  for (const entry of value) {
    if (!Array.isArray(entry) || entry.length !== 2 || !isPositiveNumber(entry[0]) || !isPositiveNumber(entry[1])) {
      return { ok: false, error: CONFIG_MESSAGES.badEntry };
    }
    pairs.push([entry[0], entry[1]]);
  }
  return { ok: true, pairs };
}

const NAMES: Record<ConnectionType, string> = { snake: 'Snake', ladder: 'Ladder' };
const describe = (type: ConnectionType, [start, end]: readonly [number, number]) => `${NAMES[type]} [${start}, ${end}]`;

/** Rule messages of validateBoard, naming the offending pair like 'Snake [12, 30]'. */
const BOARD_MESSAGES = {
  wholeNumbers: (pair: string) => `${pair}: squares must be whole numbers.`,
  outOfRange: (pair: string, n: number) => `${pair}: squares must be between 1 and ${n}.`,
  endpoints: (pair: string, n: number) => `${pair} cannot start or end on square 1 or ${n}.`,
  snakeDown: (pair: string) => `${pair} must go down: start must be greater than end.`,
  ladderUp: (pair: string) => `${pair} must go up: start must be less than end.`,
  sameRow: (pair: string) => `${pair}: start and end must be on different rows.`,
  sharedSquare: (square: number, first: string, second: string) =>
    `Square ${square} is used by two connections (${first} and ${second}).`,
} as const;

/**
 * First broken rule of a manual board, or null when valid (docs/server.md
 * §5, the generation rules). Input: board size N in squares and [start, end] pairs.
 * Order: board size in BOARD_SIZES; at most 12 snakes / 12 ladders (documented messages); then per pair,
 * snakes first, then ladders: whole numbers; 1..N ('Snake [0, 120]: squares must be between 1 and 100.');
 * not square 1 or N ('Snake [1, 5] cannot start or end on square 1 or 100.'); direction
 * ('Snake [12, 30] must go down: start must be greater than end.', 'Ladder [5, 5] must go up: ...');
 * different rows ('Ladder [3, 7]: start and end must be on different rows.'); finally no square in
 * two connections ('Square 34 is used by two connections (Snake [80, 34] and Ladder [34, 60]).',
 * earlier pair first). Never throws.
 */
export function validateBoard(
  boardSize: number,
  snakes: readonly (readonly [number, number])[],
  ladders: readonly (readonly [number, number])[],
): string | null {
  const n = boardSize;
  if (!isBoardSize(n)) return SETTINGS_MESSAGES.boardSize;
  if (snakes.length > MAX_SNAKES) return SETTINGS_MESSAGES.snakes;
  if (ladders.length > MAX_LADDERS) return SETTINGS_MESSAGES.ladders;
  const all: [ConnectionType, readonly [number, number]][] = [
    ...snakes.map((p): [ConnectionType, readonly [number, number]] => ['snake', p]),
    ...ladders.map((p): [ConnectionType, readonly [number, number]] => ['ladder', p]),
  ];
  for (const [type, pair] of all) {
    const [start, end] = pair;
    const name = describe(type, pair);
    if (!Number.isInteger(start) || !Number.isInteger(end)) return BOARD_MESSAGES.wholeNumbers(name);
    if (start < 1 || end < 1 || start > n || end > n) return BOARD_MESSAGES.outOfRange(name, n);
    if (start === 1 || end === 1 || start === n || end === n) return BOARD_MESSAGES.endpoints(name, n);
    if (type === 'snake' && !(start > end)) return BOARD_MESSAGES.snakeDown(name);
    if (type === 'ladder' && !(start < end)) return BOARD_MESSAGES.ladderUp(name);
    if (rowOf(start, n) === rowOf(end, n)) return BOARD_MESSAGES.sameRow(name);
  }
  const users = new Map<number, string>();
  for (const [type, pair] of all) {
    const name = describe(type, pair);
    for (const square of pair) {
      const previous = users.get(square);
      if (previous !== undefined) return BOARD_MESSAGES.sharedSquare(square, previous, name);
      users.set(square, name);
    }
  }
  return null;
}

/** Connections from editor pairs: snakes then ladders, in the given order. */
export function connectionsFromConfig(
  snakes: readonly (readonly [number, number])[],
  ladders: readonly (readonly [number, number])[],
): Connection[] {
  return [
    ...snakes.map(([start, end]): Connection => ({ type: 'snake', start, end })),
    ...ladders.map(([start, end]): Connection => ({ type: 'ladder', start, end })),
  ];
}

/** Editor pairs from connections (the PUT .../board payload shape, docs/server.md §3). */
export function configFromConnections(connections: readonly Connection[]): {
  snakes_config: SquarePair[];
  ladders_config: SquarePair[];
} {
  const pairsOf = (type: ConnectionType) =>
    connections.filter((c) => c.type === type).map((c): SquarePair => [c.start, c.end]);
  return { snakes_config: pairsOf('snake'), ladders_config: pairsOf('ladder') };
}
