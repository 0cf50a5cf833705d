import type { Connection } from './generate';
import type { Rng } from './random';
import { seededRandom } from './random';

/**
 * Forecasts and the board simulator (docs/server.md §15; docs/game-rules.md §14): pure
 * simulations of the rest of a game, used by the server's forecast route and by the browser's
 * simulator worker alike. Squares are 1..N, a team starts on 1, a roll moves it
 * min(position + die, N) and then along the connection starting on the landing square
 * (moves.ts applyRoll); a team finishes on N.
 */

/** Faces of the die (moves.ts). */
const FACES = 6;

/**
 * The most rolls one team's run may take: a run still short of N after this many rolls (a board
 * whose snakes keep sending teams back) stops there and counts this many. A team on a square from
 * which no sequence of rolls reaches N counts this many at once, without rolling.
 */
export const MAX_ROLLS_PER_RUN = 1_000;

/** The fewest simulated continuations a forecast uses (docs/server.md §15). */
const FORECAST_RUNS = 10_000;

/** A board as the simulations need it: N squares and its snakes and ladders. */
export interface SimBoard {
  board_size: number;
  connections: readonly Pick<Connection, 'start' | 'end'>[];
}

/**
 * The move table of a board: `next[(square - 1) * 6 + (die - 1)]` is the square a team on
 * `square` reaches with `die`, connection followed. Throws RangeError for a board size under 2.
 */
function moveTable(board: SimBoard): Int32Array {
  const n = board.board_size;
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`Invalid board size ${n}.`);
  const via = new Int32Array(n + 1);
  for (let s = 1; s <= n; s += 1) via[s] = s;
  for (const c of board.connections) if (c.start >= 1 && c.start <= n && c.end >= 1 && c.end <= n) via[c.start] = c.end;
  const next = new Int32Array(n * FACES);
  for (let s = 1; s <= n; s += 1) for (let d = 1; d <= FACES; d += 1) next[(s - 1) * FACES + d - 1] = via[Math.min(s + d, n)];
  return next;
}

/**
 * `canFinish[s]`: whether some sequence of rolls takes a team from square s to N (a search
 * backwards from N over the move table; index 0 unused).
 */
function finishable(next: Int32Array, n: number): Uint8Array {
  const from: number[][] = Array.from({ length: n + 1 }, () => []);
  for (let s = 1; s < n; s += 1) for (let d = 0; d < FACES; d += 1) from[next[(s - 1) * FACES + d]].push(s);
  const can = new Uint8Array(n + 1);
  can[n] = 1;
  const queue = [n];
  while (queue.length > 0) {
    const t = queue.pop() as number;
    for (const s of from[t]) {
      if (can[s]) continue;
      can[s] = 1;
      queue.push(s);
    }
  }
  return can;
}

/** A board's move table and the squares from which N can be reached. */
interface Moves {
  n: number;
  next: Int32Array;
  canFinish: Uint8Array;
}

function movesOf(board: SimBoard): Moves {
  const next = moveTable(board);
  return { n: board.board_size, next, canFinish: finishable(next, board.board_size) };
}

/**
 * Rolls one team from `from` until it reaches N and answers the rolls it took; MAX_ROLLS_PER_RUN
 * when it lands where N cannot be reached, or has not arrived by then. `onLanding` hears every
 * square a roll ends on.
 */
function rollsToFinish(moves: Moves, from: number, rng: Rng, onLanding?: (square: number) => void): number {
  const { n, next, canFinish } = moves;
  let square = from;
  let rolls = 0;
  while (square !== n) {
    if (!canFinish[square] || rolls >= MAX_ROLLS_PER_RUN) return MAX_ROLLS_PER_RUN;
    square = next[(square - 1) * FACES + rng.int(1, FACES) - 1];
    rolls += 1;
    onLanding?.(square);
  }
  return rolls;
}

/**
 * The expected number of rolls to reach N from every square, computed exactly from the board's
 * Markov chain (E[N] = 0, E[s] = 1 + mean over the die of E[next(s, die)]) by Gaussian
 * elimination: index s holds E[s] (index 0 unused). A square from which a roll may lead to where
 * N cannot be reached gets Infinity. The tests check the simulations against it (docs/server.md §15).
 */
export function expectedRollsExact(board: SimBoard): Float64Array {
  const { n, next, canFinish } = movesOf(board);
  // Squares that may lead (with some chance) to a square where N is out of reach expect Infinity.
  const doomed = new Uint8Array(n + 1);
  const queue: number[] = [];
  for (let s = 1; s < n; s += 1) if (!canFinish[s]) {
    doomed[s] = 1;
    queue.push(s);
  }
  const from: number[][] = Array.from({ length: n + 1 }, () => []);
  for (let s = 1; s < n; s += 1) for (let d = 0; d < FACES; d += 1) from[next[(s - 1) * FACES + d]].push(s);
  while (queue.length > 0) for (const s of from[queue.pop() as number]) if (!doomed[s]) {
    doomed[s] = 1;
    queue.push(s);
  }
  // Unknowns: E of the other squares below N; row: E[s] - (1/6) Σ_d E[next(s, d)] = 1, E[N] = 0.
  const squares: number[] = [];
  for (let s = 1; s < n; s += 1) if (!doomed[s]) squares.push(s);
  const index = new Int32Array(n + 1).fill(-1);
  squares.forEach((s, i) => (index[s] = i));
  const m = squares.length;
  const a = squares.map((s, i) => {
    const row = new Float64Array(m + 1);
    row[i] += 1;
    row[m] = 1;
    for (let d = 0; d < FACES; d += 1) {
      const t = next[(s - 1) * FACES + d];
      if (t !== n) row[index[t]] -= 1 / FACES;
    }
    return row;
  });
  for (let col = 0; col < m; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < m; r += 1) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const p = a[col][col];
    for (let c = col; c <= m; c += 1) a[col][c] /= p;
    for (let r = 0; r < m; r += 1) {
      if (r === col || a[r][col] === 0) continue;
      const f = a[r][col];
      for (let c = col; c <= m; c += 1) a[r][c] -= f * a[col][c];
    }
  }
  const out = new Float64Array(n + 1);
  for (let s = 1; s < n; s += 1) out[s] = doomed[s] ? Infinity : a[index[s]][m];
  return out;
}

/** One team's standing in a forecast (docs/server.md §15). */
export interface TeamForecast {
  team_id: number;
  /** Share of runs in which this team needed the fewest rolls, ties shared equally (0..1). */
  win_chance: number;
  /** Mean of this team's rolls to reach N over the runs. */
  expected_rolls_to_finish: number;
}

/**
 * The seed of a forecast's runs (docs/server.md §15): a 32-bit FNV-1a hash of the board (its size
 * and its snakes and ladders, in square order) and the teams' squares in the order given. The
 * same board and squares always draw the same runs, so what moves nobody (a proof sent or
 * approved) changes no chance.
 */
export function forecastSeed(board: SimBoard, positions: readonly number[]): number {
  const connections = board.connections.map((c) => [c.start, c.end] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const words = [board.board_size, connections.length, ...connections.flat(), positions.length, ...positions];
  let hash = 0x811c9dc5;
  for (const word of words) {
    // Every word's four bytes, low first (squares and sizes are small non-negative integers).
    for (let shift = 0; shift < 32; shift += 8) {
      hash ^= (word >>> shift) & 0xff;
      hash = Math.imul(hash, 0x01000193);
    }
  }
  return hash | 0;
}

/**
 * Simulates `runs` continuations of a game from the teams' current squares (docs/server.md §15):
 * in each run every team is rolled on to N on its own; a team's `win_chance` is the share of runs
 * in which it needs the fewest rolls (ties shared equally, so the chances sum to 1 when there is
 * a team) and `expected_rolls_to_finish` its mean rolls to N (runs capped at MAX_ROLLS_PER_RUN).
 * A team already on N needs 0 rolls. Teams on the same square get the mean of their figures. Without
 * `rng` the runs are drawn from `seededRandom(forecastSeed(board, squares))`.
 * Throws RangeError for a bad board or a position outside 1..N.
 */
export function forecastGame(input: {
  board: SimBoard;
  teams: readonly { team_id: number; position: number }[];
  runs?: number;
  rng?: Rng;
}): { teams: TeamForecast[]; runs: number } {
  const { board, teams } = input;
  const runs = input.runs ?? FORECAST_RUNS;
  const rng = input.rng ?? seededRandom(forecastSeed(board, teams.map((t) => t.position)));
  const n = board.board_size;
  const moves = movesOf(board);
  for (const t of teams) if (!Number.isInteger(t.position) || t.position < 1 || t.position > n) throw new RangeError(`Position ${t.position} is not on a board of ${n} squares.`);
  const wins = new Float64Array(teams.length);
  const totals = new Float64Array(teams.length);
  const rolls = new Int32Array(teams.length);
  for (let run = 0; run < runs; run += 1) {
    let best = Infinity;
    let tied = 0;
    for (let i = 0; i < teams.length; i += 1) {
      const r = rollsToFinish(moves, teams[i].position, rng);
      rolls[i] = r;
      totals[i] += r;
      if (r < best) {
        best = r;
        tied = 1;
      } else if (r === best) tied += 1;
    }
    for (let i = 0; i < teams.length; i += 1) if (rolls[i] === best) wins[i] += 1 / tied;
  }
  // Teams on the same square are alike: each gets their mean, so equal squares show equal chances
  // (the simulation's noise between them is left out; the chances still sum to 1).
  const bySquare = new Map<number, number[]>();
  teams.forEach((t, i) => bySquare.set(t.position, [...(bySquare.get(t.position) ?? []), i]));
  for (const alike of bySquare.values()) {
    if (alike.length < 2) continue;
    const win = alike.reduce((s, i) => s + wins[i], 0) / alike.length;
    const total = alike.reduce((s, i) => s + totals[i], 0) / alike.length;
    for (const i of alike) {
      wins[i] = win;
      totals[i] = total;
    }
  }
  return {
    runs,
    teams: teams.map((t, i) => ({ team_id: t.team_id, win_chance: runs > 0 ? wins[i] / runs : 0, expected_rolls_to_finish: runs > 0 ? totals[i] / runs : 0 })),
  };
}

/** Hours a team spends on one task of each tier, by the tier's name (docs/server.md §15). */
export type HoursPerTier = Readonly<Record<string, number>>;

/** The simulator's default hours per task tier (docs/server.md §15). */
export const DEFAULT_HOURS_PER_TIER: HoursPerTier = { EASY: 0.5, MEDIUM: 1.5, HARD: 4, ELITE: 8, MASTER: 16 };

/** What the board simulator shows a manager before the start (docs/server.md §15). */
export interface BoardSimulation {
  runs: number;
  /** `rolls[k]`: how many runs needed exactly k rolls to reach N from square 1. */
  rolls: number[];
  /** Mean rolls to reach N. */
  mean_rolls: number;
  /** Mean hours of tasks done on the way (every square landed on after a roll, N excluded). */
  mean_hours: number;
  /** Share of runs whose hours of tasks fit in `available_hours` (null when none was given). */
  finish_chance: number | null;
  /** `landings[s]`: how many times square s was where a roll ended, over all runs (index 0 unused). */
  landings: number[];
}

/**
 * The board simulator (docs/server.md §15): `runs` single-team games from square 1 to N,
 * reporting the distribution of rolls to finish, the mean hours of tasks on the way (each square a
 * roll ends on costs the hours of its task's tier; squares without a tier cost nothing), the share
 * of runs that fit in `available_hours` (the time from the event's start to its end), and how
 * often each square was landed on. Throws RangeError for a bad board or a negative hour value.
 */
export function simulateBoard(input: {
  board: SimBoard;
  /** `tiers[s]`: the tier of square s's task, or null (index 0 unused). */
  tiers?: readonly (string | null)[];
  hours_per_tier?: HoursPerTier;
  available_hours?: number | null;
  runs?: number;
  rng?: Rng;
}): BoardSimulation {
  const { board } = input;
  const n = board.board_size;
  const moves = movesOf(board);
  const runs = input.runs ?? FORECAST_RUNS;
  const rng = input.rng ?? seededRandom(0x5eed);
  const perTier = input.hours_per_tier ?? DEFAULT_HOURS_PER_TIER;
  for (const [tier, h] of Object.entries(perTier)) if (!(h >= 0)) throw new RangeError(`Hours for ${tier} must be 0 or more.`);
  const cost = new Float64Array(n + 1);
  for (let s = 1; s < n; s += 1) {
    const tier = input.tiers?.[s];
    cost[s] = tier ? (perTier[tier] ?? 0) : 0;
  }
  const available = input.available_hours ?? null;
  const rolls: number[] = [];
  const landings = new Array<number>(n + 1).fill(0);
  let totalRolls = 0;
  let totalHours = 0;
  let fits = 0;
  for (let run = 0; run < runs; run += 1) {
    let hours = 0;
    const k = rollsToFinish(moves, 1, rng, (square) => {
      landings[square] += 1;
      hours += cost[square];
    });
    rolls[k] = (rolls[k] ?? 0) + 1;
    totalRolls += k;
    totalHours += hours;
    if (available !== null && hours <= available) fits += 1;
  }
  for (let k = 0; k < rolls.length; k += 1) rolls[k] ??= 0;
  return {
    runs,
    rolls,
    mean_rolls: runs > 0 ? totalRolls / runs : 0,
    mean_hours: runs > 0 ? totalHours / runs : 0,
    finish_chance: available === null || runs === 0 ? null : fits / runs,
    landings,
  };
}
