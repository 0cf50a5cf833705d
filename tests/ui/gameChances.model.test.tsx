// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { chancesOverGame, type ChancesRequest } from '../../contract/game/chances';
import type { ChancePoint } from '../../contract/forecastView';
import { replayFrames } from '../../contract/results';
import { gameChancesMachine } from '../../machines/gameChances.machine';
import { ChancesOverGame } from '../../src/features/results/ChancesOverGame';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

// uPlot draws on a canvas jsdom does not have: the lazily loaded chart is a stand-in showing its points.
vi.mock('../../src/features/forecast/WinChanceChart', () => ({
  default: ({ history, xLabel }: { history: ChancePoint[]; xLabel: string }) => <div data-testid="chance-chart">{`${xLabel}: ${history.map((p) => p.version).join(',')}`}</div>,
}));

/**
 * Model-based test of 'Chances over the game' on the results page (docs/game-rules.md §14): the
 * gameChances chart driven through the rendered panel with a fake worker the test answers or fails;
 * the worker is asked for every frame of the history (start and after each move).
 */

type Snap = SnapshotFrom<typeof gameChancesMachine>;
type ModelEvent = { type: 'xstate.done.actor.computeChances'; output: ChancePoint[] } | { type: 'xstate.error.actor.computeChances'; error: Error };

const TEAMS = [{ team_id: 11, name: 'Red Dragons', color: '#cc2222' }, { team_id: 12, name: 'Blue Moons', color: '#2244cc' }];
const MOVES = [
  { kind: 'roll', team_id: 11, die: 4, from: 1, to: 5, roll_index: 1, at: '2025-05-01T10:00:00.000Z', performer_ign: null },
  { kind: 'roll', team_id: 12, die: 6, from: 1, to: 7, roll_index: 2, at: '2025-05-01T10:01:00.000Z', performer_ign: null },
] as unknown as Parameters<typeof replayFrames>[0]['moves'];
const FRAMES = replayFrames({ teams: TEAMS, moves: MOVES });
const BOARD = { board_size: 25, board_connections: [{ start: 20, end: 4 }] };
const REQUEST: ChancesRequest = { board: { board_size: 25, connections: [{ start: 20, end: 4 }] }, teamIds: [11, 12], frames: FRAMES.map((f) => f.positions), runs: 200 };
const POINTS = chancesOverGame(REQUEST);

interface World {
  fx: FakeEffects;
}
const EXECUTORS = {
  'xstate.done.actor.computeChances': async (w, { event }) => {
    if (event.type !== 'xstate.done.actor.computeChances') return;
    await act(() => w.fx.resolve('compute', event.output));
  },
  'xstate.error.actor.computeChances': async (w) => act(() => w.fx.reject('compute', new Error('no workers'))),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

modelTests<Snap, ModelEvent, World>({
  name: 'gameChances (results page)',
  machine: gameChancesMachine,
  dropPrefixPaths: true,
  inputs: [REQUEST],
  events: (s) => (s.matches('computing') ? [{ type: 'xstate.done.actor.computeChances', output: POINTS }, { type: 'xstate.error.actor.computeChances', error: new Error('no workers') }] : []),
  executors: EXECUTORS,
  assertions: {
    computing: async (_s, w) => {
      screen.getByText('Working out the chances after each move…');
      const asked = w.fx.calls('compute')[0][0] as ChancesRequest;
      expect(asked.frames).toEqual([{ 11: 1, 12: 1 }, { 11: 5, 12: 1 }, { 11: 5, 12: 7 }]);
      expect(asked.teamIds).toEqual([11, 12]);
      expect(asked.board).toEqual(REQUEST.board);
    },
    shown: async () => {
      expect((await screen.findByTestId('chance-chart')).textContent).toBe('Move: 0,1,2');
      expect(screen.queryByText('Working out the chances after each move…')).toBeNull();
    },
    failed: async () => {
      await screen.findByText('The chances could not be worked out in this browser.');
      expect(screen.queryByTestId('chance-chart')).toBeNull();
    },
  },
  render: () => {
    const fx = new FakeEffects();
    render(<ChancesOverGame frames={FRAMES} teams={TEAMS} board={BOARD} compute={fx.fn('compute')} />);
    return { fx };
  },
});

describe('chancesOverGame', () => {
  it('gives a point per frame whose chances add up to 1, the leader ahead once far ahead', () => {
    const points = chancesOverGame({ ...REQUEST, frames: [{ 11: 1, 12: 1 }, { 11: 24, 12: 1 }], runs: 2000 });
    expect(points.map((p) => p.version)).toEqual([0, 1]);
    for (const p of points) expect(p.chances.reduce((a, c) => a + c.win_chance, 0)).toBeCloseTo(1, 9);
    expect(points[1].chances[0].win_chance).toBeGreaterThan(0.9);
    expect(chancesOverGame(REQUEST)).toEqual(POINTS);
  });
});
