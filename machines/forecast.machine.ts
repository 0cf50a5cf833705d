import { assign, setup } from 'xstate';
import type { ForecastAnswer } from '../contract/lobby';
import { appendForecast, type ChancePoint } from '../contract/forecastView';
import { missingPromise } from './shared';

export interface ForecastContext {
  gameId: number;
  /** The newest game version the screen holds (the forecast asked for is of it or later). */
  version: number;
  /** The forecast shown, or null before the first one arrived. */
  forecast: ForecastAnswer | null;
  /** Each team's chance per version seen while the screen is open, oldest first (contract appendForecast). */
  history: ChancePoint[];
}

export type ForecastEvent =
  /** The screen's game reached a new version (a roll, a revert, a status change). */
  { type: 'game.versionSeen'; version: number };

/**
 * The win chances of one game screen (docs/game-rules.md §14; docs/server.md §15): `loading` runs
 * `loadForecast` (GET /api/public/game/{gameId}/forecast, given from src/) for the newest version
 * seen; a new version while loading asks again (the answer of the older one is dropped); `shown`
 * keeps the forecast and adds it to the history (how the chances moved with each roll); `failed`
 * (a PENDING game has none, or the call failed) shows nothing and tries again on the next version.
 * A version not newer than the one held is ignored.
 */
export const forecastMachine = setup({
  types: {
    context: {} as ForecastContext,
    events: {} as ForecastEvent,
    input: {} as { gameId: number },
  },
  actors: {
    loadForecast: missingPromise<ForecastAnswer, { gameId: number; version: number }>('forecast', 'loadForecast'),
  },
  guards: {
    isNewer: ({ context }, version: number) => version > context.version,
  },
  actions: {
    assignVersion: assign((_, version: number) => ({ version })),
    assignForecast: assign(({ context }, forecast: ForecastAnswer) => ({ forecast, history: appendForecast(context.history, forecast) })),
  },
}).createMachine({
  id: 'forecast',
  context: ({ input }) => ({ gameId: input.gameId, version: 0, forecast: null, history: [] }),
  initial: 'waiting',
  on: {
    'game.versionSeen': {
      guard: { type: 'isNewer', params: ({ event }) => event.version },
      target: '.loading',
      reenter: true,
      actions: { type: 'assignVersion', params: ({ event }) => event.version },
    },
  },
  states: {
    waiting: {},
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadForecast',
        src: 'loadForecast',
        input: ({ context }) => ({ gameId: context.gameId, version: context.version }),
        onDone: { target: 'shown', actions: { type: 'assignForecast', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    shown: {},
    failed: {},
  },
});
