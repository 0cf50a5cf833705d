import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { nowIso } from '../db/connect';
import { GAME_NOT_FOUND, SERVER_LOG_NAME, insertLog, listTeamStates, parseConnections, parseWinners, storedHistory, storedTaskState } from './repository';
import { withdrawPending } from '../submissions/service';
import { announceRoll, type AnnouncedRoll } from '../discord/outbox';
import { arrivalState, mayRoll, PROOF_MESSAGES, type TaskState } from '../../contract/submission';
import {
  applyRoll,
  canRevert,
  isGameStatus,
  isPlayableStatus,
  lastMoveOf,
  revertHistory,
  type GameStatus,
} from '../../contract/game';
import { dieFor } from '../../contract/game/dice';
import type { LogEntry, Winner } from '../../contract/gameApi';
import type { GameProgress, LastMove, TeamAction } from '../../contract/socket';

/** Texts of refused actions, sent to the sender as `action_error` (docs/game-rules.md §6, §11). */
export const PLAY_MESSAGES = {
  signIn: 'You must be signed in to play.',
  leaderOnly: 'Only the Leader of your team can roll the dice or revert a turn.',
  notPlayable: (status: string) => `Game is ${status}. No actions available.`,
  notPlaying: (teamId: number) => `Team ID ${teamId} is not playing in this game.`,
  nothingToRevert: (team: string) => `${team} is on square 1: there is no move to revert.`,
  noRevertsLeft: (team: string, used: number, max: number) => `No reverts left: ${team} has used ${used} of ${max} reverts allowed.`,
  busy: 'The game is busy. Please try again.',
} as const;

/** Log texts of a roll and a revert (docs/server.md §5: roll and move, then snake or ladder, then win). */
const PLAY_LOG = {
  rolled: (team: string, die: number, from: number, to: number) => `${team} rolled a ${die} and moved from ${from} to ${to}.`,
  snake: (team: string, from: number, to: number) => `Snake! ${team} slid down from ${from} to ${to}.`,
  ladder: (team: string, from: number, to: number) => `Ladder! ${team} climbed from ${from} to ${to}.`,
  won: (team: string, square: number) => `${team} reached square ${square} and won the game!`,
  reverted: (team: string, from: number, to: number, used: number, max: number) =>
    `${team} reverted its last move from ${from} back to ${to} (${used} of ${max} reverts used).`,
} as const;

/** A roll or revert the rules refuse: its message goes to the sender only, nothing is changed. */
export class ActionRefused extends Error {
  override name = 'ActionRefused';
}

/** The games row changed between reading it and the conditional update: roll back and retry. */
export class StaleVersion extends Error {
  override name = 'StaleVersion';
}

/**
 * A committed roll or revert: the game's progress after it (members shape), the log entries it
 * wrote, oldest first, and the ids of the submissions a revert withdrew (docs/server.md §9).
 */
export interface AppliedAction {
  progress: GameProgress;
  log: LogEntry[];
  withdrawn: number[];
}

/** How many times an action is retried after losing a race to another process before giving up. */
const MAX_ATTEMPTS = 12;

/** True for SQLite's "database is busy / snapshot is stale" errors, which a retry resolves. */
function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies a roll (`kind` 'roll', socket roll_dice) or a revert ('revert', revert_roll) of
 * `action.team_id` in game `action.game_id` for signed-in user `userId` (docs/server.md
 * §5; docs/game-rules.md §6, §11), in one transaction:
 * 1. reads the game row (on PostgreSQL with a row lock: SELECT ... FOR UPDATE, so two processes
 *    never refuse each other as busy; docs/server.md §8), checks that `performer_ign_id` is an
 *    IGN of `userId` and the Leader of `team_id` in the game's event (else PLAY_MESSAGES.leaderOnly),
 *    that the game is in-progress (else 'Game is {status}. No actions available.'), that the team
 *    plays in it, and for a revert canRevert (position > 1 and revert_count < max_reverts_allowed);
 * 2. `UPDATE games SET version = version + 1 … WHERE id = ? AND version = ?` with the version
 *    read in 1: when no row changes another change won the race (possibly in another process),
 *    the transaction rolls back and the whole action is retried on the new state (at most
 *    MAX_ATTEMPTS times, then ActionRefused 'The game is busy. Please try again.');
 * 3. writes the team state and the log entries (roll and move, then snake or ladder, then the
 *    Server's win entry; a roll reaching N also sets status 'finished' and winners [{name, color}]).
 * 4. sets the team's task state and square_since (docs/server.md §9): after a roll `open`
 *    on a square with a task (contract arrivalState), else `none`; after a revert `approved` on a
 *    square with a task, else `none`, and the team's pending submissions are withdrawn; the
 *    arrival time is `now()` (ISO).
 * With proof_required a roll is refused unless the team's state is `none` or `approved`
 * (PROOF_MESSAGES.rollGate, decided in readAction, so also before the queue).
 * 5. records the move in game_moves (docs/server.md §12): time, team, kind, roll_index and
 *    die, from, landing, to, via.
 * A roll's die comes from the game's dice seed (docs/game-rules.md §9, contract dieFor): the
 * roll is the k-th of the round, k = 1 + the highest roll_index recorded for the game (reverts
 * take none), read inside the transaction that holds the version, so two rolls never share a k;
 * the roll's log entry carries roll_index and die, and its progress carries the roll as last_move
 * (contract lastMoveOf; null after a revert). Resolves after COMMIT, so callers broadcast
 * only what is persisted. Any other error (database down) is thrown as is.
 */
export async function applyTeamAction(
  db: Db,
  dialect: Dialect,
  kind: 'roll' | 'revert',
  action: TeamAction,
  userId: number,
  now: () => string = nowIso,
): Promise<AppliedAction> {
  return retryingTransaction(db, dialect, (trx) => applyOnce(trx, dialect, kind, action, userId, now));
}

/**
 * Runs `attempt` in a transaction, again on a fresh one when it threw StaleVersion (another change
 * won the race for the game's version) or SQLite was busy, at most MAX_ATTEMPTS times, then
 * ActionRefused 'The game is busy. Please try again.'. Any other error is thrown as is.
 */
export async function retryingTransaction<T>(db: Db, dialect: Dialect, attempt: (trx: Db) => Promise<T>): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await (db as Kysely<Database>).transaction().execute((trx) => attempt(trx));
    } catch (err) {
      if (!(err instanceof StaleVersion) && !(dialect === 'sqlite' && isBusy(err))) throw err;
      if (n >= MAX_ATTEMPTS) throw new ActionRefused(PLAY_MESSAGES.busy);
      await pause(Math.random() * 5 * n);
    }
  }
}

/** The rows an action needs, read after its permission checks passed. */
interface ActionSubject {
  game: { id: number; event_id: number; status: string; board_size: number; max_reverts_allowed: number; board_connections: string; winners: string | null; version: number; proof_required: number; dice_seed: string };
  team: { id: number; current_position: number; revert_count: number; position_history: string; name: string; color: string; task_state: string };
}

/**
 * Reads and checks a roll or revert (docs/server.md §5, §8): ActionRefused 'Game not
 * found.', PLAY_MESSAGES.leaderOnly unless `performer_ign_id` is an IGN of `userId` and the Leader
 * of `team_id` in the game's event, notPlayable unless the game is in-progress, notPlaying when
 * the team has no state in it, and for a roll with proof_required the roll gate
 * (PROOF_MESSAGES.rollGate, docs/server.md §9) unless the team's task state is `none` or
 * `approved`. `lock` (PostgreSQL) takes the games row with SELECT ... FOR UPDATE, so actions of
 * several processes on one game wait for each other instead of racing.
 */
async function readAction(db: Db, kind: 'roll' | 'revert', action: TeamAction, userId: number, lock: boolean): Promise<ActionSubject> {
  let query = db.selectFrom('games')
    .select(['id', 'event_id', 'status', 'board_size', 'max_reverts_allowed', 'board_connections', 'winners', 'version', 'proof_required', 'dice_seed'])
    .where('id', '=', action.game_id);
  if (lock) query = query.forUpdate();
  const game = await query.executeTakeFirst();
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);

  const performer = await db.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .select('team_members.role')
    .where('team_members.team_id', '=', action.team_id)
    .where('team_members.event_id', '=', game.event_id)
    .where('team_members.ign_id', '=', action.performer_ign_id)
    .where('igns.user_id', '=', userId)
    .executeTakeFirst();
  if (!performer || performer.role !== 'Leader') throw new ActionRefused(PLAY_MESSAGES.leaderOnly);
  if (!isPlayableStatus(game.status)) throw new ActionRefused(PLAY_MESSAGES.notPlayable(game.status));

  const team = await db.selectFrom('team_states')
    .innerJoin('teams', 'teams.id', 'team_states.team_id')
    .select(['team_states.id', 'team_states.current_position', 'team_states.revert_count', 'team_states.position_history', 'team_states.task_state', 'teams.name', 'teams.color'])
    .where('team_states.game_id', '=', game.id)
    .where('team_states.team_id', '=', action.team_id)
    .executeTakeFirst();
  if (!team) throw new ActionRefused(PLAY_MESSAGES.notPlaying(action.team_id));
  if (kind === 'roll' && !mayRoll(game.proof_required === 1, storedTaskState(team.task_state))) {
    throw new ActionRefused(PROOF_MESSAGES.rollGate(team.current_position, team.name));
  }
  return { game, team };
}

/**
 * The permission and status checks of a roll or revert, made before the action waits in the
 * game's queue (docs/server.md §8: a refused action is decided before it waits), outside
 * any transaction. Throws ActionRefused as readAction; resolves when the action may be tried
 * (applyTeamAction checks again inside its transaction, since the state may change meanwhile).
 */
export async function precheckTeamAction(db: Db, kind: 'roll' | 'revert', action: TeamAction, userId: number): Promise<void> {
  await readAction(db, kind, action, userId, false);
}

/** The board square `index` of a game (its task and tier), or undefined. */
async function squareAt(db: Db, gameId: number, index: number) {
  return db.selectFrom('board_squares').select(['task_description', 'task_difficulty'])
    .where('game_id', '=', gameId).where('square_index', '=', index).executeTakeFirst();
}

/** The roll index k the next roll of the game's round takes: 1 + the highest recorded (docs/game-rules.md §9). */
async function nextRollIndex(db: Db, gameId: number): Promise<number> {
  const row = await db.selectFrom('game_moves')
    .select((eb) => eb.fn.max('roll_index').as('last'))
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

/** One attempt of applyTeamAction inside its transaction. */
async function applyOnce(trx: Db, dialect: Dialect, kind: 'roll' | 'revert', action: TeamAction, userId: number, now: () => string): Promise<AppliedAction> {
  const { game, team } = await readAction(trx, kind, action, userId, dialect === 'postgres');
  const stored = storedHistory(team.position_history);
  const history = stored.length > 0 ? stored : [team.current_position];
  const from = team.current_position;
  const teamLog = { name: team.name, color: team.color };
  const messages: { text: string; team: { name: string; color: string | null }; roll?: { roll_index: number; die: number } }[] = [];
  let move: { roll_index: number | null; die: number | null; landing: number | null; via: 'snake' | 'ladder' | null };
  let next: { current_position: number; revert_count: number; position_history: number[] };
  let winners: Winner[] | null = parseWinners(game.winners);
  let status: GameStatus = isGameStatus(game.status) ? game.status : 'in-progress';
  let taskState: TaskState;
  let lastMove: LastMove | null = null;
  let announced: { roll: AnnouncedRoll; won: boolean } | null = null;

  if (kind === 'roll') {
    const rollIndex = await nextRollIndex(trx, game.id);
    const die = await dieFor(game.dice_seed, game.id, rollIndex);
    const outcome = applyRoll({ position: from, die, board_size: game.board_size, connections: parseConnections(game.board_connections) });
    lastMove = lastMoveOf(action.team_id, from, die, outcome);
    next = { current_position: outcome.final, revert_count: team.revert_count, position_history: [...history, outcome.final] };
    move = { roll_index: rollIndex, die, landing: outcome.landing, via: outcome.connection?.type ?? null };
    messages.push({ text: PLAY_LOG.rolled(team.name, die, from, outcome.landing), team: teamLog, roll: { roll_index: rollIndex, die } });
    if (outcome.connection?.type === 'snake') messages.push({ text: PLAY_LOG.snake(team.name, outcome.landing, outcome.final), team: teamLog });
    if (outcome.connection?.type === 'ladder') messages.push({ text: PLAY_LOG.ladder(team.name, outcome.landing, outcome.final), team: teamLog });
    if (outcome.won) {
      status = 'finished';
      winners = [{ name: team.name, color: team.color }];
      messages.push({ text: PLAY_LOG.won(team.name, game.board_size), team: { name: SERVER_LOG_NAME, color: null } });
    }
    taskState = arrivalState(await squareAt(trx, game.id, outcome.final), outcome.won ? 'won' : 'roll');
    const via = outcome.connection?.type === 'snake' || outcome.connection?.type === 'ladder' ? outcome.connection.type : null;
    announced = { roll: { team: teamLog, die, from, landing: outcome.landing, to: outcome.final, via }, won: outcome.won };
  } else {
    if (team.current_position <= 1 || history.length < 2) throw new ActionRefused(PLAY_MESSAGES.nothingToRevert(team.name));
    if (!canRevert(team, game.max_reverts_allowed)) {
      throw new ActionRefused(PLAY_MESSAGES.noRevertsLeft(team.name, team.revert_count, game.max_reverts_allowed));
    }
    const back = revertHistory(history);
    next = { current_position: back.position, revert_count: team.revert_count + 1, position_history: back.history };
    move = { roll_index: null, die: null, landing: null, via: null };
    messages.push({ text: PLAY_LOG.reverted(team.name, from, back.position, next.revert_count, game.max_reverts_allowed), team: teamLog });
    taskState = arrivalState(await squareAt(trx, game.id, back.position), 'revert');
  }

  const claimed = await trx.updateTable('games')
    .set((eb) => ({
      version: eb('version', '+', 1),
      updated_at: nowIso(),
      ...(status !== game.status ? { status, winners: winners === null ? null : JSON.stringify(winners) } : {}),
    }))
    .where('id', '=', game.id)
    .where('version', '=', game.version)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new StaleVersion();

  const at = now();
  await trx.updateTable('team_states')
    .set({
      current_position: next.current_position,
      revert_count: next.revert_count,
      position_history: JSON.stringify(next.position_history),
      task_state: taskState,
      square_since: at,
      // A substitute task holds only for the square it was given on (docs/server.md §15).
      task_override: null,
    })
    .where('id', '=', team.id)
    .execute();
  await trx.insertInto('game_moves')
    .values({ game_id: game.id, at, team_id: action.team_id, kind, from_square: from, to_square: next.current_position, ...move })
    .execute();
  const withdrawn = kind === 'revert' ? await withdrawPending(trx, game.id, action.team_id) : [];
  const log: LogEntry[] = [];
  for (const m of messages) log.push(await insertLog(trx, game.id, m.text, m.team, m.roll));
  // Discord announcements go to the outbox in this transaction (docs/server.md §10).
  if (announced) await announceRoll(trx, game.id, announced.roll, announced.won);

  return {
    progress: { id: game.id, status, team_states: await listTeamStates(trx, game.id), winners, version: game.version + 1, last_move: lastMove },
    log,
    withdrawn,
  };
}
