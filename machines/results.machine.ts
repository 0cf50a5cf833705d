import { assign, setup } from 'xstate';
import { GAME_VIEW_MESSAGES } from '../contract/game/viewTexts';
import type { ResultsData } from '../contract/results';
import { missingPromise } from './shared';

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

/** The failure text of a load: the error's own message, else the fallback. */
const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : GAME_VIEW_MESSAGES.publicLoadFailed);

/**
 * The results page of a game (issue #15): `loading` runs `loadResults` (the history and the
 * public game, given from src/) → `loaded`; a failure whose text is 'Game not found.' →
 * `notFound`, any other → `failed` with that text, where `results.reload` loads again.
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
  guards: {
    isNotFound: (_, error: unknown) => errorText(error) === GAME_VIEW_MESSAGES.notFound,
  },
  actions: {
    assignData: assign((_, data: ResultsData) => ({ data, error: null })),
    assignError: assign((_, error: unknown) => ({ error: errorText(error) })),
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
    loaded: {},
    notFound: {},
    failed: {
      on: { 'results.reload': 'loading' },
    },
  },
});
