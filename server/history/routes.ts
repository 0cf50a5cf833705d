import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { pathId } from '../http/context';
import { notFound } from '../errors';
import { GAME_NOT_FOUND } from '../games/repository';
import { loadHistory } from './repository';
import { historyCsv } from './csv';
import type { Db } from '../db/schema';

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

  app.get('/public/game/:gameId/history', async (c) => {
    const gameId = pathId(c, 'gameId', 'game id');
    return c.json(await publicHistory(c.get('deps').db, gameId));
  });

  app.get('/public/game/:gameId/history.csv', async (c) => {
    const gameId = pathId(c, 'gameId', 'game id');
    const csv = historyCsv(await publicHistory(c.get('deps').db, gameId));
    return c.body(csv, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="game-${gameId}-history.csv"`,
      'Cache-Control': 'no-store',
    });
  });

  return app;
}
