import type { SnapshotFrom } from 'xstate';
import type { gamesLobbyMachine } from './gamesLobby.machine';

type S = SnapshotFrom<typeof gamesLobbyMachine>;

/** Named selectors of the gamesLobby chart. */
export const selectLobbyGames = (s: S) => s.context.items;
export const selectLobbyError = (s: S) => (s.matches('failed') ? s.context.error : null);
export const selectLobbyLoading = (s: S) => s.matches('loading');
