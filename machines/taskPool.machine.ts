import { assign, fromPromise, setup } from 'xstate';
import type { Task } from '../contract/task';

/** Sortable columns of the task table (product-spec section 2 Tasks tab). */
export type TaskSortKey = 'description' | 'difficulty' | 'clan_name';
export interface TaskSort {
  key: TaskSortKey;
  direction: 'asc' | 'desc';
}

export interface TaskPoolContext {
  tasks: Task[];
  /** 'Show Other Clan Tasks' (managers): every clan's tasks instead of this clan's. */
  showOthers: boolean;
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

/** Input of `loadTasks`: whether to load every clan's tasks. */
export interface LoadTasksInput {
  showOthers: boolean;
}

/** Default sort of the task table: difficulty ascending (product-spec section 9). */
export const DEFAULT_TASK_SORT: TaskSort = { key: 'difficulty', direction: 'asc' };

/**
 * The clan task pool list (product-spec sections 2 Tasks tab, 6, 7 Task pool, 9): loads the clan's
 * tasks or, with 'Show Other Clan Tasks', every clan's (`loadTasks` actor); reloads in place after
 * a change; holds the table's search, sort (default difficulty ascending; clicking the sorted
 * column flips its direction) and pagination (10 / 25 / 50), going back to page 1 whenever the
 * filter, sort, page size or list changes.
 */
export const taskPoolMachine = setup({
  types: {
    context: {} as TaskPoolContext,
    events: {} as TaskPoolEvent,
  },
  actors: {
    loadTasks: fromPromise<Task[], LoadTasksInput>(async () => {
      throw new Error("taskPool machine: actor 'loadTasks' was not provided");
    }),
  },
  actions: {
    assignTasks: assign((_, tasks: Task[]) => ({ tasks, error: null })),
    assignLoadError: assign((_, error: unknown) => ({
      error: error instanceof Error && error.message ? error.message : 'Failed to load current tasks. Check console for details.',
    })),
    toggleOthers: assign(({ context }) => ({ showOthers: !context.showOthers, page: 1 })),
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
  context: { tasks: [], showOthers: false, search: '', sort: DEFAULT_TASK_SORT, page: 1, pageSize: 10, error: null },
  initial: 'loading',
  on: {
    'table.search': { actions: { type: 'assignSearch', params: ({ event }) => event.value } },
    'table.sort': { actions: { type: 'assignSort', params: ({ event }) => event.key } },
    'table.pageSize': { actions: { type: 'assignPageSize', params: ({ event }) => event.size } },
    'table.page': { actions: { type: 'assignPage', params: ({ event }) => event.page } },
    'tasks.toggleOthers': { target: '.refreshing', actions: 'toggleOthers' },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadTasks',
        src: 'loadTasks',
        input: ({ context }) => ({ showOthers: context.showOthers }),
        onDone: { target: 'ready', actions: { type: 'assignTasks', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    ready: {
      on: { 'tasks.reload': 'refreshing' },
    },
    refreshing: {
      tags: ['busy'],
      invoke: {
        id: 'loadTasks',
        src: 'loadTasks',
        input: ({ context }) => ({ showOthers: context.showOthers }),
        onDone: { target: 'ready', actions: { type: 'assignTasks', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    failed: {
      on: { 'tasks.reload': 'loading' },
    },
  },
});
