import { boardSide, squareToCell } from './board';
import { isSpecialDescription, SPECIAL_DESCRIPTIONS, type Connection } from './connection';

/**
 * Pure drawing geometry of the board (docs/client.md §9): the board is a
 * square grid of side ceil(sqrt(N)) cells of CELL user units each; square 1 is bottom left and the
 * numbering runs upward in alternating direction (contract squareToCell). y grows downward.
 */

/** Size of one cell in SVG user units (the viewBox scales it to the screen). */
export const CELL = 100;

/** Rungs of a ladder (docs/client.md §1). */
export const LADDER_RUNGS = 7;

export interface Point {
  x: number;
  y: number;
}

/** Width (= height) of the board in user units. */
export function boardExtent(boardSize: number): number {
  return boardSide(boardSize) * CELL;
}

/** Top-left corner of a square's cell. */
export function cellOrigin(square: number, boardSize: number): Point {
  const side = boardSide(boardSize);
  const { row, col } = squareToCell(square, boardSize);
  return { x: col * CELL, y: (side - 1 - row) * CELL };
}

/** Centre of a square's cell. */
export function cellCenter(square: number, boardSize: number): Point {
  const o = cellOrigin(square, boardSize);
  return { x: o.x + CELL / 2, y: o.y + CELL / 2 };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The wave of a snake from `start` to `end`: its unit normal, number of waves and amplitude. */
function snakeWave(start: Point, end: Point) {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const length = Math.hypot(dx, dy) || 1;
  return { dx, dy, nx: -dy / length, ny: dx / length, waves: Math.max(2, Math.round(length / (CELL * 1.1))), amplitude: CELL / 5 };
}

/**
 * The point of the snake body from `start` (head) to `end` (tail) at `t` (0 at the head, 1 at the
 * tail), on the same curve snakePath draws: where a sliding pawn is drawn.
 */
export function snakePointAt(start: Point, end: Point, t: number): Point {
  const w = snakeWave(start, end);
  const taper = 1 - t * 0.6;
  const off = Math.sin(t * w.waves * 2 * Math.PI) * w.amplitude * taper * Math.min(1, t * 6);
  return { x: round(start.x + w.dx * t + w.nx * off), y: round(start.y + w.dy * t + w.ny * off) };
}

/**
 * A sinuous snake body from the head (centre of `start`, where a team lands) to the tail (centre
 * of `end`): a sine wave of amplitude CELL/5 around the straight line, about one wave per cell of
 * length (at least two), tapering to nothing at the tail. Returns an SVG path `d`.
 */
export function snakePath(start: Point, end: Point): string {
  const steps = snakeWave(start, end).waves * 12;
  const points: string[] = [];
  for (let i = 0; i <= steps; i += 1) {
    const p = snakePointAt(start, end, i / steps);
    points.push(`${p.x} ${p.y}`);
  }
  return `M ${points.join(' L ')}`;
}

/** Direction of the snake's head: the angle in degrees of the line from `end` toward `start`. */
export function headAngle(start: Point, end: Point): number {
  return (Math.atan2(start.y - end.y, start.x - end.x) * 180) / Math.PI;
}

/** A ladder between two centres: its two rails and LADDER_RUNGS evenly spaced rungs. */
export function ladderLines(start: Point, end: Point): { rails: [Point, Point][]; rungs: [Point, Point][] } {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const length = Math.hypot(dx, dy) || 1;
  const half = CELL * 0.16;
  const nx = (-dy / length) * half;
  const ny = (dx / length) * half;
  const p = (t: number, side: 1 | -1): Point => ({ x: round(start.x + dx * t + side * nx), y: round(start.y + dy * t + side * ny) });
  const rails: [Point, Point][] = [
    [p(0, 1), p(1, 1)],
    [p(0, -1), p(1, -1)],
  ];
  const rungs: [Point, Point][] = [];
  for (let i = 1; i <= LADDER_RUNGS; i += 1) {
    const t = i / (LADDER_RUNGS + 1);
    rungs.push([p(t, 1), p(t, -1)]);
  }
  return { rails, rungs };
}

/**
 * The two bands of a cell, from its top in user units: labels (the number, hanging from
 * NUMBER_TOP at the left, and START/FINISH on MARK_BASELINE) above PAWN_BAND_TOP, pawns below it,
 * so a pawn never covers the number or the mark of its square (nor of any other: pawns stay in
 * their cell).
 */
export const NUMBER_TOP = 7;
/** Baseline of the START/FINISH mark (see NUMBER_TOP). */
export const MARK_BASELINE = CELL * 0.47;
/** Top of the pawn band (see NUMBER_TOP). */
export const PAWN_BAND_TOP = CELL * 0.52;
/** Bottom of the pawn band, from the cell's top. */
const PAWN_BAND_BOTTOM = CELL * 0.96;
/** Width of the pawn band, centred in the cell. */
const PAWN_BAND_WIDTH = CELL * 0.92;
/** Largest pawn radius (a lone pawn). */
const PAWN_MAX_RADIUS = CELL * 0.2;

/** Rows and pawns per row when `count` pawns share a square: side by side, up to 3 rows. */
function pawnGrid(count: number): { rows: number; perRow: number } {
  const rows = count <= 4 ? 1 : count <= 10 ? 2 : 3;
  return { rows, perRow: Math.ceil(Math.max(1, count) / rows) };
}

/**
 * Offsets from the cell centre of `count` pawns sharing one square: side by side in the pawn band
 * (the lower part of the cell, below the number and START/FINISH), one row for up to 4, two up to
 * 10, then three; rows are centred and none hides another.
 */
export function pawnOffsets(count: number): Point[] {
  const { rows, perRow } = pawnGrid(count);
  const slotWidth = PAWN_BAND_WIDTH / perRow;
  const slotHeight = (PAWN_BAND_BOTTOM - PAWN_BAND_TOP) / rows;
  const out: Point[] = [];
  for (let i = 0; i < Math.max(1, count); i += 1) {
    const r = Math.floor(i / perRow);
    const inRow = Math.min(perRow, Math.max(1, count) - r * perRow);
    const c = i % perRow;
    out.push({ x: round((c - (inRow - 1) / 2) * slotWidth), y: round(PAWN_BAND_TOP + (r + 0.5) * slotHeight - CELL / 2) });
  }
  return out;
}

/** Radius of a pawn when `count` pawns share a square: as large as its slot in the pawn band allows, with a gap. */
export function pawnRadius(count: number): number {
  const { rows, perRow } = pawnGrid(count);
  const slot = Math.min(PAWN_BAND_WIDTH / perRow, (PAWN_BAND_BOTTOM - PAWN_BAND_TOP) / rows) / 2;
  return round(Math.min(PAWN_MAX_RADIUS, slot) * 0.9);
}

/**
 * Task text cut to at most `lines` lines of about `width` characters, breaking at spaces (a word
 * longer than a line is cut); the last line ends in '…' when text was left out.
 */
export function wrapLabel(text: string, width: number, lines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let current = '';
  let truncated = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i].length > width ? words[i].slice(0, width - 1) + '…' : words[i];
    const candidate = current ? `${current} ${word}` : word;
    if (candidate.length <= width) {
      current = candidate;
      continue;
    }
    out.push(current);
    current = word;
    if (out.length === lines) {
      truncated = true;
      current = '';
      break;
    }
  }
  if (current) {
    if (out.length < lines) out.push(current);
    else truncated = true;
  }
  if (truncated && out.length > 0) {
    const last = out[out.length - 1];
    out[out.length - 1] = (last.length >= width ? last.slice(0, width - 1) : last).replace(/…$/, '') + '…';
  }
  return out;
}

/** The connection starting on `square`, if any. */
function connectionFrom(connections: readonly Connection[], square: number): Connection | undefined {
  return connections.find((c) => c.start === square);
}

/** True when a connection can be drawn on this board (whole squares 1..N, start ≠ end). */
export function isDrawable(c: Connection, boardSize: number): boolean {
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= boardSize;
  return ok(c.start) && ok(c.end) && c.start !== c.end;
}

/** The info box text before any square is chosen (docs/client.md §9). */
export const BOARD_INFO_DEFAULT = 'Click a square to see its task or challenge.';

/**
 * The info box text of a square (docs/client.md §1): 'Snake starts here, leading to square N'
 * or 'Ladder starts here, leading to square N' when a connection starts there; else the square's
 * task description; else (Start, Finish, no task) 'Square N.'
 */
export function squareInfoText(
  square: number,
  connections: readonly Connection[],
  description: string | null | undefined,
): string {
  const c = connectionFrom(connections, square);
  if (c) return `${c.type === 'snake' ? 'Snake' : 'Ladder'} starts here, leading to square ${c.end}`;
  if (description && !isSpecialDescription(description)) return description;
  return `Square ${square}.`;
}

/** What a square of the board is drawn as (docs/client.md §9). */
export type SquareKind = 'start' | 'finish' | 'snake' | 'ladder' | 'task' | 'blank';

/**
 * The kind of `square` on a board of `boardSize` squares: 1 is start, the last finish, a
 * connection's start square its type (`starts` by start square), a square holding a snake's or
 * ladder's placeholder text blank, any other a task. Shared by the client's board and the server's
 * first drawing (server/http/firstDrawing.ts).
 */
export function squareKindOf(square: number, boardSize: number, description: string | undefined, starts: Map<number, Connection>): SquareKind {
  if (square === 1) return 'start';
  if (square === boardSize) return 'finish';
  const c = starts.get(square);
  if (c) return c.type;
  if (description === SPECIAL_DESCRIPTIONS.snake || description === SPECIAL_DESCRIPTIONS.ladder) return 'blank';
  return 'task';
}

/** A team colour as a pawn shows it: `color` when it is #rrggbb, else the display fallback #cccccc (docs/game-rules.md §12). */
export function pawnColor(color: string): string {
  return /^#[0-9a-fA-F]{6}$/.test(color) ? color : '#cccccc';
}
