import { Hono } from 'hono';
import { announce, gameScope } from '../http/gameScope';
import type { AppEnv } from '../http/context';
import { readJson } from '../http/context';
import { lockEvent } from '../db/locks';
import { isActiveStatus } from '../../contract/game/status';
import {
  AssignBodySchema,
  BoardBodySchema,
  GAME_MESSAGES,
  GameSettingsSchema,
  ReorderBodySchema,
  StatusBodySchema,
  SwapBodySchema,
} from '../../contract/gameApi';
import { findGame, GAME_NOT_FOUND, listSquares, listUserTeams } from './repository';
import { membersAnswer } from './cache';
import { gameAnswer } from './cachedAnswer';
import { notFound } from '../errors';
import { assignTask, availableTasks, reorderTasks, swapTasks } from './boardTasks';
import {
  changeStatus,
  createGame,
  deleteGame,
  loadGame,
  randomizeGame,
  resetGame,
  setBoard,
  setRules,
} from './service';
import { randomSource } from './randomSource';
import { deleteImages } from '../submissions/service';
import { PROOF_MESSAGES, RulesBodySchema } from '../../contract/submission';

const GAME = '/clan/:clanId/events/:eventId/game';

/**
 * Game and game-task calls of a clan event (docs/game-rules.md §4,
 * §6 and "Tasks", 7 "Game" and "Game tasks", 8; docs/server.md §4, §5, §6). Any clan
 * member may read; only managers (Owner, Admin) change. Errors as in gameScope, then 400 for a
 * bad body (the settings rule's own message), 409 for a change the game's state refuses. Every
 * path also answers with a trailing slash. Every change bumps the game's version in its
 * transaction and is broadcast after it commits.
 * - GET    .../game/{gameId} → {game} (contract GameSchema; user_teams are the caller's), from the
 *   game cache (games/cache.ts) with an ETag (304 to a matching If-None-Match)
 * - POST   .../game/ settings → {game: {id}, message}; 409 when the event already has a game
 * - PUT    .../game/{gameId} settings → {game, message}: new board, positions/status kept; 409 finished
 * - PUT    .../game/{gameId}/board {snakes_config, ladders_config} → {ok, message}; 400 names the bad pair
 * - PUT    .../game/{gameId}/status {status: 'in-progress'|'paused'} → {ok, status}
 * - PUT    .../game/{gameId}/reset → {ok, message}; 409 finished; the game's submissions and their
 *   stored images are deleted (docs/server.md §9); a new dice round starts: the old seed
 *   is revealed in the log and a new one committed (docs/game-rules.md §9)
 * - PUT    .../game/{gameId}/rules {proof_required?, relief_after_hours?, relief_max_per_team?} →
 *   {ok, proof_required, relief_after_hours, relief_max_per_team, message} (docs/server.md §15): the proof rule
 *   (docs/server.md §9) without touching the board; 409 finished; a change is broadcast
 *   as the full game
 * - DELETE .../game/{gameId} → {ok, message}; with its submissions and their stored images
 * - GET    .../game/{gameId}/tasks → {squares, finished}: squares by square_index; finished: the board is a record
 * - POST   .../game/{gameId}/tasks/reorder {squares: [{id, square_index}]} → {ok, message}
 * - POST   .../game/{gameId}/tasks/swap {square1_id, square2_id} → {ok, message: 'Tasks swapped successfully!'}
 * - PUT    .../game/{gameId}/tasks/{squareId} {task_id} → {ok, message: 'Task on Square {n} assigned successfully!'}
 * - GET    .../game/{gameId}/tasks/{squareId}/available → {available_tasks: [{id, description, difficulty}]}
 */
export function gameRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post(GAME, async (c) => {
    const s = await gameScope(c, true);
    const settings = await readJson(c, GameSettingsSchema);
    const { db, dialect, config } = s.deps;
    const gameId = await db.transaction().execute(async (trx) => {
      await lockEvent(trx, dialect, s.eventId);
      return createGame(trx, { clanId: s.clanId, eventId: s.eventId, settings }, randomSource(config), config);
    });
    await announce(c, gameId, 'full');
    return c.json({ game: { id: gameId }, message: GAME_MESSAGES.created });
  });

  app.get(`${GAME}/:gameId`, async (c) => {
    const s = await gameScope(c, false);
    const entry = await s.deps.gameCache.get(s.gameId);
    if (!entry) throw notFound(GAME_NOT_FOUND);
    const { json, etag } = membersAnswer(entry, await listUserTeams(s.deps.db, entry.eventId, s.user.id));
    return gameAnswer(c, etag, () => `{"game":${json}}`);
  });

  app.put(`${GAME}/:gameId`, async (c) => {
    const s = await gameScope(c, true);
    const settings = await readJson(c, GameSettingsSchema);
    const { db, dialect, config } = s.deps;
    await db.transaction().execute(async (trx) => {
      const row = await findGame(trx, s.scope, { dialect });
      await randomizeGame(trx, row, settings, randomSource(config));
    });
    await announce(c, s.gameId, 'full');
    return c.json({ game: await loadGame(db, s.gameId, s.user.id), message: GAME_MESSAGES.randomized });
  });

  app.delete(`${GAME}/:gameId`, async (c) => {
    const s = await gameScope(c, true);
    const { db, dialect } = s.deps;
    const imageKeys = await db.transaction().execute(async (trx) => deleteGame(trx, await findGame(trx, s.scope, { dialect })));
    s.deps.gameCache.invalidate(s.gameId);
    await deleteImages(s.deps, imageKeys);
    return c.json({ ok: true, message: GAME_MESSAGES.deleted });
  });

  app.put(`${GAME}/:gameId/board`, async (c) => {
    const s = await gameScope(c, true);
    const body = await readJson(c, BoardBodySchema);
    const { db, dialect, config } = s.deps;
    await db.transaction().execute(async (trx) => {
      await setBoard(trx, await findGame(trx, s.scope, { dialect }), body, randomSource(config));
    });
    await announce(c, s.gameId, 'full');
    return c.json({ ok: true, message: GAME_MESSAGES.boardUpdated });
  });

  app.put(`${GAME}/:gameId/status`, async (c) => {
    const s = await gameScope(c, true);
    const body = await readJson(c, StatusBodySchema);
    const { db, dialect } = s.deps;
    const result = await db.transaction().execute(async (trx) => changeStatus(trx, await findGame(trx, s.scope, { dialect }), body.status));
    await announce(c, s.gameId, 'progress', [result.log]);
    return c.json({ ok: true, status: result.status });
  });

  app.put(`${GAME}/:gameId/reset`, async (c) => {
    const s = await gameScope(c, true);
    const { db, dialect, config } = s.deps;
    const imageKeys = await db.transaction().execute(async (trx) => resetGame(trx, await findGame(trx, s.scope, { dialect }), config));
    await deleteImages(s.deps, imageKeys);
    await announce(c, s.gameId, 'full');
    return c.json({ ok: true, message: GAME_MESSAGES.reset });
  });

  app.put(`${GAME}/:gameId/rules`, async (c) => {
    const s = await gameScope(c, true);
    const body = await readJson(c, RulesBodySchema);
    const { db, dialect } = s.deps;
    const { changed, rules } = await db.transaction().execute(async (trx) => setRules(trx, await findGame(trx, s.scope, { dialect }), body));
    if (changed) await announce(c, s.gameId, 'full');
    return c.json({ ok: true, ...rules, message: PROOF_MESSAGES.rulesSaved });
  });

  app.get(`${GAME}/:gameId/tasks`, async (c) => {
    const s = await gameScope(c, false);
    const game = await findGame(s.deps.db, s.scope);
    return c.json({ squares: await listSquares(s.deps.db, s.gameId), finished: !isActiveStatus(game.status) });
  });

  app.post(`${GAME}/:gameId/tasks/reorder`, async (c) => {
    const s = await gameScope(c, true);
    const body = await readJson(c, ReorderBodySchema);
    const { db, dialect } = s.deps;
    await db.transaction().execute(async (trx) => reorderTasks(trx, await findGame(trx, s.scope, { dialect }), body.squares));
    await announce(c, s.gameId, 'tasks');
    return c.json({ ok: true, message: GAME_MESSAGES.reordered });
  });

  app.post(`${GAME}/:gameId/tasks/swap`, async (c) => {
    const s = await gameScope(c, true);
    const body = await readJson(c, SwapBodySchema);
    const { db, dialect } = s.deps;
    await db.transaction().execute(async (trx) => swapTasks(trx, await findGame(trx, s.scope, { dialect }), body.square1_id, body.square2_id));
    await announce(c, s.gameId, 'tasks');
    return c.json({ ok: true, message: GAME_MESSAGES.swapped });
  });

  app.put(`${GAME}/:gameId/tasks/:squareId`, async (c) => {
    const s = await gameScope(c, true);
    const body = await readJson(c, AssignBodySchema);
    const { db, dialect } = s.deps;
    const squareIndex = await db.transaction().execute(async (trx) =>
      assignTask(trx, await findGame(trx, s.scope, { dialect }), s.squareId, body.task_id));
    await announce(c, s.gameId, 'tasks');
    return c.json({ ok: true, message: GAME_MESSAGES.assigned(squareIndex) });
  });

  app.get(`${GAME}/:gameId/tasks/:squareId/available`, async (c) => {
    const s = await gameScope(c, false);
    const row = await findGame(s.deps.db, s.scope);
    return c.json({ available_tasks: await availableTasks(s.deps.db, row, s.squareId) });
  });

  return app;
}
