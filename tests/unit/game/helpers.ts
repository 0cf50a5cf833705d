import { BOARD_SIZES, type Connection, type Rng } from '../../../contract/game';

/** Row of a square computed independently of contract/game (N is a perfect square here). */
export function rowIndependent(square: number, n: number): number {
  return Math.floor((square - 1) / Math.round(Math.sqrt(n)));
}

/** Every generation rule of server-contract.md section 4, checked without the code under test. */
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
