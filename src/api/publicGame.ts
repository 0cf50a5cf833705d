import { request } from './client';
import { PublicGameAnswerSchema, type PublicGame } from '../../contract/gameApi';
import { ForecastAnswerSchema, type ForecastAnswer } from '../../contract/lobby';

/**
 * GET /api/public/game/{gameId} (docs/server.md §3; docs/server.md
 * §3) → the public game (no user_teams, no revert counts); no sign-in needed. Raises
 * ApiRequestError with the server's `error` text, else 'Failed to fetch game data.'. Apart from
 * the lobby calls so the pages every visit loads (the dashboard's lobby rows) do not carry the
 * whole game's schemas.
 */
export async function fetchPublicGame(gameId: number): Promise<PublicGame> {
  return (await request(PublicGameAnswerSchema, (h) => h.get(`public/game/${gameId}`), 'Failed to fetch game data.')).game;
}

/**
 * GET /api/public/game/{gameId}/forecast (docs/server.md §15) → each team's chance to win and
 * expected rolls, for the game's current version; no sign-in needed. Raises ApiRequestError (404
 * for a missing or PENDING game), else 'Failed to load the win chances.'.
 */
export async function fetchForecast(gameId: number): Promise<ForecastAnswer> {
  return request(ForecastAnswerSchema, (h) => h.get(`public/game/${gameId}/forecast`), 'Failed to load the win chances.');
}
