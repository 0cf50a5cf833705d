import { assign, setup } from 'xstate';
import { isActiveStatus } from '../contract/game/status';
import { GAME_VIEW_MESSAGES } from '../contract/game/viewTexts';
import type { ResultsData } from '../contract/results';
import { errorText } from '../contract/errorText';
import { loadStep } from './listLoader';

export interface ResultsInput {
  gameId: number;
}

export interface ResultsContext {
  gameId: number;
  data: ResultsData | null;
  /** The failure text of the last load, or null. */
  error: string | null;
}

export type ResultsEvent = { type: 'results.reload' };

/** How long the results of a game still being played stay on screen before they are read again (ms). */
export const RESULTS_REFRESH_MS = 15_000;

/** Whether the results on screen are of a game still being played (not finished): they are read again while it is. */
export const isGameOn = (context: ResultsContext) => context.data !== null && isActiveStatus(context.data.history.game.status);

/** The list-loader load step over one game's results. */
const results = loadStep<ResultsData, ResultsContext, 'loadResults', { gameId: number }>({
  id: 'results',
  actor: 'loadResults',
  fallback: GAME_VIEW_MESSAGES.publicLoadFailed,
  input: (context) => ({ gameId: context.gameId }),
  onLoaded: (_, data) => ({ data }),
});

/**
 * The results page of a game: the list-loader load step (listLoader.ts) over one game's results.
 * `loading` runs `loadResults` (the history and the public game, given from src/) → `loaded`; a failure whose text is 'Game not found.' →
 * `notFound`, any other → `failed` with that text, where `results.reload` loads again. While the
 * game is not finished, `loaded` reads them again every RESULTS_REFRESH_MS (`refreshing`, the
 * results so far staying on screen; a failed read keeps them and the next one tries again).
 */
export const resultsMachine = setup({
  types: {
    context: {} as ResultsContext,
    events: {} as ResultsEvent,
    input: {} as ResultsInput,
  },
  actors: results.actors,
  delays: {
    resultsRefresh: RESULTS_REFRESH_MS,
  },
  guards: {
    /** The read found the results on screen unchanged (kept as they are: nothing is drawn again). */
    isUnchanged: ({ context }, data: ResultsData) => JSON.stringify(context.data) === JSON.stringify(data),
    isGameActive: ({ context }) => isGameOn(context),
    isNotFound: (_, error: unknown) => errorText(error, GAME_VIEW_MESSAGES.publicLoadFailed) === GAME_VIEW_MESSAGES.notFound,
  },
  actions: {
    assignLoaded: assign(({ context }, data: ResultsData) => results.loaded(context, data)),
    assignError: assign((_, error: unknown) => results.failed(error)),
  },
}).createMachine({
  id: 'results',
  context: ({ input }) => ({ gameId: input.gameId, data: null, error: null }),
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: results.load({ catches: [{ guard: 'isNotFound', target: 'notFound' }] }) },
    loaded: {
      after: { resultsRefresh: { guard: 'isGameActive', target: 'refreshing' } },
    },
    refreshing: {
      invoke: {
        id: 'refreshResults',
        src: 'loadResults',
        input: ({ context }) => ({ gameId: context.gameId }),
        onDone: [
          { guard: { type: 'isUnchanged', params: ({ event }) => event.output }, target: 'loaded' },
          { target: 'loaded', actions: { type: 'assignLoaded', params: ({ event }) => event.output } },
        ],
        onError: { target: 'loaded' },
      },
    },
    notFound: {},
    failed: {
      on: { 'results.reload': 'loading' },
    },
  },
});
