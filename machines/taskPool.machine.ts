import { assign, fromPromise, setup } from 'xstate';
import type { Task, TaskPageQuery } from '../contract/task';
import { errorText } from '../contract/errorText';

/** Sortable columns of the task table (docs/client.md §8). */
export type TaskSortKey = 'description' | 'difficulty' | 'clan_name';
export interface TaskSort {
  key: TaskSortKey;
  direction: 'asc' | 'desc';
}

/**
 * One page of every clan's tasks as the `loadTaskPage` actor answers it: the rows, the offset of
 * the first one, how many tasks match the search on the server (all pages), and, when the search
 * is not empty, how many tasks every clan holds (for the ' (Filtered from N)' label), else null.
 */
export interface TaskPageResult {
  tasks: Task[];
  offset: number;
  total: number;
  unfilteredTotal: number | null;
}

export interface TaskPoolContext {
  /** The clan's whole pool (`own`). */
  tasks: Task[];
  /** The page of every clan's tasks the server answered last (`others`), null before the first. */
  otherPage: TaskPageResult | null;
  /** The search box as typed; `own` filters with it at once, `others` sends it trimmed as `q` once typing settles. */
  search: string;
  sort: TaskSort;
  /** 1-based page of the table. */
  page: number;
  pageSize: number;
  error: string | null;
}

export type TaskPoolEvent =
  | { type: 'tasks.reload' }
  | { type: 'tasks.toggleOthers' }
  | { type: 'table.search'; value: string }
  | { type: 'table.sort'; key: TaskSortKey }
  | { type: 'table.pageSize'; size: number }
  | { type: 'table.page'; page: number };

/** Default sort of the task table: difficulty ascending (docs/client.md §12); also the server's page order. */
export const DEFAULT_TASK_SORT: TaskSort = { key: 'difficulty', direction: 'asc' };

/** Milliseconds of the named delays: the search is sent to the server once typing has paused this long. */
export const TASK_POOL_DELAYS = { searchDebounce: 300 } as const;

const LOAD_FAILED = 'Failed to load current tasks. Check console for details.';

/** The `loadTaskPage` input of the context: the page shown, the search trimmed. */
const pageQuery = ({ context }: { context: TaskPoolContext }): TaskPageQuery => ({
  q: context.search.trim(),
  limit: context.pageSize,
  offset: (context.page - 1) * context.pageSize,
});

/** The load of the clan's own pool (`own` mode): to `ready` with the tasks, or `failed`. */
const loadClanTasks = {
  id: 'loadClanTasks',
  src: 'loadClanTasks',
  onDone: { target: 'ready', actions: { type: 'assignTasks', params: ({ event }: { event: { output: Task[] } }) => event.output } },
  onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
} as const;

/**
 * The page load of `others` mode, invoked from `state` ('loading' or 'refreshing'): the answer
 * goes to `ready`; a page past the last (tasks deleted meanwhile) loads again from the same
 * state with the last page; a failure goes to `failed`.
 */
const loadPageFrom = (state: 'loading' | 'refreshing') =>
  ({
    id: 'loadTaskPage',
    src: 'loadTaskPage',
    input: pageQuery,
    onDone: [
      {
        guard: { type: 'isPastLastPage', params: ({ event }: { event: { output: TaskPageResult } }) => event.output },
        target: state,
        reenter: true,
        actions: { type: 'assignLastPage', params: ({ event }: { event: { output: TaskPageResult } }) => event.output },
      },
      { target: 'ready', actions: { type: 'assignOtherPage', params: ({ event }: { event: { output: TaskPageResult } }) => event.output } },
    ],
    onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
  }) as const;

/**
 * The Tasks tab list (docs/client.md §8, §12; docs/game-rules.md §11; docs/server.md §3; docs/server.md
 * §8), in two modes:
 * - `own` (the default): the clan's whole pool from `loadClanTasks`; search, sort (default
 *   difficulty ascending; clicking the sorted column flips it) and pages of 10 / 25 / 50 are
 *   applied on the client, back to page 1 on a filter, sort or size change.
 * - `others` ('Show Other Clan Tasks', managers): one page of every clan's tasks at a time from
 *   `loadTaskPage` (`{q, limit, offset}`), searched and ordered by the server (tier, then
 *   description; the table cannot be re-sorted). A new page or page size loads at once; a search
 *   waits `searchDebounce` (300 ms) after the last keystroke, then loads page 1; a newer load
 *   replaces a pending one. A page past the end (tasks deleted meanwhile) loads the last page.
 * `loading` shows no rows, `refreshing` and `debouncing` keep the shown rows (tag `busy`);
 * `failed` holds the error text the actor raised. Toggling goes back to page 1 of the other mode.
 */
export const taskPoolMachine = setup({
  types: {
    context: {} as TaskPoolContext,
    events: {} as TaskPoolEvent,
  },
  actors: {
    loadClanTasks: fromPromise<Task[], void>(async () => {
      throw new Error("taskPool machine: actor 'loadClanTasks' was not provided");
    }),
    loadTaskPage: fromPromise<TaskPageResult, TaskPageQuery>(async () => {
      throw new Error("taskPool machine: actor 'loadTaskPage' was not provided");
    }),
  },
  delays: TASK_POOL_DELAYS,
  guards: {
    isPastLastPage: ({ context }, result: TaskPageResult) => result.tasks.length === 0 && result.total > 0 && context.page > 1,
  },
  actions: {
    assignTasks: assign((_, tasks: Task[]) => ({ tasks, error: null })),
    assignOtherPage: assign((_, result: TaskPageResult) => ({ otherPage: result, error: null })),
    assignLastPage: assign(({ context }, result: TaskPageResult) => ({ page: Math.max(1, Math.ceil(result.total / context.pageSize)) })),
    assignLoadError: assign((_, error: unknown) => ({
      error: errorText(error, LOAD_FAILED),
    })),
    firstPage: assign({ page: 1 }),
    assignSearch: assign((_, value: string) => ({ search: value, page: 1 })),
    assignSort: assign(({ context }, key: TaskSortKey) => ({
      sort: {
        key,
        direction: context.sort.key === key && context.sort.direction === 'asc' ? ('desc' as const) : ('asc' as const),
      },
      page: 1,
    })),
    assignPageSize: assign((_, size: number) => ({ pageSize: size, page: 1 })),
    assignPage: assign((_, page: number) => ({ page: Math.max(1, Math.floor(page)) })),
  },
}).createMachine({
  id: 'taskPool',
  context: { tasks: [], otherPage: null, search: '', sort: DEFAULT_TASK_SORT, page: 1, pageSize: 10, error: null },
  initial: 'own',
  states: {
    own: {
      initial: 'loading',
      on: {
        'table.search': { actions: { type: 'assignSearch', params: ({ event }) => event.value } },
        'table.sort': { actions: { type: 'assignSort', params: ({ event }) => event.key } },
        'table.pageSize': { actions: { type: 'assignPageSize', params: ({ event }) => event.size } },
        'table.page': { actions: { type: 'assignPage', params: ({ event }) => event.page } },
        'tasks.toggleOthers': { target: 'others', actions: 'firstPage' },
      },
      states: {
        loading: {
          tags: ['busy'],
          invoke: loadClanTasks,
        },
        ready: {
          on: { 'tasks.reload': 'refreshing' },
        },
        refreshing: {
          tags: ['busy'],
          invoke: loadClanTasks,
        },
        failed: {
          on: { 'tasks.reload': 'loading' },
        },
      },
    },
    others: {
      initial: 'loading',
      on: {
        // Targets below `others` exit and re-enter the active child: the debounce timer or the load restarts.
        'table.search': { target: '.debouncing', actions: { type: 'assignSearch', params: ({ event }) => event.value } },
        'table.pageSize': { target: '.refreshing', actions: { type: 'assignPageSize', params: ({ event }) => event.size } },
        'table.page': { target: '.refreshing', actions: { type: 'assignPage', params: ({ event }) => event.page } },
        'tasks.toggleOthers': { target: 'own', actions: 'firstPage' },
      },
      states: {
        // No page is shown yet: a search, page or size change loads again at once.
        loading: {
          tags: ['busy'],
          on: {
            'table.search': { target: 'loading', reenter: true, actions: { type: 'assignSearch', params: ({ event }) => event.value } },
            'table.pageSize': { target: 'loading', reenter: true, actions: { type: 'assignPageSize', params: ({ event }) => event.size } },
            'table.page': { target: 'loading', reenter: true, actions: { type: 'assignPage', params: ({ event }) => event.page } },
          },
          invoke: loadPageFrom('loading'),
        },
        ready: {
          on: { 'tasks.reload': 'refreshing' },
        },
        debouncing: {
          tags: ['busy'],
          after: { searchDebounce: 'refreshing' },
          on: { 'tasks.reload': 'refreshing' },
        },
        refreshing: {
          tags: ['busy'],
          invoke: loadPageFrom('refreshing'),
        },
        // No page is shown: as in `loading`, a change loads again at once.
        failed: {
          on: {
            'tasks.reload': 'loading',
            'table.search': { target: 'loading', actions: { type: 'assignSearch', params: ({ event }) => event.value } },
            'table.pageSize': { target: 'loading', actions: { type: 'assignPageSize', params: ({ event }) => event.size } },
            'table.page': { target: 'loading', actions: { type: 'assignPage', params: ({ event }) => event.page } },
          },
        },
      },
    },
  },
});
