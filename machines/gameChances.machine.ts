import { assign, setup } from 'xstate';
import type { ChancePoint } from '../contract/forecastView';
import type { ChancesRequest } from '../contract/game/chances';
import { missingPromise } from './shared';

/**
 * Each team's chance to win over a whole game, for its results page (docs/game-rules.md §14):
 * `computing` runs `computeChances` (contract chancesOverGame in a web worker, given from src/) for
 * the game's moves; `shown` holds the points; `failed` shows nothing. A new history is a new chart.
 */
export const gameChancesMachine = setup({
  types: {
    context: {} as { request: ChancesRequest; points: ChancePoint[] },
    input: {} as ChancesRequest,
  },
  actors: {
    computeChances: missingPromise<ChancePoint[], ChancesRequest>('gameChances', 'computeChances'),
  },
  actions: {
    assignPoints: assign((_, points: ChancePoint[]) => ({ points })),
  },
}).createMachine({
  id: 'gameChances',
  context: ({ input }) => ({ request: input, points: [] }),
  initial: 'computing',
  states: {
    computing: {
      tags: ['busy'],
      invoke: {
        id: 'computeChances',
        src: 'computeChances',
        input: ({ context }) => context.request,
        onDone: { target: 'shown', actions: { type: 'assignPoints', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    shown: {},
    failed: {},
  },
});
