import type { SnapshotFrom } from 'xstate';
import type { taskPoolMachine } from './taskPool.machine';

type S = SnapshotFrom<typeof taskPoolMachine>;

/** Named selectors of the taskPool chart. */
export const selectTasks = (s: S) => s.context.tasks;
export const selectShowOthers = (s: S) => s.context.showOthers;
export const selectSearch = (s: S) => s.context.search;
export const selectSort = (s: S) => s.context.sort;
export const selectPage = (s: S) => s.context.page;
export const selectPageSize = (s: S) => s.context.pageSize;
export const selectTasksError = (s: S) => s.context.error;
export const selectTasksLoading = (s: S) => s.matches('loading');
export const selectTasksFailed = (s: S) => s.matches('failed');
export const selectTasksBusy = (s: S) => s.hasTag('busy');
