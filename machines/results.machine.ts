import { assign, setup } from 'xstate';
import { isActiveStatus } from '../contract/game/status';
import { GAME_VIEW_MESSAGES } from '../contract/game/viewTexts';
import type { ResultsData } from '../contract/results';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';

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

/** The failure text of a load: the error's own message, else the fallback. */
/**
 * The results page of a game (issue #15): `loading` runs `loadResults` (the history and the
 * public game, given from src/) → `loaded`; a failure whose text is 'Game not found.' →
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
  actors: {
    loadResults: missingPromise<ResultsData, { gameId: number }>('results', 'loadResults'),
  },
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
    assignData: assign((_, data: ResultsData) => ({ data, error: null })),
    assignError: assign((_, error: unknown) => ({ error: errorText(error, GAME_VIEW_MESSAGES.publicLoadFailed) })),
  },
}).createMachine({
  id: 'results',
  context: ({ input }) => ({ gameId: input.gameId, data: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadResults',
        src: 'loadResults',
        input: ({ context }) => ({ gameId: context.gameId }),
        onDone: { target: 'loaded', actions: { type: 'assignData', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }: { event: { error: unknown } }) => event.error }, target: 'notFound', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
          { target: 'failed', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
        ],
      },
    },
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
          { target: 'loaded', actions: { type: 'assignData', params: ({ event }) => event.output } },
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
