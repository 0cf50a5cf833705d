import { request } from './client';
import {
  CsvUploadAnswerSchema,
  TaskAnswerSchema,
  TaskDeletedAnswerSchema,
  TaskListAnswerSchema,
  TaskPageAnswerSchema,
  TasksClearedAnswerSchema,
  type CsvUploadAnswer,
  type Task,
  type TaskBody,
  type TaskPageAnswer,
  type TaskPageQuery,
} from '../../contract/task';

const base = (clanId: number) => `clan/${clanId}/tasks`;

/**
 * GET /api/clan/{clanId}/tasks/ → the clan's pool tasks (docs/server.md §3).
 * Fallback 'Failed to load current tasks. Check console for details.' (docs/client.md §11).
 */
export async function fetchClanTasks(clanId: number): Promise<Task[]> {
  return (await request(TaskListAnswerSchema, (h) => h.get(`${base(clanId)}/`), 'Failed to load current tasks. Check console for details.')).tasks;
}

/**
 * GET /api/tasks/?limit&offset&q → one page of every clan's tasks and the count of all matching
 * ones, `{tasks, total}` (managers, 'Show Other Clan Tasks' on; docs/server.md §8 Task
 * pool): `limit` rows (the server gives at most 500) from `offset`, `q` a case-insensitive
 * substring of description or clan name ('' = all, not sent). `signal` aborts the call (a newer
 * page replaced it). Fallback 'Failed to load current tasks. Check console for details.'
 */
export function fetchTaskPage(query: TaskPageQuery, signal?: AbortSignal): Promise<TaskPageAnswer> {
  const searchParams: Record<string, string | number> = { limit: query.limit, offset: query.offset };
  if (query.q) searchParams.q = query.q;
  return request(TaskPageAnswerSchema, (h) => h.get('tasks/', { searchParams, signal }), 'Failed to load current tasks. Check console for details.');
}

/** POST /api/clan/{clanId}/tasks {description, difficulty} → the task. Fallback 'Failed to create task. Check form data.' */
export async function createTask(clanId: number, body: TaskBody): Promise<Task> {
  return (await request(TaskAnswerSchema, (h) => h.post(base(clanId), { json: body }), 'Failed to create task. Check form data.')).task;
}

/** PUT /api/clan/{clanId}/tasks/{taskId} {description, difficulty} → the task. Fallback 'Failed to update task.' */
export async function updateTask(clanId: number, taskId: number, body: TaskBody): Promise<Task> {
  return (await request(TaskAnswerSchema, (h) => h.put(`${base(clanId)}/${taskId}`, { json: body }), 'Failed to update task.')).task;
}

/** DELETE /api/clan/{clanId}/tasks/{taskId}. Fallback 'Failed to delete task.' */
export async function deleteTask(clanId: number, taskId: number): Promise<void> {
  await request(TaskDeletedAnswerSchema, (h) => h.delete(`${base(clanId)}/${taskId}`), 'Failed to delete task.');
}

/** DELETE /api/clan/{clanId}/tasks/ → {deleted_count, message}. Fallback 'Failed to delete tasks. Check permissions.' */
export function deleteAllTasks(clanId: number): Promise<{ ok: true; deleted_count: number; message?: string }> {
  return request(TasksClearedAnswerSchema, (h) => h.delete(`${base(clanId)}/`), 'Failed to delete tasks. Check permissions.');
}

/**
 * POST /api/clan/{clanId}/tasks/upload_csv, multipart field `file` → {inserted_count,
 * skipped_count, error_count?, errors: [{row, message}]}. Fallback 'Failed to extract tasks. Check
 * file format and permissions.'
 */
export function uploadTaskCsv(clanId: number, file: File): Promise<CsvUploadAnswer> {
  const form = new FormData();
  form.append('file', file, file.name);
  return request(CsvUploadAnswerSchema, (h) => h.post(`${base(clanId)}/upload_csv`, { body: form }), 'Failed to extract tasks. Check file format and permissions.');
}
