/** Allowed board sizes in squares: the perfect squares 5x5 ... 15x15 (docs/game-rules.md §13; docs/client.md §12). */
export const BOARD_SIZES = [25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225] as const;

/** One allowed board size. */
export type BoardSize = (typeof BOARD_SIZES)[number];

/** Setting limits (docs/game-rules.md §4; docs/client.md §12). */
export const MAX_SNAKES = 12;
export const MAX_LADDERS = 12;
export const MAX_REVERTS = 10;

/** Type guard: true when `n` is one of BOARD_SIZES. */
export function isBoardSize(n: unknown): n is BoardSize {
  return typeof n === 'number' && (BOARD_SIZES as readonly number[]).includes(n);
}

/** A grid cell: row 0 is the bottom row, col 0 the left column. */
export interface Cell {
  row: number;
  col: number;
}

function checkBoardSize(boardSize: number): void {
  if (!Number.isInteger(boardSize) || boardSize < 1) {
    throw new RangeError(`Board size must be a positive integer, got ${boardSize}.`);
  }
}

function checkSquare(square: number, boardSize: number): void {
  checkBoardSize(boardSize);
  if (!Number.isInteger(square) || square < 1 || square > boardSize) {
    throw new RangeError(`Square ${square} is not on a board of ${boardSize} squares.`);
  }
}

/**
 * Side of the square grid in cells: ceil(sqrt(N)) (docs/client.md §9,
 * §12). Throws RangeError unless N is a positive integer.
 */
export function boardSide(boardSize: number): number {
  checkBoardSize(boardSize);
  return Math.ceil(Math.sqrt(boardSize));
}

/**
 * Row of a square, 0 = bottom row (the row of square 1), counting up; each row holds
 * boardSide(N) squares. Throws RangeError unless 1 <= square <= N (integers).
 */
export function rowOf(square: number, boardSize: number): number {
  checkSquare(square, boardSize);
  return Math.floor((square - 1) / boardSide(boardSize));
}

/**
 * Cell of a square (docs/client.md §9): numbering starts in the bottom
 * row (row 0) going left to right, the next row goes right to left, alternating upward.
 * Square 1 is {row 0, col 0}. Throws RangeError unless 1 <= square <= N (integers).
 */
export function squareToCell(square: number, boardSize: number): Cell {
  checkSquare(square, boardSize);
  const side = boardSide(boardSize);
  const index = square - 1;
  const row = Math.floor(index / side);
  const offset = index % side;
  return { row, col: row % 2 === 0 ? offset : side - 1 - offset };
}

/**
 * Inverse of squareToCell: the square shown in cell (row, col), or null when the cell is outside
 * the grid or its number would exceed N (a non-square N leaves the top row partly empty).
 * Throws RangeError unless N is a positive integer.
 */
export function cellToSquare(row: number, col: number, boardSize: number): number | null {
  const side = boardSide(boardSize);
  if (!Number.isInteger(row) || !Number.isInteger(col)) return null;
  if (row < 0 || row >= side || col < 0 || col >= side) return null;
  const offset = row % 2 === 0 ? col : side - 1 - col;
  const square = row * side + offset + 1;
  return square <= boardSize ? square : null;
}

/** Label of a board size for the settings form: 25 → '25 (5x5)' (docs/game-rules.md §13). */
export function boardSizeLabel(boardSize: number): string {
  const side = boardSide(boardSize);
  return `${boardSize} (${side}x${side})`;
}

/**
 * Most connections (snakes + ladders together) a board of N squares can hold under the generation
 * rules (docs/server.md §5): each uses two distinct squares from 2..N-1 lying on
 * different rows. With T = N-2 usable squares and m = the most usable squares in one row this is
 * min(floor(T/2), T-m) (a maximum matching in a complete multipartite graph); for every size in
 * BOARD_SIZES it equals floor((N-2)/2), e.g. 11 for 25, 17 for 36, 23 for 49.
 * Throws RangeError unless N is a positive integer.
 */
export function maxConnections(boardSize: number): number {
  const rows = usableRowCounts(boardSize);
  const total = rows.reduce((a, b) => a + b, 0);
  const largest = rows.reduce((a, b) => Math.max(a, b), 0);
  return Math.min(Math.floor(total / 2), total - largest);
}

/** Number of squares from 2..N-1 in each row (index = row). */
function usableRowCounts(boardSize: number): number[] {
  const side = boardSide(boardSize);
  const counts: number[] = new Array(side).fill(0);
  for (let square = 2; square <= boardSize - 1; square += 1) {
    counts[Math.floor((square - 1) / side)] += 1;
  }
  return counts;
}
