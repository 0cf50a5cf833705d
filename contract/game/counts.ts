import type { Move } from '../history';
import { parseHistory } from './moves';

/**
 * One definition of a game's rolls, reverts and turns, for every screen that counts them (the
 * Event Game view's live tracker, the results page, the Verify dice view) and the history CSV:
 * - a roll is a die thrown and applied (a `roll` move; it takes roll index k, docs/game-rules.md
 *   §9);
 * - a revert is a `revert` move: it undoes the team's latest roll that still stands (docs/server.md
 *   §5 pops the last history entry), and that roll counts as reverted;
 * - a turn is a roll that stands. Turns processed (docs/client.md §1: the sum
 *   over teams of history length minus 1) is therefore rolls minus reverts.
 */

/** Counts of one game or one team. */
export interface MoveCounts {
  /** Every roll applied, reverted ones included (the number of roll indexes used). */
  rolls: number;
  /** Reverts applied; each undid one roll, so this is also the number of reverted rolls. */
  reverts: number;
  /** Rolls that stand: rolls - reverts. */
  turns: number;
}

/** What one move of a history is, in the terms above. */
export type MoveRole =
  /** A roll; `revertedBy` is the index (in the moves list) of the revert that undid it, else null. */
  | { kind: 'roll'; revertedBy: number | null }
  /** A revert; `undoes` is the index of the roll it undid (null only for a history that never rolled first). */
  | { kind: 'revert'; undoes: number | null };

/**
 * The role of every move of `moves` (oldest first), same length and order: each revert is paired
 * with the latest roll of its team that no earlier revert undid (a stack per team, as the
 * server pops the team's position history).
 */
export function moveRoles(moves: readonly Pick<Move, 'team_id' | 'kind'>[]): MoveRole[] {
  const roles: MoveRole[] = [];
  const standing = new Map<number, number[]>();
  moves.forEach((move, i) => {
    const stack = standing.get(move.team_id) ?? [];
    standing.set(move.team_id, stack);
    if (move.kind === 'roll') {
      stack.push(i);
      roles.push({ kind: 'roll', revertedBy: null });
      return;
    }
    const undone = stack.pop() ?? null;
    if (undone !== null) roles[undone] = { kind: 'roll', revertedBy: i };
    roles.push({ kind: 'revert', undoes: undone });
  });
  return roles;
}

/** Counts of a list of moves (a whole history, or one team's moves). */
export function countMoves(moves: readonly Pick<Move, 'kind'>[]): MoveCounts {
  const rolls = moves.filter((m) => m.kind === 'roll').length;
  const reverts = moves.length - rolls;
  return { rolls, reverts, turns: rolls - reverts };
}

/** Counts of team `teamId` in a history. */
export function countTeamMoves(moves: readonly Pick<Move, 'kind' | 'team_id'>[], teamId: number): MoveCounts {
  return countMoves(moves.filter((m) => m.team_id === teamId));
}

/**
 * Counts from live team states (the Event Game view holds no move list): turns are the sum of
 * (history length - 1), an empty history counting 0; reverts the sum of revert_count; rolls
 * turns + reverts. Throws like parseHistory for an unreadable history.
 */
export function countTeamStates(teams: readonly { position_history: readonly number[] | string; revert_count: number }[]): MoveCounts {
  const turns = teams.reduce((sum, t) => sum + Math.max(parseHistory(t.position_history).length - 1, 0), 0);
  const reverts = teams.reduce((sum, t) => sum + t.revert_count, 0);
  return { rolls: turns + reverts, reverts, turns };
}

/** '44 rolls, 1 reverted' ('1 roll', '3 rolls' with none reverted). */
export function rollsText(counts: Pick<MoveCounts, 'rolls' | 'reverts'>): string {
  const rolls = `${counts.rolls} roll${counts.rolls === 1 ? '' : 's'}`;
  return counts.reverts > 0 ? `${rolls}, ${counts.reverts} reverted` : rolls;
}

/** '44 rolls, 1 reverted · 43 turns processed': the rolls and the turns they leave, as every screen states them. */
export function countsText(counts: MoveCounts): string {
  return `${rollsText(counts)} · ${counts.turns} turn${counts.turns === 1 ? '' : 's'} processed`;
}

/** What 'Turns processed' counts, in the words every screen uses. */
export const TURNS_EXPLAINED = 'Turns processed counts the rolls that stand: every roll minus the reverted ones.';

/** The squares of a board by what they may hold (docs/game-rules.md §4; docs/server.md §5). */
export interface BoardTaskCounts {
  /** Squares with a difficulty: they hold a task, or are Unassigned while the tier's pool ran out. */
  taskSquares: number;
  /** Task squares that hold a task. */
  withTask: number;
}

/** Task squares and those holding a task, from a board's squares. */
export function boardTaskCounts(squares: readonly { task_id: number | null; task_difficulty: string | null }[]): BoardTaskCounts {
  const taskSquares = squares.filter((s) => s.task_difficulty !== null);
  return { taskSquares: taskSquares.length, withTask: taskSquares.filter((s) => s.task_id !== null).length };
}

/**
 * Tasks a board of these settings can hold: the task tiles (board size - 2) minus the squares where
 * a snake or ladder starts, which take a tier's place but hold no task; never below 0.
 */
export function tasksOnBoard(taskTiles: number, snakes: number, ladders: number): number {
  return Math.max(0, taskTiles - Math.max(0, snakes) - Math.max(0, ladders));
}
