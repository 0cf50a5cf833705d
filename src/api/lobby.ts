import { request, withNetworkMessage } from './client';
import {
  ClanLiveGamesAnswerSchema, LobbyAnswerSchema, SpectateAnswerSchema,
  type ClanLiveGame, type LobbyGame, type SpectateGame,
} from '../../contract/lobby';

/**
 * The lobby and spectating calls (docs/server.md §3),
 * answers parsed with contract/lobby.ts. Each raises ApiRequestError with the server's `error`
 * text, or the fallback named below.
 */

/** Spectate list failure text (docs/client.md §11). */
export const SPECTATE_LIST_FAILED = 'Failed to load spectatable games. Please check the server connection.';

/** GET /api/games → the viewer's lobby rows (active and former together). Fallback 'Failed to fetch game data.' */
export async function fetchLobbyGames(): Promise<LobbyGame[]> {
  const answer = await withNetworkMessage(
    request(LobbyAnswerSchema, (h) => h.get('games'), 'Failed to fetch game data.'),
    'Network error fetching game data.',
  );
  return answer.games;
}

/** GET /api/games/spectate → spectatable games, newest first. Any failure: SPECTATE_LIST_FAILED. */
export async function fetchSpectateGames(): Promise<SpectateGame[]> {
  try {
    return (await request(SpectateAnswerSchema, (h) => h.get('games/spectate'), SPECTATE_LIST_FAILED)).games;
  } catch (err) {
    throw Object.assign(new Error(SPECTATE_LIST_FAILED), { cause: err });
  }
}

/**
 * GET /api/clan/{clanId}/games/live → the clan's READY, in-progress and paused games, newest first
 * (members of the clan). Fallback 'Failed to load the clan's live games.'
 */
export async function fetchClanLiveGames(clanId: number): Promise<ClanLiveGame[]> {
  const answer = await withNetworkMessage(
    request(ClanLiveGamesAnswerSchema, (h) => h.get(`clan/${clanId}/games/live`), "Failed to load the clan's live games."),
    'Network error fetching game data.',
  );
  return answer.games;
}
