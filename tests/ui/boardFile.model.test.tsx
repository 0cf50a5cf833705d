// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useActorRef } from '@xstate/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { boardFileMachine, type BoardFileEvent, type ReadBoard } from '../../machines/boardFile.machine';
import { BoardFileField, BOARD_FILE_TEXTS } from '../../src/features/game/BoardFileField';
import { EventGameView } from '../../src/features/game/EventGameView';
import { BOARD_FILE_MESSAGES, type BoardFile } from '../../contract/game/boardFile';
import { autoSplit, countsToSettings } from '../../contract/game';
import type { GameSettingsBody } from '../../contract/game/settings';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { chooseFile } from '../support/render';
import { FakeEffects, fakeGameEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';

/**
 * Model-based test of the boardFile chart (docs/client.md §7 'Start from a board file';
 * docs/server.md §18 "The next event") through the rendered field: paths generated from the real
 * chart with the one harness; a person chooses a board file (or empties the choice) in the file
 * input and presses 'Use a random board instead', and the reader (a promise the test settles)
 * answers the checked board or the reason it is refused. Every state is asserted on the screen:
 * 'Reading board file...' with the input disabled, the chosen board's line (its settings handed to
 * the form), the refusal's reason. Then the field inside the real Event Game setup: a real file
 * fills the settings form and goes with Create & Deploy Game as `board`, and a bad one says why.
 */

type Snap = SnapshotFrom<typeof boardFileMachine>;
type ModelEvent =
  | BoardFileEvent
  | { type: 'xstate.done.actor.readBoard'; output: ReadBoard }
  | { type: 'xstate.error.actor.readBoard'; error: Error };

/** A board file of 25 squares, no snakes or ladders, one EASY task on square 2 and none elsewhere. */
const SETTINGS: BoardFile['settings'] = {
  board_size: 25,
  num_snakes: 0,
  num_ladders: 0,
  max_reverts_allowed: 2,
  ...countsToSettings(autoSplit(25)),
  proof_required: false,
  relief_after_hours: 12,
  relief_max_per_team: 3,
};
const BOARD: BoardFile = {
  version: 1,
  settings: SETTINGS,
  connections: [],
  squares: Array.from({ length: 25 }, (_, i) => ({
    square_index: i + 1,
    task: i === 1 ? { description: 'Catch a <b>shrimp</b>', difficulty: 'EASY' as const, auto_rule: null } : null,
  })),
};
const READ: ReadBoard = { board: BOARD, settings: SETTINGS };
const REFUSAL = BOARD_FILE_MESSAGES.version;

function eventsOf(s: Snap): ModelEvent[] {
  if (s.matches('reading')) return [{ type: 'xstate.done.actor.readBoard', output: READ }, { type: 'xstate.error.actor.readBoard', error: new Error(REFUSAL) }];
  const choose: ModelEvent[] = [{ type: 'boardFile.choose', file: { name: s.context.fileName === 'winter-board.json' ? 'other-board.json' : 'winter-board.json' } }];
  if (s.matches('empty')) return [...choose, { type: 'boardFile.choose', file: null }];
  if (s.matches('chosen')) return [...choose, { type: 'boardFile.choose', file: null }, { type: 'boardFile.clear' }];
  return [...choose, { type: 'boardFile.clear' }];
}

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** The settings the chart handed to the form, in order. */
  applied: GameSettingsBody[];
}

/** The field with the chart, its reader a fake of `fx` and the form's side recorded in `applied`. */
function Host({ w }: { w: World }) {
  const ref = useActorRef(
    boardFileMachine.provide({
      actors: { readBoard: fromPromise(({ input }) => w.fx.fn<ReadBoard>('readBoard')(input)) },
      actions: { applyBoard: (_, read) => void w.applied.push(read.settings) },
    }),
  );
  return <BoardFileField boardFile={ref} disabled={false} />;
}

const fileInput = () => screen.getByLabelText(BOARD_FILE_TEXTS.input) as HTMLInputElement;

const executors = {
  'boardFile.choose': async (w, { event }) => {
    if (event.type !== 'boardFile.choose') return;
    await chooseFile(w.user, fileInput(), event.file && new File(['{}'], event.file.name, { type: 'application/json' }));
  },
  'boardFile.clear': (w) => w.user.click(screen.getByRole('button', { name: BOARD_FILE_TEXTS.clear })),
  'xstate.done.actor.readBoard': async (w, { prev }) => {
    expect((w.fx.calls('readBoard').at(-1)?.[0] as File).name).toBe(prev.context.fileName);
    await act(() => w.fx.resolve('readBoard', READ));
  },
  'xstate.error.actor.readBoard': (w) => act(() => w.fx.reject('readBoard', new Error(REFUSAL))),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

modelTests<Snap, ModelEvent, World>({
  name: 'boardFile',
  machine: boardFileMachine,
  dropPrefixPaths: true,
  events: eventsOf,
  serialize: (s, e) => JSON.stringify([s.value, s.context.fileName, s.context.board ? 1 : 0, s.context.error, e?.type ?? null]),
  executors,
  label: (e) => (e.type === 'boardFile.choose' ? `choose(${e.file?.name ?? 'none'})` : e.type.replace(/^xstate\.(done|error)\.actor\.readBoard$/, '$1(readBoard)')),
  assertions: {
    empty: () => {
      expect(fileInput().disabled).toBe(false);
      expect(screen.queryByTestId('board-file-chosen')).toBeNull();
      expect(screen.queryByTestId('board-file-error')).toBeNull();
      expect(screen.queryByRole('button', { name: BOARD_FILE_TEXTS.clear })).toBeNull();
    },
    reading: () => {
      screen.getByText(BOARD_FILE_TEXTS.reading);
      expect(fileInput().disabled).toBe(true);
    },
    chosen: (s, w) => {
      // The file's task is text: its markup is shown, never made.
      expect(screen.getByTestId('board-file-chosen').textContent).toBe(BOARD_FILE_TEXTS.chosen(s.context.fileName!, 25, 1));
      screen.getByRole('button', { name: BOARD_FILE_TEXTS.clear });
      expect(screen.queryByTestId('board-file-error')).toBeNull();
      expect(w.applied.at(-1)).toEqual(SETTINGS);
      expect(fileInput().disabled).toBe(false);
    },
    refused: () => {
      expect(screen.getByRole('alert').textContent).toBe(REFUSAL);
      expect(screen.queryByTestId('board-file-chosen')).toBeNull();
      expect(fileInput().disabled).toBe(false);
    },
  },
  render: () => {
    const w: World = { fx: new FakeEffects(), user: userEvent.setup(), applied: [] };
    render(<Host w={w} />);
    return w;
  },
  guards: (paths) => {
    // A file chosen after a refusal, and after another file, is read again.
    const steps = paths.flatMap((p) => p.steps);
    expect(steps.some((st) => st.state.matches('reading') && st.state.context.fileName === 'other-board.json')).toBe(true);
  },
});

describe('Start from a board file in the game setup', () => {
  afterEach(cleanup);

  function renderSetup() {
    const fx = new FakeEffects();
    const effects = fakeGameEffects(fx, () => new FakeSocket());
    const router = createMemoryRouter([{ path: '*', element: <EventGameView clanId={2} eventId={3} gameId={null} onBack={() => {}} effects={effects} /> }]);
    render(<RouterProvider router={router} />);
    return { fx, user: userEvent.setup() };
  }

  it('fills the settings form from a board file and sends the board with Create & Deploy Game', async () => {
    const { fx, user } = renderSetup();
    await user.upload(fileInput(), new File([JSON.stringify(BOARD)], 'winter-board.json', { type: 'application/json' }));
    expect((await screen.findByTestId('board-file-chosen')).textContent).toBe(BOARD_FILE_TEXTS.chosen('winter-board.json', 25, 1));
    const form = document.querySelector<HTMLFormElement>('form.game-settings')!;
    expect((within(form).getByLabelText('Board size') as HTMLSelectElement).value).toBe('25');
    expect((within(form).getByLabelText('Max reverts allowed') as HTMLInputElement).value).toBe('2');
    expect((within(form).getByLabelText('Hours on a square before a new task may be asked for') as HTMLInputElement).value).toBe('12');
    expect((within(form).getByRole('checkbox', { name: 'Require approved proof before the next roll' }) as HTMLInputElement).checked).toBe(false);
    await user.click(within(form).getByRole('button', { name: 'Create & Deploy Game' }));
    await waitFor(() => expect(fx.calls('createGame')).toHaveLength(1));
    expect(fx.calls('createGame')[0]).toEqual([2, 3, { ...SETTINGS, board: BOARD }]);
  });

  it('says why a board file is refused and keeps the random board', async () => {
    const { fx, user } = renderSetup();
    await user.upload(fileInput(), new File([JSON.stringify({ ...BOARD, version: 2 })], 'old-board.json', { type: 'application/json' }));
    expect((await screen.findByTestId('board-file-error')).textContent).toBe(BOARD_FILE_MESSAGES.version);
    await user.upload(fileInput(), new File(['{not json'], 'broken.json', { type: 'application/json' }));
    await waitFor(() => expect(screen.getByTestId('board-file-error').textContent).toMatch(/^The board file is not valid JSON: /));
    const form = document.querySelector<HTMLFormElement>('form.game-settings')!;
    expect((within(form).getByLabelText('Board size') as HTMLSelectElement).value).toBe('100');
    await user.click(within(form).getByRole('button', { name: 'Create & Deploy Game' }));
    await waitFor(() => expect(fx.calls('createGame')).toHaveLength(1));
    expect(fx.calls('createGame')[0][2]).not.toHaveProperty('board');
  });
});
