// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { matchesKey, shortestPaths, stateKeysOf } from '../support/chartModel';
import type { TestPath } from '../support/graph';
import { FakeEffects, deferred, type Deferred } from '../support/effects';
import { csvImportMachine, type CsvImportEvent } from '../../machines/csvImport.machine';
import { TASK_POOL_DELAYS, taskPoolMachine, type TaskPageResult, type TaskPoolEvent } from '../../machines/taskPool.machine';
import { TIERS } from '../../contract/game/tiers';
import { CSV_BAD_NAME, CSV_NO_FILE, TASK_REQUIRED, tasksImportedMessage } from '../../contract/task';
import type { CsvUploadAnswer, Task, TaskPageAnswer, TaskPageQuery } from '../../contract/task';
import { READ_ONLY_TASKS_NOTE, TasksTab, type TasksEffects } from '../../src/features/tasks/TasksTab';
import { ApiRequestError } from '../../src/api/client';

/**
 * The Tasks tab (docs/client.md §8, §11, §12; docs/game-rules.md §11, §13; docs/server.md
 * §8): model-based tests of the csvImport chart through the rendered Task CSV Importer and
 * of the taskPool chart through the rendered task table (the own list, and 'Show Other Clan
 * Tasks' paging through the server with the debounced search), and checks of the own table (tier
 * order, sort toggling, pagination back to page 1, the read-only list of non-managers).
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
const paths = shortestPaths<Snap, ModelEvent>(csvImportMachine, eventsFor, serializeState);

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

/** GET /api/tasks/ over `tasks` as the server answers it: case-insensitive substring of description or clan name, tier then description then id. */
function serverAnswer(tasks: readonly Task[], query: TaskPageQuery): TaskPageAnswer {
  const q = query.q.toLowerCase();
  const hits = tasks
    .filter((t) => t.description.toLowerCase().includes(q) || t.clan_name.toLowerCase().includes(q))
    .sort((a, b) => TIERS.indexOf(a.difficulty) - TIERS.indexOf(b.difficulty) || (a.description < b.description ? -1 : a.description > b.description ? 1 : 0) || a.id - b.id);
  return { tasks: hits.slice(query.offset, query.offset + query.limit), total: hits.length };
}

function renderTasks(isManager: boolean, fx = new FakeEffects()) {
  let loads = 0;
  const never = () => new Promise<never>(() => {});
  const effects: TasksEffects = {
    fetchClanTasks: async (clanId) => {
      expect(clanId).toBe(CLAN_ID);
      loads += 1;
      return POOL;
    },
    fetchTaskPage: async (query) => serverAnswer(OTHERS, query),
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

  it('fades the message after 5 s and removes it 1 s later (API messages, docs/client.md §12); the counts stay', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
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
    } finally {
      vi.useRealTimers();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The taskPool chart through the task table: the own list, and every clan's tasks paged by the server.

type PoolSnap = SnapshotFrom<typeof taskPoolMachine>;
const DEBOUNCE = 'xstate.after.searchDebounce.taskPool.others.debouncing';
type PoolSynthetic =
  | { type: 'xstate.done.actor.loadClanTasks'; output: Task[] }
  | { type: 'xstate.error.actor.loadClanTasks'; error: Error }
  | { type: 'xstate.done.actor.loadTaskPage'; output: TaskPageResult }
  | { type: 'xstate.error.actor.loadTaskPage'; error: Error }
  | { type: typeof DEBOUNCE };
type PoolModelEvent = TaskPoolEvent | PoolSynthetic;

const LOAD_FAILED = 'Failed to load current tasks. Check console for details.';
/** Every clan's tasks on the fake server: this clan's 15 and 13 of Blue Moon (3 pages of 10, 2 of 25). */
const ALL: Task[] = [...POOL, ...Array.from({ length: 13 }, (_, i) => task(`Moon duty ${String(i + 1).padStart(2, '0')}`, TIERS[i % 5], 99, 'Blue Moon'))];
/** The searches typed: none, and one matching Blue Moon by its clan name (in another case, with a space to trim). */
const SEARCHES = ['', 'MOON '];
const otherSearch = (search: string) => SEARCHES.find((v) => v !== search)!;
const otherSize = (size: number) => (size === 10 ? 25 : 10);

/** The GET /api/tasks/ query of the page the chart shows or loads. */
const queryOf = (s: PoolSnap): TaskPageQuery => ({ q: s.context.search.trim(), limit: s.context.pageSize, offset: (s.context.page - 1) * s.context.pageSize });
/** What `loadTaskPage` answers for that query from the fake server. */
function pageResult(s: PoolSnap): TaskPageResult {
  const query = queryOf(s);
  const answer = serverAnswer(ALL, query);
  return { tasks: answer.tasks, offset: query.offset, total: answer.total, unfilteredTotal: query.q ? ALL.length : null };
}
const pageCount = (s: PoolSnap) => Math.max(1, Math.ceil(serverAnswer(ALL, { ...queryOf(s), limit: 1, offset: 0 }).total / s.context.pageSize));

/** Events a person or the fake server can cause in a state of the chart. */
function poolEventsFor(s: PoolSnap): PoolModelEvent[] {
  const c = s.context;
  const toggle: PoolModelEvent = { type: 'tasks.toggleOthers' };
  const search: PoolModelEvent = { type: 'table.search', value: otherSearch(c.search) };
  if (s.matches({ own: 'loading' }) || s.matches({ own: 'refreshing' })) {
    const list: PoolModelEvent[] = [
      { type: 'xstate.done.actor.loadClanTasks', output: POOL },
      { type: 'xstate.error.actor.loadClanTasks', error: new Error(LOAD_FAILED) },
    ];
    return s.matches({ own: 'loading' }) ? [...list, toggle] : list;
  }
  if (s.matches({ own: 'ready' })) {
    const list: PoolModelEvent[] = [toggle, { type: 'tasks.reload' }];
    return c.sort.key === 'difficulty' ? [...list, { type: 'table.sort', key: 'description' }] : list;
  }
  if (s.matches({ own: 'failed' }) || s.matches({ others: 'failed' })) return [{ type: 'tasks.reload' }, toggle, ...(s.matches('others') ? [search] : [])];
  const settle: PoolModelEvent[] = [
    { type: 'xstate.done.actor.loadTaskPage', output: pageResult(s) },
    { type: 'xstate.error.actor.loadTaskPage', error: new Error(LOAD_FAILED) },
  ];
  // Tasks deleted meanwhile: the page asked for is past the new end (5 tasks left).
  if (c.page > 1) settle.push({ type: 'xstate.done.actor.loadTaskPage', output: { tasks: [], offset: queryOf(s).offset, total: 5, unfilteredTotal: c.search.trim() ? ALL.length : null } });
  if (s.matches({ others: 'loading' })) return [...settle, search, toggle];
  if (s.matches({ others: 'refreshing' })) return [...settle, search];
  if (s.matches({ others: 'debouncing' })) return [{ type: DEBOUNCE }, search];
  // others.ready: the pager, the page size, the search, the toggle and a reload after a change.
  const list: PoolModelEvent[] = [search, toggle, { type: 'table.pageSize', size: otherSize(c.pageSize) }, { type: 'tasks.reload' }];
  if (c.page < pageCount(s)) list.push({ type: 'table.page', page: c.page + 1 });
  if (c.page > 1) list.push({ type: 'table.page', page: c.page - 1 });
  return list;
}

/** Past-end answers: the state they lead to is otherwise the same as after a page change, and would not be driven. */
const isPastEnd = (e: PoolModelEvent | undefined) => e?.type === 'xstate.done.actor.loadTaskPage' && e.output.tasks.length === 0 && e.output.total === 5;
const serializePool = (s: PoolSnap, e?: PoolModelEvent) =>
  JSON.stringify([s.value, s.context.search, s.context.page, s.context.pageSize, s.matches('own') ? s.context.sort : null, pageShown(s), isPastEnd(e)]);
/** Which server page the table shows (its start, size and count, whether searched): a path's snapshots must show what its events did. */
const pageShown = (s: PoolSnap) => {
  const p = s.context.otherPage;
  return p && s.matches('others') ? [p.offset, p.tasks.length, p.total, p.unfilteredTotal] : null;
};
const poolPaths = shortestPaths<PoolSnap, PoolModelEvent>(taskPoolMachine, poolEventsFor, serializePool);


/**
 * The fake task calls: every clan-list and page call waits for the test, which settles the newest
 * (an older one belongs to a load the chart has stopped); the count of all tasks (`limit=0`, asked
 * beside a search) is answered at once.
 */
class FakeTaskServer {
  clanCalls: Deferred<Task[]>[] = [];
  pageCalls: { query: TaskPageQuery; signal: AbortSignal | undefined; answer: Deferred<TaskPageAnswer>; settled?: boolean }[] = [];
  fetchClanTasks = (clanId: number): Promise<Task[]> => {
    expect(clanId).toBe(CLAN_ID);
    const d = deferred<Task[]>();
    this.clanCalls.push(d);
    return d.promise;
  };
  fetchTaskPage = (query: TaskPageQuery, signal?: AbortSignal): Promise<TaskPageAnswer> => {
    if (query.limit === 0) {
      expect(query).toEqual({ q: '', limit: 0, offset: 0 });
      return Promise.resolve(serverAnswer(ALL, query));
    }
    const answer = deferred<TaskPageAnswer>();
    this.pageCalls.push({ query, signal, answer });
    return answer.promise;
  };
}

interface PoolWorld {
  server: FakeTaskServer;
  /** Page calls made before the step's event. */
  pageCallsBefore: number;
}

/** Lets every pending promise and React update run (timers are fake: setImmediate is not). */
const flush = () => act(() => new Promise<void>((resolve) => setImmediate(resolve)));

// Plain DOM queries for what every step checks (role queries are slow in jsdom and run hundreds of times here).
const searchBox = () => screen.getByLabelText('Search tasks') as HTMLInputElement;
const othersToggle = () => screen.getByLabelText('Show Other Clan Tasks') as HTMLInputElement;
const table = () => screen.getByRole('table');
const bodyRows = () => [...table().querySelectorAll('tbody tr')];
const shownDescriptions = () => bodyRows().map((r) => r.querySelector('td')!.textContent);
const rangeLabel = () => screen.getByTestId('task-range').textContent;
const ariaSorts = () => [...table().querySelectorAll('thead th')].slice(0, 3).map((th) => th.getAttribute('aria-sort'));
const pagerButton = (label: 'Previous' | 'Next') => [...document.querySelectorAll('.pager button')].find((b) => b.textContent === label) as HTMLButtonElement;

/** The own list as the table shows it: filtered by the search, sorted by the column, 10 a page. */
function ownRows(s: PoolSnap): Task[] {
  const q = s.context.search.trim().toLowerCase();
  const text = (a: string, b: string) => a.localeCompare(b);
  const hits = POOL.filter((t) => [t.description, t.difficulty, t.clan_name].some((x) => x.toLowerCase().includes(q)));
  const sorted = s.context.sort.key === 'description'
    ? hits.sort((a, b) => text(a.description, b.description))
    : hits.sort((a, b) => TIERS.indexOf(a.difficulty) - TIERS.indexOf(b.difficulty) || text(a.description, b.description));
  return sorted.slice((s.context.page - 1) * s.context.pageSize, s.context.page * s.context.pageSize);
}

/** The table shows `rows`, or the empty text for `search`. */
function expectRows(rows: Task[], search: string) {
  if (rows.length === 0) expect(shownDescriptions()).toEqual([search.trim() ? `No tasks found matching "${search}".` : 'No tasks in the pool yet.']);
  else expect(shownDescriptions()).toEqual(rows.map((t) => t.description));
}

/** The table of the page the chart holds (own list, or the server page shown), and its range label. */
function assertRows(rows: Task[], from: number, total: number, filteredFrom: number | null, search: string) {
  expectRows(rows, search);
  const to = rows.length ? from + rows.length - 1 : 0;
  expect(rangeLabel()).toBe(`${rows.length ? from : 0}-${to} of ${total} tasks${filteredFrom !== null ? ` (Filtered from ${filteredFrom})` : ''}`);
  // Edit and delete on this clan's rows only.
  if (rows.length) expect(bodyRows().map((r) => r.lastElementChild!.textContent)).toEqual(rows.map((t) => (t.clan_id === CLAN_ID ? 'EditDelete' : 'Other clan')));
  for (const [i, t] of rows.entries()) {
    const buttons = [...bodyRows()[i].querySelectorAll('button')].map((b) => b.getAttribute('aria-label'));
    expect(buttons).toEqual(t.clan_id === CLAN_ID ? [`Edit task ${t.description}`, `Delete task ${t.description}`] : []);
  }
}

const newestPage = (w: PoolWorld) => w.server.pageCalls.at(-1)!;

function poolAssertions(w: PoolWorld): Record<string, (s: PoolSnap) => void> {
  const sortButtons = () => [...table().querySelectorAll('thead button')] as HTMLButtonElement[];
  return {
    own: (s) => {
      expect(othersToggle().checked).toBe(false);
      expect(searchBox().value).toBe(s.context.search);
      if (!s.matches({ own: 'loading' }) && !s.matches({ own: 'failed' })) for (const b of sortButtons()) expect(b.disabled).toBe(false);
    },
    'own.loading': () => {
      screen.getByText('Loading tasks...');
      expect(screen.queryByRole('table')).toBeNull();
    },
    'own.ready': (s) => {
      expect(table().getAttribute('aria-busy')).toBe('false');
      const hits = POOL.filter((t) => [t.description, t.difficulty, t.clan_name].some((x) => x.toLowerCase().includes(s.context.search.trim().toLowerCase())));
      assertRows(ownRows(s), (s.context.page - 1) * s.context.pageSize + 1, hits.length, s.context.search.trim() ? POOL.length : null, s.context.search);
      expect(ariaSorts()).toEqual(s.context.sort.key === 'description' ? [s.context.sort.direction === 'asc' ? 'ascending' : 'descending', 'none', 'none'] : ['none', 'ascending', 'none']);
    },
    'own.refreshing': (s) => {
      expect(table().getAttribute('aria-busy')).toBe('true');
      expectRows(ownRows(s), s.context.search);
      expect(w.server.clanCalls.length).toBeGreaterThan(1);
    },
    'own.failed': (s) => {
      expect(screen.getByRole('alert').textContent).toBe(s.context.error);
      screen.getByRole('button', { name: 'Retry' });
      expect(screen.queryByRole('table')).toBeNull();
    },
    others: (s) => {
      expect(othersToggle().checked).toBe(true);
      expect(searchBox().value).toBe(s.context.search);
      if (s.matches({ others: 'loading' }) || s.matches({ others: 'failed' })) return;
      // The server's order: not re-sortable, shown as difficulty ascending.
      for (const b of sortButtons()) expect(b.disabled).toBe(true);
      expect(ariaSorts()).toEqual(['none', 'ascending', 'none']);
    },
    'others.loading': (s) => {
      screen.getByText('Loading tasks...');
      expect(screen.queryByRole('table')).toBeNull();
      expect(newestPage(w).query).toEqual(queryOf(s));
    },
    'others.ready': (s) => {
      expect(table().getAttribute('aria-busy')).toBe('false');
      const expected = pageResult(s);
      expect(s.context.otherPage).toEqual(expected);
      assertRows(expected.tasks, expected.offset + 1, expected.total, expected.unfilteredTotal, s.context.search);
      const pages = pageCount(s);
      screen.getByText(`Page ${s.context.page} of ${pages}`);
      expect(pagerButton('Previous').disabled).toBe(s.context.page <= 1);
      expect(pagerButton('Next').disabled).toBe(s.context.page >= pages);
      expect((screen.getByLabelText('Rows per page') as HTMLSelectElement).value).toBe(String(s.context.pageSize));
    },
    'others.debouncing': (s) => {
      // The search waits for typing to pause: nothing asked yet, the last page still shown.
      expect(w.server.pageCalls.length).toBe(w.pageCallsBefore);
      expect(table().getAttribute('aria-busy')).toBe('true');
      expectRows(s.context.otherPage!.tasks, s.context.search);
    },
    'others.refreshing': (s) => {
      expect(newestPage(w).query).toEqual(queryOf(s));
      expect(table().getAttribute('aria-busy')).toBe('true');
      expectRows(s.context.otherPage!.tasks, s.context.search);
      // Every earlier page load still pending was dropped by the chart, and its request aborted.
      for (const call of w.server.pageCalls.slice(0, -1)) if (!call.settled) expect(call.signal?.aborted, JSON.stringify(call.query)).toBe(true);
    },
    'others.failed': (s) => {
      expect(screen.getByRole('alert').textContent).toBe(s.context.error);
      screen.getByRole('button', { name: 'Retry' });
      expect(screen.queryByRole('table')).toBeNull();
    },
  };
}

type PoolExecutor = (step: { event: PoolModelEvent; state: PoolSnap }, prev: PoolSnap) => Promise<void>;

function poolExecutors(w: PoolWorld) {
  const settlePage = async (how: 'resolve' | 'reject', value: unknown) => {
    const call = newestPage(w);
    call.settled = true;
    if (how === 'resolve') {
      const out = value as TaskPageResult;
      expect(call.query.offset).toBe(out.offset);
      call.answer.resolve({ tasks: out.tasks, total: out.total });
    } else call.answer.reject(value);
    await flush();
  };
  const settleClan = async (how: 'resolve' | 'reject', value: unknown) => {
    const d = w.server.clanCalls.at(-1)!;
    if (how === 'resolve') d.resolve(value as Task[]);
    else d.reject(value);
    await flush();
  };
  return {
    'xstate.done.actor.loadClanTasks': async ({ event }) => settleClan('resolve', 'output' in event ? event.output : null),
    'xstate.error.actor.loadClanTasks': async () => settleClan('reject', new ApiRequestError(LOAD_FAILED, 500)),
    'xstate.done.actor.loadTaskPage': async ({ event }) => settlePage('resolve', 'output' in event ? event.output : null),
    'xstate.error.actor.loadTaskPage': async () => settlePage('reject', new ApiRequestError(LOAD_FAILED, 500)),
    [DEBOUNCE]: async () => {
      await act(() => vi.advanceTimersByTimeAsync(TASK_POOL_DELAYS.searchDebounce - 1));
      expect(w.server.pageCalls.length).toBe(w.pageCallsBefore);
      await act(() => vi.advanceTimersByTimeAsync(1));
    },
    // fireEvent, not user-event: Testing Library's user-event wrapper waits on a setTimeout, faked here.
    'tasks.toggleOthers': async () => void fireEvent.click(othersToggle()),
    'table.search': async ({ event }) => {
      if (event.type !== 'table.search') return;
      // Typed one key at a time (each keystroke restarts the wait), or cleared at once.
      if (!event.value) fireEvent.change(searchBox(), { target: { value: '' } });
      for (let i = 1; i <= event.value.length; i++) fireEvent.change(searchBox(), { target: { value: event.value.slice(0, i) } });
    },
    'table.sort': async () => void fireEvent.click(screen.getByRole('button', { name: /^Description/ })),
    'table.pageSize': async ({ event }) => {
      if (event.type === 'table.pageSize') fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: String(event.size) } });
    },
    'table.page': async ({ event }, prev) => {
      if (event.type === 'table.page') fireEvent.click(pagerButton(event.page > prev.context.page ? 'Next' : 'Previous'));
    },
    'tasks.reload': async (_step, prev) => {
      if (prev.matches({ own: 'failed' }) || prev.matches({ others: 'failed' })) {
        fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
        return;
      }
      // After a change (here: a new task) the list is loaded again.
      fireEvent.click(screen.getByRole('button', { name: 'Create New Task' }));
      const d = screen.getByRole('dialog');
      fireEvent.change(within(d).getByLabelText('Description'), { target: { value: 'Kill a goblin' } });
      fireEvent.change(within(d).getByLabelText('Difficulty'), { target: { value: 'EASY' } });
      fireEvent.click(within(d).getByRole('button', { name: 'Create Task' }));
      await flush();
      within(screen.getByRole('dialog')).getByText('Task created successfully.');
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
      await flush();
      expect(screen.queryByRole('dialog')).toBeNull();
    },
  } satisfies Record<PoolModelEvent['type'], PoolExecutor>;
}

function renderPool(): PoolWorld {
  const server = new FakeTaskServer();
  const effects: TasksEffects = {
    fetchClanTasks: server.fetchClanTasks,
    fetchTaskPage: server.fetchTaskPage,
    createTask: async (_clanId, body) => task(body.description, body.difficulty),
    updateTask: () => new Promise<never>(() => {}),
    deleteTask: () => new Promise<never>(() => {}),
    deleteAllTasks: () => new Promise<never>(() => {}),
    uploadTaskCsv: () => new Promise<never>(() => {}),
  };
  render(<TasksTab clanId={CLAN_ID} isManager effects={effects} />);
  return { server, pageCallsBefore: 0 };
}

const poolShort = (path: TestPath<PoolSnap, PoolModelEvent>) =>
  path.steps
    .slice(1)
    .map(({ event }) => {
      if (event.type === 'table.search') return `search(${JSON.stringify(event.value)})`;
      if (event.type === 'table.page') return `page(${event.page})`;
      if (event.type === 'table.pageSize') return `size(${event.size})`;
      if (event.type === 'xstate.done.actor.loadTaskPage') return isPastEnd(event) ? 'done(loadTaskPage, past the end)' : 'done(loadTaskPage)';
      return event.type.replace(/^xstate\.(after\.(\w+)\..*|(done|error)\.actor\.(\w+))$/, (_m, _a, delay, kind, actor) => delay ?? `${kind}(${actor})`);
    })
    .join(' → ');

describe('taskPool chart through the task table', () => {
  beforeEach(() => {
    // Only the chart's delays are faked; promises, setImmediate and user-event run for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('reaches every state node, every node has an assertion, and every event is driven (guard)', () => {
    const keys = stateKeysOf(taskPoolMachine);
    const w = { server: new FakeTaskServer(), pageCallsBefore: 0 };
    expect(Object.keys(poolAssertions(w)).sort()).toEqual([...keys].sort());
    const reached = new Set<string>();
    const driven = new Set<string>();
    for (const p of poolPaths)
      for (const st of p.steps) {
        for (const k of keys) if (matchesKey(st.state, k)) reached.add(k);
        driven.add(st.event.type);
      }
    expect([...reached].sort()).toEqual([...keys].sort());
    expect([...driven].filter((t) => t !== 'xstate.init').sort()).toEqual(Object.keys(poolExecutors(w)).sort());
    // A search on every page size, the last page of each, and a page past the end after deletions are all shown.
    const seen = poolPaths.flatMap((p) => p.steps.map((st) => st.state));
    expect(seen.some((s) => s.matches({ others: 'ready' }) && s.context.search && s.context.page === 2)).toBe(true);
    expect(seen.some((s) => s.matches({ others: 'ready' }) && s.context.page === 3)).toBe(true);
    expect(poolPaths.some((p) => p.steps.some((st) => st.event.type === 'xstate.done.actor.loadTaskPage' && st.event.output.total === 5))).toBe(true);
  });

  for (const path of poolPaths) {
    it(poolShort(path) || 'starts loading the own list', async () => {
      const w = renderPool();
      const exec = poolExecutors(w) as Record<string, PoolExecutor>;
      const check = poolAssertions(w);
      const keys = stateKeysOf(taskPoolMachine);
      let prev = path.steps[0].state;
      for (const step of path.steps) {
        w.pageCallsBefore = w.server.pageCalls.length;
        if ((step.event.type as string) !== 'xstate.init') await exec[step.event.type](step, prev);
        for (const k of keys) if (matchesKey(step.state, k)) check[k](step.state);
        prev = step.state;
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
