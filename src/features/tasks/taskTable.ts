import { tierRank } from '../../../contract/game/tiers';
import type { Task, TaskPageAnswer, TaskPageQuery } from '../../../contract/task';
import type { TaskPageResult, TaskSort } from '../../../machines/taskPool.machine';
import type { Page } from '../../ui/tableModel';

/** Tasks whose description, difficulty or clan name contains `search` (case-insensitive substring). */
export function filterTasks(tasks: readonly Task[], search: string): Task[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...tasks];
  return tasks.filter((t) => t.description.toLowerCase().includes(q) || t.difficulty.toLowerCase().includes(q) || t.clan_name.toLowerCase().includes(q));
}

const text = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });

/**
 * Tasks sorted by one column (docs/client.md §8, §12): difficulty in tier order
 * EASY < MEDIUM < HARD < ELITE < MASTER (tierRank, not alphabetical), description and clan name
 * alphabetically; ties fall back to difficulty, then description, then id, so the order is stable.
 */
export function sortTasks(tasks: readonly Task[], sort: TaskSort): Task[] {
  const dir = sort.direction === 'asc' ? 1 : -1;
  const byKey = (a: Task, b: Task): number => {
    switch (sort.key) {
      case 'difficulty':
        return tierRank(a.difficulty) - tierRank(b.difficulty);
      case 'description':
        return text(a.description, b.description);
      case 'clan_name':
        return text(a.clan_name, b.clan_name);
    }
  };
  return [...tasks].sort(
    (a, b) => dir * byKey(a, b) || tierRank(a.difficulty) - tierRank(b.difficulty) || text(a.description, b.description) || a.id - b.id,
  );
}

/**
 * The table page of a server page (GET /api/tasks/): `rows` start at `offset` of `total`
 * matching tasks; `page` (1-based, the one asked for) and the page count at `pageSize` rows.
 */
export function serverPage<T>(rows: readonly T[], offset: number, total: number, page: number, pageSize: number): Page<T> {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return { rows: [...rows], page, pageCount, from: rows.length ? offset + 1 : 0, to: offset + rows.length, total };
}

/**
 * The taskPool chart's `loadTaskPage` effect: one page of every clan's tasks via `fetchPage`
 * (GET /api/tasks/), and, when `query.q` is not empty, at the same time the count of all tasks
 * (`limit=0`) for the ' (Filtered from N)' label. `signal` aborts both when a newer page replaces
 * this one. Raises what `fetchPage` raises.
 */
export async function loadOtherClanPage(
  fetchPage: (query: TaskPageQuery, signal?: AbortSignal) => Promise<TaskPageAnswer>,
  query: TaskPageQuery,
  signal?: AbortSignal,
): Promise<TaskPageResult> {
  const [page, all] = await Promise.all([fetchPage(query, signal), query.q ? fetchPage({ q: '', limit: 0, offset: 0 }, signal) : null]);
  return { tasks: page.tasks, offset: query.offset, total: page.total, unfilteredTotal: all ? all.total : null };
}
