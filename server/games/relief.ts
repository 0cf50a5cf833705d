import { sql } from 'kysely';
import type { Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { nowIso } from '../time';
import { announceRelief } from '../discord/outbox';
import { GAME_NOT_FOUND, insertLog, listTeamStates, parseWinners, storedOverrideTask } from './repository';
import { ActionRefused, PLAY_MESSAGES, awaited, claim, inGame, run, type AppliedAction, type GameChange } from './play';
import { withdrawPending } from '../submissions/service';
import { isGameStatus, isPlayableStatus, type GameStatus } from '../../contract/game';
import { RELIEF_MESSAGES, reliefIndex, type RequestRelief } from '../../contract/game/relief';
import { startProgress } from '../../contract/progress';
import { parseStoredRule } from '../tasks/repository';
import { progressText } from './progress';

/** One hour in ms. */
const HOUR_MS = 3_600_000;

/**
 * request_relief {game_id, team_id} (docs/server.md §15; docs/game-rules.md §15) for signed-in
 * user `userId`, in one transaction run and retried like a roll (play.ts inGame: the game claimed,
 * then read, decided and written):
 * - refusals (ActionRefused, to the sender only), in this order: 'Game not found.'; not a Leader
 *   of the team (an IGN of the user with role Leader) RELIEF_MESSAGES.leaderOnly; a game not in
 *   progress PLAY_MESSAGES.notPlayable; relief off; the team's task not `open` or `denied`
 *   (RELIEF_MESSAGES.noTask); fewer than relief_after_hours since square_since; relief_count at
 *   relief_max_per_team; no task of the square's difficulty left in the clan's pool that is not on
 *   the board (nor the team's current substitute);
 * - else the k-th substitute (k = relief_count + 1) is drawn from those candidates, ordered by
 *   id, with the game's dice seed (contract reliefIndex); the game's version grows by one (a
 *   conditional update, so two requests at once give one substitute: the second sees the first's
 *   state); the team state gets `task_override` `{description, difficulty}` (its task id kept in
 *   the stored JSON), relief_count + 1, its team total's progress at 0 (null without one;
 *   docs/server.md §17), task state `open` and square_since now (the new task
 *   starts now: proof and Dink posts from before it never count for it), its pending submissions
 *   are withdrawn, and the log gets '{team} was stuck on square {n} for {h} h: new task
 *   "{description}".' ({h}: whole hours on the square), announced on Discord (announce.reviews) in
 *   the same transaction.
 * Resolves after COMMIT with the progress and log to broadcast, like a roll.
 */
export function applyRelief(db: Db, dialect: Dialect, action: RequestRelief, userId: number, now: () => Date = () => new Date()): Promise<AppliedAction> {
  return inGame(db, dialect, { sync: false }, () => reliefSteps(db, dialect, action, userId, now()));
}

/** The permission check of request_relief, before it waits in the game's queue: ActionRefused as applyRelief's first two. */
export async function precheckRelief(db: Db, action: RequestRelief, userId: number): Promise<void> {
  const game = await db.selectFrom('games').select(['id', 'event_id']).where('id', '=', action.game_id).executeTakeFirst();
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  if (!(await leaderOf(db, game.event_id, action.team_id, userId).executeTakeFirst())) throw new ActionRefused(RELIEF_MESSAGES.leaderOnly);
}

/** A row when an IGN of `userId` leads team `teamId` in the event (team_members role Leader), else none. */
function leaderOf(db: Db, eventId: number, teamId: number, userId: number) {
  return db.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .select('team_members.id')
    .where('team_members.event_id', '=', eventId)
    .where('team_members.team_id', '=', teamId)
    .where('team_members.role', '=', 'Leader')
    .where('igns.user_id', '=', userId);
}

/**
 * applyRelief's steps (play.ts inGame: claim, read, decide, write): the game claimed at the
 * version read under its lock, then the reads and refusals in the order applyRelief gives, the
 * draw, and the writes.
 */
function* reliefSteps(db: Db, dialect: Dialect, action: RequestRelief, userId: number, now: Date): GameChange<AppliedAction> {
  yield* claim(db, dialect, action.game_id, null, nowIso());
  const game = (yield* run(db.selectFrom('games')
    .select(['id', 'event_id', 'clan_id', 'status', 'version', 'winners', 'dice_seed', 'relief_after_hours', 'relief_max_per_team'])
    .where('id', '=', action.game_id).compile())).rows[0];
  if (!game) throw new ActionRefused(GAME_NOT_FOUND);
  if ((yield* run(leaderOf(db, game.event_id, action.team_id, userId).compile())).rows.length === 0) throw new ActionRefused(RELIEF_MESSAGES.leaderOnly);
  if (!isPlayableStatus(game.status)) throw new ActionRefused(PLAY_MESSAGES.notPlayable(game.status));
  if (game.relief_after_hours === null) throw new ActionRefused(RELIEF_MESSAGES.off);

  const team = (yield* run(db.selectFrom('team_states')
    .innerJoin('teams', 'teams.id', 'team_states.team_id')
    .select(['team_states.id', 'team_states.current_position', 'team_states.task_state', 'team_states.square_since', 'team_states.relief_count', 'team_states.task_override', 'teams.name', 'teams.color'])
    .where('team_states.game_id', '=', game.id)
    .where('team_states.team_id', '=', action.team_id)
    .compile())).rows[0];
  if (!team) throw new ActionRefused(PLAY_MESSAGES.notPlaying(action.team_id));
  if (team.task_state !== 'open' && team.task_state !== 'denied') throw new ActionRefused(RELIEF_MESSAGES.noTask);
  const stuckMs = now.getTime() - Date.parse(team.square_since);
  if (!(stuckMs >= game.relief_after_hours * HOUR_MS)) throw new ActionRefused(RELIEF_MESSAGES.tooEarly(game.relief_after_hours));
  if (team.relief_count >= game.relief_max_per_team) throw new ActionRefused(RELIEF_MESSAGES.limit(team.name));

  const square = (yield* run(db.selectFrom('board_squares').select(['task_difficulty'])
    .where('game_id', '=', game.id).where('square_index', '=', team.current_position).compile())).rows[0];
  const current = storedOverrideTask(team.task_override);
  const difficulty = current?.difficulty ?? square?.task_difficulty ?? null;
  if (difficulty === null) throw new ActionRefused(RELIEF_MESSAGES.noTask);
  const currentTaskId = current?.task_id ?? null;
  const candidates = (yield* run(db.selectFrom('tasks')
    .select(['id', 'description', 'difficulty', 'auto_rule'])
    .where('clan_id', '=', game.clan_id)
    .where('difficulty', '=', difficulty)
    .where(({ not, exists, selectFrom }) => not(exists(
      selectFrom('board_squares').select(sql<number>`1`.as('one')).where('board_squares.game_id', '=', game.id).whereRef('board_squares.task_id', '=', 'tasks.id'),
    )))
    .$if(currentTaskId !== null, (q) => q.where('id', '!=', currentTaskId as number))
    .orderBy('id')
    .compile())).rows;
  if (candidates.length === 0) throw new ActionRefused(RELIEF_MESSAGES.noneLeft(difficulty));
  const k = team.relief_count + 1;
  const pick = candidates[yield* awaited(() => reliefIndex(game.dice_seed, game.id, action.team_id, k, candidates.length))];

  yield* run(
    db.updateTable('team_states')
      .set({
        task_override: JSON.stringify({ description: pick.description, difficulty: pick.difficulty, task_id: pick.id }),
        relief_count: k,
        task_state: 'open',
        square_since: now.toISOString(),
        // The substitute's team total, if it has one, starts at 0 (docs/server.md §17).
        progress: progressText(startProgress(parseStoredRule(pick.auto_rule), now.toISOString())),
      })
      .where('id', '=', team.id)
      .compile(),
    // The draw is kept for 'Verify dice': the candidates in the order drawn from, and the one drawn.
    db.insertInto('relief_draws')
      .values({ game_id: game.id, team_id: action.team_id, k, square_index: team.current_position, at: now.toISOString(), candidate_ids: JSON.stringify(candidates.map((c) => c.id)), task_id: pick.id, description: pick.description })
      .compile(),
  );
  const withdrawn = yield* awaited((trx) => withdrawPending(trx, game.id, action.team_id));
  const hours = Math.floor(stuckMs / HOUR_MS);
  const entry = yield* awaited((trx) => insertLog(trx, game.id, RELIEF_MESSAGES.log(team.name, team.current_position, hours, pick.description), { name: team.name, color: team.color }));
  // Discord hears of it in this transaction, like a roll (docs/server.md §10).
  yield* awaited((trx) => announceRelief(trx, game.id, { team: { name: team.name, color: team.color }, square: team.current_position, hours, task: pick.description }));
  const status: GameStatus = isGameStatus(game.status) ? game.status : 'in-progress';
  const teamStates = yield* awaited((trx) => listTeamStates(trx, game.id));
  // game.version was read after the claim: it is the version this change set.
  return { progress: { id: game.id, status, team_states: teamStates, winners: parseWinners(game.winners), version: game.version, last_move: null }, log: [entry], withdrawn };
}
