// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { ForecastAnswer } from '../../contract/lobby';
import { appendForecast, winChanceText } from '../../contract/forecastView';
import { forecastMachine, type ForecastEvent } from '../../machines/forecast.machine';
import { SpectatorViewPage } from '../../src/features/spectate/SpectatorViewPage';
import type { GameScreenEffects } from '../../src/features/play/effects';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { fixtureGame, progressOf, toPublic } from '../support/gameFixtures';
import { renderRoutes, signedInSessionLogic } from '../support/render';

// uPlot draws on a canvas jsdom does not have: the lazily loaded chart is a stand-in here that shows
// its points (the real chart is looked at in the browser, tests/e2e/relief.e2e.test.ts).
vi.mock('../../src/features/forecast/WinChanceChart', () => ({
  default: ({ history }: { history: { version: number }[] }) => <div data-testid="chance-chart">{history.map((p) => p.version).join(',')}</div>,
}));

/**
 * Model-based test of the win chances on the spectator view (docs/game-rules.md §14; docs/server.md
 * §15): paths of the forecast chart driven through the rendered SpectatorViewPage with a fake REST
 * load, a fake socket (game versions arrive as progress updates) and a fake forecast call the test
 * answers or fails. Each team's chance shows beside its square, the chart's points are the versions
 * forecast so far, a failed call shows no chance, and an answer for an older version than the one
 * now shown is dropped (the newer one is asked for).
 */

type Snap = SnapshotFrom<typeof forecastMachine>;
type ModelEvent =
  | ForecastEvent
  | { type: 'xstate.done.actor.loadForecast'; output: ForecastAnswer }
  | { type: 'xstate.error.actor.loadForecast'; error: Error };

const GAME = toPublic(fixtureGame());
const forecastOf = (version: number): ForecastAnswer => {
  const red = version === 1 ? 0.5 : 0.5 + 0.1 * (version - 1);
  return { version, runs: 10_000, teams: [{ team_id: 11, win_chance: red, expected_rolls_to_finish: 6 }, { team_id: 12, win_chance: 1 - red, expected_rolls_to_finish: 7 }] };
};

/** The fake server: the game starts at version 1 (the load), and moves on twice at most. */
function eventsOf(s: Snap): ModelEvent[] {
  const next: ModelEvent[] = s.context.version < 3 ? [{ type: 'game.versionSeen', version: s.context.version + 1 }] : [];
  if (s.matches('loading')) return [{ type: 'xstate.done.actor.loadForecast', output: forecastOf(s.context.version) }, { type: 'xstate.error.actor.loadForecast', error: new Error('Game not found.') }, ...next];
  if (s.matches('waiting')) return [{ type: 'game.versionSeen', version: 1 }];
  return next;
}

interface World {
  fx: FakeEffects;
  socket: () => FakeSocket;
  /** Forecast calls made so far (one per version asked for). */
  asked: number;
}
type Executor = ModelExecutor<World, Snap, ModelEvent>;

const EXECUTORS = {
  'game.versionSeen': async (w, { event, prev }) => {
    if (event.type !== 'game.versionSeen') return;
    if (event.version === 1) await act(() => w.fx.resolve('loadGame', GAME));
    else await act(() => w.socket().serverSends('game_state_update', { game_state: progressOf(GAME, { version: event.version, position: 1 + event.version, publicShape: true }) }));
    w.asked += 1;
    await waitFor(() => expect(w.fx.calls('loadForecast')).toHaveLength(w.asked));
    expect(w.fx.calls('loadForecast').at(-1)).toEqual([5]);
    // The call for the older version answers late: the chart no longer waits for it, so it changes nothing.
    if (prev.matches('loading')) await act(() => w.fx.resolve('loadForecast', forecastOf(prev.context.version)));
  },
  'xstate.done.actor.loadForecast': async (w, { event }) => {
    if (event.type !== 'xstate.done.actor.loadForecast') return;
    await act(() => w.fx.resolve('loadForecast', event.output));
  },
  'xstate.error.actor.loadForecast': async (w) => act(() => w.fx.reject('loadForecast', new Error('Game not found.'))),
} satisfies Record<ModelEvent['type'], Executor>;

/** The chances Team Positions shows, by team name. */
const shownChances = () => Object.fromEntries(screen.queryAllByTestId('team-position').map((li) => [li.getAttribute('data-team'), li.querySelector('[data-testid="win-chance"]')?.textContent ?? null]));

const ASSERTIONS: Record<string, (s: Snap, w: World) => Promise<void>> = {
  waiting: async () => {
    await screen.findByText('Loading game details...');
  },
  // Until an answer: the chances of the last answer (none before the first).
  loading: async (s) => {
    await screen.findByText('Team Positions');
    const f = s.context.forecast;
    expect(shownChances()).toEqual({ 'Red Dragons': f ? `Win ${winChanceText(f.teams[0].win_chance)}` : null, 'Blue Moons': f ? `Win ${winChanceText(f.teams[1].win_chance)}` : null });
  },
  shown: async (s) => {
    const f = s.context.forecast!;
    await waitFor(() => expect(shownChances()).toEqual({ 'Red Dragons': `Win ${winChanceText(f.teams[0].win_chance)}`, 'Blue Moons': `Win ${winChanceText(f.teams[1].win_chance)}` }));
    expect((await screen.findByTestId('chance-chart')).textContent).toBe(s.context.history.map((p) => p.version).join(','));
  },
  failed: async (s) => {
    await screen.findByText('Team Positions');
    if (!s.context.forecast) {
      expect(shownChances()).toEqual({ 'Red Dragons': null, 'Blue Moons': null });
      expect(screen.queryByTestId('win-chances')).toBeNull();
    }
  },
};

modelTests<Snap, ModelEvent, World>({
  name: 'forecast (win chances on the spectator view)',
  machine: forecastMachine,
  dropPrefixPaths: true,
  inputs: [{ gameId: 5 }],
  events: eventsOf,
  serialize: (s, e) => JSON.stringify([s.value, s.context.version, s.context.history.map((p) => p.version), e?.type ?? null]),
  executors: EXECUTORS,
  assertions: ASSERTIONS,
  label: (e) => (e.type === 'game.versionSeen' ? `version ${e.version}` : e.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$1($2)')),
  render: async () => {
    const fx = new FakeEffects();
    let socket: FakeSocket | null = null;
    const effects: GameScreenEffects = { loadGame: fx.fn('loadGame'), openSocket: () => (socket = new FakeSocket()), launchConfetti: () => () => {}, loadForecast: fx.fn('loadForecast') };
    renderRoutes([{ path: '/games/spectate/:gameId', element: <SpectatorViewPage effects={effects} /> }], '/games/spectate/5', signedInSessionLogic());
    await waitFor(() => expect(socket).not.toBeNull());
    act(() => socket!.serverConnects());
    return { fx, socket: () => socket!, asked: 0 };
  },
  guards: (paths) => {
    // An answer that came after a newer version was seen is dropped: some path asks again while loading.
    expect(paths.some((p) => p.steps.some((st, i) => i > 0 && st.event.type === 'game.versionSeen' && p.steps[i - 1].state.matches('loading')))).toBe(true);
  },
});

describe('forecastView', () => {
  it('keeps one point per version, in order', () => {
    const h = appendForecast(appendForecast(appendForecast([], forecastOf(3)), forecastOf(1)), forecastOf(3));
    expect(h.map((p) => p.version)).toEqual([1, 3]);
    expect(h[1].chances).toEqual([{ team_id: 11, win_chance: forecastOf(3).teams[0].win_chance }, { team_id: 12, win_chance: forecastOf(3).teams[1].win_chance }]);
  });
  it('says chances as whole percentages, never 0% or 100% for a chance that is not', () => {
    expect(winChanceText(0.3449)).toBe('34%');
    expect(winChanceText(0)).toBe('0%');
    expect(winChanceText(0.001)).toBe('<1%');
    expect(winChanceText(0.999)).toBe('>99%');
    expect(winChanceText(1)).toBe('100%');
  });
});
