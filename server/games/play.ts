import { createQueryId, type CompiledQuery, type Expression, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { syncSqliteOf, type SyncSqlite } from '../db/connect';
import { nowIso } from '../time';
import { PREPARED_SQL, compiledQuery } from '../db/compiled';
import { hashSessionId } from '../auth/sessions';
import {
  GAME_NOT_FOUND, SERVER_LOG_NAME, logEntriesOf, logInsert, logInsertValues, parseConnections, parseWinners, storedHistory, storedTaskState,
  teamStateOf, type LogMessage,
} from './repository';
import { serverDieFor } from './dice';
import { LRUCache } from 'lru-cache';
import { withdrawPending } from '../submissions/service';
import { announceRoll, announcesRolls, rollAnnouncement, type AnnouncedRoll } from '../discord/outbox';
import { INSERT_ANNOUNCEMENT } from '../discord/repository';
import type { GameWebhook } from '../discord/repository';
import type { Connection } from '../../contract/game/generate';
import { arrivalState, mayRoll, PROOF_MESSAGES, type TaskState } from '../../contract/submission';
import * as rules from '../../contract/game';
import {
  canRevert,
  isGameStatus,
  isPlayableStatus,
  lastMoveOf,
  revertHistory,
  type GameStatus,
} from '../../contract/game';
import type { LogEntry, TeamState, Winner } from '../../contract/gameApi';
import type { GameProgress, LastMove, TeamAction } from '../../contract/socket';
import { startProgress, type TeamProgress } from '../../contract/progress';
import { parseStoredRule } from '../tasks/repository';

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
class StaleVersion extends Error {
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
 * Applies roll_dice {game_id, team_id, performer_ign_id} for the user the precheck found (`pre`,
 * from precheckTeamAction; docs/server.md §5; docs/game-rules.md §6, §9), in one transaction
 * (inGame: claim, read, decide, write):
 * 1. claims the game: `UPDATE games SET version = version + 1 … WHERE id = ? AND version = ?`
 *    with the version the precheck read; when another change won since, the version is read
 *    again under the lock (SELECT ... FOR UPDATE on PostgreSQL; SQLite's write lock is held from
 *    BEGIN IMMEDIATE) and that one claimed. The claim holds the game's row lock on PostgreSQL and
 *    SQLite's single writer, so actions of several processes on one game wait for each other.
 * 2. reads afresh, in one statement (READ_HELD): the game, whether `performer_ign_id` is an IGN
 *    of the user and the Leader of the team in the game's event, every team state, the highest
 *    roll_index recorded, the square the precheck expects the team to end on and the event's
 *    Discord webhook.
 * 3. decides with contract/ rules (checkAction: the Leader, the game in progress, the team
 *    playing, the roll gate; the roll k = 1 + the highest roll_index, its die serverDieFor, the
 *    move contract applyRoll, the task state contract arrivalState of the square arrived on,
 *    which is read only when it is not the one expected). A refusal (ActionRefused) rolls the
 *    claim back with the rest.
 * 4. writes the team state (task_override cleared, square_since now), the move (game_moves), the
 *    log entries (roll and move, then snake or ladder, then the Server's win entry) and the
 *    roll's Discord announcement when the event's webhook announces rolls; a win also sets status
 *    'finished', winners [{name, color}] and queues 'Game finished' and the standings.
 * Resolves after COMMIT with the progress (members shape, last_move the roll), the log entries
 * and no withdrawn submissions; the caller broadcasts it (game_state_update). ActionRefused 'The
 * game is busy. Please try again.' only after MAX_ATTEMPTS lost races; any other error (database
 * down) is thrown as is.
 */
export function applyRoll(db: Db, dialect: Dialect, action: TeamAction, pre: PrecheckedAction, now: () => string = nowIso): Promise<AppliedAction> {
  return inGame(db, dialect, { sync: true }, () => moveSteps(db, dialect, 'roll', action, pre, now()));
}

/**
 * Applies revert_roll {game_id, team_id, performer_ign_id} (docs/server.md §5, §9;
 * docs/game-rules.md §11) with the same claim, read and checks as applyRoll, then contract
 * revertHistory and canRevert: ActionRefused PLAY_MESSAGES.nothingToRevert on square 1,
 * noRevertsLeft at max_reverts_allowed. Writes the team's previous square and history,
 * revert_count + 1, task state `approved` on a square with a task (else `none`), the move, the
 * log entry, and withdraws the team's pending submissions (their ids in `withdrawn`). Resolves
 * after COMMIT (last_move null); errors as applyRoll.
 */
export function applyRevert(db: Db, dialect: Dialect, action: TeamAction, pre: PrecheckedAction, now: () => string = nowIso): Promise<AppliedAction> {
  return inGame(db, dialect, { sync: false }, () => moveSteps(db, dialect, 'revert', action, pre, now()));
}

/**
 * One step of a game change (inGame): `run` compiled statements, run in order as one go (on
 * PostgreSQL several are sent as one statement, writeTogether), answering the last one's rows
 * and changed rows; or `awaited` work on the transaction (a helper of another module, an async
 * computation), which only an awaited transaction can run.
 */
type Step = { run: CompiledQuery[] } | { awaited: (trx: Db) => Promise<unknown> };

/** What a `run` step answers: the last statement's rows and the number of rows it changed. */
interface Ran<R> {
  rows: R[];
  changes: number;
}

/** A game change written as steps (a generator), so one body runs awaited or synchronously. */
export type GameChange<T> = Generator<Step, T, unknown>;

/** Runs `queries` as one step and answers the last one's rows (Ran). */
export function* run<R>(...queries: [...CompiledQuery[], CompiledQuery<R>]): Generator<Step, Ran<R>, unknown> {
  return (yield { run: queries }) as Ran<R>;
}

/** Runs `work` on the transaction (only an awaited transaction can: on SQLite's synchronous one the change starts over awaited). */
export function* awaited<T>(work: (trx: Db) => Promise<T>): Generator<Step, T, unknown> {
  return (yield { awaited: work }) as T;
}

/** Thrown inside SQLite's synchronous transaction at an awaited step: rolled back, the change starts over awaited. */
class NeedsAwait extends Error {
  override name = 'NeedsAwait';
}

/** PostgreSQL's deadlock and serialization failures: the transaction was undone, inGame starts it again. */
const RETRYABLE_PG_CODES = new Set(['40P01', '40001']);

/**
 * The one place a game change (a roll, a revert, relief; docs/server.md §5) is run: `change()`'s
 * steps in one transaction, and the form chosen for the database:
 * - SQLite with `sync`: one synchronous better-sqlite3 transaction (BEGIN IMMEDIATE, no await
 *   between statements, Kysely's only connection held: SyncSqlite); a change that reaches an
 *   awaited step (a winning roll's standings) is rolled back and run as below;
 * - otherwise a Kysely transaction, each step awaited; on PostgreSQL a step of several
 *   statements is sent as one (writeTogether).
 * The change starts again on a fresh transaction when it threw StaleVersion (another change won
 * the race for the game's version), SQLite was busy or PostgreSQL undid it (deadlock), at most
 * MAX_ATTEMPTS times, then ActionRefused 'The game is busy. Please try again.'. Any other error
 * (ActionRefused included) rolls back and is thrown as is.
 */
export async function inGame<T>(db: Db, dialect: Dialect, form: { sync: boolean }, change: () => GameChange<T>): Promise<T> {
  const sync = form.sync && dialect === 'sqlite' ? syncSqliteOf(db) : undefined;
  for (let n = 1; ; n += 1) {
    try {
      if (sync) {
        try {
          return await sync.transaction(() => runSync(sync, change()));
        } catch (err) {
          if (!(err instanceof NeedsAwait)) throw err;
        }
      }
      return await (db as Kysely<Database>).transaction().execute((trx) => runAwaited(trx, dialect, change()));
    } catch (err) {
      if (!(err instanceof StaleVersion) && !(dialect === 'sqlite' && isBusy(err)) && !(dialect === 'postgres' && isRetryablePg(err))) throw err;
      if (n >= MAX_ATTEMPTS) throw new ActionRefused(PLAY_MESSAGES.busy);
      await pause(Math.random() * 5 * n);
    }
  }
}

/** True for PostgreSQL's deadlock and serialization failures. */
function isRetryablePg(err: unknown): boolean {
  return RETRYABLE_PG_CODES.has(String((err as { code?: unknown } | null)?.code));
}

/** Runs `steps` synchronously inside SyncSqlite.transaction (NeedsAwait at an awaited step). */
function runSync<T>(sync: SyncSqlite, steps: GameChange<T>): T {
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    if (!('run' in step)) throw new NeedsAwait();
    let ran: Ran<unknown> = { rows: [], changes: 0 };
    for (const query of step.run) ran = sync.execute(query);
    next = steps.next(ran);
  }
  return next.value;
}

/** Runs `steps` on the Kysely transaction `trx`, each step awaited. */
async function runAwaited<T>(trx: Db, dialect: Dialect, steps: GameChange<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    if ('run' in step) {
      let ran: Ran<unknown> = { rows: [], changes: 0 };
      const queries = dialect === 'postgres' && step.run.length > 1 ? [writeTogether(step.run)] : step.run;
      for (const query of queries) {
        const result = await trx.executeQuery(query);
        ran = { rows: result.rows as unknown[], changes: Number(result.numAffectedRows ?? 0) };
      }
      next = steps.next(ran);
    } else {
      next = steps.next(await step.awaited(trx));
    }
  }
  return next.value;
}

/**
 * PostgreSQL statements `queries` sent as one (one round trip): each but the last as a
 * data-modifying CTE, the last as the statement, whose rows it answers; parameters renumbered.
 * Only for statements that do not read what another of them writes (a CTE sees the snapshot
 * from before the statement). The text is prepared like a compiled statement (server/db/compiled.ts
 * PREPARED_SQL): the few combinations a change makes (log entries, announcement) recur.
 */
function writeTogether(queries: readonly CompiledQuery[]): CompiledQuery {
  const parameters: unknown[] = [];
  const texts = queries.map((q) => {
    const offset = parameters.length;
    parameters.push(...q.parameters);
    return offset === 0 ? q.sql : q.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
  });
  const last = texts.pop() as string;
  const sql = `with ${texts.map((t, i) => `w${i} as (${t})`).join(', ')} ${last}`;
  PREPARED_SQL.add(sql);
  const final = queries[queries.length - 1];
  return { sql, parameters, query: final.query, queryId: createQueryId() };
}

/** The game columns a roll or revert reads. */
export interface ActionGame {
  id: number;
  event_id: number;
  status: string;
  board_size: number;
  max_reverts_allowed: number;
  board_connections: string;
  winners: string | null;
  version: number;
  proof_required: number;
  dice_seed: string;
}

/** The acting team's state with its team's name and colour. */
export interface ActionTeam {
  id: number;
  current_position: number;
  revert_count: number;
  position_history: string;
  task_state: string;
  name: string;
  color: string;
}

/**
 * What the precheck read, handed to the transaction (applyRoll, applyRevert): the session's user and
 * the session id's hash (sessions.id), the game, the acting team's state and the round's highest
 * roll_index (0 before the first roll). The transaction claims the game at this version and reads
 * everything again under the claim.
 */
export interface PrecheckedAction {
  userId: number;
  sessionHash: string;
  game: ActionGame;
  team: ActionTeam;
  lastRollIndex: number;
}

/**
 * 1 when `performer_ign_id` is an IGN of the user (`userRef`: a value or the column holding it)
 * and the Leader of `team_id` in the game's event, else 0 (team_members holds one row per IGN
 * and event).
 */
function leaderFlag(eb: ExpressionBuilder<Database, 'games'>, action: Pick<TeamAction, 'team_id' | 'performer_ign_id'>, user: number | Expression<number>) {
  return eb.case().when(eb.exists(
    eb.selectFrom('team_members')
      .innerJoin('igns', 'igns.id', 'team_members.ign_id')
      .select('team_members.id')
      .where('team_members.team_id', '=', action.team_id)
      .whereRef('team_members.event_id', '=', 'games.event_id')
      .where('team_members.ign_id', '=', action.performer_ign_id)
      .where('team_members.role', '=', 'Leader')
      .where('igns.user_id', '=', user),
  )).then(1).else(0).end();
}

/** The highest roll_index recorded for the game (null before the first roll; index game_moves_game_roll_idx). */
function lastRollOf(eb: ExpressionBuilder<Database, 'games'>) {
  return eb.selectFrom('game_moves').select((m) => m.fn.max('game_moves.roll_index').as('last')).whereRef('game_moves.game_id', '=', 'games.id');
}

const GAME_COLUMNS = [
  'games.id', 'games.event_id', 'games.status', 'games.board_size', 'games.max_reverts_allowed', 'games.board_connections',
  'games.winners', 'games.version', 'games.proof_required', 'games.dice_seed',
] as const;

/**
 * Refusals of a roll or revert, in this order (docs/server.md §5, §8): PLAY_MESSAGES.leaderOnly
 * unless `leader`, notPlayable unless the game is in progress, notPlaying when the team has no
 * state in it, and for a roll with proof_required the roll gate (PROOF_MESSAGES.rollGate,
 * docs/server.md §9) unless the team's task state is `none` or `approved`. Returns the team.
 */
function checkAction(kind: 'roll' | 'revert', action: TeamAction, game: ActionGame, leader: boolean, team: ActionTeam | null): ActionTeam {
  if (!leader) throw new ActionRefused(PLAY_MESSAGES.leaderOnly);
  if (!isPlayableStatus(game.status)) throw new ActionRefused(PLAY_MESSAGES.notPlayable(game.status));
  if (!team) throw new ActionRefused(PLAY_MESSAGES.notPlaying(action.team_id));
  if (kind === 'roll' && !mayRoll(game.proof_required === 1, storedTaskState(team.task_state))) {
    throw new ActionRefused(PROOF_MESSAGES.rollGate(team.current_position, team.name));
  }
  return team;
}

/** The acting team's columns of a precheck (PRECHECK, PRECHECK_USER): its state, name and colour. */
const TEAM_COLUMNS = [
  'team_states.id as state_id', 'team_states.current_position', 'team_states.revert_count', 'team_states.position_history',
  'team_states.task_state', 'teams.name as team_name', 'teams.color as team_color',
] as const;

/** The precheck's computed columns: the Leader flag of IGN `ignId` in team `teamId` for the user `user` refers to, and the game's highest roll_index. */
function precheckFlags(eb: ExpressionBuilder<Database, 'games'>, p: { teamId: number; ignId: number }, user: Expression<number>) {
  return [
    leaderFlag(eb, { team_id: p.teamId, performer_ign_id: p.ignId }, user).as('leader'),
    lastRollOf(eb).as('last_roll'),
  ];
}

/**
 * The precheck's one statement (precheckTeamAction), compiled once (server/db/compiled.ts): the
 * live session `sessionHash` (expiry after `now`), its user, game `gameId`, the state of team
 * `teamId` in it with the team's name and colour, the Leader flag of IGN `ignId` and the game's
 * highest roll_index.
 */
export const PRECHECK = compiledQuery((db, p: { gameId: number; teamId: number; ignId: number; sessionHash: string; now: string }) =>
  db.selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('games', (join) => join.on('games.id', '=', p.gameId))
    .leftJoin('team_states', (join) => join.onRef('team_states.game_id', '=', 'games.id').on('team_states.team_id', '=', p.teamId))
    .leftJoin('teams', 'teams.id', 'team_states.team_id')
    .select(['sessions.user_id', ...GAME_COLUMNS, ...TEAM_COLUMNS])
    .select((eb) => precheckFlags(eb as ExpressionBuilder<Database, 'games'>, p, eb.ref('sessions.user_id')))
    .where('sessions.id', '=', p.sessionHash)
    .where('sessions.expires_at', '>', p.now));

/**
 * PRECHECK without a session, for a user known otherwise (a Discord slash command's caller, found
 * by their Discord id: docs/server.md §19): user `userId`, and the same columns as PRECHECK.
 */
const PRECHECK_USER = compiledQuery((db, p: { gameId: number; teamId: number; ignId: number; userId: number }) =>
  db.selectFrom('users')
    .leftJoin('games', (join) => join.on('games.id', '=', p.gameId))
    .leftJoin('team_states', (join) => join.onRef('team_states.game_id', '=', 'games.id').on('team_states.team_id', '=', p.teamId))
    .leftJoin('teams', 'teams.id', 'team_states.team_id')
    .select(['users.id as user_id', ...GAME_COLUMNS, ...TEAM_COLUMNS])
    .select((eb) => precheckFlags(eb as ExpressionBuilder<Database, 'games'>, p, eb.ref('users.id')))
    .where('users.id', '=', p.userId));

/** A row of PRECHECK or PRECHECK_USER. */
type PrecheckRow = Awaited<ReturnType<typeof PRECHECK_USER.execute>>['rows'][number];

/**
 * The checks of a precheck's row (both statements'), in one place: 'Game not found.' when it
 * found no game, then checkAction's; else what was read, with `sessionHash`.
 */
function prechecked(kind: 'roll' | 'revert', action: TeamAction, row: PrecheckRow, sessionHash: string): PrecheckedAction {
  const game = gameOf(row);
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const team = checkAction(kind, action, game, Number(row.leader) === 1, teamOf(row));
  return { userId: row.user_id, sessionHash, game, team, lastRollIndex: Number(row.last_roll ?? 0) };
}

/**
 * The permission and status checks of a roll or revert, made before the action waits in the
 * game's queue (docs/server.md §5, §8: a refused action is decided before it waits), outside any
 * transaction, in one statement that also looks up the socket's session (cookie id `sessionId`,
 * as findSession: unknown or expired means signed out, so a logout counts at once; `sessionHash`
 * is its stored hash, given when the caller has it already). Resolves to null without a live session; throws ActionRefused 'Game not found.', then as checkAction;
 * else resolves to what it read, which applyRoll or applyRevert claims and checks again, since the state
 * may change meanwhile.
 */
export async function precheckTeamAction(db: Db, kind: 'roll' | 'revert', action: TeamAction, sessionId: string, sessionHash = hashSessionId(sessionId)): Promise<PrecheckedAction | null> {
  const row = (await PRECHECK.execute(db, {
    gameId: action.game_id, teamId: action.team_id, ignId: action.performer_ign_id, sessionHash, now: nowIso(),
  })).rows[0];
  return row ? prechecked(kind, action, row, sessionHash) : null;
}

/**
 * precheckTeamAction for user `userId` acting without a session (a `/snl roll` from Discord,
 * docs/server.md §19): the same columns and checks (prechecked) and the same refusals; null when
 * the user does not exist. `sessionHash` is empty: nothing after the precheck reads it.
 */
export async function precheckUserAction(db: Db, kind: 'roll' | 'revert', action: TeamAction, userId: number): Promise<PrecheckedAction | null> {
  const row = (await PRECHECK_USER.execute(db, { gameId: action.game_id, teamId: action.team_id, ignId: action.performer_ign_id, userId })).rows[0];
  return row ? prechecked(kind, action, row, '') : null;
}

/** The game columns of a joined row, or null when the join found no game. */
function gameOf(r: { [K in keyof ActionGame]: ActionGame[K] | null }): ActionGame | null {
  if (r.id === null) return null;
  return {
    id: r.id, event_id: Number(r.event_id), status: String(r.status), board_size: Number(r.board_size),
    max_reverts_allowed: Number(r.max_reverts_allowed), board_connections: String(r.board_connections), winners: r.winners,
    version: Number(r.version), proof_required: Number(r.proof_required), dice_seed: String(r.dice_seed),
  };
}

/** The acting team's state of a joined row, or null when the team plays no state in the game (or has no team row). */
function teamOf(r: {
  state_id: number | null; current_position: number | null; revert_count: number | null; position_history: string | null;
  task_state: string | null; team_name: string | null; team_color: string | null;
}): ActionTeam | null {
  if (r.state_id === null || r.team_name === null) return null;
  return {
    id: r.state_id, current_position: Number(r.current_position), revert_count: Number(r.revert_count), position_history: String(r.position_history),
    task_state: String(r.task_state), name: r.team_name, color: String(r.team_color),
  };
}

/**
 * What a roll or revert of `team` does from the rows read (docs/game-rules.md §6, §9): for a
 * roll, k = `lastRollIndex` + 1, its die (serverDieFor) and the move (contract applyRoll); for a
 * revert, the square it goes back to (contract revertHistory), or null when there is no move to
 * revert. Throws only what serverDieFor throws.
 */
function planOf(kind: 'roll' | 'revert', game: ActionGame, team: ActionTeam, lastRollIndex: number) {
  const last = lastPlan;
  if (
    last && last.kind === kind && last.gameId === game.id && last.lastRollIndex === lastRollIndex && last.position === team.current_position
    && last.boardSize === game.board_size && last.seed === game.dice_seed && last.history === team.position_history && last.connections === game.board_connections
  ) return last.plan;
  const plan = computePlan(kind, game, team, lastRollIndex);
  lastPlan = {
    kind, gameId: game.id, lastRollIndex, position: team.current_position, boardSize: game.board_size, seed: game.dice_seed,
    history: team.position_history, connections: game.board_connections, plan,
  };
  return plan;
}

/**
 * planOf's last inputs and plan: a roll plans from the precheck's rows and again from the rows
 * read under the claim, which are most often the same (one HMAC and two JSON parses less).
 * The inputs are compared one by one rather than joined into one key: the board's connections
 * are kilobytes of text, and a key made of them was a new string of that size on every roll.
 * Plans are never mutated.
 */
let lastPlan: {
  kind: 'roll' | 'revert'; gameId: number; lastRollIndex: number; position: number; boardSize: number; seed: string;
  history: string; connections: string; plan: ReturnType<typeof computePlan>;
} | null = null;

/**
 * A board's snakes and ladders from its stored text (parseConnections), parsed once per text (up
 * to 1,000 boards: one per live game, the game cache's default bound) and frozen, since every roll
 * of a game reads the same board.
 */
const connections = new LRUCache<string, readonly Connection[]>({
  max: 1_000,
  memoMethod: (text) => Object.freeze(parseConnections(text).map((c) => Object.freeze(c))),
});

/** planOf without the memo. */
function computePlan(kind: 'roll' | 'revert', game: ActionGame, team: ActionTeam, lastRollIndex: number) {
  const stored = storedHistory(team.position_history);
  const history = stored.length > 0 ? stored : [team.current_position];
  if (kind === 'revert') {
    const back = team.current_position <= 1 || history.length < 2 ? null : revertHistory(history);
    return { kind, history, back, square: back?.position ?? team.current_position } as const;
  }
  const rollIndex = lastRollIndex + 1;
  const die = serverDieFor(game.dice_seed, game.id, rollIndex);
  const outcome = rules.applyRoll({ position: team.current_position, die, board_size: game.board_size, connections: connections.memo(game.board_connections) });
  return { kind, history, rollIndex, die, outcome, square: outcome.final } as const;
}

/** The square the precheck's rows say the team ends on (0, no square, when the die cannot be computed: the transaction then fails alike). */
function expectedSquare(kind: 'roll' | 'revert', pre: PrecheckedAction): number {
  try {
    return planOf(kind, pre.game, pre.team, pre.lastRollIndex).square;
  } catch {
    return 0;
  }
}

/** `UPDATE games SET version = version + 1, updated_at = now WHERE id = ? AND version = ?`, compiled once (server/db/compiled.ts). */
export const CLAIM = compiledQuery((db, p: { gameId: number; version: number; now: string }) =>
  db.updateTable('games')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: p.now }))
    .where('id', '=', p.gameId)
    .where('version', '=', p.version));

/** The game's version (SQLite: the transaction is the single writer once the claim was tried). */
export const VERSION = compiledQuery((db, p: { gameId: number }) => db.selectFrom('games').select('version').where('id', '=', p.gameId));

/** The game's version read under its row lock (PostgreSQL: SELECT ... FOR UPDATE). */
export const LOCKED_VERSION = compiledQuery((db, p: { gameId: number }) => db.selectFrom('games').select('version').where('id', '=', p.gameId).forUpdate());

/**
 * Everything a roll or revert reads once it holds the game (applyRoll step 2), compiled once
 * (server/db/compiled.ts), one row per team state of game `gameId` by team id (one row with no
 * team state when there is none): the game, the Leader flag of IGN `ignId` of user `userId` in
 * team `teamId`, the highest roll_index, the board square `square`, the event's webhook and event
 * name, and the team state with its team.
 */
export const READ_HELD = compiledQuery((db, p: { gameId: number; teamId: number; ignId: number; userId: number; square: number }) =>
  db.selectFrom('games')
    .leftJoin('board_squares', (join) => join.onRef('board_squares.game_id', '=', 'games.id').on('board_squares.square_index', '=', p.square))
    .leftJoin('tasks', 'tasks.id', 'board_squares.task_id')
    .leftJoin('discord_webhooks', 'discord_webhooks.event_id', 'games.event_id')
    .leftJoin('events', 'events.id', 'games.event_id')
    .leftJoin('team_states', 'team_states.game_id', 'games.id')
    .leftJoin('teams', 'teams.id', 'team_states.team_id')
    .select(GAME_COLUMNS)
    .select((eb) => [leaderFlag(eb, { team_id: p.teamId, performer_ign_id: p.ignId }, p.userId).as('leader'), lastRollOf(eb).as('last_roll')])
    .select([
      'board_squares.task_description', 'board_squares.task_difficulty', 'tasks.auto_rule as task_rule',
      'discord_webhooks.id as hook_id', 'discord_webhooks.state as hook_state', 'discord_webhooks.announce_status',
      'discord_webhooks.announce_rolls', 'discord_webhooks.announce_reviews', 'discord_webhooks.announce_results', 'events.name as event_name',
      'team_states.id as state_id', 'team_states.team_id', 'teams.name as team_name', 'teams.color as team_color', 'team_states.current_position',
      'team_states.revert_count', 'team_states.position_history', 'team_states.task_state', 'team_states.square_since', 'team_states.task_override',
      'team_states.relief_count', 'team_states.progress',
    ])
    .where('games.id', '=', p.gameId)
    .orderBy('team_states.team_id'));

/** The team state a roll or revert writes (applyRoll step 4), compiled once (server/db/compiled.ts). */
export const WRITE_TEAM_STATE = compiledQuery((db, p: {
  id: number; position: number; reverts: number; history: string; taskState: string; since: string; progress: string | null;
}) =>
  db.updateTable('team_states')
    .set({
      current_position: p.position,
      revert_count: p.reverts,
      position_history: p.history,
      task_state: p.taskState,
      square_since: p.since,
      // A substitute task holds only for the square it was given on (docs/server.md §15).
      task_override: null,
      // A team total starts at 0 on arrival (docs/server.md §17).
      progress: p.progress,
    })
    .where('id', '=', p.id));

/** The game_moves row of a roll or revert (applyRoll step 4), compiled once (server/db/compiled.ts). */
export const INSERT_MOVE = compiledQuery((db, p: {
  gameId: number; at: string; teamId: number; kind: 'roll' | 'revert'; from: number; to: number;
  rollIndex: number | null; die: number | null; landing: number | null; via: 'snake' | 'ladder' | null;
}) =>
  db.insertInto('game_moves')
    .values({
      game_id: p.gameId, at: p.at, team_id: p.teamId, kind: p.kind, from_square: p.from, to_square: p.to,
      roll_index: p.rollIndex, die: p.die, landing: p.landing, via: p.via,
    }));

/** A board square's task as a roll or revert reads it (contract arrivalState) with its task's stored rule (a team total starts on arrival). */
type Square = { task_description: string; task_difficulty: string | null; task_rule: string | null };

/** The board square `index` of game `gameId` (its task, tier and the task's stored rule), compiled once (server/db/compiled.ts). */
export const SQUARE = compiledQuery((db, p: { gameId: number; index: number }) =>
  db.selectFrom('board_squares').leftJoin('tasks', 'tasks.id', 'board_squares.task_id')
    .select(['board_squares.task_description', 'board_squares.task_difficulty', 'tasks.auto_rule as task_rule'])
    .where('board_squares.game_id', '=', p.gameId).where('board_squares.square_index', '=', p.index));

/** A row of READ_HELD. */
type HeldRow = ReturnType<typeof READ_HELD.compile> extends CompiledQuery<infer R> ? R : never;

/**
 * What READ_HELD's `rows` say (applyRoll step 2): the game, every team state, the acting
 * team, the event's webhook and the plan of the action, after the checks of checkAction. Throws
 * ActionRefused 'Game not found.' or checkAction's refusals.
 */
function heldOf(kind: 'roll' | 'revert', action: TeamAction, rows: HeldRow[]) {
  const first = rows[0];
  const game = first && gameOf(first);
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const states: TeamState[] = [];
  for (const r of rows) {
    if (r.state_id === null || r.team_id === null || r.team_name === null) continue;
    states.push(teamStateOf({
      team_id: r.team_id, team_name: r.team_name, team_color: String(r.team_color), current_position: Number(r.current_position),
      revert_count: Number(r.revert_count), position_history: String(r.position_history), task_state: String(r.task_state),
      square_since: String(r.square_since), task_override: r.task_override, relief_count: Number(r.relief_count), progress: r.progress,
    }));
  }
  const acting = rows.find((r) => r.team_id === action.team_id);
  const team = checkAction(kind, action, game, Number(first.leader) === 1, acting ? teamOf(acting) : null);
  const hook: GameWebhook | null = first.hook_id === null || first.event_name === null ? null : {
    id: first.hook_id, state: String(first.hook_state), announce_status: Number(first.announce_status), announce_rolls: Number(first.announce_rolls),
    announce_reviews: Number(first.announce_reviews), announce_results: Number(first.announce_results), event_name: first.event_name,
  };
  const square: Square | undefined = first.task_description === null ? undefined : { task_description: first.task_description, task_difficulty: first.task_difficulty, task_rule: first.task_rule };
  return { game, team, states, hook, square, plan: planOf(kind, game, team, Number(first.last_roll ?? 0)) };
}

/**
 * What a roll or revert of `team` changes (applyRoll steps 3-4; docs/game-rules.md §6,
 * §11), from its `plan` (planOf): the team's next state, the move, the log entries (roll and
 * move, then snake or ladder, then the Server's win entry), the game's status and winners, the
 * roll as last_move and its announcement, and the square the team arrives on with how
 * (arrivalState). Throws ActionRefused for a revert with nothing to revert or no reverts left.
 */
function changeOf(action: TeamAction, game: ActionGame, team: ActionTeam, plan: ReturnType<typeof planOf>) {
  const from = team.current_position;
  const teamLog = { name: team.name, color: team.color };
  const messages: LogMessage[] = [];
  let winners: Winner[] | null = parseWinners(game.winners);
  let status: GameStatus = isGameStatus(game.status) ? game.status : 'in-progress';
  if (plan.kind === 'roll') {
    const { rollIndex, die, outcome } = plan;
    messages.push({ message: PLAY_LOG.rolled(team.name, die, from, outcome.landing), team: teamLog, roll: { roll_index: rollIndex, die } });
    if (outcome.connection?.type === 'snake') messages.push({ message: PLAY_LOG.snake(team.name, outcome.landing, outcome.final), team: teamLog });
    if (outcome.connection?.type === 'ladder') messages.push({ message: PLAY_LOG.ladder(team.name, outcome.landing, outcome.final), team: teamLog });
    if (outcome.won) {
      status = 'finished';
      winners = [{ name: team.name, color: team.color }];
      messages.push({ message: PLAY_LOG.won(team.name, game.board_size), team: { name: SERVER_LOG_NAME, color: null } });
    }
    const via = outcome.connection?.type === 'snake' || outcome.connection?.type === 'ladder' ? outcome.connection.type : null;
    return {
      from, messages, status, winners,
      next: { current_position: outcome.final, revert_count: team.revert_count, position_history: [...plan.history, outcome.final] },
      move: { roll_index: rollIndex, die, landing: outcome.landing, via: outcome.connection?.type ?? null },
      lastMove: lastMoveOf(action.team_id, from, die, outcome) as LastMove | null,
      announced: { roll: { team: teamLog, die, from, landing: outcome.landing, to: outcome.final, via }, won: outcome.won } as { roll: AnnouncedRoll; won: boolean } | null,
      arrival: outcome.won ? 'won' as const : 'roll' as const,
    };
  }
  if (plan.back === null) throw new ActionRefused(PLAY_MESSAGES.nothingToRevert(team.name));
  if (!canRevert(team, game.max_reverts_allowed)) {
    throw new ActionRefused(PLAY_MESSAGES.noRevertsLeft(team.name, team.revert_count, game.max_reverts_allowed));
  }
  const next = { current_position: plan.back.position, revert_count: team.revert_count + 1, position_history: plan.back.history };
  messages.push({ message: PLAY_LOG.reverted(team.name, from, plan.back.position, next.revert_count, game.max_reverts_allowed), team: teamLog });
  return {
    from, messages, status, winners, next,
    move: { roll_index: null, die: null, landing: null, via: null } as { roll_index: number | null; die: number | null; landing: number | null; via: 'snake' | 'ladder' | null },
    lastMove: null,
    announced: null,
    arrival: 'revert' as const,
  };
}

/** changeOf's result. */
type Change = ReturnType<typeof changeOf>;

/** The values of WRITE_TEAM_STATE for `change` of team state `team`, arriving with task state `taskState` and progress `progress` at `at`. */
function teamWriteOf(team: ActionTeam, change: Change, taskState: TaskState, progress: TeamProgress | null, at: string) {
  return {
    id: team.id, position: change.next.current_position, reverts: change.next.revert_count, history: JSON.stringify(change.next.position_history),
    taskState, since: at, progress: progress === null ? null : JSON.stringify(progress),
  };
}

/** The values of INSERT_MOVE for `change` (`kind`) of `action` at `at`. */
function moveOf(kind: 'roll' | 'revert', action: TeamAction, change: Change, at: string) {
  return {
    gameId: action.game_id, at, teamId: action.team_id, kind, from: change.from, to: change.next.current_position,
    rollIndex: change.move.roll_index, die: change.move.die, landing: change.move.landing, via: change.move.via,
  };
}

/**
 * The progress after `change` (members shape): the game's status and winners after it, the team
 * states read (`states`) with the acting team's new state (task state `taskState`, arrived at
 * `at`), the game's new `version` and the roll as last_move.
 */
function progressOf(gameId: number, action: TeamAction, states: TeamState[], change: Change, taskState: TaskState, progress: TeamProgress | null, at: string, version: number): GameProgress {
  const teamStates = states.map((s) => s.team_id !== action.team_id ? s : {
    ...s,
    current_position: change.next.current_position,
    revert_count: change.next.revert_count,
    position_history: change.next.position_history,
    task_state: taskState,
    square_since: at,
    task_override: null,
    progress,
  });
  return { id: gameId, status: change.status, team_states: teamStates, winners: change.winners, version, last_move: change.lastMove };
}


/**
 * Claims game `gameId` (docs/server.md §5): at `expected` (the version a precheck read; null:
 * none), else at the version read under the lock (PostgreSQL SELECT ... FOR UPDATE; SQLite's
 * synchronous transaction holds the write lock from BEGIN IMMEDIATE, Kysely's awaited one from
 * this update on); `at` is updated_at. ActionRefused 'Game not found.' when the game is gone,
 * StaleVersion when the second claim fails too (inGame starts over).
 */
export function* claim(db: Db, dialect: Dialect, gameId: number, expected: number | null, at: string): Generator<Step, void, unknown> {
  if (expected !== null && (yield* run(CLAIM.compile(db, { gameId, version: expected, now: at }))).changes === 1) return;
  const row = (yield* run((dialect === 'postgres' ? LOCKED_VERSION : VERSION).compile(db, { gameId }))).rows[0];
  if (!row) throw new ActionRefused(GAME_NOT_FOUND);
  if ((yield* run(CLAIM.compile(db, { gameId, version: row.version, now: at }))).changes !== 1) throw new StaleVersion();
}

/** `UPDATE games SET status, winners` after a winning roll, compiled once (server/db/compiled.ts). */
const GAME_RESULT = compiledQuery((db, p: { gameId: number; status: string; winners: string | null }) =>
  db.updateTable('games').set({ status: p.status, winners: p.winners }).where('id', '=', p.gameId));

/**
 * The steps of a roll or revert (applyRoll, applyRevert) of `action` at time `at` (one time for
 * the claim's updated_at, square_since, the move and the log entries): claim at the precheck's
 * version, READ_HELD, the checks and the change from contract/ rules (heldOf, changeOf), the
 * square arrived on when not the one read, then the writes as one step (a win's status first; the
 * log entries last, whose rows come back), and what only an awaited transaction does: a revert's
 * withdrawn submissions, a win's announcements (they read the standings just written).
 */
function* moveSteps(db: Db, dialect: Dialect, kind: 'roll' | 'revert', action: TeamAction, pre: PrecheckedAction, at: string): GameChange<AppliedAction> {
  const gameId = action.game_id;
  yield* claim(db, dialect, gameId, pre.game.version, at);
  const expected = expectedSquare(kind, pre);
  const held = yield* run(READ_HELD.compile(db, { gameId, teamId: action.team_id, ignId: action.performer_ign_id, userId: pre.userId, square: expected }));
  const { game, team, states, hook, square, plan } = heldOf(kind, action, held.rows);
  const change = changeOf(action, game, team, plan);
  const to = change.next.current_position;
  const arrived = to === expected ? square : (yield* run(SQUARE.compile(db, { gameId, index: to }))).rows[0];
  const taskState = arrivalState(arrived, change.arrival);
  // A team total on the square arrived on starts at 0 (docs/server.md §17).
  const progress = startProgress(parseStoredRule(arrived?.task_rule ?? null), at);
  const won = change.status !== game.status;
  const writes: CompiledQuery[] = [];
  if (won) writes.push(GAME_RESULT.compile(db, { gameId, status: change.status, winners: change.winners === null ? null : JSON.stringify(change.winners) }));
  writes.push(WRITE_TEAM_STATE.compile(db, teamWriteOf(team, change, taskState, progress, at)), INSERT_MOVE.compile(db, moveOf(kind, action, change, at)));
  // The roll's announcement, in this transaction (docs/server.md §10); a win's comes with its standings below.
  if (change.announced && !won && announcesRolls(hook)) {
    writes.push(INSERT_ANNOUNCEMENT.compile(db, { webhookId: hook.id, gameId, kind: 'roll', payload: JSON.stringify(rollAnnouncement(change.announced.roll, { game_id: gameId, version: game.version })), createdAt: at }));
  }
  const logged = yield* run(...writes, logInsert(change.messages.length).compile(db, logInsertValues(gameId, change.messages, at)));
  const withdrawn = kind === 'revert' ? yield* awaited((trx) => withdrawPending(trx, gameId, action.team_id)) : [];
  const announced = change.announced;
  if (announced && won) yield* awaited((trx) => announceRoll(trx, gameId, announced.roll, true, hook, game.version));
  // game.version was read after the claim: it is the version this change set.
  return { progress: progressOf(gameId, action, states, change, taskState, progress, at, game.version), log: logEntriesOf(logged.rows), withdrawn };
}
