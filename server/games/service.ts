import type { Db } from '../db/schema';
import type { Config } from '../config';
import type { Dialect } from '../db/migrations/helpers';
import { boardOfFile, type PreparedBoard } from './boardFile';
import type { BoardFile } from '../../contract/game/boardFile';
import { revealedSeed, seedRevealText, storeDiceSeed } from './dice';
import { imageKeysOf } from '../submissions/repository';
import { announceStatus } from '../discord/outbox';
import type { GameProgress } from '../../contract/socket';
import type { GameRules, RulesBody } from '../../contract/submission';
import { RELIEF_LIMITS } from '../../contract/game/settings';
import { badRequest, conflict, notFound } from '../errors';
import {
  assignTasks,
  connectionsFromConfig,
  countsFromSettings,
  generateConnections,
  initialGameStatus,
  isActiveStatus,
  isGameStatus,
  isSpecialDescription,
  layoutSquares,
  shuffle,
  SPECIAL_DESCRIPTIONS,
  statusChangeError,
  UNASSIGNED_DESCRIPTION,
  validateBoard,
  type GameSettings,
  type GameSettingsBody,
  type GameStatus,
  type PoolTask,
  type Rng,
  type Tier,
} from '../../contract/game';
import {
  type BoardBody,
  type Game,
  type LogEntry,
  type PublicGame,
} from '../../contract/gameApi';
import {
  GAME_NOT_FOUND,
  clearLog,
  deleteGameCascade,
  gameHeader,
  gameIdOfEvent,
  insertGame,
  insertLog,
  insertTeamStates,
  listLog,
  listSquares,
  listTeamStates,
  listUserTeams,
  parseConnections,
  parseWinners,
  poolByTier,
  replaceSquares,
  resetTeamStates,
  setSquareTasks,
  settingsOf,
  settingsOnly,
  teamIdsOfEvent,
  updateGame,
  type GameRow,
} from './repository';

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/**
 * The whole game as members see it (docs/game-rules.md §12; contract/gameApi.ts GameSchema):
 * settings, connections, squares 1..N, team states by team id, the viewer's team entries
 * (`user_teams`, empty when `viewerUserId` is null), the last 100 log entries newest first,
 * winners and version. Raises 404 'Game not found.' when there is no such game. Does not check
 * who may see it: callers do (clan membership for the manage screens; none for spectators, who get
 * `toPublicGame` of it).
 */
export async function loadGame(db: Db, gameId: number, viewerUserId: number | null): Promise<Game> {
  const row = await gameHeader(db, gameId);
  if (!row) throw notFound(GAME_NOT_FOUND);
  const [board_squares, team_states, user_teams, log_entries] = await Promise.all([
    listSquares(db, gameId),
    listTeamStates(db, gameId),
    viewerUserId === null ? Promise.resolve([]) : listUserTeams(db, row.event_id, viewerUserId),
    listLog(db, gameId),
  ]);
  return {
    id: row.id,
    clan_id: row.clan_id,
    clan_name: row.clan_name,
    event_id: row.event_id,
    event_name: row.event_name,
    event_type: row.event_type,
    status: (isGameStatus(row.status) ? row.status : 'PENDING') as GameStatus,
    ...settingsOf(row),
    proof_required: row.proof_required === 1,
    relief_after_hours: row.relief_after_hours,
    relief_max_per_team: row.relief_max_per_team,
    board_connections: parseConnections(row.board_connections),
    board_squares,
    team_states,
    user_teams,
    log_entries,
    winners: parseWinners(row.winners),
    version: row.version,
    dice_commitment: row.dice_commitment,
    dice_seed: revealedSeed(row),
    created_at: row.created_at,
  };
}

/**
 * The progress of a game as stored now (members shape), or null when it is gone. The games row is
 * read before the team states, so a change committed in between can only make the states newer
 * than the version; the next update (version + 1) then carries the same states, and no client is
 * ever left holding a version whose states are older than it.
 */
export async function loadProgress(db: Db, gameId: number): Promise<GameProgress | null> {
  const row = await db.selectFrom('games').select(['id', 'status', 'winners', 'version']).where('id', '=', gameId).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    status: (isGameStatus(row.status) ? row.status : 'PENDING') as GameStatus,
    team_states: await listTeamStates(db, gameId),
    winners: parseWinners(row.winners),
    version: row.version,
  };
}

/** The spectators' shape of a game (docs/server.md §3): no user_teams, no revert counts. */
export function toPublicGame(game: Game): PublicGame {
  const { user_teams: _userTeams, team_states, ...rest } = game;
  return {
    ...rest,
    team_states: team_states.map(({ revert_count: _reverts, ...state }) => state),
  };
}

// ---------------------------------------------------------------------------------------------
// Changes (each runs inside the route's transaction on a row locked by findGame)
// ---------------------------------------------------------------------------------------------

/** 409 unless the game is still active: a finished game's board and progress are a record. */
export function refuseFinished(row: GameRow, what: string): void {
  if (!isActiveStatus(row.status)) throw conflict(`The game is finished: ${what}`);
}

/** Squares 1..N of a new board for `settings`: generated connections, tiers laid out, pool tasks drawn. */
async function buildBoard(db: Db, clanId: number, settings: GameSettings, rng: Rng): Promise<PreparedBoard> {
  const connections = generateConnections(settings, rng);
  const laid = layoutSquares({ board_size: settings.board_size, counts: countsFromSettings(settings), connections });
  const squares = assignTasks(laid, await poolByTier(db, clanId), rng);
  return { connections, squares };
}

/**
 * Creates the event's game from checked settings (docs/server.md §3 POST;
 * docs/server.md §5): generated snakes and ladders, squares 1..N with a random pool task
 * of their tier each (each pool task at most once; Unassigned when the tier runs out); or, with a
 * board file in `board` (docs/server.md §18 "The next event", checked by GameCreateBodySchema),
 * the file's snakes, ladders and tasks (boardOfFile: missing tasks join the clan's pool). Then as
 * insertGameWithBoard. Returns the game id. Raises 409 'This event already has a game.'.
 */
export async function createGame(
  trx: Db,
  input: { clanId: number; eventId: number; settings: GameSettingsBody; board?: BoardFile; dialect: Dialect },
  rng: Rng,
  config: Config,
): Promise<number> {
  if ((await gameIdOfEvent(trx, input.eventId)) !== null) throw conflict('This event already has a game. Delete it before creating a new one.');
  const board = input.board
    ? await boardOfFile(trx, input.dialect, input.clanId, input.settings, input.board)
    : await buildBoard(trx, input.clanId, input.settings, rng);
  return insertGameWithBoard(trx, { clanId: input.clanId, eventId: input.eventId, settings: input.settings, board }, config);
}

/**
 * Stores a new game of the event with a ready board (create, a board file, a copied event;
 * docs/server.md §5, §18): the settings with the proof and relief rules, the connections and
 * squares, a team state per team of the event (position 1, history [1], no reverts), status
 * READY with at least one team else PENDING, the dice seed of round 1 (docs/game-rules.md §9:
 * drawn for this game's id with `config`) and a Server log entry. Returns the game id.
 */
export async function insertGameWithBoard(
  trx: Db,
  input: { clanId: number; eventId: number; settings: GameSettingsBody; board: PreparedBoard },
  config: Config,
): Promise<number> {
  const teamIds = await teamIdsOfEvent(trx, input.eventId);
  const s = input.settings;
  const gameId = await insertGame(trx, {
    eventId: input.eventId,
    clanId: input.clanId,
    status: initialGameStatus(teamIds.length),
    settings: s,
    proofRequired: s.proof_required,
    relief: { relief_after_hours: s.relief_after_hours ?? null, relief_max_per_team: s.relief_max_per_team ?? RELIEF_LIMITS.defaultPerTeam },
    connections: input.board.connections,
  });
  await storeDiceSeed(trx, config, gameId, 1);
  await replaceSquares(trx, gameId, input.board.squares);
  await insertTeamStates(trx, gameId, teamIds);
  await insertLog(trx, gameId, `Game created: ${s.board_size} squares, ${s.num_snakes} snakes, ${s.num_ladders} ladders.`);
  return gameId;
}

/**
 * Randomize (docs/server.md §3 PUT .../game/{gameId}; docs/game-rules.md §5):
 * stores the checked settings and regenerates connections and squares with them; team positions,
 * histories, revert counts, task states, log, status and proof_required stay (not a reset; the
 * rules change through setRules, docs/server.md §9). Raises 409 for a finished game, and
 * 409 when a team has been on a square at or beyond the new board's last square (shrinking the
 * board under a team would put it on or past Finish without winning; reset first).
 */
export async function randomizeGame(trx: Db, row: GameRow, settings: GameSettings, rng: Rng): Promise<void> {
  refuseFinished(row, 'its board can no longer be changed.');
  let furthest = 1;
  for (const t of await listTeamStates(trx, row.id)) {
    for (const square of [t.current_position, ...t.position_history]) furthest = Math.max(furthest, square);
  }
  if (furthest >= settings.board_size) {
    throw conflict(`A team has reached square ${furthest}, which does not fit a board of ${settings.board_size} squares. Reset the game or choose a larger board.`);
  }
  const { connections, squares } = await buildBoard(trx, row.clan_id, settings, rng);
  await replaceSquares(trx, row.id, squares);
  await updateGame(trx, row.id, { ...settingsOnly(settings), board_connections: JSON.stringify(connections) });
}

/**
 * Manual board (docs/server.md §3 PUT .../board; docs/server.md §5): checks
 * the pairs with validateBoard (400 naming the pair), stores them as the connections (num_snakes
 * and num_ladders become the list lengths), makes squares that start a connection 'Snake'/'Ladder'
 * (no tier, no task), and turns squares that no longer start one back into task squares of the
 * tier layoutSquares gives their position, each with a free pool task of that tier drawn with
 * `rng` (Unassigned when none is free). Other squares keep their tasks. 409 for a finished game.
 */
export async function setBoard(trx: Db, row: GameRow, body: BoardBody, rng: Rng): Promise<void> {
  refuseFinished(row, 'its board can no longer be changed.');
  const n = row.board_size;
  const error = validateBoard(n, body.snakes_config, body.ladders_config);
  if (error !== null) throw badRequest(error);
  const connections = connectionsFromConfig(body.snakes_config, body.ladders_config);
  const laid = layoutSquares({ board_size: n, counts: countsFromSettings(settingsOf(row)), connections });
  const current = new Map((await listSquares(trx, row.id)).map((s) => [s.square_index, s]));

  const kept = (index: number, tier: Tier | null) => {
    const cur = current.get(index);
    return cur !== undefined && tier !== null && cur.task_difficulty === tier && !isSpecialDescription(cur.task_description);
  };
  const used = new Set<number>();
  for (const l of laid) {
    const task = current.get(l.square_index)?.task_id;
    if (l.kind === 'task' && kept(l.square_index, l.task_difficulty) && task != null) used.add(task);
  }
  const pool = await poolByTier(trx, row.clan_id);
  const free = new Map<Tier, PoolTask[]>();
  const freeOf = (tier: Tier) => {
    let list = free.get(tier);
    if (!list) {
      list = shuffle(pool[tier].filter((t) => !used.has(t.id)), rng);
      free.set(tier, list);
    }
    return list;
  };

  const changes: { id: number; task_id: number | null; task_description: string; task_difficulty: Tier | null }[] = [];
  for (const l of laid) {
    const cur = current.get(l.square_index);
    if (!cur) continue;
    if (l.kind === 'snake' || l.kind === 'ladder') {
      const description = SPECIAL_DESCRIPTIONS[l.kind];
      if (cur.task_description !== description || cur.task_difficulty !== null || cur.task_id !== null) {
        changes.push({ id: cur.id, task_id: null, task_description: description, task_difficulty: null });
      }
    } else if (l.kind === 'task' && l.task_difficulty !== null && !kept(l.square_index, l.task_difficulty)) {
      const task = freeOf(l.task_difficulty).pop();
      changes.push({
        id: cur.id,
        task_id: task?.id ?? null,
        task_description: task?.description ?? UNASSIGNED_DESCRIPTION,
        task_difficulty: l.task_difficulty,
      });
    }
  }
  await setSquareTasks(trx, changes);
  await updateGame(trx, row.id, {
    num_snakes: body.snakes_config.length,
    num_ladders: body.ladders_config.length,
    board_connections: JSON.stringify(connections),
  });
}

/**
 * Status change (docs/game-rules.md §6; docs/server.md §5): `to` checked by
 * statusChangeError — 400 for a status other than 'in-progress'/'paused', 409 for a finished game
 * or a transition the rules refuse (with the rule's message). Logs 'Game started.' (from PENDING
 * or READY), 'Game resumed.' (from paused) or 'Game paused.' as Server. Returns the new status and
 * the log entry.
 */
export async function changeStatus(trx: Db, row: GameRow, to: string): Promise<{ status: GameStatus; log: LogEntry }> {
  const refusal = statusChangeError(row.status, to);
  if (refusal) {
    if (refusal.code === 'game_finished' || refusal.code === 'not_allowed') throw conflict(refusal.message);
    throw badRequest(refusal.message);
  }
  const status = to as GameStatus;
  const message = status === 'paused' ? 'Game paused.' : row.status === 'paused' ? 'Game resumed.' : 'Game started.';
  await updateGame(trx, row.id, { status });
  const log = await insertLog(trx, row.id, message);
  await announceStatus(trx, row.id, status === 'paused' ? 'Game paused' : row.status === 'paused' ? 'Game resumed' : 'Game started');
  return { status, log };
}

/**
 * Reset (docs/client.md §1; docs/game-rules.md §6; docs/server.md §5,
 * §9): every team back to position 1 with history [1], no reverts and task state `none`, the
 * game's submissions deleted, the log cleared (then one Server entry 'Game reset.'), winners
 * cleared, status READY; the board stays. A new round of dice starts (docs/game-rules.md
 * §9): the recorded moves are cleared, a new seed is drawn and committed, and the old one is
 * revealed in a Server entry 'Dice seed of the previous round: {hex} (commitment {hex}).' after
 * 'Game reset.'. 409 for a finished game (docs/client.md: reset is available in every status
 * except finished). Returns the storage keys of the deleted submissions' images, for the caller
 * to delete once the transaction has committed.
 */
export async function resetGame(trx: Db, row: GameRow, config: Config): Promise<string[]> {
  refuseFinished(row, 'it can no longer be reset.');
  const keys = await imageKeysOf(trx, { gameId: row.id });
  await trx.deleteFrom('submissions').where('game_id', '=', row.id).execute();
  await resetTeamStates(trx, row.id);
  await clearLog(trx, row.id);
  await insertLog(trx, row.id, 'Game reset.');
  await insertLog(trx, row.id, seedRevealText({ seed: row.dice_seed, commitment: row.dice_commitment }));
  await storeDiceSeed(trx, config, row.id, row.dice_round + 1);
  await updateGame(trx, row.id, { status: 'READY', winners: null });
  await announceStatus(trx, row.id, 'Game reset');
  return keys;
}

/**
 * Deletes the game with its submissions, squares, team states and log; the event's game_id is
 * null again (docs/game-rules.md §6; docs/server.md §9). Returns the storage keys of the
 * deleted submissions' images, for the caller to delete once the transaction has committed.
 */
export async function deleteGame(trx: Db, row: GameRow): Promise<string[]> {
  const keys = await imageKeysOf(trx, { gameId: row.id });
  await deleteGameCascade(trx, row.id);
  return keys;
}

/**
 * Rules change (docs/server.md §9, docs/server.md §15; PUT .../rules): sets any of proof_required,
 * relief_after_hours and relief_max_per_team (absent ones keep their value) without touching the
 * board, bumping the version when one changed. 409 for a finished game. Answers the rules now in
 * force and whether they changed.
 */
export async function setRules(trx: Db, row: GameRow, body: RulesBody): Promise<{ changed: boolean; rules: GameRules }> {
  refuseFinished(row, 'its rules can no longer be changed.');
  const rules: GameRules = {
    proof_required: body.proof_required ?? row.proof_required === 1,
    relief_after_hours: body.relief_after_hours === undefined ? row.relief_after_hours : body.relief_after_hours,
    relief_max_per_team: body.relief_max_per_team ?? row.relief_max_per_team,
  };
  const set = { proof_required: rules.proof_required ? 1 : 0, relief_after_hours: rules.relief_after_hours, relief_max_per_team: rules.relief_max_per_team };
  const changed = set.proof_required !== row.proof_required || set.relief_after_hours !== row.relief_after_hours || set.relief_max_per_team !== row.relief_max_per_team;
  if (changed) await updateGame(trx, row.id, set);
  return { changed, rules };
}
