import type { Connection } from './generate';
import type { Rng } from './random';

/** Faces of the die: a roll is 1..6 (docs/server.md §5). */
const DIE_FACES = 6;

/** One die roll 1..6 drawn from `rng` (the server passes a crypto-backed Rng). */
export function rollDie(rng: Rng): number {
  return rng.int(1, DIE_FACES);
}

/** Outcome of one roll, all in squares 1..N. */
export interface RollOutcome {
  /** Square reached by the die alone: min(position + die, N). */
  landing: number;
  /** Square after following a snake or ladder that starts on `landing` (else `landing`). */
  final: number;
  /** The connection followed, or null. */
  connection: Connection | null;
  /** True when `final` is N, the win square. */
  won: boolean;
}

/**
 * Applies a die roll (docs/server.md §5): landing = min(position + die, N);
 * if a connection starts on landing the team moves to its end; won = final === N.
 * Throws RangeError unless N is an integer >= 2, position an integer in 1..N and die in 1..6.
 */
export function applyRoll(input: {
  position: number;
  die: number;
  board_size: number;
  connections: readonly Connection[];
}): RollOutcome {
  const { position, die, board_size: n, connections } = input;
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`Invalid board size ${n}.`);
  if (!Number.isInteger(position) || position < 1 || position > n) {
    throw new RangeError(`Position ${position} is not on a board of ${n} squares.`);
  }
  if (!Number.isInteger(die) || die < 1 || die > DIE_FACES) throw new RangeError(`Invalid die roll ${die}.`);
  const landing = Math.min(position + die, n);
  const connection = connections.find((c) => c.start === landing) ?? null;
  const final = connection === null ? landing : connection.end;
  return { landing, final, connection, won: final === n };
}

/** The roll a progress update reports (contract/socket LastMoveSchema). */
export interface LastMoveOf {
  team_id: number;
  die: number;
  from: number;
  landing: number;
  to: number;
  via: 'snake' | 'ladder' | null;
  path: number[];
}

/**
 * The last_move of a progress update for team `teamId` that rolled `die` from `from` with
 * `outcome` (applyRoll): path is every square walked, `from` to the landing inclusive; `via` the
 * connection followed from the landing, `to` its end (else the landing).
 */
export function lastMoveOf(teamId: number, from: number, die: number, outcome: RollOutcome): LastMoveOf {
  const path: number[] = [];
  for (let square = from; square <= outcome.landing; square += 1) path.push(square);
  return { team_id: teamId, die, from, landing: outcome.landing, to: outcome.final, via: outcome.connection?.type ?? null, path };
}

/**
 * Whether a team may revert its last move (docs/game-rules.md §6,
 * docs/server.md §5): current_position > 1 and revert_count < max_reverts_allowed.
 */
export function canRevert(
  team: { current_position: number; revert_count: number },
  maxRevertsAllowed: number,
): boolean {
  return team.current_position > 1 && team.revert_count < maxRevertsAllowed;
}

/**
 * Reverts the last move (docs/server.md §5): a copy of `history` (squares,
 * oldest first) without its last entry, and the new position (the new last entry).
 * Throws Error when the history has fewer than two entries (nothing to revert).
 */
export function revertHistory(history: readonly number[]): { history: number[]; position: number } {
  if (history.length < 2) throw new Error('Nothing to revert: the team has not moved.');
  const next = history.slice(0, -1);
  return { history: next, position: next[next.length - 1] };
}

/**
 * A team's position_history as a list of squares (docs/game-rules.md §12: a list,
 * or a JSON string of a list). Throws Error when it is neither a list of integers nor such a JSON string.
 */
export function parseHistory(history: readonly number[] | string): number[] {
  let value: unknown = history;
  if (typeof history === 'string') {
    try {
      value = JSON.parse(history);
    } catch {
      throw new Error('position_history is not valid JSON.');
    }
  }
  if (!Array.isArray(value) || !value.every((x) => Number.isInteger(x))) {
    throw new Error('position_history must be a list of square numbers.');
  }
  return value.slice() as number[];
}

/** Reverts allowed in total: max_reverts_allowed times the number of teams (same section). */
export function revertAllowance(maxRevertsAllowed: number, teamCount: number): number {
  return maxRevertsAllowed * teamCount;
}
