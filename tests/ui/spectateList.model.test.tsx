// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { SpectateGame } from '../../contract/lobby';
import { SPECTATE_POLL_MS, spectateListMachine, type SpectateListEvent } from '../../machines/spectateList.machine';
import { SpectateListPage } from '../../src/features/spectate/SpectateListPage';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { advance, firstLoadShows, loadExecutors, notSent, renderAt, type ListWorld as World, type Loaded } from '../support/listScreens';

/**
 * Model-based test of the spectateList chart, built by the list-loader factory, through the spectate list (/games/spectate): the fake server answering or failing the load, Retry, 30 s of fake time for the poll: shortest paths
 * generated from the REAL chart by the chart-model harness, each step caused through the screen
 * and every state asserted on the screen with the documented texts (docs/client.md §1, §11). A
 * load fails without a message of its own, so the list's fallback text shows.
 */

const SPECTATE: SpectateGame[] = [
  { game_id: 4, event_name: 'Winter Bingo', clan_name: 'Iron Legion', status: 'in-progress', board_size: 100, team_count: 2, created_at: '2025-05-01T10:00:00.000Z' },
  { game_id: 8, event_name: 'Spring Sprint', clan_name: 'Iron Legion', status: 'READY', board_size: 49, team_count: 1, created_at: '2025-05-02T10:00:00.000Z' },
  { game_id: 9, event_name: 'Autumn Race', clan_name: 'Iron Legion', status: 'finished', board_size: 25, team_count: 2, created_at: '2025-04-02T10:00:00.000Z' },
];

type SpectateSnap = SnapshotFrom<typeof spectateListMachine>;
type SpectateEvent =
  | SpectateListEvent
  | Loaded<'loadGames', SpectateGame>
  | { type: 'xstate.after.pollInterval.spectateList.loaded' }
  | { type: 'xstate.after.pollInterval.spectateList.failed' };

const SPECTATE_FAILED = 'Failed to load spectatable games. Please check the server connection.';
const expectSpectateRows = async (games: SpectateGame[]) => {
  if (games.length === 0) expect(await screen.findByText('No games to spectate right now. Check back soon.')).toBeTruthy();
  for (const g of games) {
    const row = (await screen.findByText(g.event_name)).closest('li')!;
    // Results only for a game that has started: a READY game has no move to show.
    const results = within(row).queryByRole('link', { name: 'Results' });
    if (g.status === 'READY') expect(results).toBeNull();
    else expect(results?.getAttribute('href')).toBe(`/games/${g.game_id}/results`);
  }
};

modelTests<SpectateSnap, SpectateEvent, World>({
  name: 'spectateList',
  machine: spectateListMachine,
  dropPrefixPaths: true,
  fakeTimers: true,
  render: renderAt('/games/spectate', (fx) => <SpectateListPage loadGames={fx.fn('loadGames')} />, true),
  events: (s) => {
    const loads: SpectateEvent[] = [
      { type: 'xstate.done.actor.loadGames', output: s.context.items.length ? [] : SPECTATE },
      { type: 'xstate.error.actor.loadGames', error: new Error('') },
    ];
    if (s.matches('loading') || s.matches('reloading')) return loads;
    // 'spectate.reload' has no control on this screen: the list reloads by its 30 s poll.
    if (s.matches('loaded')) return [{ type: 'xstate.after.pollInterval.spectateList.loaded' }];
    return [{ type: 'xstate.after.pollInterval.spectateList.failed' }];
  },
  notDriven: ['spectate.reload'],
  uncovered: {
    'loaded -> spectate.reload': 'The spectate list has no reload control: it reloads only by its 30 s poll (docs/client.md §4), driven here as after(pollInterval).',
    'failed -> spectate.reload': 'The spectate list has no reload control, not even after a failure: it retries only by its 30 s poll (docs/client.md §4), driven here as after(pollInterval).',
  },
  executors: {
    'spectate.reload': notSent('spectate.reload'),
    ...loadExecutors<'loadGames', SpectateSnap, SpectateEvent>('loadGames'),
    'xstate.after.pollInterval.spectateList.loaded': async () => advance(SPECTATE_POLL_MS),
    'xstate.after.pollInterval.spectateList.failed': async () => advance(SPECTATE_POLL_MS),
  } satisfies Record<SpectateEvent['type'], ModelExecutor<World, SpectateSnap, SpectateEvent>>,
  assertions: {
    loading: firstLoadShows('Loading spectatable games...', () => screen.queryByTestId('spectate-error')),
    loaded: async (s) => {
      await expectSpectateRows(s.context.items);
      expect(screen.queryByTestId('spectate-error')).toBeNull();
      expect(screen.queryByText('Loading spectatable games...')).toBeNull();
    },
    reloading: async (s) => {
      // The list stays on screen while it reloads; no first-load spinner.
      await expectSpectateRows(s.context.items);
      expect(screen.queryByText('Loading spectatable games...')).toBeNull();
    },
    failed: async (s) => {
      expect((await screen.findByTestId('spectate-error')).textContent).toBe(SPECTATE_FAILED);
      await expectSpectateRows(s.context.items);
    },
  },
});
