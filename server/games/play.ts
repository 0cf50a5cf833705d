import type { Expression, ExpressionBuilder, Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { nowIso } from '../db/connect';
import { compiledQuery } from '../db/compiled';
import { hashSessionId } from '../auth/sessions';
import { GAME_NOT_FOUND, SERVER_LOG_NAME, insertLogs, parseConnections, parseWinners, storedHistory, storedTaskState, teamStateOf } from './repository';
import { serverDieFor } from './dice';
import { withdrawPending } from '../submissions/service';
import { announceRoll, type AnnouncedRoll } from '../discord/outbox';
import type { GameWebhook } from '../discord/repository';
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
 */
export async function applyTeamAction(
  db: Db,
  dialect: Dialect,
  kind: 'roll' | 'revert',
  action: TeamAction,
  pre: PrecheckedAction,
  now: () => string = nowIso,
): Promise<AppliedAction> {
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
interface ActionGame {
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
interface ActionTeam {
  id: number;
  current_position: number;
  revert_count: number;
  position_history: string;
  task_state: string;
  name: string;
  color: string;
}

/**
 * What the precheck read, handed to the transaction (applyTeamAction): the session's user, the
 * game, the acting team's state and the round's highest roll_index (0 before the first roll).
 * The transaction claims the game at this version and reads everything again under the claim.
 */
export interface PrecheckedAction {
  userId: number;
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
 * as findSession: unknown or expired means signed out, so a logout counts at once). Resolves to
 * null without a live session; throws ActionRefused 'Game not found.', then as checkAction;
 * else resolves to what it read, which applyTeamAction claims and checks again, since the state
 * may change meanwhile.
 */
export async function precheckTeamAction(db: Db, kind: 'roll' | 'revert', action: TeamAction, sessionId: string): Promise<PrecheckedAction | null> {
  const row = (await PRECHECK.execute(db, {
    gameId: action.game_id, teamId: action.team_id, ignId: action.performer_ign_id, sessionHash: hashSessionId(sessionId), now: nowIso(),
  })).rows[0];
  if (!row) return null;
  const game = gameOf(row);
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const team = checkAction(kind, action, game, Number(row.leader) === 1, teamOf(row));
  return { userId: row.user_id, game, team, lastRollIndex: Number(row.last_roll ?? 0) };
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
  return db.selectFrom('board_squares').select(['task_description', 'task_difficulty'])
    .where('game_id', '=', gameId).where('square_index', '=', index).executeTakeFirst();
}

/**
 * What a roll or revert of `team` does from the rows read (docs/game-rules.md §6, §9): for a
 * roll, k = `lastRollIndex` + 1, its die (serverDieFor) and the move (contract applyRoll); for a
 * revert, the square it goes back to (contract revertHistory), or null when there is no move to
 * revert. Throws only what serverDieFor throws.
 */
function planOf(kind: 'roll' | 'revert', game: ActionGame, team: ActionTeam, lastRollIndex: number) {
  const stored = storedHistory(team.position_history);
  const history = stored.length > 0 ? stored : [team.current_position];
  if (kind === 'revert') {
    const back = team.current_position <= 1 || history.length < 2 ? null : revertHistory(history);
    return { kind, history, back, square: back?.position ?? team.current_position } as const;
  }
  const rollIndex = lastRollIndex + 1;
  const die = serverDieFor(game.dice_seed, game.id, rollIndex);
  const outcome = applyRoll({ position: team.current_position, die, board_size: game.board_size, connections: parseConnections(game.board_connections) });
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

/** One attempt of applyTeamAction inside its transaction. */
async function applyOnce(trx: Db, dialect: Dialect, kind: 'roll' | 'revert', action: TeamAction, pre: PrecheckedAction, now: () => string): Promise<AppliedAction> {
  // One time for the whole change: the claim's updated_at, square_since, the move and the log entries.
  const at = now();
  await claimGame(trx, dialect, action.game_id, pre.game.version, at);
  const expected = expectedSquare(kind, pre);
  const rows = await readHeld(trx, action, pre.userId, expected);
  const first = rows[0];
  const game = first && gameOf(first);
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  const states: TeamState[] = [];
  for (const r of rows) {
    if (r.state_id === null || r.team_id === null || r.team_name === null) continue;
    states.push(teamStateOf({
      team_id: r.team_id, team_name: r.team_name, team_color: String(r.team_color), current_position: Number(r.current_position),
      revert_count: Number(r.revert_count), position_history: String(r.position_history), task_state: String(r.task_state),
      square_since: String(r.square_since), task_override: r.task_override,
    }));
  }
  const acting = rows.find((r) => r.team_id === action.team_id);
  const team = checkAction(kind, action, game, Number(first.leader) === 1, acting ? teamOf(acting) : null);
  const hook: GameWebhook | null = first.hook_id === null || first.event_name === null ? null : {
    id: first.hook_id, state: String(first.hook_state), announce_status: Number(first.announce_status), announce_rolls: Number(first.announce_rolls),
    announce_reviews: Number(first.announce_reviews), announce_results: Number(first.announce_results), event_name: first.event_name,
  };

  const plan = planOf(kind, game, team, Number(first.last_roll ?? 0));
  const squareOf = async (index: number) => index === expected
    ? (first.task_description === null ? undefined : { task_description: first.task_description, task_difficulty: first.task_difficulty })
    : squareAt(trx, game.id, index);
  const from = team.current_position;
  const teamLog = { name: team.name, color: team.color };
  const messages: { message: string; team: { name: string; color: string | null }; roll?: { roll_index: number; die: number } }[] = [];
  let move: { roll_index: number | null; die: number | null; landing: number | null; via: 'snake' | 'ladder' | null };
  let next: { current_position: number; revert_count: number; position_history: number[] };
  let winners: Winner[] | null = parseWinners(game.winners);
  let status: GameStatus = isGameStatus(game.status) ? game.status : 'in-progress';
  let taskState: TaskState;
  let lastMove: LastMove | null = null;
  let announced: { roll: AnnouncedRoll; won: boolean } | null = null;

  if (plan.kind === 'roll') {
    const { rollIndex, die, outcome } = plan;
    lastMove = lastMoveOf(action.team_id, from, die, outcome);
    next = { current_position: outcome.final, revert_count: team.revert_count, position_history: [...plan.history, outcome.final] };
    move = { roll_index: rollIndex, die, landing: outcome.landing, via: outcome.connection?.type ?? null };
    messages.push({ message: PLAY_LOG.rolled(team.name, die, from, outcome.landing), team: teamLog, roll: { roll_index: rollIndex, die } });
    if (outcome.connection?.type === 'snake') messages.push({ message: PLAY_LOG.snake(team.name, outcome.landing, outcome.final), team: teamLog });
    if (outcome.connection?.type === 'ladder') messages.push({ message: PLAY_LOG.ladder(team.name, outcome.landing, outcome.final), team: teamLog });
    if (outcome.won) {
      status = 'finished';
      winners = [{ name: team.name, color: team.color }];
      messages.push({ message: PLAY_LOG.won(team.name, game.board_size), team: { name: SERVER_LOG_NAME, color: null } });
    }
    taskState = arrivalState(await squareOf(outcome.final), outcome.won ? 'won' : 'roll');
    const via = outcome.connection?.type === 'snake' || outcome.connection?.type === 'ladder' ? outcome.connection.type : null;
    announced = { roll: { team: teamLog, die, from, landing: outcome.landing, to: outcome.final, via }, won: outcome.won };
  } else {
    if (plan.back === null) throw new ActionRefused(PLAY_MESSAGES.nothingToRevert(team.name));
    if (!canRevert(team, game.max_reverts_allowed)) {
      throw new ActionRefused(PLAY_MESSAGES.noRevertsLeft(team.name, team.revert_count, game.max_reverts_allowed));
    }
    next = { current_position: plan.back.position, revert_count: team.revert_count + 1, position_history: plan.back.history };
    move = { roll_index: null, die: null, landing: null, via: null };
    messages.push({ message: PLAY_LOG.reverted(team.name, from, plan.back.position, next.revert_count, game.max_reverts_allowed), team: teamLog });
    taskState = arrivalState(await squareOf(plan.back.position), 'revert');
  }

  // The claim bumped version and updated_at; a win also changes status and winners.
  if (status !== game.status) {
    await trx.updateTable('games').set({ status, winners: winners === null ? null : JSON.stringify(winners) }).where('id', '=', game.id).execute();
  }

  await WRITE_TEAM_STATE.execute(trx, {
    id: team.id, position: next.current_position, reverts: next.revert_count, history: JSON.stringify(next.position_history), taskState, since: at,
  });
  await INSERT_MOVE.execute(trx, {
    gameId: game.id, at, teamId: action.team_id, kind, from, to: next.current_position,
    rollIndex: move.roll_index, die: move.die, landing: move.landing, via: move.via,
  });
  const withdrawn = kind === 'revert' ? await withdrawPending(trx, game.id, action.team_id) : [];
  const log = await insertLogs(trx, game.id, messages, at);
  // Discord announcements go to the outbox in this transaction (docs/server.md §10).
  if (announced) await announceRoll(trx, game.id, announced.roll, announced.won, hook);

  const teamStates = states.map((s) => s.team_id !== action.team_id ? s : {
    ...s,
    current_position: next.current_position,
    revert_count: next.revert_count,
    position_history: next.position_history,
    task_state: taskState,
    square_since: at,
    task_override: null,
  });
  return {
    // game.version was read after the claim: it is the version this action set.
    progress: { id: game.id, status, team_states: teamStates, winners, version: game.version, last_move: lastMove },
    log,
    withdrawn,
  };
}
