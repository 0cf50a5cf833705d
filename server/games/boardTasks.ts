import type { Db } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { isSpecialDescription } from '../../contract/game';
import { GAME_TASK_MESSAGES, type AvailableTask, type BoardSquare, type ReorderBody } from '../../contract/gameApi';
import { findPoolTask, listSquares, poolByTier, setSquareTasks, updateGame, type GameRow } from './repository';
import { refuseFinished } from './service';

// Board-task editing of a game: which pool task each square of the board carries (swap, reorder,
// assign), kept apart from making, changing and ending the game itself (service.ts).

/** True for Start, Finish, Snake and Ladder squares (no tier): never swapped, moved or given a task. */
function isFixed(square: BoardSquare): boolean {
  return square.task_difficulty === null || isSpecialDescription(square.task_description);
}

/** The square `squareId` of the game; 404 'Board square {id} not found in this game.' otherwise. */
async function squareOf(db: Db, gameId: number, squareId: number): Promise<BoardSquare> {
  const square = (await listSquares(db, gameId)).find((s) => s.id === squareId);
  if (!square) throw notFound(`Board square ${squareId} not found in this game.`);
  return square;
}

/**
 * Swaps the tasks (task_id and description) of two squares of the game (docs/game-rules.md §6,
 * §13). 404 for a square of another game, 400 for the same square twice, 400
 * 'Cannot swap tasks with Start, Finish, Ladder, or Snake squares.' and 400 'You can only re-order
 * squares within their own Difficulty Tier column. ...' across tiers; 409 for a finished game.
 */
export async function swapTasks(trx: Db, row: GameRow, square1Id: number, square2Id: number): Promise<void> {
  refuseFinished(row, 'its tasks can no longer be changed.');
  const a = await squareOf(trx, row.id, square1Id);
  const b = await squareOf(trx, row.id, square2Id);
  if (a.id === b.id) throw badRequest('Choose two different squares to swap.');
  if (isFixed(a) || isFixed(b)) throw badRequest(GAME_TASK_MESSAGES.special);
  if (a.task_difficulty !== b.task_difficulty) throw badRequest(GAME_TASK_MESSAGES.acrossTiers);
  await setSquareTasks(trx, [
    { id: a.id, task_id: b.task_id, task_description: b.task_description },
    { id: b.id, task_id: a.task_id, task_description: a.task_description },
  ]);
  await updateGame(trx, row.id, {});
}

/**
 * Reorder (docs/server.md §3 POST .../tasks/reorder): the task of each listed
 * square `id` moves to square `square_index`. 400 unless every id is a square of this game listed
 * once, the target positions are exactly the listed squares' own positions, and every moved task
 * stays inside its tier and off Start, Finish, Snake and Ladder squares (the documented two messages).
 * 409 for a finished game.
 */
export async function reorderTasks(trx: Db, row: GameRow, entries: ReorderBody['squares']): Promise<void> {
  refuseFinished(row, 'its tasks can no longer be changed.');
  const squares = await listSquares(trx, row.id);
  const byId = new Map(squares.map((s) => [s.id, s]));
  const byIndex = new Map(squares.map((s) => [s.square_index, s]));
  const ids = new Set<number>();
  for (const e of entries) {
    if (ids.has(e.id)) throw badRequest(`Square ${e.id} is listed more than once.`);
    ids.add(e.id);
    if (!byId.has(e.id)) throw badRequest(`Board square ${e.id} is not on this game's board.`);
  }
  const sources = entries.map((e) => byId.get(e.id)!.square_index).sort((x, y) => x - y);
  const targets = entries.map((e) => e.square_index).sort((x, y) => x - y);
  if (sources.some((s, i) => s !== targets[i])) {
    throw badRequest("The square_index values must be a rearrangement of the listed squares' own positions.");
  }
  const changes: { id: number; task_id: number | null; task_description: string }[] = [];
  for (const e of entries) {
    const from = byId.get(e.id)!;
    if (from.square_index === e.square_index) continue;
    const to = byIndex.get(e.square_index)!;
    if (isFixed(from) || isFixed(to)) throw badRequest(GAME_TASK_MESSAGES.special);
    if (from.task_difficulty !== to.task_difficulty) throw badRequest(GAME_TASK_MESSAGES.acrossTiers);
    changes.push({ id: to.id, task_id: from.task_id, task_description: from.task_description });
  }
  await setSquareTasks(trx, changes);
  await updateGame(trx, row.id, {});
}

/** Orders tasks by description (case-insensitively), then id. */
function byDescription(a: AvailableTask, b: AvailableTask): number {
  const x = a.description.toLowerCase();
  const y = b.description.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
}

/**
 * Pool tasks a square may get (docs/server.md §3 GET .../tasks/{squareId}/available;
 * docs/server.md §5): the clan's tasks of the square's tier that are on no square of the
 * board, by description. 404 for a square of another game; 400 'Cannot Assign Task' for a square
 * with no tier (Start, Finish, Snake, Ladder).
 */
export async function availableTasks(db: Db, row: GameRow, squareId: number): Promise<AvailableTask[]> {
  const squares = await listSquares(db, row.id);
  const square = squares.find((s) => s.id === squareId);
  if (!square) throw notFound(`Board square ${squareId} not found in this game.`);
  if (isFixed(square) || square.task_difficulty === null) throw badRequest(GAME_TASK_MESSAGES.cannotAssign);
  const tier = square.task_difficulty;
  const onBoard = new Set(squares.map((s) => s.task_id).filter((id): id is number => id !== null));
  const pool = await poolByTier(db, row.clan_id);
  return pool[tier]
    .filter((t) => !onBoard.has(t.id))
    .map((t) => ({ id: t.id, description: t.description, difficulty: tier }))
    .sort(byDescription);
}

/**
 * Puts pool task `taskId` on square `squareId` (docs/server.md §3 PUT .../tasks/{squareId}),
 * replacing its task if any. 404 for a square of another game; 400 'Cannot Assign Task' for a
 * square with no tier; 400 for a task that is not in this clan's pool or of another tier; 409 when
 * the task is already on the board; 409 for a finished game. Returns the square's number.
 */
export async function assignTask(trx: Db, row: GameRow, squareId: number, taskId: number): Promise<number> {
  refuseFinished(row, 'its tasks can no longer be changed.');
  const squares = await listSquares(trx, row.id);
  const square = squares.find((s) => s.id === squareId);
  if (!square) throw notFound(`Board square ${squareId} not found in this game.`);
  if (isFixed(square) || square.task_difficulty === null) throw badRequest(GAME_TASK_MESSAGES.cannotAssign);
  const task = await findPoolTask(trx, row.clan_id, taskId);
  if (!task) throw badRequest(`Task ID ${taskId} is not in this clan's task pool.`);
  if (task.difficulty !== square.task_difficulty) {
    throw badRequest(`Task ID ${taskId} is a ${task.difficulty} task; square ${square.square_index} takes only ${square.task_difficulty} tasks.`);
  }
  const holder = squares.find((s) => s.task_id === taskId);
  if (holder) throw conflict(`That task is already on the board (square ${holder.square_index}).`);
  await setSquareTasks(trx, [{ id: square.id, task_id: task.id, task_description: task.description }]);
  await updateGame(trx, row.id, {});
  return square.square_index;
}
