// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { DEFAULT_TASK_SORT, TASK_POOL_DELAYS, taskPoolMachine, type TaskPageResult, type TaskPoolEvent } from '../../machines/taskPool.machine';
import { TIERS } from '../../contract/game/tiers';
import { TASK_REQUIRED, type Task, type TaskPageAnswer, type TaskPageQuery } from '../../contract/task';
import { READ_ONLY_TASKS_NOTE, TasksTab, type TasksEffects } from '../../src/features/tasks/TasksTab';
import { ApiRequestError } from '../../src/api/client';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { deferred, type Deferred } from '../support/effects';
import { CLAN_ID, POOL, renderTasks, serverAnswer, task } from '../support/tasksTab';

/**
 * Model-based test of the taskPool chart (docs/client.md §8, §12; docs/game-rules.md §11;
 * docs/server.md §8) through the rendered task table of the Tasks tab: paths generated from the
 * real chart with the one harness. Each step is caused through the screen — the fake server
 * answering or failing the clan's list and each page of every clan's tasks (also a page past the
 * end, after tasks were deleted meanwhile), the search typed key by key, the sort, page and
 * page-size controls, 'Show Other Clan Tasks', Retry, a new task (which loads the list again) and
 * the search's debounce on fake time — and every state is asserted on the screen: the rows, range
 * label, pager and sort marks, busy and loading, the error with Retry, and the page queries sent
 * (older pending ones aborted). Then checks of the own table (tier order, sort toggling,
 * pagination back to page 1, the read-only list of non-managers).
 */

type Snap = SnapshotFrom<typeof taskPoolMachine>;
const DEBOUNCE = 'xstate.after.searchDebounce.taskPool.others.debouncing';
type ModelEvent =
  | TaskPoolEvent
  | { type: 'xstate.done.actor.loadClanTasks'; output: Task[] }
  | { type: 'xstate.error.actor.loadClanTasks'; error: Error }
  | { type: 'xstate.done.actor.loadTaskPage'; output: TaskPageResult }
  | { type: 'xstate.error.actor.loadTaskPage'; error: Error }
  | { type: typeof DEBOUNCE };

const LOAD_FAILED = 'Failed to load current tasks. Check console for details.';
/** Every clan's tasks on the fake server: this clan's 15 and 13 of Blue Moon (3 pages of 10, 2 of 25). */
const ALL: Task[] = [...POOL, ...Array.from({ length: 13 }, (_, i) => task(`Moon duty ${String(i + 1).padStart(2, '0')}`, TIERS[i % 5], 99, 'Blue Moon'))];
/** The searches typed: none, and one matching Blue Moon by its clan name (in another case, with a space to trim). */
const SEARCHES = ['', 'MOON '];
const otherSearch = (search: string) => SEARCHES.find((v) => v !== search)!;
const otherSize = (size: number) => (size === 10 ? 25 : 10);

/** The GET /api/tasks/ query of the page the chart shows or loads. */
const queryOf = (s: Snap): TaskPageQuery => ({ q: s.context.search.trim(), limit: s.context.pageSize, offset: (s.context.page - 1) * s.context.pageSize });
/** What `loadTaskPage` answers for that query from the fake server. */
function pageResult(s: Snap): TaskPageResult {
  const query = queryOf(s);
  const answer = serverAnswer(ALL, query);
  return { tasks: answer.tasks, offset: query.offset, total: answer.total, unfilteredTotal: query.q ? ALL.length : null };
}
const pageCount = (s: Snap) => Math.max(1, Math.ceil(serverAnswer(ALL, { ...queryOf(s), limit: 1, offset: 0 }).total / s.context.pageSize));

/** The own pool as the table filters it: description, difficulty or clan name containing the trimmed search. */
const ownHits = (search: string) => POOL.filter((t) => [t.description, t.difficulty, t.clan_name].some((x) => x.toLowerCase().includes(search.trim().toLowerCase())));
const ownPageCount = (s: Snap) => Math.max(1, Math.ceil(ownHits(s.context.search).length / s.context.pageSize));
const isDefaultSort = (s: Snap) => s.context.sort.key === DEFAULT_TASK_SORT.key && s.context.sort.direction === DEFAULT_TASK_SORT.direction;

/**
 * Events a person or the fake server can cause in a state of the chart. In the own list the table
 * controls are offered from the default view one at a time (a search, also from page 2 back to
 * page 1; the Description sort; 25 rows; the next page and back), so the model stays small;
 * 'Show Other Clan Tasks' and a new task from page 1 of 10 rows.
 */
function eventsOf(s: Snap): ModelEvent[] {
  const c = s.context;
  const toggle: ModelEvent = { type: 'tasks.toggleOthers' };
  const reload: ModelEvent = { type: 'tasks.reload' };
  const search: ModelEvent = { type: 'table.search', value: otherSearch(c.search) };
  if (s.matches({ own: 'loading' }) || s.matches({ own: 'refreshing' })) {
    const list: ModelEvent[] = [
      { type: 'xstate.done.actor.loadClanTasks', output: POOL },
      { type: 'xstate.error.actor.loadClanTasks', error: new Error(LOAD_FAILED) },
    ];
    return s.matches({ own: 'loading' }) ? [...list, toggle] : list;
  }
  if (s.matches({ own: 'ready' })) {
    const firstOfTen = c.page === 1 && c.pageSize === 10;
    const list: ModelEvent[] = firstOfTen ? [toggle, reload] : [];
    if (isDefaultSort(s) && c.pageSize === 10) list.push(search);
    if (!c.search && isDefaultSort(s) && c.pageSize === 10) {
      if (c.page === 1) list.push({ type: 'table.sort', key: 'description' }, { type: 'table.pageSize', size: 25 });
      if (c.page < ownPageCount(s)) list.push({ type: 'table.page', page: c.page + 1 });
      if (c.page > 1) list.push({ type: 'table.page', page: c.page - 1 });
    }
    return list;
  }
  if (s.matches({ own: 'failed' }) || s.matches({ others: 'failed' })) return [reload, toggle, ...(s.matches('others') ? [search] : [])];
  const settle: ModelEvent[] = [
    { type: 'xstate.done.actor.loadTaskPage', output: pageResult(s) },
    { type: 'xstate.error.actor.loadTaskPage', error: new Error(LOAD_FAILED) },
  ];
  // Tasks deleted meanwhile: the page asked for is past the new end (5 tasks left).
  if (c.page > 1) settle.push({ type: 'xstate.done.actor.loadTaskPage', output: { tasks: [], offset: queryOf(s).offset, total: 5, unfilteredTotal: c.search.trim() ? ALL.length : null } });
  // Searching again while a page loads or a search waits: over page 1 of 10 rows only, as each page shown beside it is a state of its own.
  const firstOfTen = c.page === 1 && c.pageSize === 10;
  if (s.matches({ others: 'loading' })) return [...settle, search, toggle];
  if (s.matches({ others: 'refreshing' })) return firstOfTen ? [...settle, search] : settle;
  // Typing pauses, goes on, or a new task is created before the search is sent.
  if (s.matches({ others: 'debouncing' })) return [{ type: DEBOUNCE }, ...(c.otherPage?.offset === 0 ? [search] : []), reload];
  // others.ready: on page 1 the toggle, a reload after a change and the page size; a search on
  // 10 rows (also from page 2 and 3 of all tasks, back to page 1); the next page, and the previous
  // one from the last.
  const list: ModelEvent[] = c.page === 1 ? [toggle, reload, { type: 'table.pageSize', size: otherSize(c.pageSize) }] : [];
  if (c.pageSize === 10 && (c.page === 1 || !c.search)) list.push(search);
  if (c.page < pageCount(s)) list.push({ type: 'table.page', page: c.page + 1 });
  if (c.page > 1 && c.page === pageCount(s)) list.push({ type: 'table.page', page: c.page - 1 });
  return list;
}

/** Past-end answers: the state they lead to is otherwise the same as after a page change, and would not be driven. */
const isPastEnd = (e: ModelEvent | undefined) => e?.type === 'xstate.done.actor.loadTaskPage' && e.output.tasks.length === 0 && e.output.total === 5;
/**
 * The two edges that lead to a state the shortest paths already reach by another edge (the own
 * list settled by a refresh, as after the first load; a load started by a new task while a search
 * waits, as when the wait ends): told apart, so a path takes each of them.
 */
function arrivedBy(s: Snap, e: ModelEvent | undefined, prev: Snap | undefined): string | null {
  if (prev?.matches({ own: 'refreshing' }) && s.matches({ own: 'ready' })) return 'refresh';
  if (prev?.matches({ others: 'debouncing' }) && e?.type === 'tasks.reload') return 'reload while waiting';
  return null;
}
/**
 * Which server page the table shows while the next loads or a search waits (its start, size and
 * count, whether searched). The path generator keeps the last snapshot seen under each key, so
 * everything a state's assertions read must be in the key; elsewhere the shown page follows from
 * the search, page and size, or no table is shown.
 */
const stalePage = (s: Snap) => {
  const p = s.context.otherPage;
  return p && (s.matches({ others: 'refreshing' }) || s.matches({ others: 'debouncing' })) ? [p.offset, p.tasks.length, p.total, p.unfilteredTotal] : null;
};
const serializeState = (s: Snap, e: ModelEvent | undefined, prev: Snap | undefined) =>
  JSON.stringify([s.value, s.context.search, s.context.page, s.context.pageSize, s.matches('own') ? s.context.sort : null, stalePage(s), isPastEnd(e), arrivedBy(s, e, prev)]);

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

interface World {
  server: FakeTaskServer;
  /** Page calls made before the step's event. */
  pageCallsBefore: number;
}

/** Lets every pending promise and React update run (timers are fake: setImmediate is not). */
const flush = () => act(() => new Promise<void>((resolve) => setImmediate(resolve)));

// Plain DOM queries for what every step checks (role queries are slow in jsdom and run hundreds of times here).
const searchBox = () => screen.getByLabelText('Search tasks') as HTMLInputElement;
const othersToggle = () => screen.getByLabelText('Show Other Clan Tasks') as HTMLInputElement;
/** The one table on the screen (a <table> has the table role). */
const table = () => {
  const tables = document.querySelectorAll('table');
  expect(tables.length).toBe(1);
  return tables[0];
};
const noTable = () => expect(document.querySelector('table')).toBeNull();
/** The button whose text is `text`, inside `root`. */
const buttonNamed = (text: string, root: ParentNode = document) => {
  const found = [...root.querySelectorAll('button')].filter((b) => b.textContent === text);
  expect(found.length, text).toBe(1);
  return found[0];
};
/** The open dialog (Radix renders it with role dialog). */
const dialog = () => {
  const found = document.querySelectorAll('[role="dialog"]');
  expect(found.length).toBe(1);
  return found[0] as HTMLElement;
};
const bodyRows = () => [...table().querySelectorAll('tbody tr')];
const shownDescriptions = () => bodyRows().map((r) => r.querySelector('td')!.textContent);
const rangeLabel = () => screen.getByTestId('task-range').textContent;
const ariaSorts = () => [...table().querySelectorAll('thead th')].slice(0, 3).map((th) => th.getAttribute('aria-sort'));
const sortButtons = () => [...table().querySelectorAll('thead button')] as HTMLButtonElement[];
const pagerButton = (label: 'Previous' | 'Next') => [...document.querySelectorAll('.pager button')].find((b) => b.textContent === label) as HTMLButtonElement;
const pageSizeSelect = () => screen.getByLabelText('Rows per page') as HTMLSelectElement;

/** The own list as the table shows it: filtered by the search, sorted by the column, a page of the page size. */
function ownRows(s: Snap): Task[] {
  const text = (a: string, b: string) => a.localeCompare(b);
  const hits = ownHits(s.context.search);
  const sorted = s.context.sort.key === 'description'
    ? hits.sort((a, b) => (s.context.sort.direction === 'asc' ? 1 : -1) * text(a.description, b.description))
    : hits.sort((a, b) => TIERS.indexOf(a.difficulty) - TIERS.indexOf(b.difficulty) || text(a.description, b.description));
  return sorted.slice((s.context.page - 1) * s.context.pageSize, s.context.page * s.context.pageSize);
}

/** The table shows `rows`, or the empty text for `search`. */
function expectRows(rows: Task[], search: string) {
  if (rows.length === 0) expect(shownDescriptions()).toEqual([search.trim() ? `No tasks found matching "${search}".` : 'No tasks in the pool yet.']);
  else expect(shownDescriptions()).toEqual(rows.map((t) => t.description));
}

/** The table of the page the chart holds (own list, or the server page shown), its range label, and the pager. */
function assertRows(rows: Task[], from: number, total: number, filteredFrom: number | null, search: string, page: number, pages: number, pageSize: number) {
  expectRows(rows, search);
  const to = rows.length ? from + rows.length - 1 : 0;
  expect(rangeLabel()).toBe(`${rows.length ? from : 0}-${to} of ${total} tasks${filteredFrom !== null ? ` (Filtered from ${filteredFrom})` : ''}`);
  // Edit and delete on this clan's rows only.
  if (rows.length) expect(bodyRows().map((r) => r.lastElementChild!.textContent)).toEqual(rows.map((t) => (t.clan_id === CLAN_ID ? 'EditDelete' : 'Other clan')));
  for (const [i, t] of rows.entries()) {
    const buttons = [...bodyRows()[i].querySelectorAll('button')].map((b) => b.getAttribute('aria-label'));
    expect(buttons).toEqual(t.clan_id === CLAN_ID ? [`Edit task ${t.description}`, `Delete task ${t.description}`] : []);
  }
  screen.getByText(`Page ${page} of ${pages}`);
  expect(pagerButton('Previous').disabled).toBe(page <= 1);
  expect(pagerButton('Next').disabled).toBe(page >= pages);
  expect(pageSizeSelect().value).toBe(String(pageSize));
}

const newestPage = (w: World) => w.server.pageCalls.at(-1)!;

/** What the screen shows in each state node of the chart. */
const assertions: Record<string, (s: Snap, w: World) => void> = {
  own: (s) => {
    expect(othersToggle().checked).toBe(false);
    expect(searchBox().value).toBe(s.context.search);
    if (!s.matches({ own: 'loading' }) && !s.matches({ own: 'failed' })) for (const b of sortButtons()) expect(b.disabled).toBe(false);
  },
  'own.loading': () => {
    screen.getByText('Loading tasks...');
    noTable();
  },
  'own.ready': (s) => {
    expect(table().getAttribute('aria-busy')).toBe('false');
    const hits = ownHits(s.context.search);
    assertRows(ownRows(s), (s.context.page - 1) * s.context.pageSize + 1, hits.length, s.context.search.trim() ? POOL.length : null, s.context.search, s.context.page, ownPageCount(s), s.context.pageSize);
    expect(ariaSorts()).toEqual(s.context.sort.key === 'description' ? [s.context.sort.direction === 'asc' ? 'ascending' : 'descending', 'none', 'none'] : ['none', 'ascending', 'none']);
  },
  'own.refreshing': (s, w) => {
    expect(table().getAttribute('aria-busy')).toBe('true');
    expectRows(ownRows(s), s.context.search);
    expect(w.server.clanCalls.length).toBeGreaterThan(1);
  },
  'own.failed': (s) => {
    expect(screen.getByRole('alert').textContent).toBe(s.context.error);
    buttonNamed('Retry');
    noTable();
  },
  others: (s) => {
    expect(othersToggle().checked).toBe(true);
    expect(searchBox().value).toBe(s.context.search);
    if (s.matches({ others: 'loading' }) || s.matches({ others: 'failed' })) return;
    // The server's order: not re-sortable, shown as difficulty ascending.
    for (const b of sortButtons()) expect(b.disabled).toBe(true);
    expect(ariaSorts()).toEqual(['none', 'ascending', 'none']);
  },
  'others.loading': (s, w) => {
    screen.getByText('Loading tasks...');
    noTable();
    expect(newestPage(w).query).toEqual(queryOf(s));
  },
  'others.ready': (s) => {
    expect(table().getAttribute('aria-busy')).toBe('false');
    const expected = pageResult(s);
    expect(s.context.otherPage).toEqual(expected);
    assertRows(expected.tasks, expected.offset + 1, expected.total, expected.unfilteredTotal, s.context.search, s.context.page, pageCount(s), s.context.pageSize);
  },
  'others.debouncing': (s, w) => {
    // The search waits for typing to pause: nothing asked yet, the last page still shown.
    expect(w.server.pageCalls.length).toBe(w.pageCallsBefore);
    expect(table().getAttribute('aria-busy')).toBe('true');
    expectRows(s.context.otherPage!.tasks, s.context.search);
  },
  'others.refreshing': (s, w) => {
    expect(newestPage(w).query).toEqual(queryOf(s));
    expect(table().getAttribute('aria-busy')).toBe('true');
    expectRows(s.context.otherPage!.tasks, s.context.search);
    // Every earlier page load still pending was dropped by the chart, and its request aborted.
    for (const call of w.server.pageCalls.slice(0, -1)) if (!call.settled) expect(call.signal?.aborted, JSON.stringify(call.query)).toBe(true);
  },
  'others.failed': (s) => {
    expect(screen.getByRole('alert').textContent).toBe(s.context.error);
    buttonNamed('Retry');
    noTable();
  },
};

async function settlePage(w: World, how: 'resolve' | 'reject', value: unknown) {
  const call = newestPage(w);
  call.settled = true;
  if (how === 'resolve') {
    const out = value as TaskPageResult;
    expect(call.query.offset).toBe(out.offset);
    call.answer.resolve({ tasks: out.tasks, total: out.total });
  } else call.answer.reject(value);
  await flush();
}

async function settleClan(w: World, how: 'resolve' | 'reject', value: unknown) {
  const d = w.server.clanCalls.at(-1)!;
  if (how === 'resolve') d.resolve(value as Task[]);
  else d.reject(value);
  await flush();
}

/** A new task created through its dialog: the list is loaded again after the change. */
async function createTask() {
  fireEvent.click(buttonNamed('Create New Task'));
  const d = dialog();
  fireEvent.change(within(d).getByLabelText('Description'), { target: { value: 'Kill a goblin' } });
  fireEvent.change(within(d).getByLabelText('Difficulty'), { target: { value: 'EASY' } });
  fireEvent.click(buttonNamed('Create Task', d));
  await flush();
  // Done: the modal closes by itself and the fading banner says so.
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(within(screen.getByTestId('action-result')).getByRole('status').textContent).toBe('Task created successfully.');
  await flush();
  expect(document.querySelector('[role="dialog"]')).toBeNull();
}

// fireEvent, not user-event: Testing Library's user-event wrapper waits on a setTimeout, faked here.
const executors = {
  'xstate.done.actor.loadClanTasks': async (w, { event }) => settleClan(w, 'resolve', 'output' in event ? event.output : null),
  'xstate.error.actor.loadClanTasks': async (w) => settleClan(w, 'reject', new ApiRequestError(LOAD_FAILED, 500)),
  'xstate.done.actor.loadTaskPage': async (w, { event }) => settlePage(w, 'resolve', 'output' in event ? event.output : null),
  'xstate.error.actor.loadTaskPage': async (w) => settlePage(w, 'reject', new ApiRequestError(LOAD_FAILED, 500)),
  [DEBOUNCE]: async (w) => {
    await act(() => vi.advanceTimersByTimeAsync(TASK_POOL_DELAYS.searchDebounce - 1));
    expect(w.server.pageCalls.length).toBe(w.pageCallsBefore);
    await act(() => vi.advanceTimersByTimeAsync(1));
  },
  'tasks.toggleOthers': async () => void fireEvent.click(othersToggle()),
  'table.search': async (_w, { event }) => {
    if (event.type !== 'table.search') return;
    // Typed one key at a time (each keystroke restarts the wait), or cleared at once.
    if (!event.value) fireEvent.change(searchBox(), { target: { value: '' } });
    for (let i = 1; i <= event.value.length; i++) fireEvent.change(searchBox(), { target: { value: event.value.slice(0, i) } });
  },
  'table.sort': async () => void fireEvent.click(sortButtons()[0]),
  'table.pageSize': async (_w, { event }) => {
    if (event.type === 'table.pageSize') fireEvent.change(pageSizeSelect(), { target: { value: String(event.size) } });
  },
  'table.page': async (_w, { event, prev }) => {
    if (event.type === 'table.page') fireEvent.click(pagerButton(event.page > prev.context.page ? 'Next' : 'Previous'));
  },
  'tasks.reload': async (_w, { prev }) => {
    if (prev.matches({ own: 'failed' }) || prev.matches({ others: 'failed' })) fireEvent.click(buttonNamed('Retry'));
    else await createTask();
  },
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

/** Each executor, after noting how many page calls were made before its event. */
const counted = Object.fromEntries(
  Object.entries(executors).map(([type, run]) => [type, (w: World, step: Parameters<typeof run>[1]) => ((w.pageCallsBefore = w.server.pageCalls.length), run(w, step as never))]),
) as typeof executors;

/** The task table of a manager over the fake server, nothing answered yet. */
function renderPool(): World {
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

const label = (event: ModelEvent) => {
  if (event.type === 'table.search') return `search(${JSON.stringify(event.value)})`;
  if (event.type === 'table.page') return `page(${event.page})`;
  if (event.type === 'table.pageSize') return `size(${event.size})`;
  if (event.type === 'table.sort') return `sort(${event.key})`;
  if (event.type === 'xstate.done.actor.loadTaskPage') return isPastEnd(event) ? 'done(loadTaskPage, past the end)' : 'done(loadTaskPage)';
  return event.type.replace(/^xstate\.(after\.(\w+)\..*|(done|error)\.actor\.(\w+))$/, (_m, _a, delay, kind, actor) => delay ?? `${kind}(${actor})`);
};

/** While no page is shown (the first load, or a failed one) the table and its pager are not on the screen. */
const NO_PAGER = "the table and its pager (Rows per page, Previous, Next) are replaced by 'Loading tasks...' or the error with Retry, so the screen cannot send it";

modelTests<Snap, ModelEvent, World>({
  name: 'taskPool',
  machine: taskPoolMachine,
  events: eventsOf,
  serialize: serializeState,
  executors: counted,
  label,
  dropPrefixPaths: true,
  // Only the chart's delays are faked; promises, setImmediate and React run for real.
  fakeTimers: 'manual',
  assertions,
  render: renderPool,
  uncovered: {
    'others.loading -> table.pageSize': `While the first page of other clans' tasks loads, ${NO_PAGER}.`,
    'others.loading -> table.page': `While the first page of other clans' tasks loads, ${NO_PAGER}.`,
    'others.failed -> table.pageSize': `After a failed page load, ${NO_PAGER}.`,
    'others.failed -> table.page': `After a failed page load, ${NO_PAGER}.`,
  },
  guards: (paths) => {
    // A search on a second page, the last page of three, and a page past the end after deletions are all shown.
    const seen = paths.flatMap((p) => p.steps.map((st) => st.state));
    expect(seen.some((s) => s.matches({ others: 'ready' }) && s.context.search && s.context.page === 2)).toBe(true);
    expect(seen.some((s) => s.matches({ others: 'ready' }) && s.context.page === 3)).toBe(true);
    expect(paths.some((p) => p.steps.some((st) => st.event.type === 'xstate.done.actor.loadTaskPage' && st.event.output.total === 5))).toBe(true);
    // The own list is shown sorted by description, on its second page, 25 rows a page, and searched.
    expect(seen.some((s) => s.matches({ own: 'ready' }) && s.context.sort.key === 'description')).toBe(true);
    expect(seen.some((s) => s.matches({ own: 'ready' }) && s.context.page === 2)).toBe(true);
    expect(seen.some((s) => s.matches({ own: 'ready' }) && s.context.pageSize === 25)).toBe(true);
    expect(seen.some((s) => s.matches({ own: 'ready' }) && s.context.search)).toBe(true);
  },
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
    expect(w.fx.calls('createTask')).toEqual([[CLAN_ID, { description: 'Kill a goblin', difficulty: 'EASY', auto_rule: null }]]);
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
