// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { GameHistory } from '../../contract/history';
import { replayFrames, type ResultsData } from '../../contract/results';
import { REPLAY_SPEEDS, REPLAY_STEP_MS, replayMachine, type ReplayEvent, type ReplaySpeed } from '../../machines/replay.machine';
import { ResultsPage } from '../../src/features/results/ResultsPage';
import type { ResultsEffects } from '../../src/features/results/effects';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { fixtureGame } from '../support/gameFixtures';

/**
 * Model-based test of the replay chart through the rendered results page: paths
 * generated from the real chart; each step caused on the screen (the Play / Pause / Play again
 * button, Previous move and Next move, the scrubber, the speed select, and time passing for the
 * chart's `moveTime` delay, checked to the millisecond with fake timers), and every state asserted
 * on the screen: the scrubber, 'Move i of n' with the move's text, every team's square in the
 * list and the pawns on the board, which buttons are offered.
 */

type Snap = SnapshotFrom<typeof replayMachine>;
const TICK = 'xstate.after.moveTime.replay.playing';
type ModelEvent = ReplayEvent | { type: typeof TICK };

const RED = { team_id: 11, name: 'Red Dragons', color: '#cc2222' };
const BLUE = { team_id: 12, name: 'Blue Moons', color: '#2244cc' };
const HISTORY: GameHistory = {
  game: { id: 5, event_name: 'Spring Bash', clan_name: 'Iron Legion', board_size: 25, status: 'in-progress', winners: null, dice_commitment: 'a'.repeat(64), dice_seed: null },
  teams: [RED, BLUE],
  moves: [
    { at: '2026-11-24T10:00:00.000Z', team_id: 11, kind: 'roll', roll_index: 1, die: 2, from: 1, landing: 3, to: 14, via: 'ladder' },
    { at: '2026-11-24T10:01:00.000Z', team_id: 12, kind: 'roll', roll_index: 2, die: 5, from: 1, landing: 6, to: 2, via: 'snake' },
    { at: '2026-11-24T10:03:00.000Z', team_id: 11, kind: 'roll', roll_index: 3, die: 6, from: 14, landing: 20, to: 20, via: null },
  ],
  reviews: [],
};
const BOARD = fixtureGame();
const DATA: ResultsData = {
  history: HISTORY,
  board: { board_size: BOARD.board_size, board_squares: BOARD.board_squares, board_connections: BOARD.board_connections, event_type: BOARD.event_type },
};
const FRAMES = replayFrames(HISTORY);
const LAST = FRAMES.length - 1;
/** What the status line says of each frame (the docs of the replay's text, written here). */
const FRAME_TEXT = [
  'Move 0 of 3: every team on square 1.',
  'Move 1 of 3: Red Dragons rolled a 2: square 1 → 3, up a ladder to 14.',
  'Move 2 of 3: Blue Moons rolled a 5: square 1 → 6, down a snake to 2.',
  'Move 3 of 3: Red Dragons rolled a 6: square 14 → 20.',
];

/** The events a person or time can cause in a state: only what the screen offers there. */
function eventsOf(s: Snap): ModelEvent[] {
  const { frame, speed } = s.context;
  const seeks: ModelEvent[] = FRAMES.map((f) => f.index)
    .filter((f) => f !== frame)
    .map((f) => ({ type: 'replay.seek', frame: f }));
  const speeds: ModelEvent[] = REPLAY_SPEEDS.filter((v) => v !== speed).map((v) => ({ type: 'replay.speed', speed: v }));
  if (s.matches('playing')) return [{ type: TICK }, { type: 'replay.pause' }, { type: 'replay.step' }, { type: 'replay.back' }, ...seeks, ...speeds];
  if (s.matches('ended')) return [{ type: 'replay.play' }, { type: 'replay.back' }, ...seeks, ...speeds];
  return [{ type: 'replay.play' }, { type: 'replay.step' }, ...(frame > 0 ? [{ type: 'replay.back' } as const] : []), ...seeks, ...speeds];
}

const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

type World = Record<string, never>;
const controls = () => within(screen.getByTestId('replay-controls'));
const scrubber = () => screen.getByLabelText('Replay position') as HTMLInputElement;
const playButton = () => controls().getByRole('button', { name: /^(Play|Pause|Play again)$/ });

const EXECUTORS = {
  'replay.play': async () => void fireEvent.click(playButton()),
  'replay.pause': async () => void fireEvent.click(playButton()),
  'replay.step': async () => void fireEvent.click(controls().getByRole('button', { name: 'Next move' })),
  'replay.back': async () => void fireEvent.click(controls().getByRole('button', { name: 'Previous move' })),
  'replay.seek': async (_w, { event }) => void fireEvent.change(scrubber(), { target: { value: String((event as { frame: number }).frame) } }),
  'replay.speed': async (_w, { event }) => void fireEvent.change(controls().getByLabelText('Speed'), { target: { value: String((event as { speed: ReplaySpeed }).speed) } }),
  // The frame holds until the last millisecond of the move time at the chart's speed, then moves on.
  [TICK]: async (_w, { prev }) => {
    const ms = REPLAY_STEP_MS / prev.context.speed;
    await advance(ms - 1);
    expect(scrubber().value).toBe(String(prev.context.frame));
    await advance(1);
  },
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

/** What every state shows: the scrubber, the status line, the squares of every team (list and pawns), the speed. */
function frameShown(s: Snap) {
  const { frame, speed } = s.context;
  expect(scrubber().value).toBe(String(frame));
  expect(scrubber().max).toBe(String(LAST));
  expect(screen.getByTestId('replay-status').textContent).toBe(FRAME_TEXT[frame]);
  const listed = screen.getAllByTestId('replay-position').map((li) => [li.dataset.team, Number(li.dataset.position)]);
  expect(listed).toEqual([
    [RED.name, FRAMES[frame].positions[RED.team_id]],
    [BLUE.name, FRAMES[frame].positions[BLUE.team_id]],
  ]);
  const board = screen.getByRole('group', { name: 'Replay board' });
  for (const team of [RED, BLUE]) {
    expect(board.querySelector(`[data-team="${team.team_id}"]`)?.getAttribute('data-position')).toBe(String(FRAMES[frame].positions[team.team_id]));
  }
  expect((controls().getByLabelText('Speed') as HTMLSelectElement).value).toBe(String(speed));
}
const disabled = (name: string) => (controls().getByRole('button', { name }) as HTMLButtonElement).disabled;

modelTests<Snap, ModelEvent, World>({
  name: 'replay',
  machine: replayMachine,
  inputs: [{ moves: LAST }],
  // Time moves only when a step says so (setTimeout only), so a move time is checked to the millisecond.
  fakeTimers: 'manual',
  events: eventsOf,
  // Value, frame and speed, the event that led there and the state it left: each edge (pause too,
  // and a step, seek or play from playing or ended as well as from paused) gets its own path.
  serialize: (s, event, prev) => JSON.stringify([s.value, s.context.frame, s.context.speed, event?.type ?? null, event ? prev?.value ?? null : null]),
  // Paths a longer path starts with are left out: the longer one takes the same steps.
  dropPrefixPaths: true,
  executors: EXECUTORS,
  assertions: {
    paused: (s) => {
      frameShown(s);
      expect(playButton().textContent).toBe('Play');
      expect(screen.getByTestId('replay-controls').dataset.state).toBe('paused');
      expect(disabled('Next move')).toBe(false);
      expect(disabled('Previous move')).toBe(s.context.frame === 0);
    },
    playing: (s) => {
      frameShown(s);
      expect(playButton().textContent).toBe('Pause');
      expect(screen.getByTestId('replay-controls').dataset.state).toBe('playing');
      expect(disabled('Next move')).toBe(false);
    },
    ended: (s) => {
      frameShown(s);
      expect(s.context.frame).toBe(LAST);
      expect(playButton().textContent).toBe('Play again');
      expect(disabled('Next move')).toBe(true);
      expect(disabled('Previous move')).toBe(false);
      // The end of the replay is the game's final positions.
      expect(screen.getAllByTestId('replay-position').map((li) => Number(li.dataset.position))).toEqual([20, 2]);
    },
  },
  render: async () => {
    const effects: ResultsEffects = { loadResults: async () => DATA, drawRaceChart: () => () => {} };
    const router = createMemoryRouter([{ path: '/games/:gameId/results', element: <ResultsPage effects={effects} /> }], { initialEntries: ['/games/5/results'] });
    render(<RouterProvider router={router} />);
    // The load resolves at once; let React show the page (promises only: timers are fake).
    await act(async () => {});
    expect(screen.getByRole('heading', { name: 'Spring Bash: Results' })).toBeTruthy();
    return {};
  },
  guards: (paths) => {
    // Every frame is shown by some path, every speed is used while playing, and the end is reached by time.
    const seen = new Set(paths.flatMap((p) => p.steps.map((st) => st.state.context.frame)));
    expect([...seen].sort()).toEqual(FRAMES.map((f) => f.index));
    expect(paths.some((p) => p.steps.some((st, i) => st.event.type === TICK && st.state.matches('ended') && i > 0))).toBe(true);
    expect(new Set(paths.flatMap((p) => p.steps.filter((st) => st.state.matches('playing')).map((st) => st.state.context.speed)))).toEqual(new Set(REPLAY_SPEEDS));
  },
});
