import * as gamesApi from '../../api/games';
import { openGameSocket, type GameSocketLike } from '../../realtime/gameSocket';

/** The game calls of the Event Game view (docs/server.md §3), replaceable in tests. */
export interface GameEffects {
  fetchGame: typeof gamesApi.fetchGame;
  createGame: typeof gamesApi.createGame;
  /** PUT .../rules {proof_required} (docs/server.md §9). */
  saveGameRules: typeof gamesApi.saveGameRules;
  /** PUT .../rules {relief_after_hours, relief_max_per_team} (docs/server.md §15). */
  saveGameRelief: typeof gamesApi.saveGameRelief;
  randomizeGame: typeof gamesApi.randomizeGame;
  saveBoard: typeof gamesApi.saveBoard;
  changeGameStatus: typeof gamesApi.changeGameStatus;
  resetGame: typeof gamesApi.resetGame;
  deleteGame: typeof gamesApi.deleteGame;
  /** Opens the live socket of the game (run by the liveGame chart). */
  openSocket: () => GameSocketLike;
}

/** The real game calls. */
export const liveGameEffects: GameEffects = {
  fetchGame: gamesApi.fetchGame,
  createGame: gamesApi.createGame,
  saveGameRules: gamesApi.saveGameRules,
  saveGameRelief: gamesApi.saveGameRelief,
  randomizeGame: gamesApi.randomizeGame,
  saveBoard: gamesApi.saveBoard,
  changeGameStatus: gamesApi.changeGameStatus,
  resetGame: gamesApi.resetGame,
  deleteGame: gamesApi.deleteGame,
  openSocket: openGameSocket,
};

/** The game-task calls of the Game Tasks screen (docs/server.md §3), replaceable in tests. */
export interface GameTasksEffects {
  fetchGameSquares: typeof gamesApi.fetchGameSquares;
  swapGameSquares: typeof gamesApi.swapGameSquares;
  assignSquareTask: typeof gamesApi.assignSquareTask;
  fetchAvailableTasks: typeof gamesApi.fetchAvailableTasks;
}

/** The real game-task calls. */
export const liveGameTasksEffects: GameTasksEffects = {
  fetchGameSquares: gamesApi.fetchGameSquares,
  swapGameSquares: gamesApi.swapGameSquares,
  assignSquareTask: gamesApi.assignSquareTask,
  fetchAvailableTasks: gamesApi.fetchAvailableTasks,
};
