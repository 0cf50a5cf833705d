import { GAME_VIEW_MESSAGES } from '../../../contract/game/viewTexts';
import type { RaceSeries, ResultsData } from '../../../contract/results';
import { ApiRequestError } from '../../api/client';
import { fetchGameHistory } from '../../api/history';
import { fetchPublicGame } from '../../api/publicGame';
import { drawRaceChart } from './raceChart';

/** The effects of the results page, replaceable in tests: the load and the chart drawing. */
export interface ResultsEffects {
  /** Loads the history and the public game; raises an Error whose message is the text to show ('Game not found.' for a 404). */
  loadResults: (gameId: number) => Promise<ResultsData>;
  /** Draws the race chart into `host`; returns the function that removes it. */
  drawRaceChart: (host: HTMLElement, race: RaceSeries, boardSize: number) => () => void;
}

/**
 * The real effects: GET /api/public/game/{gameId}/history and GET /api/public/game/{gameId}
 * together (no sign-in); a 404 of either → 'Game not found.', any other failure → the public
 * load failure text of docs/client.md §11. The chart is uPlot (raceChart.ts).
 */
export const resultsEffects: ResultsEffects = {
  loadResults: async (gameId) => {
    try {
      const [history, game] = await Promise.all([fetchGameHistory(gameId), fetchPublicGame(gameId)]);
      return { history, board: { board_size: game.board_size, board_squares: game.board_squares, board_connections: game.board_connections, event_type: game.event_type } };
    } catch (err) {
      throw new Error(err instanceof ApiRequestError && err.status === 404 ? GAME_VIEW_MESSAGES.notFound : GAME_VIEW_MESSAGES.publicLoadFailed);
    }
  },
  drawRaceChart,
};
