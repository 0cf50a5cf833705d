import { sql, type CompiledQuery, type Expression, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { syncSqliteOf, type SyncSqlite } from '../db/connect';
import { nowIso } from '../time';
import { compiledPerCount, compiledQuery } from '../db/compiled';
import { hashSessionId } from '../auth/sessions';
import {
  GAME_NOT_FOUND, SERVER_LOG_NAME, insertLogs, logEntriesOf, logInsert, logInsertValues, parseConnections, parseWinners, storedHistory, storedTaskState,
  teamStateOf, type LogInsertValues, type LogMessage,
} from './repository';
import { serverDieFor } from './dice';
import { boundedMemo } from './boundedMemo';
import { withdrawPending } from '../submissions/service';
import { announceRoll, announcesRolls, rollAnnouncement, type AnnouncedRoll } from '../discord/outbox';
import { INSERT_ANNOUNCEMENT } from '../discord/repository';
import type { GameWebhook } from '../discord/repository';
import { SPECIAL_DESCRIPTIONS, UNASSIGNED_DESCRIPTION, type Connection } from '../../contract/game/generate';
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
import type { LogEntry, TeamState, Winner } from '../../contract/gameApi';
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
 * `action.team_id` in game `action.game_id` for the user the precheck found (`pre`, from
 * precheckTeamAction; docs/server.md §5; docs/game-rules.md §6, §11), in one transaction:
 * 1. claims the game: `UPDATE games SET version = version + 1 … WHERE id = ? AND version = ?`
 *    with the version the precheck read. The update takes the game's row lock on PostgreSQL (as
 *    SELECT ... FOR UPDATE would) and SQLite's single writer, so actions of several processes on
 *    one game wait for each other and are never refused as busy (docs/server.md §8). When another
 *    change won since the precheck, the version is read again under the lock (SELECT ... FOR
 *    UPDATE on PostgreSQL) and that one is claimed; should that fail too, the transaction rolls
 *    back and the action is retried (at most MAX_ATTEMPTS times, then ActionRefused 'The game is
 *    busy. Please try again.').
 * 2. with the game held, reads in one statement what the action needs, all of it fresh: the game
 *    row, whether `performer_ign_id` is an IGN of the user and the Leader of `team_id` in the
 *    game's event, every team state of the game, the highest roll_index recorded, the square the
 *    precheck expects the team to end on and the event's Discord webhook; then checks, in this
 *    order: the Leader (else PLAY_MESSAGES.leaderOnly), the game in progress (else 'Game is
 *    {status}. No actions available.'), the team playing in it, for a roll with proof_required
 *    the roll gate (PROOF_MESSAGES.rollGate, docs/server.md §9), for a revert canRevert (position
 *    > 1 and revert_count < max_reverts_allowed). A refusal rolls the claim back with the rest.
 * 3. writes the team state and the log entries (roll and move, then snake or ladder, then the
 *    Server's win entry; a roll reaching N also sets status 'finished' and winners [{name, color}]).
 * 4. sets the team's task state and square_since (docs/server.md §9): after a roll `open`
 *    on a square with a task (contract arrivalState), else `none`; after a revert `approved` on a
 *    square with a task, else `none`, and the team's pending submissions are withdrawn; the
 *    arrival time is `now()` (ISO). The square is read again only when the team ends elsewhere
 *    than the precheck expected.
 * 5. records the move in game_moves (docs/server.md §12): time, team, kind, roll_index and
 *    die, from, landing, to, via.
 * A roll's die comes from the game's dice seed (docs/game-rules.md §9, serverDieFor): the
 * roll is the k-th of the round, k = 1 + the highest roll_index recorded for the game (reverts
 * take none), read inside the transaction that holds the version, so two rolls never share a k;
 * the roll's log entry carries roll_index and die, and its progress carries the roll as last_move
 * (contract lastMoveOf; null after a revert). The progress's team states are those read in 2 with
 * the team's new state. Resolves after COMMIT, so callers broadcast only what is persisted. Any
 * other error (database down) is thrown as is.
 * A roll that does not win is made in one go (docs/server.md §5): on SQLite these steps as one
 * synchronous transaction (rollAtOnce), on PostgreSQL one statement computed from `pre`
 * (rollInOneStatement); when that cannot apply it, nothing was written and the transaction above
 * runs it.
 */
export async function applyTeamAction(
  db: Db,
  dialect: Dialect,
  kind: 'roll' | 'revert',
  action: TeamAction,
  pre: PrecheckedAction,
  now: () => string = nowIso,
): Promise<AppliedAction> {
  if (kind === 'roll') {
    const sync = dialect === 'sqlite' ? syncSqliteOf(db) : undefined;
    if (sync) {
      try {
        return await sync.transaction(() => rollAtOnce(sync, db, action, pre, now()));
      } catch (err) {
        if (!(err instanceof NotAtOnce) && !(err instanceof StaleVersion) && !isBusy(err)) throw err;
      }
    } else if (dialect === 'postgres') {
      const applied = await rollInOneStatement(db, action, pre, now());
      if (applied) return applied;
    }
  }
  return retryingTransaction(db, dialect, (trx) => applyOnce(trx, dialect, kind, action, pre, now));
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
 * What the precheck read, handed to the transaction (applyTeamAction): the session's user and
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
export function checkAction(kind: 'roll' | 'revert', action: TeamAction, game: ActionGame, leader: boolean, team: ActionTeam | null): ActionTeam {
  if (!leader) throw new ActionRefused(PLAY_MESSAGES.leaderOnly);
  if (!isPlayableStatus(game.status)) throw new ActionRefused(PLAY_MESSAGES.notPlayable(game.status));
  if (!team) throw new ActionRefused(PLAY_MESSAGES.notPlaying(action.team_id));
  if (kind === 'roll' && !mayRoll(game.proof_required === 1, storedTaskState(team.task_state))) {
    throw new ActionRefused(PROOF_MESSAGES.rollGate(team.current_position, team.name));
  }
  return team;
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
    .select(['sessions.user_id', ...GAME_COLUMNS])
    .select([
      'team_states.id as state_id', 'team_states.current_position', 'team_states.revert_count', 'team_states.position_history',
      'team_states.task_state', 'teams.name as team_name', 'teams.color as team_color',
    ])
    .select((eb) => [
      leaderFlag(eb as ExpressionBuilder<Database, 'games'>, { team_id: p.teamId, performer_ign_id: p.ignId }, eb.ref('sessions.user_id')).as('leader'),
      lastRollOf(eb as ExpressionBuilder<Database, 'games'>).as('last_roll'),
    ])
    .where('sessions.id', '=', p.sessionHash)
    .where('sessions.expires_at', '>', p.now));

/**
 * The permission and status checks of a roll or revert, made before the action waits in the
 * game's queue (docs/server.md §5, §8: a refused action is decided before it waits), outside any
 * transaction, in one statement that also looks up the socket's session (cookie id `sessionId`,
 * as findSession: unknown or expired means signed out, so a logout counts at once; `sessionHash`
 * is its stored hash, given when the caller has it already). Resolves to null without a live session; throws ActionRefused 'Game not found.', then as checkAction;
 * else resolves to what it read, which applyTeamAction claims and checks again, since the state
 * may change meanwhile.
 */
export async function precheckTeamAction(db: Db, kind: 'roll' | 'revert', action: TeamAction, sessionId: string, sessionHash = hashSessionId(sessionId)): Promise<PrecheckedAction | null> {
  const row = (await PRECHECK.execute(db, {
    gameId: action.game_id, teamId: action.team_id, ignId: action.performer_ign_id, sessionHash, now: nowIso(),
  })).rows[0];
  if (!row) return null;
  const game = gameOf(row);
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const team = checkAction(kind, action, game, Number(row.leader) === 1, teamOf(row));
  return { userId: row.user_id, sessionHash, game, team, lastRollIndex: Number(row.last_roll ?? 0) };
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

/** The board square `index` of a game (its task and tier), or undefined. */
async function squareAt(db: Db, gameId: number, index: number) {
  return (await SQUARE.execute(db, { gameId, index })).rows[0];
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
const connectionsOf = boundedMemo(1_000, (text): readonly Connection[] => Object.freeze(parseConnections(text).map((c) => Object.freeze(c))));

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
  const outcome = applyRoll({ position: team.current_position, die, board_size: game.board_size, connections: connectionsOf(game.board_connections) });
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

/** The claim (CLAIM) of game `gameId` at `version`, time `now`: true when it changed the row. */
async function bumpVersionAt(trx: Db, gameId: number, version: number, now: string): Promise<boolean> {
  const claimed = await CLAIM.execute(trx, { gameId, version, now });
  return Number(claimed.numAffectedRows ?? 0) === 1;
}

/**
 * Claims game `gameId` for this transaction (applyTeamAction step 1): at `expected`, else at the
 * version read under the row lock; `now` is the claim's updated_at. ActionRefused 'Game not found.' when the game is gone,
 * StaleVersion when the second claim fails too.
 */
async function claimGame(trx: Db, dialect: Dialect, gameId: number, expected: number, now: string): Promise<void> {
  if (await bumpVersionAt(trx, gameId, expected, now)) return;
  const row = (await (dialect === 'postgres' ? LOCKED_VERSION : VERSION).execute(trx, { gameId })).rows[0];
  if (!row) throw new ActionRefused(GAME_NOT_FOUND);
  if (!(await bumpVersionAt(trx, gameId, row.version, now))) throw new StaleVersion();
}

/**
 * Everything an action reads once it holds the game (applyTeamAction step 2), one row per team
 * state of the game by team id (one row with no team state when there is none): the game, the
 * Leader flag, the highest roll_index, the square `square` of the board, the event's webhook and
 * event name, and the team state with its team.
 */
async function readHeld(trx: Db, action: TeamAction, userId: number, square: number) {
  return (await READ_HELD.execute(trx, { gameId: action.game_id, teamId: action.team_id, ignId: action.performer_ign_id, userId, square })).rows;
}

/** readHeld's statement, compiled once (server/db/compiled.ts): game `gameId`, Leader flag of IGN `ignId` of user `userId` in team `teamId`, board square `square`. */
export const READ_HELD = compiledQuery((db, p: { gameId: number; teamId: number; ignId: number; userId: number; square: number }) =>
  db.selectFrom('games')
    .leftJoin('board_squares', (join) => join.onRef('board_squares.game_id', '=', 'games.id').on('board_squares.square_index', '=', p.square))
    .leftJoin('discord_webhooks', 'discord_webhooks.event_id', 'games.event_id')
    .leftJoin('events', 'events.id', 'games.event_id')
    .leftJoin('team_states', 'team_states.game_id', 'games.id')
    .leftJoin('teams', 'teams.id', 'team_states.team_id')
    .select(GAME_COLUMNS)
    .select((eb) => [leaderFlag(eb, { team_id: p.teamId, performer_ign_id: p.ignId }, p.userId).as('leader'), lastRollOf(eb).as('last_roll')])
    .select([
      'board_squares.task_description', 'board_squares.task_difficulty',
      'discord_webhooks.id as hook_id', 'discord_webhooks.state as hook_state', 'discord_webhooks.announce_status',
      'discord_webhooks.announce_rolls', 'discord_webhooks.announce_reviews', 'discord_webhooks.announce_results', 'events.name as event_name',
      'team_states.id as state_id', 'team_states.team_id', 'teams.name as team_name', 'teams.color as team_color', 'team_states.current_position',
      'team_states.revert_count', 'team_states.position_history', 'team_states.task_state', 'team_states.square_since', 'team_states.task_override',
      'team_states.relief_count',
    ])
    .where('games.id', '=', p.gameId)
    .orderBy('team_states.team_id'));

/** The team state a roll or revert writes (applyTeamAction step 3, 4), compiled once (server/db/compiled.ts). */
export const WRITE_TEAM_STATE = compiledQuery((db, p: {
  id: number; position: number; reverts: number; history: string; taskState: string; since: string;
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
    })
    .where('id', '=', p.id));

/** The game_moves row of a roll or revert (applyTeamAction step 5), compiled once (server/db/compiled.ts). */
export const INSERT_MOVE = compiledQuery((db, p: {
  gameId: number; at: string; teamId: number; kind: 'roll' | 'revert'; from: number; to: number;
  rollIndex: number | null; die: number | null; landing: number | null; via: 'snake' | 'ladder' | null;
}) =>
  db.insertInto('game_moves')
    .values({
      game_id: p.gameId, at: p.at, team_id: p.teamId, kind: p.kind, from_square: p.from, to_square: p.to,
      roll_index: p.rollIndex, die: p.die, landing: p.landing, via: p.via,
    }));

/** A board square's task as a roll or revert reads it (contract arrivalState). */
type Square = { task_description: string; task_difficulty: string | null };

/** The board square `index` of game `gameId` (its task and tier), compiled once (server/db/compiled.ts). */
export const SQUARE = compiledQuery((db, p: { gameId: number; index: number }) =>
  db.selectFrom('board_squares').select(['task_description', 'task_difficulty'])
    .where('game_id', '=', p.gameId).where('square_index', '=', p.index));

/** A row of READ_HELD. */
type HeldRow = ReturnType<typeof READ_HELD.compile> extends CompiledQuery<infer R> ? R : never;

/**
 * What READ_HELD's `rows` say (applyTeamAction step 2): the game, every team state, the acting
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
      square_since: String(r.square_since), task_override: r.task_override, relief_count: Number(r.relief_count),
    }));
  }
  const acting = rows.find((r) => r.team_id === action.team_id);
  const team = checkAction(kind, action, game, Number(first.leader) === 1, acting ? teamOf(acting) : null);
  const hook: GameWebhook | null = first.hook_id === null || first.event_name === null ? null : {
    id: first.hook_id, state: String(first.hook_state), announce_status: Number(first.announce_status), announce_rolls: Number(first.announce_rolls),
    announce_reviews: Number(first.announce_reviews), announce_results: Number(first.announce_results), event_name: first.event_name,
  };
  const square: Square | undefined = first.task_description === null ? undefined : { task_description: first.task_description, task_difficulty: first.task_difficulty };
  return { game, team, states, hook, square, plan: planOf(kind, game, team, Number(first.last_roll ?? 0)) };
}

/**
 * What a roll or revert of `team` changes (applyTeamAction steps 3-5; docs/game-rules.md §6,
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

/** The values of WRITE_TEAM_STATE for `change` of team state `team`, arriving with task state `taskState` at `at`. */
function teamWriteOf(team: ActionTeam, change: Change, taskState: TaskState, at: string) {
  return {
    id: team.id, position: change.next.current_position, reverts: change.next.revert_count, history: JSON.stringify(change.next.position_history),
    taskState, since: at,
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
function progressOf(gameId: number, action: TeamAction, states: TeamState[], change: Change, taskState: TaskState, at: string, version: number): GameProgress {
  const teamStates = states.map((s) => s.team_id !== action.team_id ? s : {
    ...s,
    current_position: change.next.current_position,
    revert_count: change.next.revert_count,
    position_history: change.next.position_history,
    task_state: taskState,
    square_since: at,
    task_override: null,
  });
  return { id: gameId, status: change.status, team_states: teamStates, winners: change.winners, version, last_move: change.lastMove };
}

/** One attempt of applyTeamAction inside its transaction. */
async function applyOnce(trx: Db, dialect: Dialect, kind: 'roll' | 'revert', action: TeamAction, pre: PrecheckedAction, now: () => string): Promise<AppliedAction> {
  // One time for the whole change: the claim's updated_at, square_since, the move and the log entries.
  const at = now();
  await claimGame(trx, dialect, action.game_id, pre.game.version, at);
  const expected = expectedSquare(kind, pre);
  const { game, team, states, hook, square, plan } = heldOf(kind, action, await readHeld(trx, action, pre.userId, expected));
  const change = changeOf(action, game, team, plan);
  const arrived = change.next.current_position === expected ? square : await squareAt(trx, game.id, change.next.current_position);
  const taskState = arrivalState(arrived, change.arrival);

  // The claim bumped version and updated_at; a win also changes status and winners.
  if (change.status !== game.status) {
    await trx.updateTable('games').set({ status: change.status, winners: change.winners === null ? null : JSON.stringify(change.winners) }).where('id', '=', game.id).execute();
  }
  await WRITE_TEAM_STATE.execute(trx, teamWriteOf(team, change, taskState, at));
  await INSERT_MOVE.execute(trx, moveOf(kind, action, change, at));
  const withdrawn = kind === 'revert' ? await withdrawPending(trx, game.id, action.team_id) : [];
  const log = await insertLogs(trx, game.id, change.messages, at);
  // Discord announcements go to the outbox in this transaction (docs/server.md §10).
  if (change.announced) await announceRoll(trx, game.id, change.announced.roll, change.announced.won, hook);
  // game.version was read after the claim: it is the version this action set.
  return { progress: progressOf(game.id, action, states, change, taskState, at, game.version), log, withdrawn };
}

/** A roll the one-go paths (rollAtOnce, rollInOneStatement) leave to applyOnce: thrown inside SQLite's transaction to roll it back. */
class NotAtOnce extends Error {
  override name = 'NotAtOnce';
}

/**
 * A roll of `action` on SQLite as one synchronous transaction (docs/server.md §5, §7): the same
 * steps, checks and refusals as applyOnce (claim at the precheck's version, else at the version
 * read, which under BEGIN IMMEDIATE is current; READ_HELD; the square when the team ends
 * elsewhere than expected; the team state, the move, the log entries and the announcement), with
 * no await between statements. Throws NotAtOnce (rolled back) for a roll that wins, whose
 * announcements read the standings: applyOnce makes those.
 */
function rollAtOnce(sync: SyncSqlite, db: Db, action: TeamAction, pre: PrecheckedAction, at: string): AppliedAction {
  const gameId = action.game_id;
  if (sync.execute(CLAIM.compile(db, { gameId, version: pre.game.version, now: at })).changes !== 1) {
    const row = sync.execute(VERSION.compile(db, { gameId })).rows[0];
    if (!row) throw new ActionRefused(GAME_NOT_FOUND);
    if (sync.execute(CLAIM.compile(db, { gameId, version: row.version, now: at })).changes !== 1) throw new StaleVersion();
  }
  const expected = expectedSquare('roll', pre);
  const rows = sync.execute(READ_HELD.compile(db, { gameId, teamId: action.team_id, ignId: action.performer_ign_id, userId: pre.userId, square: expected })).rows;
  const { game, team, states, hook, square, plan } = heldOf('roll', action, rows);
  const change = changeOf(action, game, team, plan);
  if (change.status !== game.status || !change.announced) throw new NotAtOnce();
  const to = change.next.current_position;
  const arrived = to === expected ? square : sync.execute(SQUARE.compile(db, { gameId, index: to })).rows[0];
  const taskState = arrivalState(arrived, change.arrival);
  sync.execute(WRITE_TEAM_STATE.compile(db, teamWriteOf(team, change, taskState, at)));
  sync.execute(INSERT_MOVE.compile(db, moveOf('roll', action, change, at)));
  const log = logEntriesOf(sync.execute(logInsert(change.messages.length).compile(db, logInsertValues(gameId, change.messages, at))).rows);
  // The roll's announcement, in this transaction as announceRoll would queue it (docs/server.md §10).
  if (announcesRolls(hook)) {
    const payload = JSON.stringify(rollAnnouncement(change.announced.roll));
    sync.execute(INSERT_ANNOUNCEMENT.compile(db, { webhookId: hook.id, gameId, kind: 'roll', payload, createdAt: at }));
  }
  return { progress: progressOf(gameId, action, states, change, taskState, at, game.version), log, withdrawn: [] };
}

/** The values of ONE_STATEMENT_ROLL with `count` log entries (oneStatementRoll). */
type OneStatementValues = {
  gameId: number; version: number; at: string; teamId: number; ignId: number; userId: number; sessionHash: string; eventId: number;
  stateId: number; from: number; to: number; history: string; rollIndex: number; die: number; landing: number; via: string | null; payload: string;
} & LogInsertValues;

/** A row of ONE_STATEMENT_ROLL: the version set, the task state written, the log entries written and one team state as read before the roll. */
interface OneStatementRow {
  version: number;
  task_state: string;
  log: Parameters<typeof logEntriesOf>[0];
  team_id: number | null; team_name: string | null; team_color: string | null; current_position: number | null; revert_count: number | null;
  position_history: string | null; state_task: string | null; square_since: string | null; task_override: string | null; relief_count: number | null;
}

/** The task states of arrivalState after a roll: on a square with a task, and on one without. */
const ARRIVED_ON_TASK = arrivalState({ task_description: '?', task_difficulty: '?' }, 'roll');
const ARRIVED_ELSEWHERE = arrivalState(undefined, 'roll');

/** Descriptions of squares that carry no task (contract hasTask): 'Start', 'Finish', 'Snake', 'Ladder' and the unassigned ''. */
const TASKLESS_DESCRIPTIONS = [...Object.values(SPECIAL_DESCRIPTIONS), UNASSIGNED_DESCRIPTION];

/**
 * A roll that does not win in one PostgreSQL statement with `count` log entries (compiled once per
 * count, server/db/compiled.ts), data-modifying CTEs each conditioned on the claim: claims game
 * `gameId` at `version` while it is in progress, IGN `ignId` of user `userId` is still the
 * Leader of `teamId` and the session `sessionHash` of that user is live at `at` (so a roll from
 * remembered rows, rememberedRoll, counts a logout at once); writes team state `stateId` (the
 * task state from the board square `to` as contract hasTask and arrivalState decide), the move
 * and the log entries and, when the event's webhook announces rolls, the announcement
 * `payload`; answers one row per team state of the game as read before the roll,
 * each with the new version, the task state written and the log entries, or no row when the claim
 * failed (and nothing was written).
 */
function oneStatementRoll(count: number) {
  return compiledQuery((db, p: OneStatementValues) => ({
    compile: () => sql<OneStatementRow>`with claim as (
  update games set version = version + 1, updated_at = ${p.at}
  where id = ${p.gameId} and version = ${p.version} and status = 'in-progress' and exists (
    select 1 from team_members tm inner join igns on igns.id = tm.ign_id
    where tm.team_id = ${p.teamId} and tm.event_id = games.event_id and tm.ign_id = ${p.ignId} and tm.role = 'Leader' and igns.user_id = ${p.userId})
  and exists (select 1 from sessions s where s.id = ${p.sessionHash} and s.user_id = ${p.userId} and s.expires_at > ${p.at})
  returning id, version
), state as (
  update team_states set current_position = ${p.to}, position_history = ${p.history}, square_since = ${p.at}, task_override = null,
    task_state = case when exists (
      select 1 from board_squares b where b.game_id = ${p.gameId} and b.square_index = ${p.to}
        and b.task_difficulty is not null and b.task_description not in (${sql.join(TASKLESS_DESCRIPTIONS)})
    ) then ${ARRIVED_ON_TASK} else ${ARRIVED_ELSEWHERE} end
  where id = ${p.stateId} and exists (select 1 from claim)
  returning task_state
), move as (
  insert into game_moves (game_id, at, team_id, kind, from_square, to_square, roll_index, die, landing, via)
  select claim.id, cast(${p.at} as text), cast(${p.teamId} as integer), 'roll', cast(${p.from} as integer), cast(${p.to} as integer),
    cast(${p.rollIndex} as integer), cast(${p.die} as integer), cast(${p.landing} as integer), cast(${p.via} as text) from claim
), log as (
  insert into game_log (game_id, timestamp, team_name, team_color, message, roll_index, die)
  select claim.id, cast(${p.timestamp} as text), e.name, e.color, e.message, e.roll_index, e.die from claim, (values ${sql.join(Array.from({ length: count }, (_, i) =>
    sql`(cast(${p[`name${i}`]} as text), cast(${p[`color${i}`]} as text), cast(${p[`message${i}`]} as text), cast(${p[`rollIndex${i}`]} as integer), cast(${p[`die${i}`]} as integer), ${sql.lit(i)})`))}) as e(name, color, message, roll_index, die, n)
  order by e.n
  returning id, timestamp, team_name, team_color, message, roll_index, die
), announced as (
  insert into discord_outbox (webhook_id, game_id, kind, payload, created_at)
  select w.id, claim.id, 'roll', cast(${p.payload} as text), cast(${p.at} as text) from claim
  inner join discord_webhooks w on w.event_id = ${p.eventId} and w.state <> 'disabled' and w.announce_rolls = 1
)
select claim.version, (select task_state from state) as task_state, (select json_agg(log order by log.id) from log) as log,
  ts.team_id, t.name as team_name, t.color as team_color, ts.current_position, ts.revert_count, ts.position_history,
  ts.task_state as state_task, ts.square_since, ts.task_override, ts.relief_count
from claim left join (team_states ts inner join teams t on t.id = ts.team_id) on ts.game_id = claim.id
order by ts.team_id`.compile(db),
  }));
}

/** The compiled oneStatementRoll of `count` log entries, made on first use (a roll that does not win writes one or two). */
const oneStatementRollOf = compiledPerCount(oneStatementRoll);

/** PostgreSQL's deadlock and serialization failures: the statement was undone, applyOnce tries again. */
const RETRYABLE_PG_CODES = new Set(['40P01', '40001']);

/** The session `sessionHash` of user `userId`, when it is live at `now` (a remembered roll's session check on SQLite). */
const LIVE_SESSION = compiledQuery((db, p: { sessionHash: string; userId: number; now: string }) =>
  db.selectFrom('sessions').select('user_id').where('id', '=', p.sessionHash).where('user_id', '=', p.userId).where('expires_at', '>', p.now));

/**
 * A roll from rows remembered from this process's last roll of the game (games/precheckMemo.ts)
 * instead of the precheck's (docs/server.md §5), with the session checked in the same go: on
 * PostgreSQL the one statement of rollInOneStatement, whose claim checks the version, the Leader
 * and the session; on SQLite one synchronous transaction that checks the session and then runs
 * rollAtOnce (which claims the version it finds and reads everything again under it, so its
 * refusals are those of a fresh read). Resolves to null with nothing written when the session is
 * not live or the roll cannot be made in one go; the caller then runs the precheck and
 * applyTeamAction as for any roll.
 */
export async function rememberedRoll(db: Db, dialect: Dialect, action: TeamAction, pre: PrecheckedAction, now: () => string = nowIso): Promise<AppliedAction | null> {
  if (dialect === 'postgres') return rollInOneStatement(db, action, pre, now());
  const sync = syncSqliteOf(db);
  if (!sync) return null;
  try {
    return await sync.transaction(() => {
      const at = now();
      if (sync.execute(LIVE_SESSION.compile(db, { sessionHash: pre.sessionHash, userId: pre.userId, now: at })).rows.length === 0) throw new NotAtOnce();
      return rollAtOnce(sync, db, action, pre, at);
    });
  } catch (err) {
    if (err instanceof NotAtOnce || err instanceof StaleVersion || isBusy(err)) return null;
    throw err;
  }
}

/**
 * A roll of `action` on PostgreSQL in one statement in autocommit (oneStatementRoll; docs/server.md
 * §5), computed from the precheck's rows `pre`: when the claim at the precheck's version succeeds,
 * nothing that bumps the version changed since, so the precheck's game, team state and roll index
 * are current, and the Leader and the session are checked again in the claim. Resolves to null,
 * nothing written, when the claim failed, the roll wins (its announcements read the standings) or PostgreSQL undid
 * the statement (deadlock): applyOnce then runs the roll.
 */
async function rollInOneStatement(db: Db, action: TeamAction, pre: PrecheckedAction, at: string): Promise<AppliedAction | null> {
  let plan: ReturnType<typeof planOf>;
  try {
    plan = planOf('roll', pre.game, pre.team, pre.lastRollIndex);
  } catch {
    return null;
  }
  const change = changeOf(action, pre.game, pre.team, plan);
  if (change.status !== pre.game.status || !change.announced) return null;
  // Added to logInsertValues' own new object rather than spread into another: V8 pretenured the
  // spread's ~30-property copy (allocated it in the old generation), a few KB a roll that only a
  // major GC took back (bench/RESULTS.md, many live games).
  const values: OneStatementValues = Object.assign(logInsertValues(action.game_id, change.messages, at), {
    version: pre.game.version, at, teamId: action.team_id, ignId: action.performer_ign_id, userId: pre.userId, sessionHash: pre.sessionHash, eventId: pre.game.event_id,
    stateId: pre.team.id, from: change.from, to: change.next.current_position, history: JSON.stringify(change.next.position_history),
    rollIndex: Number(change.move.roll_index), die: Number(change.move.die), landing: Number(change.move.landing), via: change.move.via,
    payload: JSON.stringify(rollAnnouncement(change.announced.roll)),
  });
  let rows: OneStatementRow[];
  try {
    rows = (await oneStatementRollOf(change.messages.length).execute(db, values)).rows;
  } catch (err) {
    if (RETRYABLE_PG_CODES.has(String((err as { code?: unknown } | null)?.code))) return null;
    throw err;
  }
  const first = rows[0];
  if (!first) return null;
  const states: TeamState[] = [];
  for (const r of rows) {
    if (r.team_id === null || r.team_name === null) continue;
    states.push(teamStateOf({
      team_id: r.team_id, team_name: r.team_name, team_color: String(r.team_color), current_position: Number(r.current_position),
      revert_count: Number(r.revert_count), position_history: String(r.position_history), task_state: String(r.state_task),
      square_since: String(r.square_since), task_override: r.task_override, relief_count: Number(r.relief_count),
    }));
  }
  const taskState = storedTaskState(first.task_state);
  return { progress: progressOf(action.game_id, action, states, change, taskState, at, Number(first.version)), log: logEntriesOf(first.log ?? []), withdrawn: [] };
}
