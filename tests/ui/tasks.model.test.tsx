// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { TestModel, getShortestPaths, type TestPath } from '../support/graph';
import { FakeEffects } from '../support/effects';
import { csvImportMachine, type CsvImportEvent } from '../../machines/csvImport.machine';
import { CSV_BAD_NAME, CSV_NO_FILE, TASK_REQUIRED, tasksImportedMessage, type CsvUploadAnswer, type Task } from '../../contract/task';
import { READ_ONLY_TASKS_NOTE, TasksTab, type TasksEffects } from '../../src/features/tasks/TasksTab';
import { ApiRequestError } from '../../src/api/client';

/**
 * The Tasks tab (product-spec sections 2 Tasks tab, 5 Tasks, 6, 8, 9): a model-based test of the
 * csvImport chart through the rendered Task CSV Importer, and checks of the table (tier order,
 * sort toggling, pagination back to page 1, other clans' rows without actions, the read-only list
 * of non-managers).
 */

type Snap = SnapshotFrom<typeof csvImportMachine>;
type Synthetic =
  | { type: 'xstate.done.actor.uploadCsv'; output: CsvUploadAnswer }
  | { type: 'xstate.error.actor.uploadCsv'; error: Error };
type ModelEvent = CsvImportEvent | Synthetic;

const CLAN_ID = 7;
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

function eventsFor(s: Snap): ModelEvent[] {
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

const serializeState = (s: Snap) => JSON.stringify([s.value, s.context.file?.name ?? null, s.context.result ? 1 : 0, s.context.error]);
const model = new TestModel(csvImportMachine);
const paths = model.getPaths(
  () => getShortestPaths(csvImportMachine, { events: eventsFor as never, serializeState: serializeState as never }) as never,
  { allowDuplicatePaths: false },
) as unknown as TestPath<Snap, ModelEvent>[];

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  loads: () => number;
}

let nextId = 1;
const task = (description: string, difficulty: Task['difficulty'], clan_id = CLAN_ID, clan_name = 'Iron Legion'): Task => ({ id: nextId++, description, difficulty, clan_id, clan_name });
const POOL: Task[] = [
  task('Inferno cape', 'MASTER'),
  task('Zulrah kill', 'ELITE'),
  task('Catch a shrimp', 'EASY'),
  task('Barrows chest', 'MEDIUM'),
  task('Abyssal whip', 'HARD'),
  ...Array.from({ length: 10 }, (_, i) => task(`Easy chore ${String(i + 1).padStart(2, '0')}`, 'EASY')),
];
const OTHERS: Task[] = [...POOL, task('Other clan task', 'EASY', 99, 'Blue Moon')];

function renderTasks(isManager: boolean, fx = new FakeEffects()) {
  let loads = 0;
  const never = () => new Promise<never>(() => {});
  const effects: TasksEffects = {
    fetchClanTasks: async (clanId) => {
      expect(clanId).toBe(CLAN_ID);
      loads += 1;
      return POOL;
    },
    fetchAllTasks: async () => OTHERS,
    createTask: fx.fn('createTask'),
    updateTask: never,
    deleteTask: never,
    deleteAllTasks: never,
    uploadTaskCsv: fx.fn('uploadTaskCsv'),
  };
  render(<TasksTab clanId={CLAN_ID} isManager={isManager} effects={effects} />);
  return { fx, loads: () => loads, user: userEvent.setup({ applyAccept: false }) };
}

const fileInput = () => screen.getByLabelText('CSV file') as HTMLInputElement;
const uploadButton = () => screen.getByRole('button', { name: /Upload and Extract Tasks|Uploading\.\.\./ });

const ASSERTIONS: Record<'idle' | 'uploading', (s: Snap, w: World) => Promise<void>> = {
  idle: async (s, w) => {
    expect(uploadButton().textContent).toBe('Upload and Extract Tasks');
    expect(fileInput().disabled).toBe(false);
    const error = screen.queryByTestId('csv-error');
    if (s.context.error) expect(error?.textContent).toBe(s.context.error);
    else expect(error).toBeNull();
    const result = screen.queryByTestId('csv-result');
    if (s.context.result) {
      within(result!).getByText(tasksImportedMessage(ANSWER.inserted_count));
      within(result!).getByText('Skipped (already in the pool or repeated): 1. Rows with errors: 3.');
      expect(within(result!).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
        "Row 4: Difficulty 'IMPOSSIBLE' is not one of EASY, MEDIUM, HARD, ELITE, MASTER.",
        'Row 6: Description is required.',
        '... and 1 more rows with errors.',
      ]);
      // The task list is loaded again after an import.
      await waitFor(() => expect(w.loads()).toBe(2));
    } else {
      expect(result).toBeNull();
      expect(w.loads()).toBe(1);
    }
  },
  uploading: async () => {
    expect(uploadButton().textContent).toBe('Uploading...');
    expect(uploadButton().hasAttribute('disabled')).toBe(true);
    expect(fileInput().disabled).toBe(true);
  },
};

type Executor = (step: { event: ModelEvent; state: Snap }) => Promise<void>;
function executors(w: World) {
  return {
    'csv.select': async ({ event }) => {
      if (event.type !== 'csv.select') return;
      if (event.file) await w.user.upload(fileInput(), new File(['description,difficulty\nA,EASY\n'], event.file.name, { type: 'text/plain' }));
      else fireEvent.change(fileInput(), { target: { files: [] } });
    },
    'csv.upload': async () => w.user.click(uploadButton()),
    'xstate.done.actor.uploadCsv': async () => {
      await act(() => w.fx.resolve('uploadTaskCsv', ANSWER));
      const [clanId, file] = w.fx.calls('uploadTaskCsv').at(-1) as [number, File];
      expect([clanId, file.name]).toEqual([CLAN_ID, 'tasks.csv']);
    },
    'xstate.error.actor.uploadCsv': async () => act(() => w.fx.reject('uploadTaskCsv', new ApiRequestError(TOO_LARGE, 413))),
  } satisfies Record<ModelEvent['type'], Executor>;
}

const short = (path: TestPath<Snap, ModelEvent>) =>
  path.steps
    .slice(1)
    .map(({ event }) => (event.type === 'csv.select' ? `select(${event.file?.name ?? 'none'})` : event.type.replace('xstate.', '').replace('.actor.uploadCsv', '')))
    .join(' → ');

describe('csvImport chart through the Task CSV Importer', () => {
  afterEach(cleanup);

  it('reaches every state node with an assertion, drives every event and shows both spec messages (guard)', () => {
    expect(Object.keys(csvImportMachine.states).sort()).toEqual(Object.keys(ASSERTIONS).sort());
    const states = paths.flatMap((p) => p.steps.map((st) => st.state));
    for (const key of Object.keys(ASSERTIONS)) expect(states.some((s) => s.matches(key as 'idle'))).toBe(true);
    const driven = new Set(paths.flatMap((p) => p.steps.map((st) => st.event.type)));
    for (const type of Object.keys(executors({} as World))) expect(driven.has(type as never)).toBe(true);
    const errors = new Set(states.map((s) => s.context.error));
    for (const text of [CSV_BAD_NAME, CSV_NO_FILE, TOO_LARGE]) expect(errors.has(text)).toBe(true);
  });

  for (const path of paths) {
    it(short(path) || 'starts idle', async () => {
      const w = renderTasks(true);
      await screen.findByRole('cell', { name: 'Catch a shrimp' });
      await w.user.click(screen.getByText('Task CSV Importer'));
      const exec = executors(w) as Record<string, Executor>;
      for (const step of path.steps) {
        if ((step.event.type as string) !== 'xstate.init') await exec[step.event.type](step);
        await ASSERTIONS[step.state.matches('uploading') ? 'uploading' : 'idle'](step.state, w);
      }
    });
  }
});

const descriptions = () => screen.getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[0].textContent);

describe('task table', () => {
  afterEach(cleanup);

  it('lists difficulty ascending in tier order, flips on a second click, and pages 10 / 25 / 50 back to page 1', async () => {
    const w = renderTasks(true);
    await screen.findByRole('cell', { name: 'Catch a shrimp' });
    expect(screen.getByTestId('task-range').textContent).toBe('1-10 of 15 tasks');
    // Page 2 holds the last easy task and the harder tiers, in tier order (not alphabetical).
    await w.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(descriptions()).toEqual(['Easy chore 10', 'Barrows chest', 'Abyssal whip', 'Zulrah kill', 'Inferno cape']);
    await w.user.click(screen.getByRole('button', { name: /Difficulty/ }));
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect(descriptions().slice(0, 4)).toEqual(['Inferno cape', 'Zulrah kill', 'Abyssal whip', 'Barrows chest']);
    expect(screen.getByRole('columnheader', { name: /Difficulty/ }).getAttribute('aria-sort')).toBe('descending');
    await w.user.click(screen.getByRole('button', { name: 'Next' }));
    await w.user.type(screen.getByLabelText('Search tasks'), 'chore 1');
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    expect(screen.getByTestId('task-range').textContent).toBe('1-1 of 1 tasks (Filtered from 15)');
    await w.user.clear(screen.getByLabelText('Search tasks'));
    await w.user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    expect(screen.getByTestId('task-range').textContent).toBe('1-15 of 15 tasks');
  });

  it("shows other clans' tasks on request, with edit and delete only on this clan's rows", async () => {
    const w = renderTasks(true);
    await screen.findByRole('cell', { name: 'Catch a shrimp' });
    await w.user.selectOptions(screen.getByLabelText('Rows per page'), '50');
    await w.user.click(screen.getByRole('checkbox', { name: 'Show Other Clan Tasks' }));
    await screen.findByRole('cell', { name: 'Blue Moon' });
    const row = screen.getByRole('cell', { name: 'Other clan task' }).closest('tr')!;
    expect(within(row).queryByRole('button')).toBeNull();
    const own = screen.getByRole('cell', { name: 'Catch a shrimp' }).closest('tr')!;
    within(own).getByRole('button', { name: 'Edit task Catch a shrimp' });
    within(own).getByRole('button', { name: 'Delete task Catch a shrimp' });
  });

  it("refuses a task without description and difficulty: 'Description and Difficulty are required.'", async () => {
    const w = renderTasks(true);
    await screen.findByRole('cell', { name: 'Catch a shrimp' });
    await w.user.click(screen.getByRole('button', { name: 'Create New Task' }));
    const d = await screen.findByRole('dialog');
    await w.user.type(within(d).getByLabelText('Description'), 'Kill a goblin');
    await w.user.click(within(d).getByRole('button', { name: 'Create Task' }));
    expect(within(d).getByRole('alert').textContent).toBe(TASK_REQUIRED);
    expect(w.fx.calls('createTask')).toEqual([]);
    await w.user.selectOptions(within(d).getByLabelText('Difficulty'), 'EASY');
    await w.user.click(within(d).getByRole('button', { name: 'Create Task' }));
    expect(w.fx.calls('createTask')).toEqual([[CLAN_ID, { description: 'Kill a goblin', difficulty: 'EASY' }]]);
  });

  it('gives non-managers the read-only list with the note and no manage controls', async () => {
    renderTasks(false);
    await screen.findByRole('cell', { name: 'Catch a shrimp' });
    screen.getByText(READ_ONLY_TASKS_NOTE);
    for (const name of ['Create New Task', 'Delete All Tasks', 'Edit task Catch a shrimp']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByText('Task CSV Importer')).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Show Other Clan Tasks' })).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕\s]+$/u, ''))).toEqual(['Description', 'Difficulty', 'Clan Name']);
  });
});
