import type { Selectable } from 'kysely';
import type { Db, GamesTable } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { nowIso } from '../time';
import { compiledPerCount, compiledQuery } from '../db/compiled';
import { notFound } from '../errors';
import { TIERS, isTier, type Tier } from '../../contract/game/tiers';
import type { AssignedSquare, Connection, PoolTask } from '../../contract/game/generate';
import type { GameSettings } from '../../contract/game/settings';
import { parseHistory } from '../../contract/game/moves';
import { TASK_STATES, type TaskState } from '../../contract/submission';
import { parseStoredRule } from '../tasks/repository';
import * as v from 'valibot';
import { TaskOverrideSchema, type TaskOverride } from '../../contract/game/relief';
import { parseProgress } from '../../contract/progress';
import {
  GAME_LOG_LIMIT,
  type BoardSquare,
  type LogEntry,
  type TeamState,
  type UserTeam,
  type Winner,
} from '../../contract/gameApi';

/** A stored game row (server/db/schema.ts GamesTable). */
export type GameRow = Selectable<GamesTable>;

/** Team name of system log entries (docs/game-rules.md §12). */
export const SERVER_LOG_NAME = 'Server';

/** Message of an unknown game or a game of another event or clan. */
export const GAME_NOT_FOUND = 'Game not found.';

/**
 * The game `gameId` if it belongs to event `eventId` of clan `clanId`; 404 'Game not found.'
 * otherwise. With `forUpdate` (inside a transaction) the row is locked on PostgreSQL so changes
 * to one game apply one at a time; SQLite runs its transactions one at a time anyway.
 */
export async function findGame(
  db: Db,
  scope: { clanId: number; eventId: number; gameId: number },
  lock?: { dialect: Dialect },
): Promise<GameRow> {
  let q = db.selectFrom('games')
    .selectAll()
    .where('id', '=', scope.gameId)
    .where('event_id', '=', scope.eventId)
    .where('clan_id', '=', scope.clanId);
  if (lock?.dialect === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound(GAME_NOT_FOUND);
  return row;
}

/** The id of the clan game `gameId` belongs to, or null when there is no such game. */
export async function clanOfGame(db: Db, gameId: number): Promise<number | null> {
  const row = await db.selectFrom('games').select('clan_id').where('id', '=', gameId).executeTakeFirst();
  return row?.clan_id ?? null;
}

/** The id of the event's game, or null (one game per event). */
export async function gameIdOfEvent(db: Db, eventId: number): Promise<number | null> {
  const row = await db.selectFrom('games').select('id').where('event_id', '=', eventId).executeTakeFirst();
  return row?.id ?? null;
}

/** Ids of the teams of an event, ascending. */
export async function teamIdsOfEvent(db: Db, eventId: number): Promise<number[]> {
  const rows = await db.selectFrom('teams').select('id').where('event_id', '=', eventId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The clan's task pool grouped by tier (ordered by id, so a seeded draw is reproducible). */
export async function poolByTier(db: Db, clanId: number): Promise<Record<Tier, PoolTask[]>> {
  const rows = await db.selectFrom('tasks').select(['id', 'description', 'difficulty']).where('clan_id', '=', clanId).orderBy('id').execute();
  const pool = Object.fromEntries(TIERS.map((t) => [t, [] as PoolTask[]])) as Record<Tier, PoolTask[]>;
  for (const r of rows) if (isTier(r.difficulty)) pool[r.difficulty].push({ id: r.id, description: r.description });
  return pool;
}

/** One pool task of the clan, or null. */
export async function findPoolTask(db: Db, clanId: number, taskId: number): Promise<{ id: number; description: string; difficulty: string } | null> {
  const row = await db.selectFrom('tasks').select(['id', 'description', 'difficulty']).where('id', '=', taskId).where('clan_id', '=', clanId).executeTakeFirst();
  return row ?? null;
}

/** Settings columns of a game row. */
export function settingsOf(row: GameRow): GameSettings {
  return {
    board_size: row.board_size,
    num_snakes: row.num_snakes,
    num_ladders: row.num_ladders,
    max_reverts_allowed: row.max_reverts_allowed,
    num_easy_tasks: row.num_easy_tasks,
    num_medium_tasks: row.num_medium_tasks,
    num_hard_tasks: row.num_hard_tasks,
    num_elite_tasks: row.num_elite_tasks,
    num_master_tasks: row.num_master_tasks,
  };
}

/** The nine settings columns of `settings` alone (a parsed body may carry more, e.g. proof_required). */
export function settingsOnly(settings: GameSettings): GameSettings {
  return settingsOf(settings as GameRow);
}

/** A game's relief settings (docs/server.md §15): hours before relief (null: off) and substitutes per team. */
export interface ReliefSettings {
  relief_after_hours: number | null;
  relief_max_per_team: number;
}

/** Inserts a game row (version 0) with its settings, connections and status; returns its id. */
export async function insertGame(
  db: Db,
  values: { eventId: number; clanId: number; status: string; settings: GameSettings; proofRequired: boolean; relief: ReliefSettings; connections: readonly Connection[] },
): Promise<number> {
  const now = nowIso();
  const row = await db.insertInto('games')
    .values({
      event_id: values.eventId,
      clan_id: values.clanId,
      status: values.status,
      ...settingsOnly(values.settings),
      proof_required: values.proofRequired ? 1 : 0,
      relief_after_hours: values.relief.relief_after_hours,
      relief_max_per_team: values.relief.relief_max_per_team,
      board_connections: JSON.stringify(values.connections),
      winners: null,
      version: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Updates a game row and bumps its version and updated_at (every applied change does, in the
 * transaction of the change; docs/server.md §6).
 */
export async function updateGame(
  db: Db,
  gameId: number,
  set: Partial<Pick<GameRow, 'status' | 'winners' | 'board_connections' | keyof GameSettings>> & { proof_required?: number } & Partial<ReliefSettings>,
): Promise<void> {
  await db.updateTable('games')
    .set((eb) => ({ ...set, version: eb('version', '+', 1), updated_at: nowIso() }))
    .where('id', '=', gameId)
    .execute();
}

/** Replaces every square of a game with `squares` (square 1..N with task and tier). */
export async function replaceSquares(db: Db, gameId: number, squares: readonly AssignedSquare[]): Promise<void> {
  await db.deleteFrom('board_squares').where('game_id', '=', gameId).execute();
  if (squares.length === 0) return;
  await db.insertInto('board_squares')
    .values(squares.map((s) => ({
      game_id: gameId,
      square_index: s.square_index,
      task_id: s.task_id,
      task_description: s.task_description,
      task_difficulty: s.task_difficulty,
    })))
    .execute();
}

/** Every square of a game ordered by square_index (docs/game-rules.md §12), with its task's Dink rule (docs/server.md §13). */
export async function listSquares(db: Db, gameId: number): Promise<BoardSquare[]> {
  const rows = await db.selectFrom('board_squares')
    .leftJoin('tasks', 'tasks.id', 'board_squares.task_id')
    .select(['board_squares.id', 'board_squares.square_index', 'board_squares.task_id', 'board_squares.task_description', 'board_squares.task_difficulty', 'tasks.auto_rule'])
    .where('board_squares.game_id', '=', gameId)
    .orderBy('board_squares.square_index')
    .execute();
  return rows.map((r) => ({ ...r, task_difficulty: isTier(r.task_difficulty) ? r.task_difficulty : null, auto_rule: parseStoredRule(r.auto_rule) }));
}

/** Sets the task (id and description) of squares by square id. */
export async function setSquareTasks(db: Db, changes: readonly { id: number; task_id: number | null; task_description: string; task_difficulty?: Tier | null }[]): Promise<void> {
  for (const ch of changes) {
    await db.updateTable('board_squares')
      .set({
        task_id: ch.task_id,
        task_description: ch.task_description,
        ...(ch.task_difficulty === undefined ? {} : { task_difficulty: ch.task_difficulty }),
      })
      .where('id', '=', ch.id)
      .execute();
  }
}

/**
 * The columns of a team state at the start (docs/server.md §5, §9): position 1,
 * history [1], no reverts, task state `none` (Start has no task), on square 1 since now.
 */
export function startingTeamState() {
  return { current_position: 1, revert_count: 0, position_history: '[1]', task_state: 'none', square_since: nowIso(), progress: null };
}

/** A team state at the start for each team (startingTeamState; docs/server.md §5). */
export async function insertTeamStates(db: Db, gameId: number, teamIds: readonly number[]): Promise<void> {
  if (teamIds.length === 0) return;
  await db.insertInto('team_states')
    .values(teamIds.map((teamId) => ({ game_id: gameId, team_id: teamId, ...startingTeamState() })))
    .execute();
}

/** Puts every team of the game back to its starting state (startingTeamState; Reset). */
export async function resetTeamStates(db: Db, gameId: number): Promise<void> {
  await db.updateTable('team_states').set(startingTeamState()).where('game_id', '=', gameId).execute();
}

/** A stored log row as a LogEntry: roll_index and die only on a roll's entry (docs/game-rules.md §9). */
function logEntryOf(row: { id: number; timestamp: string; team_name: string; team_color: string | null; message: string; roll_index: number | null; die: number | null }): LogEntry {
  const { roll_index, die, ...entry } = row;
  return roll_index === null || die === null ? entry : { ...entry, roll_index, die };
}

/**
 * Writes a log entry (team 'Server' and colour null unless a team is given; `roll` on the entry
 * of a roll: its roll_index k and die); returns it.
 */
export async function insertLog(
  db: Db,
  gameId: number,
  message: string,
  team: { name: string; color: string | null } = { name: SERVER_LOG_NAME, color: null },
  roll?: { roll_index: number; die: number },
): Promise<LogEntry> {
  const row = await db.insertInto('game_log')
    .values({ game_id: gameId, timestamp: nowIso(), team_name: team.name, team_color: team.color, message, roll_index: roll?.roll_index ?? null, die: roll?.die ?? null })
    .returning(['id', 'timestamp', 'team_name', 'team_color', 'message', 'roll_index', 'die'])
    .executeTakeFirstOrThrow();
  return logEntryOf(row);
}

/** A log entry to write: its message, its team (name and colour), and on a roll's entry the roll's index k and die. */
export interface LogMessage {
  message: string;
  team: { name: string; color: string | null };
  roll?: { roll_index: number; die: number };
}

/** The values of a game_log insert of n rows (LOG_INSERTS): row i's fields end in i. */
export type LogInsertValues = { gameId: number; timestamp: string } & Record<`name${number}` | `message${number}`, string>
  & Record<`color${number}`, string | null> & Record<`rollIndex${number}` | `die${number}`, number | null>;

/** The game_log insert of `count` rows with RETURNING, one statement per row count (server/db/compiled.ts). */
function compiledLogInsert(count: number) {
  return compiledQuery((db, p: LogInsertValues) => db.insertInto('game_log')
    .values(Array.from({ length: count }, (_, i) => ({
      game_id: p.gameId, timestamp: p.timestamp, team_name: p[`name${i}`], team_color: p[`color${i}`], message: p[`message${i}`],
      roll_index: p[`rollIndex${i}`], die: p[`die${i}`],
    })))
    .returning(['id', 'timestamp', 'team_name', 'team_color', 'message', 'roll_index', 'die']));
}

/** The compiled game_log insert of `count` rows (compiledLogInsert), made on first use (a change writes one to three entries). */
export const logInsert = compiledPerCount(compiledLogInsert);

/** A change's log entries as the values of logInsert(entries.length): game `gameId`, one `timestamp` (ISO). */
export function logInsertValues(gameId: number, entries: readonly LogMessage[], timestamp: string): LogInsertValues {
  const values: Record<string, string | number | null> = { gameId, timestamp };
  entries.forEach((e, i) => {
    values[`name${i}`] = e.team.name;
    values[`color${i}`] = e.team.color;
    values[`message${i}`] = e.message;
    values[`rollIndex${i}`] = e.roll?.roll_index ?? null;
    values[`die${i}`] = e.roll?.die ?? null;
  });
  return values as LogInsertValues;
}

/** The game_log rows a change inserted (logInsert's RETURNING, in any order) as its LogEntries, oldest first. */
export function logEntriesOf(rows: Parameters<typeof logEntryOf>[0][]): LogEntry[] {
  // Rows are inserted in the order given; RETURNING's order is not promised, the ids' is.
  return rows.sort((a, b) => a.id - b.id).map(logEntryOf);
}

/** Deletes every log entry, recorded move and relief draw of a game (a reset starts a new round). */
export async function clearLog(db: Db, gameId: number): Promise<void> {
  await db.deleteFrom('game_log').where('game_id', '=', gameId).execute();
  await db.deleteFrom('game_moves').where('game_id', '=', gameId).execute();
  await db.deleteFrom('relief_draws').where('game_id', '=', gameId).execute();
}

/** Deletes a game with its submissions, log, team states and squares (explicitly, whatever the foreign-key setting). */
export async function deleteGameCascade(db: Db, gameId: number): Promise<void> {
  await db.deleteFrom('submissions').where('game_id', '=', gameId).execute();
  await db.deleteFrom('game_log').where('game_id', '=', gameId).execute();
  await db.deleteFrom('game_moves').where('game_id', '=', gameId).execute();
  await db.deleteFrom('relief_draws').where('game_id', '=', gameId).execute();
  await db.deleteFrom('team_states').where('game_id', '=', gameId).execute();
  await db.deleteFrom('board_squares').where('game_id', '=', gameId).execute();
  await db.deleteFrom('games').where('id', '=', gameId).execute();
}

/** The game row with its clan and event names, or null. */
export async function gameHeader(db: Db, gameId: number) {
  const row = await db.selectFrom('games')
    .innerJoin('clans', 'clans.id', 'games.clan_id')
    .innerJoin('events', 'events.id', 'games.event_id')
    .selectAll('games')
    .select(['clans.name as clan_name', 'events.name as event_name', 'events.type as event_type'])
    .where('games.id', '=', gameId)
    .executeTakeFirst();
  return row ?? null;
}

/** A stored position_history as a list of squares (contract parseHistory); [] when it is not one. */
export function storedHistory(text: string): number[] {
  try {
    return parseHistory(text);
  } catch {
    return [];
  }
}

/** A stored task_state as a TaskState ('none' for anything else). */
export function storedTaskState(text: string): TaskState {
  return (TASK_STATES as readonly string[]).includes(text) ? (text as TaskState) : 'none';
}

/** Team states of a game with their team's name and colour, by team id. */
export async function listTeamStates(db: Db, gameId: number): Promise<TeamState[]> {
  const rows = await db.selectFrom('team_states')
    .innerJoin('teams', 'teams.id', 'team_states.team_id')
    .select([
      'team_states.team_id', 'teams.name as team_name', 'teams.color as team_color', 'team_states.current_position',
      'team_states.revert_count', 'team_states.position_history', 'team_states.task_state', 'team_states.square_since',
      'team_states.task_override', 'team_states.relief_count', 'team_states.progress',
    ])
    .where('team_states.game_id', '=', gameId)
    .orderBy('team_states.team_id')
    .execute();
  return rows.map(teamStateOf);
}

/** A stored team state row (with its team's name and colour) as a TeamState, as listTeamStates answers it. */
export function teamStateOf(r: {
  team_id: number; team_name: string; team_color: string; current_position: number; revert_count: number;
  position_history: string; task_state: string; square_since: string; task_override: string | null; relief_count?: number;
  progress?: string | null;
}): TeamState {
  const { progress, ...rest } = r;
  // A caller that reads no progress column leaves it out; else the team total's progress or null (docs/server.md §17).
  const state: TeamState = {
    ...rest, position_history: storedHistory(r.position_history), task_state: storedTaskState(r.task_state), task_override: storedOverride(r.task_override),
    ...(progress === undefined ? {} : { progress: parseProgress(progress) }),
  };
  // A caller that reads no relief_count leaves it out (the client keeps the one it holds).
  return r.relief_count === undefined ? state : { ...state, relief_count: Number(r.relief_count) };
}

/**
 * A stored task_override (JSON `{description, difficulty, task_id}`, docs/server.md §15) as the
 * team state's `task_override` `{description, difficulty}`; null when none or unreadable.
 */
export function storedOverride(text: string | null): TaskOverride | null {
  const stored = storedOverrideTask(text);
  return stored && { description: stored.description, difficulty: stored.difficulty };
}

/**
 * A team state's stored task_override as kept (docs/server.md §15): the substitute's
 * `{description, difficulty}` and its pool task id (`task_id`, null when absent), or null for no
 * substitute or unreadable JSON.
 */
export function storedOverrideTask(text: string | null): (TaskOverride & { task_id: number | null }) | null {
  if (text === null) return null;
  try {
    const json: unknown = JSON.parse(text);
    const parsed = v.safeParse(TaskOverrideSchema, json);
    if (!parsed.success) return null;
    const id = (json as { task_id?: unknown }).task_id;
    return { description: parsed.output.description, difficulty: parsed.output.difficulty, task_id: typeof id === 'number' ? id : null };
  } catch {
    return null;
  }
}

/** The viewer's IGNs on teams of the event (docs/game-rules.md §12), by team then IGN id. */
export async function listUserTeams(db: Db, eventId: number, userId: number): Promise<UserTeam[]> {
  return db.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['teams.id as id', 'igns.id as osrs_ign_id', 'igns.user_id as user_id', 'team_members.role as role', 'igns.ign as player_ign', 'teams.name as name', 'teams.color as color'])
    .where('team_members.event_id', '=', eventId)
    .where('igns.user_id', '=', userId)
    .orderBy('teams.id')
    .orderBy('igns.id')
    .execute();
}

/** The last GAME_LOG_LIMIT log entries of a game, newest first. */
export async function listLog(db: Db, gameId: number): Promise<LogEntry[]> {
  const rows = await db.selectFrom('game_log')
    .select(['id', 'timestamp', 'team_name', 'team_color', 'message', 'roll_index', 'die'])
    .where('game_id', '=', gameId)
    .orderBy('id', 'desc')
    .limit(GAME_LOG_LIMIT)
    .execute();
  return rows.map(logEntryOf);
}

/** Winners from their JSON text: a list of {name, color}, or null. */
export function parseWinners(text: string | null): Winner[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return null;
    return value
      .filter((w): w is { name: unknown; color: unknown } => typeof w === 'object' && w !== null)
      .map((w) => ({ name: String(w.name ?? ''), color: String(w.color ?? '') }));
  } catch {
    return null;
  }
}

/** Connections from their JSON text; [] when unreadable. */
export function parseConnections(text: string): Connection[] {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter((c): c is Connection =>
      typeof c === 'object' && c !== null && (c.type === 'snake' || c.type === 'ladder') && Number.isInteger(c.start) && Number.isInteger(c.end));
  } catch {
    return [];
  }
}
