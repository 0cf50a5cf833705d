import { BOARD_SIZES, type Connection, type Rng } from '../../../contract/game';

/** Row of a square computed independently of contract/game (N is a perfect square here). */
export function rowIndependent(square: number, n: number): number {
  return Math.floor((square - 1) / Math.round(Math.sqrt(n)));
}

/** Every generation rule of docs/server.md §5, checked without the code under test. */
export function generationViolations(n: number, snakes: number, ladders: number, connections: Connection[]): string[] {
  const problems: string[] = [];
  if (connections.filter((c) => c.type === 'snake').length !== snakes) problems.push('snake count');
  if (connections.filter((c) => c.type === 'ladder').length !== ladders) problems.push('ladder count');
  const used = new Set<number>();
  for (const c of connections) {
    for (const sq of [c.start, c.end]) {
      if (!Number.isInteger(sq) || sq < 2 || sq > n - 1) problems.push(`square ${sq} outside 2..N-1`);
      if (used.has(sq)) problems.push(`square ${sq} used twice`);
      used.add(sq);
    }
    if (c.type === 'snake' && !(c.start > c.end)) problems.push(`snake ${c.start}->${c.end} not down`);
    if (c.type === 'ladder' && !(c.start < c.end)) problems.push(`ladder ${c.start}->${c.end} not up`);
    if (rowIndependent(c.start, n) === rowIndependent(c.end, n)) problems.push(`${c.start}->${c.end} same row`);
  }
  return problems;
}

/**
 * The shape rules of a generated board (contract/game/boardShape.ts), checked without the code under test: every
 * connection spans at least a row (sqrt(N) squares) and at most a third of the board (N/3), and no
 * snake ends where a ladder starts or a ladder ends where a snake starts.
 */
export function shapeViolations(n: number, connections: Connection[]): string[] {
  const problems: string[] = [];
  const row = Math.round(Math.sqrt(n));
  for (const c of connections) {
    const span = Math.abs(c.start - c.end);
    if (span < row) problems.push(`${c.type} ${c.start}->${c.end} shorter than a row (${row})`);
    if (3 * span > n) problems.push(`${c.type} ${c.start}->${c.end} longer than a third of ${n}`);
  }
  const starts = (type: Connection['type']) => new Set(connections.filter((c) => c.type === type).map((c) => c.start));
  const ladderStarts = starts('ladder');
  const snakeStarts = starts('snake');
  for (const c of connections) {
    if (c.type === 'snake' && ladderStarts.has(c.end)) problems.push(`snake ${c.start}->${c.end} ends on a ladder`);
    if (c.type === 'ladder' && snakeStarts.has(c.end)) problems.push(`ladder ${c.start}->${c.end} ends on a snake`);
  }
  return problems;
}

/** Degenerate generators that force the deterministic fallback of generateConnections. */
export const DEGENERATE_RNGS: Record<string, () => Rng> = {
  alwaysMin: () => ({ int: (min) => min }),
  alwaysMax: () => ({ int: (_min, max) => max }),
  alternating: () => {
    let flip = false;
    return { int: (min, max) => ((flip = !flip) ? min : max) };
  },
};

const SIZES: readonly number[] = BOARD_SIZES;
