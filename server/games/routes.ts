import { Hono } from 'hono';
import { announce, EVENT_ID_LABELS, gameScope } from '../http/gameScope';
import type { AppEnv } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { lockEvent } from '../db/locks';
import { isActiveStatus } from '../../contract/game/status';
import {
  AssignBodySchema,
  AvailableTasksAnswerSchema,
  BoardBodySchema,
  GAME_MESSAGES,
  GameAnswerSchema,
  GameCreatedAnswerSchema,
  GameRandomizedAnswerSchema,
  GameSettingsSchema,
  OkMessageAnswerSchema,
  ReorderBodySchema,
  SquaresAnswerSchema,
  StatusAnswerSchema,
  StatusBodySchema,
  SwapBodySchema,
} from '../../contract/gameApi';
import { findGame, GAME_NOT_FOUND, listSquares, listUserTeams } from './repository';
import { membersAnswer } from './cache';
import { gameAnswer, NOT_MODIFIED } from './cachedAnswer';
import { notFound } from '../errors';
import { recordAudit } from '../audit/service';
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
import { boardFileOfGame } from './boardFile';
import { routeBodyLimit } from '../http/bodyLimit';
import { BOARD_FILE_MAX_BYTES, BOARD_FILE_MESSAGES, BoardFileAnswerSchema, boardFileName, GameCreateBodySchema } from '../../contract/game/boardFile';
import { deleteImages } from '../submissions/service';
import { PROOF_MESSAGES, RulesAnswerSchema, RulesBodySchema } from '../../contract/submission';

const GAME = '/clan/:clanId/events/:eventId/game';

/** The path ids: the event's (POST .../game), the game's, and a square's of the game. */
const EVENT_IDS = ids(EVENT_ID_LABELS);
const GAME_IDS = ids({ ...EVENT_ID_LABELS, gameId: 'game id' });
const SQUARE_IDS = ids({ ...EVENT_ID_LABELS, gameId: 'game id', squareId: 'square id' });

const Settings = named('GameSettings', GameSettingsSchema);
const OkMessage = named('OkMessageAnswer', OkMessageAnswerSchema);

/**
 * Game and game-task calls of a clan event (docs/game-rules.md §4,
 * §6 and "Tasks", 7 "Game" and "Game tasks", 8; docs/server.md §4, §5, §6). Any clan
 * member may read; only managers (Owner, Admin) change. Errors as in gameScope, then 400 for a
 * bad body (the settings rule's own message), 409 for a change the game's state refuses. Every
 * path also answers with a trailing slash. Every change bumps the game's version in its
 * transaction and is broadcast after it commits.
 * - GET    .../game/{gameId} → {game} (contract GameSchema; user_teams are the caller's), from the
 *   game cache (games/cache.ts) with an ETag (304 to a matching If-None-Match)
 * - POST   .../game/ settings, optionally with `board` (a board file) → {game: {id}, message}; 409
 *   when the event already has a game; 400 with the reason a board file does not fit the settings
 *   (contract/game/boardFile.ts boardFileError); 413 over 1 MiB (docs/server.md §18)
 * - GET    .../game/{gameId}/board.json → the board file {version: 1, settings, connections,
 *   squares} as an attachment (docs/server.md §18 "The next event")
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

  app.post(
    GAME,
    describe({ tag: 'games', access: 'manager', summary: "Creates the event's game with a generated board, or from a board file (`board`).", answer: named('GameCreatedAnswer', GameCreatedAnswerSchema) }),
    input('param', EVENT_IDS),
    routeBodyLimit(BOARD_FILE_MAX_BYTES, BOARD_FILE_MESSAGES.tooLarge),
    input('json', named('GameCreateBody', GameCreateBodySchema)),
    async (c) => {
      const s = await gameScope(c, true);
      const { board, ...settings } = valid(c, 'json');
      const { db, dialect, config } = s.deps;
      const gameId = await db.transaction().execute(async (trx) => {
        await lockEvent(trx, dialect, s.eventId);
        const id = await createGame(trx, { clanId: s.clanId, eventId: s.eventId, settings, board, dialect }, randomSource(config), config);
        await recordAudit(trx, s.clanId, s.user.id, 'game.create', s.event.name, board ? 'From a board file' : 'Generated board');
        return id;
      });
      await announce(c, gameId, 'full');
      return c.json({ game: { id: gameId }, message: GAME_MESSAGES.created });
    },
  );

  app.get(
    `${GAME}/:gameId`,
    describe({
      tag: 'games', access: 'member', summary: "The game in the members' shape (ETag; 304 to a matching If-None-Match).",
      answer: named('GameAnswer', GameAnswerSchema), also: NOT_MODIFIED,
    }),
    input('param', GAME_IDS),
    async (c) => {
      const s = await gameScope(c, false);
      const entry = await s.deps.gameCache.get(s.gameId);
      if (!entry) throw notFound(GAME_NOT_FOUND);
      const { json, etag } = membersAnswer(entry, await listUserTeams(s.deps.db, entry.eventId, s.user.id));
      return gameAnswer(c, etag, () => `{"game":${json}}`);
    },
  );

  app.put(
    `${GAME}/:gameId`,
    describe({ tag: 'games', access: 'manager', summary: 'New settings: a new board, positions and status kept.', answer: named('GameRandomizedAnswer', GameRandomizedAnswerSchema) }),
    input('param', GAME_IDS),
    input('json', Settings),
    async (c) => {
      const s = await gameScope(c, true);
      const settings = valid(c, 'json');
      const { db, dialect, config } = s.deps;
      await db.transaction().execute(async (trx) => {
        const row = await findGame(trx, s.scope, { dialect });
        await randomizeGame(trx, row, settings, randomSource(config));
        await recordAudit(trx, s.clanId, s.user.id, 'game.randomize', s.event.name, 'New board from new settings');
      });
      await announce(c, s.gameId, 'full');
      return c.json({ game: await loadGame(db, s.gameId, s.user.id), message: GAME_MESSAGES.randomized });
    },
  );

  app.delete(
    `${GAME}/:gameId`,
    describe({ tag: 'games', access: 'manager', summary: 'Deletes the game with its proofs.', answer: OkMessage }),
    input('param', GAME_IDS),
    async (c) => {
      const s = await gameScope(c, true);
      const { db, dialect } = s.deps;
      const imageKeys = await db.transaction().execute(async (trx) => {
        const keys = await deleteGame(trx, await findGame(trx, s.scope, { dialect }));
        await recordAudit(trx, s.clanId, s.user.id, 'game.delete', s.event.name, 'Game deleted with its proofs');
        return keys;
      });
      s.deps.gameCache.invalidate(s.gameId);
      await deleteImages(s.deps, imageKeys);
      return c.json({ ok: true, message: GAME_MESSAGES.deleted });
    },
  );

  app.put(
    `${GAME}/:gameId/board`,
    describe({ tag: 'games', access: 'manager', summary: 'Sets the snakes and ladders by hand.', answer: OkMessage }),
    input('param', GAME_IDS),
    input('json', named('BoardBody', BoardBodySchema)),
    async (c) => {
      const s = await gameScope(c, true);
      const body = valid(c, 'json');
      const { db, dialect, config } = s.deps;
      await db.transaction().execute(async (trx) => {
        await setBoard(trx, await findGame(trx, s.scope, { dialect }), body, randomSource(config));
        await recordAudit(trx, s.clanId, s.user.id, 'game.board', s.event.name, 'Snakes and ladders set by hand');
      });
      await announce(c, s.gameId, 'full');
      return c.json({ ok: true, message: GAME_MESSAGES.boardUpdated });
    },
  );

  app.put(
    `${GAME}/:gameId/status`,
    describe({ tag: 'games', access: 'manager', summary: 'Starts, pauses or resumes the game.', answer: named('StatusAnswer', StatusAnswerSchema) }),
    input('param', GAME_IDS),
    input('json', named('StatusBody', StatusBodySchema)),
    async (c) => {
      const s = await gameScope(c, true);
      const body = valid(c, 'json');
      const { db, dialect } = s.deps;
      const result = await db.transaction().execute(async (trx) => {
        const row = await findGame(trx, s.scope, { dialect });
        const changed = await changeStatus(trx, row, body.status);
        await recordAudit(trx, s.clanId, s.user.id, 'game.status', s.event.name, `${row.status} → ${changed.status}`);
        return changed;
      });
      await announce(c, s.gameId, 'progress', [result.log]);
      return c.json({ ok: true, status: result.status });
    },
  );

  app.put(
    `${GAME}/:gameId/reset`,
    describe({ tag: 'games', access: 'manager', summary: 'Puts every team back on square 1 and starts a new dice round.', answer: OkMessage }),
    input('param', GAME_IDS),
    async (c) => {
      const s = await gameScope(c, true);
      const { db, dialect, config } = s.deps;
      const imageKeys = await db.transaction().execute(async (trx) => {
        const keys = await resetGame(trx, await findGame(trx, s.scope, { dialect }), config);
        await recordAudit(trx, s.clanId, s.user.id, 'game.reset', s.event.name, 'Every team back on square 1');
        return keys;
      });
      await deleteImages(s.deps, imageKeys);
      await announce(c, s.gameId, 'full');
      return c.json({ ok: true, message: GAME_MESSAGES.reset });
    },
  );

  app.put(
    `${GAME}/:gameId/rules`,
    describe({ tag: 'games', access: 'manager', summary: 'Turns the proof rule on or off.', answer: named('RulesAnswer', RulesAnswerSchema) }),
    input('param', GAME_IDS),
    input('json', named('RulesBody', RulesBodySchema)),
    async (c) => {
      const s = await gameScope(c, true);
      const body = valid(c, 'json');
      const { db, dialect } = s.deps;
      const { changed, rules } = await db.transaction().execute(async (trx) => {
        const saved = await setRules(trx, await findGame(trx, s.scope, { dialect }), body);
        await recordAudit(trx, s.clanId, s.user.id, 'game.rules', s.event.name, Object.entries(body).map(([k, v]) => `${k}: ${String(v)}`).join('; '));
        return saved;
      });
      if (changed) await announce(c, s.gameId, 'full');
      return c.json({ ok: true, ...rules, message: PROOF_MESSAGES.rulesSaved });
    },
  );

  app.get(
    `${GAME}/:gameId/board.json`,
    describe({ tag: 'games', access: 'member', summary: "The game's board as a board file (a JSON attachment) to build another game from.", answer: named('BoardFile', BoardFileAnswerSchema) }),
    input('param', GAME_IDS),
    async (c) => {
      const s = await gameScope(c, false);
      const file = await boardFileOfGame(s.deps.db, await findGame(s.deps.db, s.scope));
      c.header('Content-Disposition', `attachment; filename="${boardFileName(s.event.name, s.gameId)}"`);
      return c.json(file);
    },
  );

  app.get(
    `${GAME}/:gameId/tasks`,
    describe({ tag: 'games', access: 'member', summary: "The board's squares with their tasks.", answer: named('SquaresAnswer', SquaresAnswerSchema) }),
    input('param', GAME_IDS),
    async (c) => {
      const s = await gameScope(c, false);
      const game = await findGame(s.deps.db, s.scope);
      return c.json({ squares: await listSquares(s.deps.db, s.gameId), finished: !isActiveStatus(game.status) });
    },
  );

  app.post(
    `${GAME}/:gameId/tasks/reorder`,
    describe({ tag: 'games', access: 'manager', summary: 'Saves a new order of the tasks on the board.', answer: OkMessage }),
    input('param', GAME_IDS),
    input('json', named('ReorderBody', ReorderBodySchema)),
    async (c) => {
      const s = await gameScope(c, true);
      const body = valid(c, 'json');
      const { db, dialect } = s.deps;
      await db.transaction().execute(async (trx) => {
        await reorderTasks(trx, await findGame(trx, s.scope, { dialect }), body.squares);
        await recordAudit(trx, s.clanId, s.user.id, 'game.board', s.event.name, 'Tasks reordered');
      });
      await announce(c, s.gameId, 'tasks');
      return c.json({ ok: true, message: GAME_MESSAGES.reordered });
    },
  );

  app.post(
    `${GAME}/:gameId/tasks/swap`,
    describe({ tag: 'games', access: 'manager', summary: 'Swaps the tasks of two squares.', answer: OkMessage }),
    input('param', GAME_IDS),
    input('json', named('SwapBody', SwapBodySchema)),
    async (c) => {
      const s = await gameScope(c, true);
      const body = valid(c, 'json');
      const { db, dialect } = s.deps;
      await db.transaction().execute(async (trx) => {
        await swapTasks(trx, await findGame(trx, s.scope, { dialect }), body.square1_id, body.square2_id);
        await recordAudit(trx, s.clanId, s.user.id, 'game.board', s.event.name, 'Tasks of two squares swapped');
      });
      await announce(c, s.gameId, 'tasks');
      return c.json({ ok: true, message: GAME_MESSAGES.swapped });
    },
  );

  app.put(
    `${GAME}/:gameId/tasks/:squareId`,
    describe({ tag: 'games', access: 'manager', summary: 'Puts a pool task on a square.', answer: OkMessage }),
    input('param', SQUARE_IDS),
    input('json', named('AssignBody', AssignBodySchema)),
    async (c) => {
      const s = await gameScope(c, true);
      const body = valid(c, 'json');
      const { db, dialect } = s.deps;
      const squareIndex = await db.transaction().execute(async (trx) => {
        const index = await assignTask(trx, await findGame(trx, s.scope, { dialect }), s.squareId, body.task_id);
        await recordAudit(trx, s.clanId, s.user.id, 'game.board', s.event.name, `Task on square ${index} changed`);
        return index;
      });
      await announce(c, s.gameId, 'tasks');
      return c.json({ ok: true, message: GAME_MESSAGES.assigned(squareIndex) });
    },
  );

  app.get(
    `${GAME}/:gameId/tasks/:squareId/available`,
    describe({ tag: 'games', access: 'member', summary: 'Pool tasks that may go on the square.', answer: named('AvailableTasksAnswer', AvailableTasksAnswerSchema) }),
    input('param', SQUARE_IDS),
    async (c) => {
      const s = await gameScope(c, false);
      const row = await findGame(s.deps.db, s.scope);
      return c.json({ available_tasks: await availableTasks(s.deps.db, row, s.squareId) });
    },
  );

  return app;
}
