// @vitest-environment jsdom
import { act, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { GAME_VIEW_MESSAGES } from '../../contract/game/viewTexts';
import type { GameHistory } from '../../contract/history';
import type { RaceSeries, ResultsData } from '../../contract/results';
import { RESULTS_REFRESH_MS, resultsMachine, type ResultsEvent } from '../../machines/results.machine';
import { ResultsPage } from '../../src/features/results/ResultsPage';
import type { ResultsEffects } from '../../src/features/results/effects';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { fixtureGame } from '../support/gameFixtures';
import { useFakeTimersPerTest } from '../support/timers';

/**
 * Model-based test of the results chart through the rendered results page: the fake
 * server answers the load with a finished game, with a game without moves, with 'Game not found.'
 * or with a failure; Retry loads again. Every state is asserted on the screen: the loading text,
 * the standings with the podium, the race chart handed one series per team, the statistics, the
 * replay and the CSV link of a played game; the no-moves note; the not-found and failure notices.
 */

type Snap = SnapshotFrom<typeof resultsMachine>;
const REFRESH = 'xstate.after.resultsRefresh.results.loaded';
type ModelEvent =
  | ResultsEvent
  | { type: 'xstate.done.actor.loadResults'; output: ResultsData }
  | { type: 'xstate.error.actor.loadResults'; error: Error; text: string }
  | { type: typeof REFRESH }
  | { type: 'xstate.done.actor.refreshResults'; output: ResultsData }
  | { type: 'xstate.error.actor.refreshResults'; error: Error };

const RED = { team_id: 11, name: 'Red <b>Dragons</b>', color: '#cc2222' };
const BLUE = { team_id: 12, name: 'Blue Moons', color: '#2244cc' };
const BOARD = fixtureGame();
const board = { board_size: BOARD.board_size, board_squares: BOARD.board_squares, board_connections: BOARD.board_connections, event_type: BOARD.event_type };
const PLAYED: GameHistory = {
  game: { id: 5, event_name: 'Spring Bash', clan_name: 'Iron Legion', board_size: 25, status: 'finished', winners: [{ name: BLUE.name, color: BLUE.color }], dice_commitment: 'a'.repeat(64), dice_seed: 'b'.repeat(64) },
  teams: [RED, BLUE],
  moves: [
    { at: '2026-11-24T10:00:00.000Z', team_id: 11, kind: 'roll', roll_index: 1, die: 6, from: 1, landing: 7, to: 7, via: null },
    { at: '2026-11-24T10:00:30.000Z', team_id: 12, kind: 'roll', roll_index: 2, die: 2, from: 1, landing: 3, to: 14, via: 'ladder' },
    { at: '2026-11-24T10:02:00.000Z', team_id: 11, kind: 'roll', roll_index: 3, die: 5, from: 7, landing: 12, to: 12, via: null },
    { at: '2026-11-24T10:03:00.000Z', team_id: 11, kind: 'revert', roll_index: null, die: null, from: 12, landing: null, to: 7, via: null },
    { at: '2026-11-24T10:04:00.000Z', team_id: 12, kind: 'roll', roll_index: 4, die: 6, from: 14, landing: 20, to: 20, via: null },
    { at: '2026-11-24T10:05:00.000Z', team_id: 12, kind: 'roll', roll_index: 5, die: 5, from: 20, landing: 25, to: 25, via: null },
  ],
  reviews: [],
};
const EMPTY: GameHistory = { ...PLAYED, game: { ...PLAYED.game, status: 'in-progress', winners: null, dice_seed: null }, moves: [] };
/** The game still on after its first three moves (what a refresh of EMPTY finds). */
const IN_PLAY: GameHistory = { ...PLAYED, game: { ...PLAYED.game, status: 'in-progress', winners: null, dice_seed: null }, moves: PLAYED.moves.slice(0, 3) };
const OUTCOMES = { played: { history: PLAYED, board }, empty: { history: EMPTY, board }, inPlay: { history: IN_PLAY, board } } satisfies Record<string, ResultsData>;
const FAILED = GAME_VIEW_MESSAGES.publicLoadFailed;

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  charts: RaceSeries[];
}

function eventsOf(s: Snap): ModelEvent[] {
  if (s.matches('loading'))
    return [
      { type: 'xstate.done.actor.loadResults', output: OUTCOMES.played },
      { type: 'xstate.done.actor.loadResults', output: OUTCOMES.empty },
      // `text` tells the two apart for the path generator (an Error stringifies to {}).
      { type: 'xstate.error.actor.loadResults', error: new Error(GAME_VIEW_MESSAGES.notFound), text: GAME_VIEW_MESSAGES.notFound },
      { type: 'xstate.error.actor.loadResults', error: new Error(FAILED), text: FAILED },
    ];
  if (s.matches('failed')) return [{ type: 'results.reload' }];
  // A game still on is read again after RESULTS_REFRESH_MS (the chart's guard leaves a finished one alone).
  if (s.matches('loaded')) return s.context.data?.history.game.status === 'finished' ? [] : [{ type: REFRESH }];
  if (s.matches('refreshing')) {
    const onScreen = s.context.data!;
    return [
      { type: 'xstate.done.actor.refreshResults', output: OUTCOMES.inPlay },
      // The server answering what the page already shows (no move since the last read).
      ...(onScreen.history.moves.length !== IN_PLAY.moves.length ? [{ type: 'xstate.done.actor.refreshResults' as const, output: onScreen }] : []),
      { type: 'xstate.error.actor.refreshResults', error: new Error(FAILED) },
    ];
  }
  return [];
}

const EXECUTORS = {
  'xstate.done.actor.loadResults': async (w, { event }) => act(() => w.fx.resolve('loadResults', (event as { output: ResultsData }).output)),
  'xstate.error.actor.loadResults': async (w, { event }) => act(() => w.fx.reject('loadResults', (event as { error: Error }).error)),
  'results.reload': async (w) => w.user.click(screen.getByRole('button', { name: 'Retry' })),
  [REFRESH]: async (w) => {
    const loads = w.fx.calls('loadResults').length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(RESULTS_REFRESH_MS);
    });
    expect(w.fx.calls('loadResults')).toHaveLength(loads + 1);
  },
  'xstate.done.actor.refreshResults': async (w, { event, prev }) => {
    const { output } = event as { output: ResultsData };
    const drawn = w.charts.length;
    // A fresh copy, as the server sends it: the chart compares what it reads, not which object.
    await act(() => w.fx.resolve('loadResults', structuredClone(output)));
    // Results read unchanged stay as they are (the chart keeps them: isUnchanged), so the race chart is not drawn again; new ones are.
    if (JSON.stringify(prev.context.data) === JSON.stringify(output)) expect(w.charts).toHaveLength(drawn);
    else if (output.history.moves.length > 0) expect(w.charts).toHaveLength(drawn + 1);
  },
  'xstate.error.actor.refreshResults': async (w, { event }) => act(() => w.fx.reject('loadResults', (event as { error: Error }).error)),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

/** The results on screen: the empty game, the game still on, or the finished game. */
function resultsShow(s: Snap, w: World): void {
  expect(screen.queryByText('Loading results...')).toBeNull();
  expect(screen.getByRole('heading', { name: 'Spring Bash: Results' })).toBeTruthy();
  const csv = screen.getByRole('link', { name: 'Download CSV' }) as HTMLAnchorElement;
  expect(csv.getAttribute('href')).toBe('/api/public/game/5/history.csv');
  expect(csv.hasAttribute('download')).toBe(true);
  const standings = screen.getAllByTestId('standing');
  const active = s.context.data!.history.game.status !== 'finished';
  // A game still on says its results update; a finished one does not.
  if (active) expect(screen.getByTestId('results-live').textContent).toBe('The game is still on: these results update every 15 seconds.');
  else expect(screen.queryByTestId('results-live')).toBeNull();
  if (s.context.data!.history.moves.length === 0) {
    // No moves: the note, the standings so far (everyone on square 1), no chart, statistics or replay.
    expect(screen.getByTestId('results-empty').textContent).toBe('No moves yet: the story of this game starts with its first roll.');
    expect(screen.getByRole('heading', { name: 'Standings So Far' })).toBeTruthy();
    expect(standings.map((r) => r.dataset.position)).toEqual(['1', '1']);
    expect(screen.queryByTestId('podium')).toBeNull();
    expect(screen.queryByTestId('race-chart')).toBeNull();
    expect(screen.queryByTestId('stats-table')).toBeNull();
    expect(screen.queryByTestId('replay-controls')).toBeNull();
    expect(w.charts).toHaveLength(0);
    return;
  }
  expect(screen.queryByTestId('results-empty')).toBeNull();
  if (active) {
    // The first three moves of a game still on: standings so far, no winner or podium, the chart
    // and the replay up to now.
    expect(screen.getByRole('heading', { name: 'Standings So Far' })).toBeTruthy();
    expect(standings.map((r) => [r.dataset.team, r.dataset.position])).toEqual([
      [BLUE.name, '14'],
      [RED.name, '12'],
    ]);
    expect(screen.queryByText('Winner')).toBeNull();
    expect(screen.queryByTestId('podium')).toBeNull();
    expect(w.charts.at(-1)!.series.map((x) => [x.team.name, x.positions])).toEqual([
      [RED.name, [1, 7, 7, 12]],
      [BLUE.name, [1, 1, 14, 14]],
    ]);
    expect(screen.getByTestId('replay-status').textContent).toBe('Move 0 of 3: every team on square 1.');
    expect(screen.getByTestId('results-counts').textContent).toBe('3 rolls · 3 turns processed');
    return;
  }
  expect(screen.getByRole('heading', { name: 'Final Standings' })).toBeTruthy();
  // The winner first; names are text (no markup parsed).
  expect(standings.map((r) => [r.dataset.team, r.dataset.position])).toEqual([
    [BLUE.name, '25'],
    [RED.name, '7'],
  ]);
  expect(standings[0].textContent).toContain('Winner');
  expect(screen.getByTestId('standings').querySelector('b')).toBeNull();
  expect(within(screen.getByTestId('podium')).getAllByRole('listitem').map((li) => li.textContent)).toEqual([`${BLUE.name}1stSquare 25`, `${RED.name}2ndSquare 7`]);
  // The chart is handed one series per team, in team order, with its squares at every frame.
  expect(w.charts.at(-1)!.series.map((x) => [x.team.name, x.positions])).toEqual([
    [RED.name, [1, 7, 7, 12, 7, 7, 7]],
    [BLUE.name, [1, 1, 14, 14, 14, 20, 25]],
  ]);
  const row = (name: string) => within(screen.getByTestId('stats-table')).getAllByRole('row').find((r) => r.dataset.team === name)!;
  // Rolls, Reverted, Turns, Sixes, Snakes, Ladders, then the times: Red's second roll was reverted.
  expect(within(row(RED.name)).getAllByRole('cell').map((c) => c.textContent)).toEqual(['2', '1', '1', '1', '0', '0', '1 min 30 s', '2 min']);
  expect(within(row(BLUE.name)).getAllByRole('cell').map((c) => c.textContent)).toEqual(['3', '0', '3', '1', '0', '1', '2 min 15 s', '3 min 30 s']);
  expect(screen.getByTestId('results-counts').textContent).toBe('5 rolls, 1 reverted · 4 turns processed');
  expect(screen.getByTestId('replay-status').textContent).toBe('Move 0 of 6: every team on square 1.');
  
}

useFakeTimersPerTest();

modelTests<Snap, ModelEvent, World>({
  name: 'results',
  machine: resultsMachine,
  dropPrefixPaths: true,
  inputs: [{ gameId: 5 }],
  events: eventsOf,
  // Whether a read changed the results tells an unchanged read (isUnchanged) from a new one.
  serialize: (s, event, prev) =>
    JSON.stringify([s.value, s.context.error, s.context.data?.history.moves.length ?? null, event?.type ?? null, event ? prev?.context.data?.history.moves.length ?? null : null]),
  executors: EXECUTORS,
  assertions: {
    loading: () => {
      expect(screen.getByRole('status').textContent).toBe('Loading results...');
      expect(screen.queryByTestId('standings')).toBeNull();
    },
    loaded: (s, w) => resultsShow(s, w),
    // Reading again keeps the results on screen, with no spinner.
    refreshing: (s, w) => resultsShow(s, w),
    notFound: () => {
      expect(screen.getByTestId('results-error').textContent).toBe(GAME_VIEW_MESSAGES.notFound);
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    },
    failed: () => {
      expect(within(screen.getByTestId('results-error')).getByRole('alert').textContent).toBe(FAILED);
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    },
  },
  render: () => {
    const fx = new FakeEffects();
    const charts: RaceSeries[] = [];
    const effects: ResultsEffects = {
      loadResults: fx.fn('loadResults'),
      drawRaceChart: (_host, race) => {
        charts.push(race);
        return () => {};
      },
    };
    const router = createMemoryRouter([{ path: '/games/:gameId/results', element: <ResultsPage effects={effects} /> }], { initialEntries: ['/games/5/results'] });
    render(<RouterProvider router={router} />);
    return { fx, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }), charts };
  },
});
