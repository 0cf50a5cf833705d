// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { csvImportMachine, type CsvImportEvent } from '../../machines/csvImport.machine';
import { CSV_BAD_NAME, CSV_NO_FILE, tasksImportedMessage, type CsvUploadAnswer } from '../../contract/task';
import { ApiRequestError } from '../../src/api/client';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { chooseFile } from '../support/render';
import { CLAN_ID, renderTasks } from '../support/tasksTab';

/**
 * Model-based test of the csvImport chart (docs/client.md §8, §11, §12; docs/game-rules.md §13)
 * through the rendered Task CSV Importer of the Tasks tab: paths generated from the real chart with
 * the one harness; a file chosen in the file input (a .csv, a .txt, none), the upload button, and
 * the fake server answering the upload (counts and bad rows) or refusing it (too large). Every
 * state is asserted on the screen: the button and input (disabled while uploading), the error or
 * the documented success message, the counts and bad rows, and the task list loaded again after
 * each import. Then the message's fade (API messages, docs/client.md §12).
 */

type Snap = SnapshotFrom<typeof csvImportMachine>;
type ModelEvent =
  | CsvImportEvent
  | { type: 'xstate.done.actor.uploadCsv'; output: CsvUploadAnswer }
  | { type: 'xstate.error.actor.uploadCsv'; error: Error };

const TOO_LARGE = 'The CSV file is larger than 1 MiB.';
const ANSWER: CsvUploadAnswer = {
  inserted_count: 2,
  skipped_count: 1,
  error_count: 3,
  errors: [
    { row: 4, message: "Difficulty 'IMPOSSIBLE' is not one of EASY, MEDIUM, HARD, ELITE, MASTER." },
    { row: 6, message: 'Description is required.' },
  ],
};

/** Events in a state: while uploading only the server's answer (the input and button are disabled); else a file chosen, or the upload asked. */
function eventsOf(s: Snap): ModelEvent[] {
  if (s.matches('uploading')) {
    return [
      { type: 'xstate.done.actor.uploadCsv', output: ANSWER },
      { type: 'xstate.error.actor.uploadCsv', error: new Error(TOO_LARGE) },
    ];
  }
  return [
    { type: 'csv.select', file: { name: 'tasks.csv' } },
    { type: 'csv.select', file: { name: 'tasks.txt' } },
    { type: 'csv.select', file: null },
    { type: 'csv.upload' },
  ];
}

type World = ReturnType<typeof renderTasks> & {
  /** Imports the fake server has answered so far: each loads the task list again. */
  imports: number;
};

const fileInput = () => screen.getByLabelText('CSV file') as HTMLInputElement;
const uploadButton = () => screen.getByRole('button', { name: /Upload and Extract Tasks|Uploading\.\.\./ });

const executors = {
  'csv.select': async (w, { event }) => {
    if (event.type !== 'csv.select') return;
    await chooseFile(w.user, fileInput(), event.file && new File(['description,difficulty\nA,EASY\n'], event.file.name, { type: 'text/plain' }));
  },
  'csv.upload': async (w) => w.user.click(uploadButton()),
  'xstate.done.actor.uploadCsv': async (w) => {
    await act(() => w.fx.resolve('uploadTaskCsv', ANSWER));
    w.imports += 1;
    const [clanId, file] = w.fx.calls('uploadTaskCsv').at(-1) as [number, File];
    expect([clanId, file.name]).toEqual([CLAN_ID, 'tasks.csv']);
  },
  'xstate.error.actor.uploadCsv': async (w) => act(() => w.fx.reject('uploadTaskCsv', new ApiRequestError(TOO_LARGE, 413))),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

modelTests<Snap, ModelEvent, World>({
  name: 'csvImport',
  machine: csvImportMachine,
  dropPrefixPaths: true,
  events: eventsOf,
  serialize: (s) => JSON.stringify([s.value, s.context.file?.name ?? null, s.context.result ? 1 : 0, s.context.error]),
  executors,
  label: (e) => (e.type === 'csv.select' ? `select(${e.file?.name ?? 'none'})` : e.type.replace('xstate.', '').replace('.actor.uploadCsv', '')),
  assertions: {
    idle: async (s, w) => {
      expect(uploadButton().textContent).toBe('Upload and Extract Tasks');
      expect(fileInput().disabled).toBe(false);
      const error = screen.queryByTestId('csv-error');
      if (s.context.error) expect(error?.textContent).toBe(s.context.error);
      else expect(error).toBeNull();
      // The message of the moment: the documented success text, the skipped duplicates and the bad rows; not a success, as rows failed.
      const message = screen.queryByTestId('csv-message');
      if (!s.context.error && s.context.result) {
        expect(message?.textContent).toBe(`${tasksImportedMessage(ANSWER.inserted_count)} 1 skipped as duplicates (already in the pool or repeated in the file). 3 rows had errors.`);
        expect(message?.getAttribute('data-tone')).toBe('warning');
      } else expect(message).toBeNull();
      const result = screen.queryByTestId('csv-result');
      if (s.context.result) {
        within(result!).getByText('Skipped (already in the pool or repeated): 1. Rows with errors: 3.');
        expect(within(result!).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
          "Row 4: Difficulty 'IMPOSSIBLE' is not one of EASY, MEDIUM, HARD, ELITE, MASTER.",
          'Row 6: Description is required.',
          '... and 1 more rows with errors.',
        ]);
      } else expect(result).toBeNull();
      // The task list is loaded once on opening the tab and again after each import.
      await waitFor(() => expect(w.loads()).toBe(1 + w.imports));
    },
    uploading: () => {
      expect(uploadButton().textContent).toBe('Uploading...');
      expect(uploadButton().hasAttribute('disabled')).toBe(true);
      expect(fileInput().disabled).toBe(true);
    },
  },
  render: async () => {
    const w: World = { ...renderTasks(true), imports: 0 };
    await screen.findByRole('cell', { name: 'Catch a shrimp' });
    await w.user.click(screen.getByText('Task CSV Importer'));
    return w;
  },
  guards: (paths) => {
    // Both documented messages and the server's refusal are shown.
    const errors = new Set(paths.flatMap((p) => p.steps.map((st) => st.state.context.error)));
    for (const text of [CSV_BAD_NAME, CSV_NO_FILE, TOO_LARGE]) expect(errors.has(text), text).toBe(true);
    // An answer is shown after an upload.
    expect(paths.some((p) => p.steps.some((st) => st.state.matches('idle') && st.state.context.result !== null))).toBe(true);
  },
});

describe('Task CSV Importer message', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('names every column the server reads, the optional auto_* columns of a Dink rule too', async () => {
    renderTasks(true);
    await screen.findByRole('cell', { name: 'Catch a shrimp' });
    fireEvent.click(screen.getByText('Task CSV Importer'));
    const hint = screen.getByTestId('csv-hint').textContent ?? '';
    for (const column of ['description', 'difficulty', 'auto_type', 'auto_names', 'auto_min']) expect(hint).toContain(column);
    expect(hint).toContain('LOOT');
  });

  it('fades the message after 5 s and removes it 1 s later (API messages, docs/client.md §12); the counts stay', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const w = renderTasks(true);
    await screen.findByRole('cell', { name: 'Catch a shrimp' });
    fireEvent.click(screen.getByText('Task CSV Importer'));
    fireEvent.change(fileInput(), { target: { files: [new File(['description,difficulty'], 'tasks.csv')] } });
    fireEvent.click(uploadButton());
    await act(() => w.fx.resolve('uploadTaskCsv', { ...ANSWER, skipped_count: 144, error_count: 0, errors: [], inserted_count: 0 }));
    const message = await screen.findByTestId('csv-message');
    expect(message.textContent).toBe(`${tasksImportedMessage(0)} 144 skipped as duplicates (already in the pool or repeated in the file).`);
    expect(message.className).toBe('action-message');
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(screen.getByTestId('csv-message').className).toBe('action-message action-message--fading');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByTestId('csv-message')).toBeNull();
    screen.getByTestId('csv-result');
  });
});
