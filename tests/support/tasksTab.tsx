import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { TIERS } from '../../contract/game/tiers';
import type { Task, TaskPageAnswer, TaskPageQuery } from '../../contract/task';
import { TasksTab, type TasksEffects } from '../../src/features/tasks/TasksTab';
import { FakeEffects } from './effects';

/**
 * The Tasks tab as its tests see it (docs/client.md §8; docs/server.md §8): the clan, its pool,
 * the fake server's answer to GET /api/tasks/, and the tab rendered over them. Shared by the model
 * tests of the csvImport chart (the Task CSV Importer) and of the taskPool chart (the task table).
 */

/** The clan whose Tasks tab is shown. */
export const CLAN_ID = 7;

let nextId = 1;
/** A task with the next id, of this clan unless another is named. */
export const task = (description: string, difficulty: Task['difficulty'], clan_id = CLAN_ID, clan_name = 'Iron Legion'): Task => ({
  id: nextId++,
  description,
  difficulty,
  clan_id,
  clan_name,
  auto_rule: null,
});

/** The clan's pool: one task of each tier and ten easy chores (15 tasks, two pages of 10). */
export const POOL: Task[] = [
  task('Inferno cape', 'MASTER'),
  task('Zulrah kill', 'ELITE'),
  task('Catch a shrimp', 'EASY'),
  task('Barrows chest', 'MEDIUM'),
  task('Abyssal whip', 'HARD'),
  ...Array.from({ length: 10 }, (_, i) => task(`Easy chore ${String(i + 1).padStart(2, '0')}`, 'EASY')),
];
/** Every clan's tasks as `renderTasks` serves them: the pool and one task of Blue Moon. */
const OTHERS: Task[] = [...POOL, task('Other clan task', 'EASY', 99, 'Blue Moon')];

/** GET /api/tasks/ over `tasks` as the server answers it: case-insensitive substring of description or clan name, tier then description then id. */
export function serverAnswer(tasks: readonly Task[], query: TaskPageQuery): TaskPageAnswer {
  const q = query.q.toLowerCase();
  const hits = tasks
    .filter((t) => t.description.toLowerCase().includes(q) || t.clan_name.toLowerCase().includes(q))
    .sort((a, b) => TIERS.indexOf(a.difficulty) - TIERS.indexOf(b.difficulty) || (a.description < b.description ? -1 : a.description > b.description ? 1 : 0) || a.id - b.id);
  return { tasks: hits.slice(query.offset, query.offset + query.limit), total: hits.length };
}

/**
 * Renders the Tasks tab of a manager (or not) over POOL, answered at once; task creation and CSV
 * upload go to `fx`, which the test settles; edits and deletions never answer. `loads()` counts the
 * loads of the clan's list.
 */
export function renderTasks(isManager: boolean, fx = new FakeEffects()) {
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

/**
 * The Tasks tab of clan `clanId` for a manager (docs/client.md §8) over fake effects: the pool
 * answers `tasks`, create and edit are FakeEffects calls the test settles ('createTask',
 * 'updateTask'), everything else never answers.
 */
export function renderTasksTab(clanId: number, tasks: Task[]): { fx: FakeEffects; user: ReturnType<typeof userEvent.setup> } {
  const fx = new FakeEffects();
  const never = () => new Promise<never>(() => {});
  const effects: TasksEffects = {
    fetchClanTasks: async () => tasks,
    fetchTaskPage: never,
    createTask: fx.fn('createTask'),
    updateTask: fx.fn('updateTask'),
    deleteTask: never,
    deleteAllTasks: never,
    uploadTaskCsv: never,
  };
  render(<TasksTab clanId={clanId} isManager effects={effects} />);
  return { fx, user: userEvent.setup() };
}
