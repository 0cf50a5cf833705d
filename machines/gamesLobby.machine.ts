import type { LobbyGame } from '../contract/lobby';
import { listLoader } from './listLoader';

export type GamesLobbyEvent = { type: 'lobby.reload' };

/**
 * The viewer's games (GET /api/games) for the Game Lobby and the dashboard's My Games widget
 * (docs/game-rules.md §1; docs/client.md §4): the list-loader chart over the `loadGames` actor;
 * `lobby.reload` loads again.
 */
export const gamesLobbyMachine = listLoader<LobbyGame, 'loadGames', 'lobby.reload'>({
  id: 'gamesLobby',
  actor: 'loadGames',
  reload: 'lobby.reload',
  fallback: 'Failed to fetch game data.',
  reloadFrom: 'loading',
});
