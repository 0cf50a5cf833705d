import { request } from './client';
import { GameHistorySchema, historyApiPath, type GameHistory } from '../../contract/history';

/**
 * GET /api/public/game/{gameId}/history → the game's moves, teams, reviews and dice
 * (docs/server.md §12; contract/history.ts GameHistorySchema). No sign-in needed.
 * Raises ApiRequestError with the server's text (404 'Game not found.'), or
 * 'Failed to load the game history.' when it has none.
 */
export function fetchGameHistory(gameId: number): Promise<GameHistory> {
  return request(GameHistorySchema, (h) => h.get(historyApiPath(gameId)), 'Failed to load the game history.');
}
