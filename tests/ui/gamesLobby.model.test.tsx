// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { LobbyGame } from '../../contract/lobby';
import { gamesLobbyMachine, type GamesLobbyEvent } from '../../machines/gamesLobby.machine';
import { GamesLobbyPage } from '../../src/features/lobby/GamesLobbyPage';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { firstLoadShows, loadExecutors, renderAt, type ListWorld as World, type Loaded } from '../support/listScreens';

/**
 * Model-based test of the gamesLobby chart, built by the list-loader factory, through the Game Lobby (/games): the fake server answering or failing the load, a click on Try again: shortest paths
 * generated from the REAL chart by the chart-model harness, each step caused through the screen
 * and every state asserted on the screen with the documented texts (docs/client.md §1, §11). A
 * load fails without a message of its own, so the list's fallback text shows.
 */

const GAMES: LobbyGame[] = [
  { game_id: 1, clan_id: 7, clan_name: 'Iron Legion', event_id: 3, event_name: 'Summer Ladder', board_size: 25, status: 'in-progress', player_ign: 'Zezima', teams: [] },
];

type LobbySnap = SnapshotFrom<typeof gamesLobbyMachine>;
type LobbyEvent = GamesLobbyEvent | Loaded<'loadGames', LobbyGame>;

modelTests<LobbySnap, LobbyEvent, World>({
  name: 'gamesLobby',
  machine: gamesLobbyMachine,
  dropPrefixPaths: true,
  render: renderAt('/games', (fx) => <GamesLobbyPage loadGames={fx.fn('loadGames')} />),
  events: (s) =>
    s.matches('loading')
      ? [{ type: 'xstate.done.actor.loadGames', output: GAMES }, { type: 'xstate.error.actor.loadGames', error: new Error('') }]
      : s.matches('failed')
        ? [{ type: 'lobby.reload' }]
        : [],
  executors: {
    'lobby.reload': async (w) => w.user.click(screen.getByRole('button', { name: 'Try again' })),
    ...loadExecutors<'loadGames', LobbySnap, LobbyEvent>('loadGames'),
  } satisfies Record<LobbyEvent['type'], ModelExecutor<World, LobbySnap, LobbyEvent>>,
  uncovered: {
    'loaded -> lobby.reload': "Neither the Game Lobby nor the My Games widget offers a reload once the games are shown: 'Try again' appears only with a failure (docs/client.md §4).",
  },
  assertions: {
    loading: firstLoadShows('Loading your games...', () => screen.queryByText('Active Snakes & Ladders Games')),
    loaded: async () => {
      expect(await screen.findByText('Active Snakes & Ladders Games')).toBeTruthy();
      expect(screen.getByText('Summer Ladder')).toBeTruthy();
      expect(screen.queryByText('Failed to fetch game data.')).toBeNull();
      expect(screen.queryByText('Loading your games...')).toBeNull();
    },
    failed: async () => {
      expect(await screen.findByText('Failed to fetch game data.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
      expect(screen.queryByText('Active Snakes & Ladders Games')).toBeNull();
    },
  },
});
