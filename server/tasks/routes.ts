import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { routeBodyLimit } from '../http/bodyLimit';
import { uploadGate } from '../http/uploads';
import type { AppEnv } from '../http/context';
import { requireUser } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { conflict, forbidden } from '../errors';
import { recordAudit } from '../audit/service';
import { uniqueOrConflict } from '../db/uniqueKey';
import { countClanTasks, deleteClanTasks, deleteTask, findTask, insertTask, listClanTasks, listTaskPage, lockClanPool, sameTask, updateTask } from './repository';
import { importTaskCsv, readCsvUpload } from './service';
import { ruleMetricError } from './womMetrics';
import {
  CSV_MAX_BYTES,
  CSV_TOO_LARGE,
  TASK_DUPLICATE,
  TASK_POOL_FULL,
  TASK_POOL_MAX,
  TASKS_CLEARED,
  CsvUploadAnswerSchema,
  TaskAnswerSchema,
  TaskBodySchema,
  TaskDeletedAnswerSchema,
  TaskListAnswerSchema,
  TaskPageAnswerSchema,
  TaskPageQuerySchema,
  TasksClearedAnswerSchema,
} from '../../contract/task';
import { isManagerRole } from '../../contract/user';

/** The path ids: 400 'Invalid clan id.' / 'Invalid task id.' when malformed. */
const CLAN_ID = ids({ clanId: 'clan id' });
const TASK_IDS = ids({ clanId: 'clan id', taskId: 'task id' });
/**
 * The task body with the Wise Old Man names of its rule checked (docs/server.md §17 Rules): a name
 * that is not a metric of the rule's kind is a 400 naming it, like the body's other fields. The
 * metric lists live server-side (server/tasks/womMetrics.ts), so this refinement is not in contract/.
 */
const TaskBody = named(
  'TaskBody',
  v.pipe(
    TaskBodySchema,
    v.rawCheck(({ dataset, addIssue }) => {
      const message = dataset.typed ? ruleMetricError(dataset.value.auto_rule) : null;
      if (message !== null) addIssue({ message });
    }),
  ),
);
const TaskAnswer = named('TaskAnswer', TaskAnswerSchema);

/**
 * The path's task for a manager of the path's clan, checked in this order: 401 signed out, 400
 * bad ids, 404 missing clan / 403 non-manager, 404 'Task ID {id} not found.' (also another clan's).
 */
async function managedTask(c: Context<AppEnv, string, { out: { param: { clanId: number; taskId: number } } }>) {
  const { user, clanId, taskId, db } = await clanScope(c, 'manager');
  const task = await findTask(db, clanId, taskId);
  return { user, db, clanId, taskId, task };
}

/** Room for the multipart envelope around a 1 MiB file, in bytes. */
const MULTIPART_SLACK = 16 * 1024;
/**
 * The clan task pool (docs/game-rules.md §11, §12, §13; docs/server.md §3; docs/server.md
 * §4). Members read, managers (Owner, Admin) change; 401 signed out, 403 non-member or
 * non-manager, 404 'Clan ID {id} not found.', 404 'Task ID {id} not found.' (also for another
 * clan's task), 400 bad ids or bodies. Every path also answers with a trailing slash.
 * - GET /clan/{clanId}/tasks/ → {tasks: [{id, description, difficulty, clan_id, clan_name}]}, by tier then description
 * - GET /tasks/?limit&offset&q → {tasks, total}: one page of every clan's tasks (docs/server.md
 *   §8; see TaskPageQuerySchema and listTaskPage): limit default 100, above 500
 *   gives 500; offset default 0; q a case-insensitive literal substring of description or clan
 *   name; 400 naming the parameter for a limit or offset that is no whole number, a q with control
 *   characters or over 200 characters. Only for a manager of at least one clan (else 403).
 * - POST /clan/{clanId}/tasks {description, difficulty} → {task}; 400 'Description and Difficulty
 *   are required.', description trimmed 1-500, difficulty a tier (any case); 409 for a pair already
 *   in the pool; 409 'The task pool is full (5,000 tasks).' when the pool holds 5,000 tasks
 * - PUT /clan/{clanId}/tasks/{taskId} same body → {task}; 409 when it would equal another task
 * - DELETE /clan/{clanId}/tasks/{taskId} → {ok: true}
 * - DELETE /clan/{clanId}/tasks/ → {ok: true, deleted_count, message}
 * - POST /clan/{clanId}/tasks/upload_csv multipart field `file` → {inserted_count, skipped_count,
 *   error_count, errors: [{row, message}]} (see importTaskCsv, readCsvUpload); rows past the 5,000
 *   task cap are row errors 'The task pool is full (5,000 tasks).'; 413 over 1 MiB; 503 with
 *   Retry-After after 10 s waiting for an upload slot (docs/server.md §8)
 */
export function taskRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/tasks',
    describe({ tag: 'tasks', access: 'signed-in', summary: "One page of every clan's tasks (managers of at least one clan).", answer: named('TaskPageAnswer', TaskPageAnswerSchema) }),
    input('query', TaskPageQuerySchema, {
      about: {
        limit: 'Page size, default 100, at most 500 (larger gives 500).',
        offset: 'Tasks to skip, default 0.',
        q: 'A case-insensitive substring of the description or the clan name.',
      },
    }),
    async (c) => {
      const user = requireUser(c);
      const { db, dialect } = c.get('deps');
      const roles = await db.selectFrom('clan_memberships').select('role').where('user_id', '=', user.id).execute();
      if (!roles.some((r) => isManagerRole(r.role))) throw forbidden('Permission denied. Only clan Owners and Admins can see other clans\' tasks.');
      return c.json(await listTaskPage(db, dialect, valid(c, 'query')));
    },
  );

  app.post(
    '/clan/:clanId/tasks/upload_csv',
    describe({
      tag: 'tasks', access: 'manager',
      summary: 'Imports tasks from a CSV file (description,difficulty); 413 over 1 MiB; 503 with Retry-After after 10 s waiting for an upload slot.',
      multipart: { fields: { file: { type: 'string', contentMediaType: 'text/csv', description: 'The CSV file, at most 1 MiB.' } }, required: ['file'] },
      answer: named('CsvUploadAnswer', CsvUploadAnswerSchema),
    }),
    input('param', CLAN_ID),
    async (c, next) => {
      await clanScope(c, 'manager');
      await next();
    },
    uploadGate(CSV_MAX_BYTES + MULTIPART_SLACK),
    routeBodyLimit(CSV_MAX_BYTES + MULTIPART_SLACK, CSV_TOO_LARGE),
    async (c) => {
      const { clanId } = valid(c, 'param');
      const text = await readCsvUpload(c);
      const { db, dialect } = c.get('deps');
      const answer = await db.transaction().execute(async (trx) => {
        const imported = await importTaskCsv(trx, dialect, clanId, text);
        await recordAudit(trx, clanId, requireUser(c).id, 'tasks.import', 'Task pool', `${imported.inserted_count} added, ${imported.skipped_count} skipped`);
        return imported;
      });
      return c.json(answer);
    },
  );

  app.get(
    '/clan/:clanId/tasks',
    describe({ tag: 'tasks', access: 'member', summary: "The clan's task pool by tier, then description.", answer: named('TaskListAnswer', TaskListAnswerSchema) }),
    input('param', CLAN_ID),
    async (c) => {
      const { clanId, db } = await clanScope(c, 'member');
      return c.json({ tasks: await listClanTasks(db, clanId) });
    },
  );

  app.post(
    '/clan/:clanId/tasks',
    describe({ tag: 'tasks', access: 'manager', summary: 'Adds a task (409 for a duplicate or a full pool of 5,000).', answer: TaskAnswer }),
    input('param', CLAN_ID),
    input('json', TaskBody),
    async (c) => {
      const { user, clanId, db, deps } = await clanScope(c, 'manager');
      const body = valid(c, 'json');
      const taskId = await db.transaction().execute(async (trx) => {
        await lockClanPool(trx, deps.dialect, clanId);
        if ((await countClanTasks(trx, clanId)) >= TASK_POOL_MAX) throw conflict(TASK_POOL_FULL);
        const id = await insertTask(trx, clanId, body);
        if (id !== null) await recordAudit(trx, clanId, user.id, 'task.create', body.description, `Tier: ${body.difficulty}`);
        return id;
      });
      if (taskId === null) throw conflict(TASK_DUPLICATE);
      return c.json({ task: await findTask(db, clanId, taskId) });
    },
  );

  app.delete(
    '/clan/:clanId/tasks',
    describe({ tag: 'tasks', access: 'manager', summary: "Clears the clan's task pool.", answer: named('TasksClearedAnswer', TasksClearedAnswerSchema) }),
    input('param', CLAN_ID),
    async (c) => {
      const { user, clanId, db } = await clanScope(c, 'manager');
      const deleted = await deleteClanTasks(db, clanId);
      await recordAudit(db, clanId, user.id, 'tasks.delete_all', 'Task pool', `${deleted} tasks deleted`);
      return c.json({ ok: true as const, deleted_count: deleted, message: TASKS_CLEARED });
    },
  );

  app.put(
    '/clan/:clanId/tasks/:taskId',
    describe({ tag: 'tasks', access: 'manager', summary: 'Changes a task.', answer: TaskAnswer }),
    input('param', TASK_IDS),
    input('json', TaskBody),
    async (c) => {
      const { user, db, clanId, taskId, task } = await managedTask(c);
      const body = valid(c, 'json');
      if (await sameTask(db, clanId, body.description, body.difficulty, taskId)) throw conflict(TASK_DUPLICATE);
      await uniqueOrConflict(TASK_DUPLICATE, () => updateTask(db, taskId, body.description, body.difficulty, body.auto_rule));
      await recordAudit(db, clanId, user.id, 'task.update', body.description, task.description === body.description ? `Tier: ${body.difficulty}` : `Was: ${task.description}`);
      return c.json({ task: await findTask(db, clanId, taskId) });
    },
  );

  app.delete(
    '/clan/:clanId/tasks/:taskId',
    describe({ tag: 'tasks', access: 'manager', summary: 'Deletes a task.', answer: named('TaskDeletedAnswer', TaskDeletedAnswerSchema) }),
    input('param', TASK_IDS),
    async (c) => {
      const { user, db, clanId, taskId, task } = await managedTask(c);
      await deleteTask(db, taskId);
      await recordAudit(db, clanId, user.id, 'task.delete', task.description, `Tier: ${task.difficulty}`);
      return c.json({ ok: true as const });
    },
  );

  return app;
}
