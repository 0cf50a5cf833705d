import { boardSide, squareToCell, type Cell } from './board';
import { pick, shuffle, type Rng } from './random';

/**
 * The shape rules of generated boards, on top of
 * the documented rules (docs/server.md §5, which manual boards keep as they are):
 * - hard, always met on every board size of BOARD_SIZES and every count validateSettings allows:
 *   each connection spans at least a row and at most a third of the board (connectionSpan), and no
 *   square is used twice, so no snake ends where a ladder starts (nor a ladder where a snake does);
 * - tidy, met whenever the random draw finds such a board (sparse and default boards nearly always):
 *   at most rowLoadLimit endpoints per row, none going more than one column further sideways than
 *   it goes rows up or down, and connections drawn from cell centre to cell centre keep TIDY_GAP cells apart
 *   from each other and from the centres of Start and Finish (so they never cross).
 */

/** A pair of distinct squares joined by one snake or ladder, in no particular order. */
export type SquarePairing = [number, number];

/** Bounds of |start - end| in squares for a generated connection. */
export interface SpanBounds {
  min: number;
  max: number;
}

/**
 * How far a generated snake or ladder reaches, |start - end| in squares: at least boardSide(N)
 * (a whole row, so start and end always lie on different rows) and at most floor(N / 3) (a third
 * of the board). 100 squares: 10..33; 25 squares: 5..8. Null when the bounds cross (N < 9, 10
 * and 11; never a size of BOARD_SIZES). Throws RangeError unless N is a positive integer.
 */
export function connectionSpan(boardSize: number): SpanBounds | null {
  const min = boardSide(boardSize);
  const max = Math.floor(boardSize / 3);
  return min <= max ? { min, max } : null;
}

/**
 * Most endpoints (starts and ends) of `connections` snakes and ladders that a tidy board puts on
 * one row: an even share of the rows plus one, at least 2. 100 squares with 10 connections: 3.
 */
export function rowLoadLimit(boardSize: number, connections: number): number {
  return Math.max(2, Math.ceil((2 * connections) / boardSide(boardSize)) + 1);
}

/** Least distance, in cells, between two tidy connections drawn from cell centre to cell centre. */
const TIDY_GAP = 0.6;

/** Random draws of a whole tidy board before dropping the tidy rules. */
const TIDY_ATTEMPTS = 6;
/** Random draws of a whole board with the hard rules only before laying it in blocks. */
const PLAIN_ATTEMPTS = 4;
/** Random first squares tried per connection of a tidy draw. */
const TIDY_TRIES = 12;

type Point = { x: number; y: number };

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** Distance from point p to the segment ab (a point when a = b). */
function pointToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  const ex = p.x - (a.x + t * dx);
  const ey = p.y - (a.y + t * dy);
  return Math.sqrt(ex * ex + ey * ey);
}

/**
 * Least distance between the segments p1p2 and q1q2 (either may be a point): 0 when they cross or
 * touch. Used by the tidy rule and by its tests.
 */
export function segmentDistance(p1: Point, p2: Point, q1: Point, q2: Point): number {
  const d1 = cross(q1, q2, p1);
  const d2 = cross(q1, q2, p2);
  const d3 = cross(p1, p2, q1);
  const d4 = cross(p1, p2, q2);
  if (d1 * d2 < 0 && d3 * d4 < 0) return 0;
  return Math.min(pointToSegment(p1, q1, q2), pointToSegment(p2, q1, q2), pointToSegment(q1, p1, p2), pointToSegment(q2, p1, p2));
}

/** Cell of a square as a point: x = column, y = row (in cells). */
const pointOf = (cell: Cell): Point => ({ x: cell.col, y: cell.row });

/**
 * Cheap tidy rules of the connection a-b: the rows of a and b hold fewer than `limit` endpoints in
 * `load`, and it goes at most one column more sideways than rows up or down.
 */
function fitsRows(a: Cell, b: Cell, load: readonly number[], limit: number): boolean {
  return load[a.row] < limit && load[b.row] < limit && Math.abs(a.col - b.col) <= Math.abs(a.row - b.row) + 1;
}

/** True when the line a-b keeps TIDY_GAP cells from every line (or point) in `drawn`. */
function keepsApart(a: Cell, b: Cell, drawn: readonly [Point, Point][]): boolean {
  const p = pointOf(a);
  const q = pointOf(b);
  const [left, right] = [Math.min(p.x, q.x) - TIDY_GAP, Math.max(p.x, q.x) + TIDY_GAP];
  const [low, high] = [Math.min(p.y, q.y) - TIDY_GAP, Math.max(p.y, q.y) + TIDY_GAP];
  return drawn.every(([r, s]) => {
    // Lines whose boxes lie TIDY_GAP apart are far enough without measuring.
    if (Math.max(r.x, s.x) < left || Math.min(r.x, s.x) > right || Math.max(r.y, s.y) < low || Math.min(r.y, s.y) > high) return true;
    return segmentDistance(p, q, r, s) >= TIDY_GAP;
  });
}

/** Swaps a random element of items[i..] into items[i] and returns it (one step of Fisher-Yates). */
function drawAt<T>(items: T[], i: number, rng: Rng): T {
  const j = rng.int(i, items.length - 1);
  const chosen = items[j];
  items[j] = items[i];
  items[i] = chosen;
  return chosen;
}

/**
 * One random draw of `count` pairs of squares within `span` (squares 2..N-1, none used twice), or
 * null when the draw got stuck. Tidy: each pair starts from a random free square (up to TIDY_TRIES
 * of them) and takes a random partner that keeps the tidy rules. Plain: the free square with the
 * fewest free partners goes first and takes the partner with the fewest (a greedy matching that
 * fills dense boards).
 */
function drawPairs(boardSize: number, count: number, span: SpanBounds, rng: Rng, tidy: boolean): SquarePairing[] | null {
  const n = boardSize;
  const cells: Cell[] = [];
  for (let square = 1; square <= n; square += 1) cells[square] = squareToCell(square, n);
  const free = new Set<number>();
  for (let square = 2; square <= n - 1; square += 1) free.add(square);
  const load: number[] = new Array(boardSide(n)).fill(0);
  const limit = rowLoadLimit(n, count);
  const drawn: [Point, Point][] = [
    [pointOf(cells[1]), pointOf(cells[1])],
    [pointOf(cells[n]), pointOf(cells[n])],
  ];
  /** Free squares within span of a (keeping the cheap tidy rules when tidy). */
  const partnersOf = (a: number): number[] => {
    const out: number[] = [];
    for (let b = Math.max(2, a - span.max); b <= Math.min(n - 1, a + span.max); b += 1) {
      if (Math.abs(b - a) < span.min || !free.has(b)) continue;
      if (tidy && !fitsRows(cells[a], cells[b], load, limit)) continue;
      out.push(b);
    }
    return out;
  };
  /** Plain draws: free partners of every free square, kept up to date as squares are taken. */
  const degree = new Map<number, number>();
  if (!tidy) for (const square of free) degree.set(square, partnersOf(square).length);
  const pairs: SquarePairing[] = [];
  while (pairs.length < count) {
    let chosen: SquarePairing | null = null;
    if (tidy) {
      const order = [...free];
      for (let i = 0; i < order.length && i < TIDY_TRIES && chosen === null; i += 1) {
        const a = drawAt(order, i, rng);
        const partners = partnersOf(a);
        for (let k = 0; k < partners.length && chosen === null; k += 1) {
          const b = drawAt(partners, k, rng);
          if (keepsApart(cells[a], cells[b], drawn)) chosen = [a, b];
        }
      }
    } else {
      const open = [...free].filter((square) => degree.get(square)! > 0);
      if (open.length > 0) {
        const fewest = Math.min(...open.map((square) => degree.get(square)!));
        const a = pick(open.filter((square) => degree.get(square) === fewest), rng);
        const partners = partnersOf(a);
        const least = Math.min(...partners.map((b) => degree.get(b)!));
        chosen = [a, pick(partners.filter((b) => degree.get(b) === least), rng)];
      }
    }
    if (chosen === null) return null;
    const [a, b] = chosen;
    free.delete(a);
    free.delete(b);
    if (!tidy) {
      for (const square of [...partnersOf(a), ...partnersOf(b)]) degree.set(square, degree.get(square)! - 1);
    }
    load[cells[a].row] += 1;
    load[cells[b].row] += 1;
    drawn.push([pointOf(cells[a]), pointOf(cells[b])]);
    pairs.push(chosen);
  }
  return pairs;
}

/**
 * `count` pairs of squares within `span` laid in blocks along squares 2..N-1 (the fallback that
 * always fits): a block of 2c consecutive squares (span.min <= c <= span.max) pairs each of its
 * first c squares with the square c further on; the fewest blocks that hold `count` pairs, random
 * block sizes, random gaps between blocks, then `count` of the pairs at random. Null only when
 * the blocks do not fit in N-2 squares, which never happens for a size of BOARD_SIZES and a count
 * up to maxConnections (the tests check every one).
 */
export function blockPairs(boardSize: number, count: number, span: SpanBounds, rng: Rng): SquarePairing[] | null {
  if (count === 0) return [];
  const usable = boardSize - 2;
  const blocks = Math.ceil(count / span.max);
  const half = Math.max(count, blocks * span.min);
  if (2 * half > usable) return null;
  const sizes: number[] = new Array(blocks).fill(span.min);
  for (let extra = half - blocks * span.min; extra > 0; extra -= 1) {
    const growable = sizes.flatMap((size, i) => (size < span.max ? [i] : []));
    sizes[pick(growable, rng)] += 1;
  }
  const gaps: number[] = new Array(blocks + 1).fill(0);
  for (let slack = usable - 2 * half; slack > 0; slack -= 1) gaps[rng.int(0, blocks)] += 1;
  const pairs: SquarePairing[] = [];
  let at = 2 + gaps[0];
  sizes.forEach((size, i) => {
    for (let j = 0; j < size; j += 1) pairs.push([at + j, at + size + j]);
    at += 2 * size + gaps[i + 1];
  });
  return shuffle(pairs, rng).slice(0, count);
}

/**
 * `count` pairs of squares for the snakes and ladders of a board of N squares, keeping the hard
 * shape rules (connectionSpan, no square twice, squares 2..N-1) and, whenever a random draw finds
 * one, the tidy rules: TIDY_ATTEMPTS tidy draws, then PLAIN_ATTEMPTS draws with the hard rules only,
 * then blockPairs. Null when the span rules cannot hold (connectionSpan null or the blocks do not
 * fit): the caller then keeps only the documented rules. Never null for BOARD_SIZES and counts up to
 * maxConnections.
 */
export function shapedPairs(boardSize: number, count: number, rng: Rng): SquarePairing[] | null {
  const span = connectionSpan(boardSize);
  if (span === null) return null;
  for (let attempt = 0; attempt < TIDY_ATTEMPTS; attempt += 1) {
    const pairs = drawPairs(boardSize, count, span, rng, true);
    if (pairs !== null) return pairs;
  }
  for (let attempt = 0; attempt < PLAIN_ATTEMPTS; attempt += 1) {
    const pairs = drawPairs(boardSize, count, span, rng, false);
    if (pairs !== null) return pairs;
  }
  return blockPairs(boardSize, count, span, rng);
}
