import type { BoardBody } from '../gameApi';
import { configFromConnections, parseConfig, validateBoard, type SquarePair } from './validate';
import type { Connection } from './generate';

/** The manual board editor (docs/game-rules.md §13): pure helpers over its two boxes. */

/** Pairs as editor text: one [start, end] per line inside a JSON array ('[]' when empty). */
export function formatPairs(pairs: readonly SquarePair[]): string {
  if (pairs.length === 0) return '[]';
  return `[\n${pairs.map(([a, b]) => `  [${a}, ${b}]`).join(',\n')}\n]`;
}

/** The editor texts of a game's connections. */
export function boardTextsOf(connections: readonly Connection[]): { snakesText: string; laddersText: string } {
  const config = configFromConnections(connections);
  return { snakesText: formatPairs(config.snakes_config), laddersText: formatPairs(config.ladders_config) };
}

/** Result of checkBoardTexts: the body to send, or the first error (documented text or rule message). */
export type BoardCheck = { ok: true; body: BoardBody } | { ok: false; error: string };

/**
 * Checks the two editor boxes before sending (docs/game-rules.md §13): parseConfig of Snakes,
 * then of Ladders ('Invalid JSON format in Snakes config: ...', 'Config must be a JSON array.',
 * 'Each entry must be an array of two positive numbers: [[start, end], ...].'), then the board
 * rules of validateBoard for a board of `boardSize` squares.
 */
export function checkBoardTexts(boardSize: number, snakesText: string, laddersText: string): BoardCheck {
  const snakes = parseConfig(snakesText, 'Snakes');
  if (!snakes.ok) return { ok: false, error: snakes.error };
  const ladders = parseConfig(laddersText, 'Ladders');
  if (!ladders.ok) return { ok: false, error: ladders.error };
  const error = validateBoard(boardSize, snakes.pairs, ladders.pairs);
  if (error !== null) return { ok: false, error };
  return { ok: true, body: { snakes_config: snakes.pairs, ladders_config: ladders.pairs } };
}

/**
 * Connections to preview while editing: the parsed pairs of both boxes that lie on the board
 * (whole squares 1..N, start ≠ end), or null while either box does not parse.
 */
export function previewConnections(boardSize: number, snakesText: string, laddersText: string): Connection[] | null {
  const snakes = parseConfig(snakesText, 'Snakes');
  const ladders = parseConfig(laddersText, 'Ladders');
  if (!snakes.ok || !ladders.ok) return null;
  const onBoard = (n: number) => Number.isInteger(n) && n >= 1 && n <= boardSize;
  const keep = ([a, b]: SquarePair) => onBoard(a) && onBoard(b) && a !== b;
  return [
    ...snakes.pairs.filter(keep).map(([start, end]): Connection => ({ type: 'snake', start, end })),
    ...ladders.pairs.filter(keep).map(([start, end]): Connection => ({ type: 'ladder', start, end })),
  ];
}

/** True when the editor boxes still show `connections` as the view filled them (no unsaved edits). */
export function boardTextsUnchanged(connections: readonly Connection[], snakesText: string, laddersText: string): boolean {
  const texts = boardTextsOf(connections);
  return texts.snakesText === snakesText && texts.laddersText === laddersText;
}
