import type { Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { badRequest, conflict } from '../errors';
import { countClanTasks, insertTasks, lockClanPool, pairKey } from '../tasks/repository';
import { ruleMetricError } from '../tasks/womMetrics';
import { TASK_POOL_FULL, TASK_POOL_MAX } from '../../contract/task';
import { isTier, type Tier } from '../../contract/game/tiers';
import { countsFromSettings, type GameSettings } from '../../contract/game/settings';
import { isSpecialDescription, layoutSquares, SPECIAL_DESCRIPTIONS, UNASSIGNED_DESCRIPTION, type AssignedSquare, type Connection } from '../../contract/game/generate';
import { BOARD_FILE_VERSION, boardFileConnections, type BoardFile, type BoardFileTask } from '../../contract/game/boardFile';
import type { BoardSquare } from '../../contract/gameApi';
import { listSquares, parseConnections, settingsOf, type GameRow } from './repository';

/** A board ready to store: its connections and squares 1..N with their tasks. */
export interface PreparedBoard {
  connections: Connection[];
  squares: AssignedSquare[];
}

/**
 * Squares 1..N laid for `settings` and `connections` (layoutSquares), each task square given
 * `taskOf(square_index)` (null: Unassigned); Start, Finish and the squares where a snake or ladder
 * starts get their fixed descriptions. The one way the copy and the board file fill a board.
 */
export function fillBoard(
  settings: GameSettings,
  connections: readonly Connection[],
  taskOf: (squareIndex: number) => { task_id: number | null; task_description: string } | null,
): AssignedSquare[] {
  const laid = layoutSquares({ board_size: settings.board_size, counts: countsFromSettings(settings), connections });
  return laid.map((square) => {
    if (square.kind !== 'task') return { ...square, task_id: null, task_description: SPECIAL_DESCRIPTIONS[square.kind] };
    return { ...square, ...(taskOf(square.square_index) ?? { task_id: null, task_description: UNASSIGNED_DESCRIPTION }) };
  });
}

/**
 * The board of a checked board file (GameCreateBodySchema already ran boardFileError) for a game
 * of clan `clanId` (docs/server.md §18 "The next event"): its snakes and ladders, and on every
 * square the clan's pool task of the same description and difficulty, the missing ones added to
 * the pool first with the file's auto rule (a task already in the pool keeps its own rule). Runs
 * in the caller's transaction, the pool locked (lockClanPool). 400 for an auto rule naming
 * something that is not a Wise Old Man metric (the task API's text); 409 'The task pool is full
 * (5,000 tasks).' when the missing tasks do not fit under TASK_POOL_MAX.
 */
export async function boardOfFile(trx: Db, dialect: Dialect, clanId: number, settings: GameSettings, board: BoardFile): Promise<PreparedBoard> {
  const tasks = board.squares.map((s) => s.task).filter((t): t is BoardFileTask => t !== null);
  for (const task of tasks) {
    const message = ruleMetricError(task.auto_rule);
    if (message !== null) throw badRequest(message);
  }
  await lockClanPool(trx, dialect, clanId);
  const idOf = async () => {
    const rows = await trx.selectFrom('tasks').select(['id', 'description', 'difficulty']).where('clan_id', '=', clanId).execute();
    return new Map(rows.map((r) => [pairKey(r.description, r.difficulty), r.id]));
  };
  let ids = await idOf();
  const missing = tasks.filter((t) => !ids.has(pairKey(t.description, t.difficulty)));
  if (missing.length > 0) {
    if ((await countClanTasks(trx, clanId)) + missing.length > TASK_POOL_MAX) throw conflict(TASK_POOL_FULL);
    await insertTasks(trx, clanId, missing);
    ids = await idOf();
  }
  const connections = boardFileConnections(board);
  const squares = fillBoard(settings, connections, (index) => {
    const task = board.squares[index - 1]?.task;
    return task ? { task_id: ids.get(pairKey(task.description, task.difficulty)) ?? null, task_description: task.description } : null;
  });
  return { connections, squares };
}

/** The task a stored square holds in a board file: null for Start, Finish, a snake's or ladder's start and an Unassigned square. */
function fileTaskOf(square: BoardSquare): BoardFileTask | null {
  const tier: Tier | null = isTier(square.task_difficulty) ? square.task_difficulty : null;
  if (tier === null || square.task_description === UNASSIGNED_DESCRIPTION || isSpecialDescription(square.task_description)) return null;
  return { description: square.task_description, difficulty: tier, auto_rule: square.auto_rule ?? null };
}

/**
 * The board file of a stored game (GET .../game/{gameId}/board.json, docs/server.md §18 "The next
 * event"): version 1; the settings with the proof and relief rules; the snakes and ladders;
 * squares 1..N each with its task (description, difficulty and the pool task's auto rule) or null.
 */
export async function boardFileOfGame(db: Db, row: GameRow): Promise<BoardFile> {
  const squares = await listSquares(db, row.id);
  return {
    version: BOARD_FILE_VERSION,
    settings: {
      ...settingsOf(row),
      proof_required: row.proof_required === 1,
      relief_after_hours: row.relief_after_hours,
      relief_max_per_team: row.relief_max_per_team,
    },
    connections: parseConnections(row.board_connections).map(({ type, start, end }) => ({ type, start, end })),
    squares: squares.map((s) => ({ square_index: s.square_index, task: fileTaskOf(s) })),
  };
}
