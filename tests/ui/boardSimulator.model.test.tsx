// @vitest-environment jsdom
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { simulateBoard, type BoardSimulation } from '../../contract/game/forecast';
import { checkHoursDraft, eventHours, mostLanded, sampleBoardOfSettings, SIMULATOR_MESSAGES, type SimulationRequest, type SimulatorBoard } from '../../contract/game/simulatorView';
import { boardSimulatorMachine, SIMULATOR_RUNS, type BoardSimulatorEvent } from '../../machines/boardSimulator.machine';
import { BoardSimulator } from '../../src/features/forecast/BoardSimulator';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

// uPlot draws on a canvas jsdom does not have: the lazily loaded histogram is a stand-in showing its bars.
vi.mock('../../src/features/forecast/RollsHistogram', () => ({
  default: ({ rolls }: { rolls: number[] }) => <div data-testid="rolls-bars">{rolls.join(',')}</div>,
}));

/**
 * Model-based test of the board simulator (docs/game-rules.md §14): paths of the boardSimulator
 * chart driven through the rendered BoardSimulator with a fake worker (the test answers each run,
 * or fails it): the board given, then changed (a snake added), hours typed (a good value reruns, one
 * outside 0..1,000 is refused with the form's message and keeps the last result), a run failing.
 * Every result shown has its heat map legend, and the snake's start square hatched as it says.
 */

type Snap = SnapshotFrom<typeof boardSimulatorMachine>;
type ModelEvent =
  | BoardSimulatorEvent
  | { type: 'xstate.done.actor.simulate'; output: BoardSimulation }
  | { type: 'xstate.error.actor.simulate'; error: Error };

const PLAIN: SimulatorBoard = { board: { board_size: 25, connections: [] }, tiers: [null, null, ...Array(23).fill('EASY'), null], available_hours: 10 };
const SNAKY: SimulatorBoard = { ...PLAIN, board: { board_size: 25, connections: [{ start: 24, end: 2 }] } };
/** A small real simulation of a board (what the worker would answer, on fewer runs). */
const resultOf = (b: SimulatorBoard, hours: number) => simulateBoard({ board: b.board, tiers: b.tiers, hours_per_tier: { EASY: hours }, available_hours: b.available_hours, runs: 200 });

function eventsOf(s: Snap): ModelEvent[] {
  const c = s.context;
  const hours = Number(c.hours.EASY);
  if (s.matches('running')) return [{ type: 'xstate.done.actor.simulate', output: resultOf(c.board!, hours) }, { type: 'xstate.error.actor.simulate', error: new Error('worker broke') }];
  // Hours may be typed before there is a board (the inputs show at once): the chart decides and waits.
  if (s.matches('waiting')) return [{ type: 'board.changed', board: PLAIN }, ...(c.hours.EASY === '0.5' ? [{ type: 'hours.change' as const, tier: 'EASY' as const, value: '2' }] : [])];
  const list: ModelEvent[] = [];
  if (c.board === PLAIN) list.push({ type: 'board.changed', board: SNAKY });
  if (c.hours.EASY === '0.5') list.push({ type: 'hours.change', tier: 'EASY', value: '2' }, { type: 'hours.change', tier: 'EASY', value: '1001' });
  if (c.hours.EASY === '1001') list.push({ type: 'hours.change', tier: 'EASY', value: '3' });
  return list;
}

interface World {
  fx: FakeEffects;
  /** Runs answered so far (typing '2' after clearing starts runs the chart then drops). */
  answered: number;
  setBoard: (b: SimulatorBoard) => void;
  user: ReturnType<typeof userEvent.setup>;
}
type Executor = ModelExecutor<World, Snap, ModelEvent>;

/** Runs the chart dropped (a newer input started another) end late, as a stopped worker would: they change nothing. */
async function answerStale(w: World) {
  while (w.answered < w.fx.calls('simulate').length - 1) {
    w.answered += 1;
    await act(() => w.fx.reject('simulate', new Error('Simulation stopped.')));
  }
}

const easyInput = () => screen.getByLabelText('Hours per task, tier 1') as HTMLInputElement;

const EXECUTORS = {
  'board.changed': async (w, { event }) => {
    if (event.type !== 'board.changed') return;
    act(() => w.setBoard(event.board));
  },
  'hours.change': async (w, { event }) => {
    if (event.type !== 'hours.change') return;
    await w.user.clear(easyInput());
    await w.user.type(easyInput(), event.value);
  },
  'xstate.done.actor.simulate': async (w, { event, prev }) => {
    if (event.type !== 'xstate.done.actor.simulate') return;
    // The run asked for the board and hours held, 10,000 games.
    const asked = w.fx.calls('simulate').at(-1)![0] as SimulationRequest;
    expect(asked).toMatchObject({ ...prev.context.board, runs: SIMULATOR_RUNS });
    expect(asked.hours_per_tier.EASY).toBe(Number(prev.context.hours.EASY));
    await answerStale(w);
    await act(() => w.fx.resolve('simulate', event.output));
    w.answered += 1;
  },
  'xstate.error.actor.simulate': async (w) => {
    await answerStale(w);
    await act(() => w.fx.reject('simulate', new Error('worker broke')));
    w.answered += 1;
  },
} satisfies Record<ModelEvent['type'], Executor>;

/**
 * What the result shows: the mean rolls, the bars, the finish chance, and the heat map of `board`
 * with its legend (the scale up to the darkest square's share; the squares where a snake or ladder
 * starts hatched, as the legend says, and no others).
 */
async function expectResult(r: BoardSimulation | null, board: SimulatorBoard | null = null) {
  if (!r) {
    expect(screen.queryByTestId('simulation')).toBeNull();
    return;
  }
  await waitFor(() => expect(screen.getByTestId('sim-mean-rolls').textContent).toBe(`${r.mean_rolls.toFixed(1)} on average`));
  expect((await screen.findByTestId('rolls-bars')).textContent).toBe(r.rolls.join(','));
  expect(screen.getByTestId('sim-finish-chance').textContent).toMatch(/^(<1|>99|\d{1,3})%$/);
  expect(screen.getByTestId('sim-top-squares').textContent).toBe(`Landed on most: ${mostLanded(r).map((t) => `square ${t.square} (${(t.share * 100).toFixed(1)}%)`).join(', ')}`);
  const map = screen.getByTestId('sim-heat-map');
  expect(map.querySelectorAll(':scope > g[data-square] > rect')).toHaveLength(25);
  if (board) {
    const marked = [...map.querySelectorAll('g[data-via]')].map((g) => [Number(g.getAttribute('data-square')), g.getAttribute('data-via')]);
    expect(marked).toEqual(board.board.connections.map((c) => [c.start, c.end > c.start ? 'ladder' : 'snake']));
  }
  const legend = screen.getByTestId('sim-heat-legend');
  const darkest = Math.max(...r.landings.slice(2, r.landings.length - 1));
  const total = r.landings.reduce((a, b) => a + b, 0);
  expect(legend.querySelector('.simulator__scale')!.textContent).toBe(`Never${((darkest / total) * 100).toFixed(1)}% of all landings`);
  expect(legend.textContent).toContain('Darker squares are landed on more often.');
  expect(legend.textContent).toContain('Hatched: a snake or ladder starts there, so a pawn never stops on it (it moves on at once).');
  expect(legend.textContent).toContain('START and FINISH are left out of the scale: every game starts and ends there.');
}

const ASSERTIONS: Record<string, (s: Snap, w: World) => Promise<void>> = {
  waiting: async () => {
    expect(screen.getByTestId('board-simulator').dataset.busy).toBe('false');
    expect(screen.queryByTestId('simulation')).toBeNull();
  },
  running: async (s) => {
    await waitFor(() => expect(screen.getByTestId('board-simulator').dataset.busy).toBe('true'));
    if (!s.context.result) screen.getByText('Simulating…');
    await expectResult(s.context.result, s.context.board);
  },
  shown: async (s) => {
    await waitFor(() => expect(screen.getByTestId('board-simulator').dataset.busy).toBe('false'));
    expect(screen.queryByTestId('simulator-error')).toBeNull();
    await expectResult(s.context.result, s.context.board);
  },
  invalid: async (s) => {
    expect((await screen.findByTestId('simulator-error')).textContent).toBe(SIMULATOR_MESSAGES.hours('easy'));
    expect(easyInput().getAttribute('aria-invalid')).toBe('true');
    await expectResult(s.context.result, s.context.board);
  },
  failed: async (s) => {
    await screen.findByText('The simulation failed. Change a value to try again.');
    await expectResult(s.context.result, s.context.board);
  },
};

modelTests<Snap, ModelEvent, World>({
  name: 'boardSimulator',
  machine: boardSimulatorMachine,
  dropPrefixPaths: true,
  passingThrough: ['deciding'],
  events: eventsOf,
  serialize: (s, e) => JSON.stringify([s.value, s.context.board === SNAKY, s.context.hours.EASY, s.context.result?.mean_rolls ?? null, e?.type ?? null]),
  executors: EXECUTORS,
  assertions: ASSERTIONS,
  label: (e) => (e.type === 'hours.change' ? `hours(${e.value})` : e.type === 'board.changed' ? `board(${e.board === SNAKY ? 'snake added' : 'plain'})` : e.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$1($2)')),
  render: () => {
    const fx = new FakeEffects();
    const simulate = fx.fn<BoardSimulation>('simulate');
    let setBoard: (b: SimulatorBoard) => void = () => {};
    function Host() {
      const [board, set] = useState<SimulatorBoard | null>(null);
      setBoard = set;
      return <BoardSimulator board={board} simulate={simulate} />;
    }
    render(<Host />);
    return { fx, answered: 0, setBoard: (b) => setBoard(b), user: userEvent.setup() };
  },
});

describe('simulatorView', () => {
  it('takes hours 0..1,000 per tier and refuses others with the tier named', () => {
    const ok = { EASY: '0', MEDIUM: '1.5', HARD: '4', ELITE: '8', MASTER: '1000' };
    expect(checkHoursDraft(ok)).toEqual({ ok: true, hours: { EASY: 0, MEDIUM: 1.5, HARD: 4, ELITE: 8, MASTER: 1000 } });
    for (const bad of ['-1', '1000.5', '', 'x']) expect(checkHoursDraft({ ...ok, HARD: bad })).toEqual({ ok: false, error: 'Hours for a hard task must be a number from 0 to 1,000.', tier: 'HARD' });
  });
  it('measures the event in hours, none without an end', () => {
    expect(eventHours('2026-01-01T10:00:00Z', '2026-01-02T12:00:00Z')).toBe(26);
    expect(eventHours('2026-01-01T10:00:00Z', null)).toBeNull();
    expect(eventHours('2026-01-02T10:00:00Z', '2026-01-01T10:00:00Z')).toBeNull();
  });
  it('makes a sample board of valid settings only, the same for the same settings', () => {
    const settings = { board_size: 100, num_snakes: 5, num_ladders: 4, max_reverts_allowed: 2, num_easy_tasks: 40, num_medium_tasks: 30, num_hard_tasks: 18, num_elite_tasks: 7, num_master_tasks: 3 };
    const a = sampleBoardOfSettings(settings, 48)!;
    expect(a.board.connections).toHaveLength(9);
    expect(a.tiers).toHaveLength(101);
    expect(a.available_hours).toBe(48);
    expect(sampleBoardOfSettings(settings, 48)).toEqual(a);
    expect(sampleBoardOfSettings({ ...settings, num_easy_tasks: 1 }, 48)).toBeNull();
  });
});
