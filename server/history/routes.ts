import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { notFound } from '../errors';
import { GAME_NOT_FOUND } from '../games/repository';
import { loadHistory } from './repository';
import { historyCsv } from './csv';
import type { Db } from '../db/schema';
import { GameHistorySchema, HISTORY_CSV_COLUMNS } from '../../contract/history';

/** The game id of the path; 400 'Invalid game id.' when malformed. */
const GAME_ID = ids({ gameId: 'game id' });

/** The public history of a game: 404 'Game not found.' when it is missing or PENDING (not public until it has a team). */
async function publicHistory(db: Db, gameId: number) {
  const history = await loadHistory(db, gameId);
  if (!history || history.game.status === 'PENDING') throw notFound(GAME_NOT_FOUND);
  return history;
}

/**
 * The story of a game (docs/server.md §12), public like the spectator view (no sign-in).
 * Each path also answers with a trailing slash.
 * - GET /public/game/{gameId}/history → {game, teams, moves, reviews} (contract GameHistorySchema)
 * - GET /public/game/{gameId}/history.csv → text/csv attachment `game-{id}-history.csv`, one row
 *   per move under the header `at,team,kind,roll_index,die,from,landing,to,via`, formula-safe
 * Both: 400 'Invalid game id.' for a malformed id; 404 'Game not found.' for a missing or PENDING game.
 */
export function historyRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/public/game/:gameId/history',
    describe({ tag: 'history', access: 'public', summary: "A game's story: teams, moves and reviews.", answer: named('GameHistory', GameHistorySchema) }),
    input('param', GAME_ID),
    async (c) => {
      const { gameId } = valid(c, 'param');
      return c.json(await publicHistory(c.get('deps').db, gameId));
    },
  );

  app.get(
    '/public/game/:gameId/history.csv',
    describe({
      tag: 'history', access: 'public', summary: "A game's moves as a CSV download.",
      answer: { contentType: 'text/csv', description: `One row per move under the header ${HISTORY_CSV_COLUMNS.join(',')}.`, schema: { type: 'string' } },
    }),
    input('param', GAME_ID),
    async (c) => {
      const { gameId } = valid(c, 'param');
      const csv = historyCsv(await publicHistory(c.get('deps').db, gameId));
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="game-${gameId}-history.csv"`,
        'Cache-Control': 'no-store',
      });
    },
  );

  return app;
}
