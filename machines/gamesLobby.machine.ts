import { assign, fromPromise, setup } from 'xstate';
import type { LobbyGame } from '../contract/lobby';

export interface GamesLobbyContext {
  games: LobbyGame[];
  /** The load failure text, or null. */
  error: string | null;
}

export type GamesLobbyEvent = { type: 'lobby.reload' };

const missing = fromPromise<LobbyGame[], void>(async () => {
  throw new Error("gamesLobby machine: actor 'loadGames' was not provided");
});

/**
 * The viewer's games (GET /api/games) for the Game Lobby and the dashboard's My Games widget
 * (product-spec sections 1 and 2 "Games lobby"): `loading` → `ready` or `failed` with the error
 * the `loadGames` actor raised; `lobby.reload` loads again.
 */
export const gamesLobbyMachine = setup({
  types: { context: {} as GamesLobbyContext, events: {} as GamesLobbyEvent },
  actors: { loadGames: missing },
  actions: {
    assignGames: assign((_, games: LobbyGame[]) => ({ games, error: null })),
    assignError: assign((_, error: unknown) => ({ error: error instanceof Error && error.message ? error.message : 'Failed to fetch game data.' })),
  },
}).createMachine({
  id: 'gamesLobby',
  context: { games: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadGames',
        src: 'loadGames',
        onDone: { target: 'ready', actions: { type: 'assignGames', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    ready: { on: { 'lobby.reload': 'loading' } },
    failed: { on: { 'lobby.reload': 'loading' } },
  },
});
