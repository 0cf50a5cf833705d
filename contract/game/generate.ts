import { boardSide, maxConnections } from './board';
import { SETTINGS_MESSAGES, type GameSettings } from './settings';
import { TIERS, type Tier } from './tiers';
import { TIER_COUNT_KEYS, totalTasks, type TierCounts } from './split';
import { shuffle, type Rng } from './random';
import { shapedPairs, type SquarePairing } from './boardShape';
import { SPECIAL_DESCRIPTIONS, UNASSIGNED_DESCRIPTION, type Connection, type ConnectionType } from './connection';

export { ConnectionSchema, isSpecialDescription, SPECIAL_DESCRIPTIONS, UNASSIGNED_DESCRIPTION, type Connection, type ConnectionType } from './connection';

/** What a board square is: fixed Start/Finish, the start of a snake or ladder, or a task square. */
type SquareKind = 'start' | 'finish' | 'snake' | 'ladder' | 'task';

/** Label for a task square with no task (docs/client.md §7). */
const UNASSIGNED_LABEL = 'Unassigned';

/**
 * Random snakes and ladders for a board (docs/server.md §5).
 * Input: board_size N (squares), num_snakes, num_ladders (non-negative integers).
 * Output: num_snakes snakes (start > end) followed by num_ladders ladders (start < end), such that
 * no connection starts or ends on square 1 or N, no square is used twice (as start or end, so no
 * snake ends where a ladder starts), and start and end of each connection are on different rows.
 * The squares come from shapedPairs (boardShape.ts): every connection spans at least a row and at
 * most a third of the board, and the board is tidy (spread over the rows, nothing crossing) when a
 * random draw finds it so; on a board where the span rule cannot hold (never a size of BOARD_SIZES)
 * spreadOverRows keeps the documented rules alone. So it always succeeds when
 * num_snakes + num_ladders <= maxConnections(N), i.e. whenever validateSettings returns null.
 * Throws RangeError for negative or fractional counts, a board size < 1, or more connections than fit.
 */
export function generateConnections(
  settings: Pick<GameSettings, 'board_size' | 'num_snakes' | 'num_ladders'>,
  rng: Rng,
): Connection[] {
  const { board_size: n, num_snakes: snakes, num_ladders: ladders } = settings;
  for (const count of [snakes, ladders]) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`Invalid connection count ${count}.`);
  }
  const wanted = snakes + ladders;
  if (wanted > maxConnections(n)) {
    throw new RangeError(SETTINGS_MESSAGES.tooManyConnections(n, snakes, ladders));
  }
  const pairs = shapedPairs(n, wanted, rng) ?? spreadOverRows(n, wanted, rng);
  const types = shuffle(
    [...Array<ConnectionType>(snakes).fill('snake'), ...Array<ConnectionType>(ladders).fill('ladder')],
    rng,
  );
  const connections: Connection[] = pairs.map(([x, y], i) => {
    const high = Math.max(x, y);
    const low = Math.min(x, y);
    return types[i] === 'snake' ? { type: 'snake', start: high, end: low } : { type: 'ladder', start: low, end: high };
  });
  return [...connections.filter((c) => c.type === 'snake'), ...connections.filter((c) => c.type === 'ladder')];
}

/** Attempts at a uniformly random pair before the deterministic choice (per connection). */
const RANDOM_ATTEMPTS = 8;

/**
 * `wanted` pairs of squares of 2..N-1 under the documented rules alone (each pair on two rows, no
 * square twice), for boards where the shape rules cannot hold. Each pair is drawn at random,
 * retried up to RANDOM_ATTEMPTS times when taking it would leave too few usable squares for the
 * remaining pairs; then one square is taken from each of the two fullest rows, which always keeps
 * the rest feasible, so it succeeds in O(k*N) whenever wanted <= maxConnections(N).
 */
function spreadOverRows(n: number, wanted: number, rng: Rng): SquarePairing[] {
  const side = boardSide(n);
  const rows: number[][] = Array.from({ length: side }, () => []);
  for (let square = 2; square <= n - 1; square += 1) rows[Math.floor((square - 1) / side)].push(square);
  let total = n - 2;

  /** Would `pairsLeft` pairs still fit after taking one square from rows ra and rb? */
  const fitsAfter = (ra: number, rb: number, pairsLeft: number): boolean => {
    const left = total - 2;
    let largest = 0;
    for (let r = 0; r < side; r += 1) {
      largest = Math.max(largest, rows[r].length - (r === ra ? 1 : 0) - (r === rb ? 1 : 0));
    }
    return pairsLeft <= Math.min(Math.floor(left / 2), left - largest);
  };
  /** Row holding the index-th usable square (indices over all rows except `skip`). */
  const locate = (index: number, skip: number): [number, number] => {
    let i = index;
    for (let r = 0; r < side; r += 1) {
      if (r === skip) continue;
      if (i < rows[r].length) return [r, i];
      i -= rows[r].length;
    }
    throw new Error('unreachable: index beyond usable squares');
  };
  const take = (row: number, index: number): number => {
    const list = rows[row];
    const square = list[index];
    list[index] = list[list.length - 1];
    list.pop();
    total -= 1;
    return square;
  };

  const pairs: SquarePairing[] = [];
  for (let placed = 0; placed < wanted; placed += 1) {
    const pairsLeftAfter = wanted - placed - 1;
    let chosen: [[number, number], [number, number]] | null = null;
    for (let attempt = 0; attempt < RANDOM_ATTEMPTS && chosen === null; attempt += 1) {
      const a = locate(rng.int(0, total - 1), -1);
      const others = total - rows[a[0]].length;
      if (others === 0) continue;
      const b = locate(rng.int(0, others - 1), a[0]);
      if (fitsAfter(a[0], b[0], pairsLeftAfter)) chosen = [a, b];
    }
    if (chosen === null) {
      // Deterministic step: the two fullest rows (ties to the lower row), a random square of each.
      const order = rows.map((_, r) => r).sort((x, y) => rows[y].length - rows[x].length || x - y);
      const [ra, rb] = order;
      chosen = [
        [ra, rng.int(0, rows[ra].length - 1)],
        [rb, rng.int(0, rows[rb].length - 1)],
      ];
    }
    const [[ra, ia], [rb, ib]] = chosen;
    const first = take(ra, ia);
    // Taking `first` may have moved the last square of row ra into slot ia; rb differs from ra.
    const second = take(rb, ib);
    pairs.push([first, second]);
  }

  return pairs;
}

/** One board square before tasks are assigned: square_index 1..N, its tier (or null) and kind. */
export interface LaidSquare {
  square_index: number;
  task_difficulty: Tier | null;
  kind: SquareKind;
}

/**
 * Layout of the N squares (docs/server.md §5): square 1 'start', square N 'finish';
 * the tiers are laid along squares 2..N-1 in the order EASY, MEDIUM, HARD, ELITE, MASTER using
 * `counts` (squares 2..1+easy are EASY, then MEDIUM, ...); then every square that starts a
 * connection becomes kind 'snake'/'ladder' with task_difficulty null. Returns N entries in square
 * order. Throws RangeError when the counts are not non-negative integers summing to N-2, or a
 * connection starts outside 2..N-1.
 */
export function layoutSquares(input: {
  board_size: number;
  counts: TierCounts;
  connections: readonly Connection[];
}): LaidSquare[] {
  const { board_size: n, counts, connections } = input;
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`Invalid board size ${n}.`);
  for (const tier of TIERS) {
    const c = counts[TIER_COUNT_KEYS[tier]];
    if (!Number.isInteger(c) || c < 0) throw new RangeError(`Invalid ${tier} task count ${c}.`);
  }
  if (totalTasks(counts) !== n - 2) {
    throw new RangeError(`Task counts sum to ${totalTasks(counts)}, expected ${n - 2}.`);
  }
  const starts = new Map<number, ConnectionType>();
  for (const c of connections) {
    if (!Number.isInteger(c.start) || c.start < 2 || c.start > n - 1) {
      throw new RangeError(`A ${c.type} cannot start on square ${c.start} of a board of ${n} squares.`);
    }
    starts.set(c.start, c.type);
  }
  const squares: LaidSquare[] = [{ square_index: 1, task_difficulty: null, kind: 'start' }];
  for (const tier of TIERS) {
    for (let i = 0; i < counts[TIER_COUNT_KEYS[tier]]; i += 1) {
      const square = squares.length + 1;
      const type = starts.get(square);
      squares.push(
        type === undefined
          ? { square_index: square, task_difficulty: tier, kind: 'task' }
          : { square_index: square, task_difficulty: null, kind: type },
      );
    }
  }
  squares.push({ square_index: n, task_difficulty: null, kind: 'finish' });
  return squares;
}

/** A clan pool task offered for assignment. */
export interface PoolTask<Id = number> {
  id: Id;
  description: string;
}

/** A laid square with its task: task_id null for special and unassigned squares. */
export interface AssignedSquare<Id = number> extends LaidSquare {
  task_id: Id | null;
  task_description: string;
}

/**
 * Gives every task square a random task of its tier from `poolByTier` (docs/server.md
 * §5): each pool task (by id) is used at most once per board; when a tier's pool runs out,
 * the remaining squares of that tier keep their difficulty with task_id null and description ''
 * (shown 'Unassigned'). Start/Finish/Snake/Ladder squares get those descriptions and task_id null.
 * Returns the squares in the given order with task_id and task_description added; never throws.
 */
export function assignTasks<Id = number>(
  squares: readonly LaidSquare[],
  poolByTier: Partial<Record<Tier, readonly PoolTask<Id>[]>>,
  rng: Rng,
): AssignedSquare<Id>[] {
  const queues = new Map<Tier, PoolTask<Id>[]>();
  for (const tier of TIERS) {
    const seen = new Set<Id>();
    const unique = (poolByTier[tier] ?? []).filter((task) => !seen.has(task.id) && seen.add(task.id));
    queues.set(tier, shuffle(unique, rng));
  }
  return squares.map((square) => {
    if (square.kind !== 'task' || square.task_difficulty === null) {
      const description = square.kind === 'task' ? UNASSIGNED_DESCRIPTION : SPECIAL_DESCRIPTIONS[square.kind];
      return { ...square, task_id: null, task_description: description };
    }
    const task = queues.get(square.task_difficulty)?.pop();
    return task === undefined
      ? { ...square, task_id: null, task_description: UNASSIGNED_DESCRIPTION }
      : { ...square, task_id: task.id, task_description: task.description };
  });
}
