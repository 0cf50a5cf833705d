import type { CallbackActorLogic } from 'xstate';
import * as gamesApi from '../../api/games';
import { gameSocketActor } from '../../realtime/gameSocket';
import type { SocketCommand } from '../../../machines/socketConnection.machine';
import type { TasksAnnounce } from '../../../machines/gameTasks.machine';
import { tasksReorderedAnnouncer } from './liveTasks';

/** The game calls of the Event Game view (product-spec section 7 "Game"), replaceable in tests. */
export interface GameEffects {
  fetchGame: typeof gamesApi.fetchGame;
  createGame: typeof gamesApi.createGame;
  randomizeGame: typeof gamesApi.randomizeGame;
  saveBoard: typeof gamesApi.saveBoard;
  changeGameStatus: typeof gamesApi.changeGameStatus;
  resetGame: typeof gamesApi.resetGame;
  deleteGame: typeof gamesApi.deleteGame;
  /** The live socket of the game (joins its room, reports game_state_update). */
  watchGame: CallbackActorLogic<SocketCommand, { gameId: number }>;
}

/** The real game calls. */
export const liveGameEffects: GameEffects = {
  fetchGame: gamesApi.fetchGame,
  createGame: gamesApi.createGame,
  randomizeGame: gamesApi.randomizeGame,
  saveBoard: gamesApi.saveBoard,
  changeGameStatus: gamesApi.changeGameStatus,
  resetGame: gamesApi.resetGame,
  deleteGame: gamesApi.deleteGame,
  watchGame: gameSocketActor(),
};

/** The game-task calls of the Game Tasks screen (product-spec section 7 "Game tasks"), replaceable in tests. */
export interface GameTasksEffects {
  fetchGameSquares: typeof gamesApi.fetchGameSquares;
  swapGameSquares: typeof gamesApi.swapGameSquares;
  assignSquareTask: typeof gamesApi.assignSquareTask;
  fetchAvailableTasks: typeof gamesApi.fetchAvailableTasks;
  /** Sends the `tasks_reordered` socket message after a swap or assign. */
  announcer: CallbackActorLogic<TasksAnnounce, { gameId: number }>;
}

/** The real game-task calls. */
export const liveGameTasksEffects: GameTasksEffects = {
  fetchGameSquares: gamesApi.fetchGameSquares,
  swapGameSquares: gamesApi.swapGameSquares,
  assignSquareTask: gamesApi.assignSquareTask,
  fetchAvailableTasks: gamesApi.fetchAvailableTasks,
  announcer: tasksReorderedAnnouncer(),
};
