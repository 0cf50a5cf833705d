import { assign, fromPromise, setup } from 'xstate';
import type { SpectateGame } from '../contract/lobby';

export interface SpectateListContext {
  games: SpectateGame[];
  /** The failure text of the last load (product-spec section 8 "Spectate list"), or null. */
  error: string | null;
}

export type SpectateListEvent = { type: 'list.refresh' };

const missing = fromPromise<SpectateGame[], void>(async () => {
  throw new Error("spectateList machine: actor 'loadGames' was not provided");
});

/**
 * The spectate list (product-spec sections 2 "Spectate list", 7 "Spectating", 9: refreshed every
 * 30 s): `loading` → `showing`; after the named delay `pollInterval` it reloads in `refreshing`
 * while the list stays on screen; a failure shows the error the `loadGames` actor raised and keeps
 * polling; `list.refresh` reloads at once.
 */
export const spectateListMachine = setup({
  types: { context: {} as SpectateListContext, events: {} as SpectateListEvent },
  actors: { loadGames: missing },
  delays: { pollInterval: 30_000 },
  actions: {
    assignGames: assign((_, games: SpectateGame[]) => ({ games, error: null })),
    assignError: assign((_, error: unknown) => ({
      error: error instanceof Error && error.message ? error.message : 'Failed to load spectatable games. Please check the server connection.',
    })),
  },
}).createMachine({
  id: 'spectateList',
  context: { games: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadGames',
        src: 'loadGames',
        onDone: { target: 'showing', actions: { type: 'assignGames', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    showing: {
      after: { pollInterval: 'refreshing' },
      on: { 'list.refresh': 'refreshing' },
    },
    refreshing: {
      invoke: {
        id: 'loadGames',
        src: 'loadGames',
        onDone: { target: 'showing', actions: { type: 'assignGames', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    failed: {
      after: { pollInterval: 'refreshing' },
      on: { 'list.refresh': 'refreshing' },
    },
  },
});
