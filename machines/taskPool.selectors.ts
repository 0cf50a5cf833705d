import type { SnapshotFrom } from 'xstate';
import type { taskPoolMachine } from './taskPool.machine';

type S = SnapshotFrom<typeof taskPoolMachine>;

/** Named selectors of the taskPool chart. */
export const selectTasks = (s: S) => s.context.tasks;
/** 'Show Other Clan Tasks' is on: the chart is in `others` (pages from the server). */
export const selectShowOthers = (s: S) => s.matches('others');
export const selectSearch = (s: S) => s.context.search;
export const selectSort = (s: S) => s.context.sort;
/** The table can be re-sorted (own list only; the server orders other clans' pages). */
export const selectCanSort = (s: S) => s.can({ type: 'table.sort', key: 'difficulty' });
export const selectPage = (s: S) => s.context.page;
export const selectPageSize = (s: S) => s.context.pageSize;
/** In `others`: the page of every clan's tasks shown, with the server's counts. */
export const selectOtherPage = (s: S) => s.context.otherPage;
export const selectTasksError = (s: S) => s.context.error;
/** No rows to show yet: the first load of either mode. */
export const selectTasksLoading = (s: S) => s.matches({ own: 'loading' }) || s.matches({ others: 'loading' });
export const selectTasksFailed = (s: S) => s.matches({ own: 'failed' }) || s.matches({ others: 'failed' });
export const selectTasksBusy = (s: S) => s.hasTag('busy');
