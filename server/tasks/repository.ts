import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { likeFolded } from '../db/like';
import { nowIso } from '../time';
import { notFound } from '../errors';
import type { Difficulty, Task, TaskPageAnswer, TaskPageQuery } from '../../contract/task';
import { TIERS } from '../../contract/game/tiers';
import * as v from 'valibot';
import { AutoRuleSchema, type AutoRule } from '../../contract/dink';

function tasksQuery(db: Db) {
  return db.selectFrom('tasks')
    .innerJoin('clans', 'clans.id', 'tasks.clan_id')
    .select(['tasks.id', 'tasks.description', 'tasks.difficulty', 'tasks.clan_id', 'clans.name as clan_name', 'tasks.auto_rule']);
}

/** A stored auto rule (JSON text, docs/server.md §13) as the task shape's `auto_rule`; null when none or unreadable. */
export function parseStoredRule(text: string | null): AutoRule | null {
  if (text === null) return null;
  try {
    const parsed = v.safeParse(AutoRuleSchema, JSON.parse(text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** A selected row as the contract's Task (its rule parsed). */
function toTask(r: { id: number; description: string; difficulty: string; clan_id: number; clan_name: string; auto_rule: string | null }): Task {
  return { id: r.id, description: r.description, difficulty: r.difficulty as Difficulty, clan_id: r.clan_id, clan_name: r.clan_name, auto_rule: parseStoredRule(r.auto_rule) };
}

/** A rule as stored: JSON text, or null. */
const storedRule = (rule: AutoRule | null | undefined): string | null =>
  rule ? JSON.stringify({ type: rule.type, names: rule.names, min: rule.min, team_total: rule.team_total, distinct: rule.distinct }) : null;

/** Position of a stored difficulty in tier order; anything unknown sorts last. */
function rank(difficulty: string): number {
  const i = (TIERS as readonly string[]).indexOf(difficulty);
  return i < 0 ? TIERS.length : i;
}

/** Tier order, then description (code-unit order, the same on both databases), then id. */
function byTierThenDescription(a: Task, b: Task): number {
  return rank(a.difficulty) - rank(b.difficulty) || (a.description < b.description ? -1 : a.description > b.description ? 1 : 0) || a.id - b.id;
}

/** The task pool of one clan (docs/game-rules.md §12), sorted by tier then description. */
export async function listClanTasks(db: Db, clanId: number): Promise<Task[]> {
  const rows = await tasksQuery(db).where('tasks.clan_id', '=', clanId).execute();
  return rows.map(toTask).sort(byTierThenDescription);
}

/**
 * Position of `tasks.difficulty` in tier order in SQL: EASY 0 ... MASTER 4, anything else 5. The
 * text must stay the expression of the index `tasks_pool_order_idx` (migration 006_task_pool), so
 * both databases read pages in order from the index instead of sorting every row.
 */
const TIER_RANK_SQL = sql<number>`(case tasks.difficulty when 'EASY' then 0 when 'MEDIUM' then 1 when 'HARD' then 2 when 'ELITE' then 3 when 'MASTER' then 4 else 5 end)`;

/**
 * The SQL condition "description or clan name contains `q`, case-insensitively", `q` taken
 * literally, alike on both databases (likeFolded, server/db/like.ts).
 */
function matchesSearch(dialect: Dialect, q: string): Expression<SqlBool> {
  return sql<SqlBool>`(${likeFolded(dialect, 'tasks.description', q, 'contains')} or ${likeFolded(dialect, 'clans.name', q, 'contains')})`;
}

/**
 * One page of every clan's tasks for GET /api/tasks/ (docs/server.md §8): the
 * tasks whose description or clan name contains `q` (case-insensitive, literal; '' = all), in tier
 * order, then description (code-point order: COLLATE "C" on PostgreSQL, SQLite's binary order),
 * then id; `limit` rows from `offset` (limit 0: none), and `total`, the count of every matching
 * task. Paging, search and count run in SQL (on PostgreSQL the page and the count at once); no
 * call reads more than `limit` rows into the server.
 */
export async function listTaskPage(db: Db, dialect: Dialect, query: TaskPageQuery): Promise<TaskPageAnswer> {
  const search = query.q ? matchesSearch(dialect, query.q) : null;
  // With a search, SQLite is kept off the order index (`+ 0` is not its expression): walking the
  // index and looking up each task costs seconds for a rare match, filtering then sorting does not.
  const rank = search && dialect === 'sqlite' ? sql<number>`(${TIER_RANK_SQL} + 0)` : TIER_RANK_SQL;
  const description = dialect === 'postgres' ? sql`tasks.description collate "C"` : sql`tasks.description`;
  const page = async (): Promise<Task[]> => {
    if (query.limit === 0) return [];
    let q = tasksQuery(db);
    if (search) q = q.where(search);
    return (await q.orderBy(rank).orderBy(description).orderBy('tasks.id').limit(query.limit).offset(query.offset).execute()).map(toTask);
  };
  // Without a search every task counts (each belongs to a clan: clan_id is a non-null foreign key).
  const count = async (): Promise<number> => {
    const row = search
      ? await db.selectFrom('tasks').innerJoin('clans', 'clans.id', 'tasks.clan_id').where(search).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      : await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const [tasks, total] = await Promise.all([page(), count()]);
  return { tasks, total };
}

/**
 * Serializes changes to one clan's task pool inside a transaction, so the TASK_POOL_MAX check and
 * the insert after it are not raced: `SELECT … FOR NO KEY UPDATE` on the clan row in PostgreSQL
 * (it does not block foreign-key checks of other tables). SQLite needs nothing: Kysely runs its
 * transactions one at a time on the one connection.
 */
export async function lockClanPool(trx: Db, dialect: Dialect, clanId: number): Promise<void> {
  if (dialect === 'postgres') {
    await trx.selectFrom('clans').select('id').where('id', '=', clanId).forNoKeyUpdate().execute();
  }
}

/** How many tasks the clan's pool holds. */
export async function countClanTasks(db: Db, clanId: number): Promise<number> {
  const row = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('clan_id', '=', clanId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Task `taskId` of clan `clanId`; 404 'Task ID {id} not found.' when missing or of another clan. */
export async function findTask(db: Db, clanId: number, taskId: number): Promise<Task> {
  const row = await tasksQuery(db).where('tasks.id', '=', taskId).where('tasks.clan_id', '=', clanId).executeTakeFirst();
  if (!row) throw notFound(`Task ID ${taskId} not found.`);
  return toTask(row);
}

/** The id of the clan's task with exactly this description and difficulty, other than `exceptId`, or null. */
export async function sameTask(db: Db, clanId: number, description: string, difficulty: Difficulty, exceptId?: number): Promise<number | null> {
  let q = db.selectFrom('tasks').select('id').where('clan_id', '=', clanId).where('description', '=', description).where('difficulty', '=', difficulty);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const row = await q.executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Inserts tasks of a clan, skipping any (description, difficulty) pair already in the pool, also
 * one added concurrently (ON CONFLICT DO NOTHING on the unique pair). Inserts in chunks of 200
 * rows. Returns how many were inserted.
 */
export async function insertTasks(db: Db, clanId: number, tasks: { description: string; difficulty: Difficulty; auto_rule?: AutoRule | null }[]): Promise<number> {
  let inserted = 0;
  const now = nowIso();
  for (let i = 0; i < tasks.length; i += 200) {
    const chunk = tasks.slice(i, i + 200).map((t) => ({ clan_id: clanId, description: t.description, difficulty: t.difficulty, auto_rule: storedRule(t.auto_rule), created_at: now }));
    const rows = await db.insertInto('tasks')
      .values(chunk)
      .onConflict((oc) => oc.columns(['clan_id', 'description', 'difficulty']).doNothing())
      .returning('id')
      .execute();
    inserted += rows.length;
  }
  return inserted;
}

/** Inserts one task; returns its id, or null when the pair is already in the clan's pool. */
export async function insertTask(db: Db, clanId: number, task: { description: string; difficulty: Difficulty; auto_rule?: AutoRule | null }): Promise<number | null> {
  const row = await db.insertInto('tasks')
    .values({ clan_id: clanId, description: task.description, difficulty: task.difficulty, auto_rule: storedRule(task.auto_rule), created_at: nowIso() })
    .onConflict((oc) => oc.columns(['clan_id', 'description', 'difficulty']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The (description, difficulty) pairs of a clan's pool, as `pairKey` strings. */
export async function poolKeys(db: Db, clanId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('tasks').select(['description', 'difficulty']).where('clan_id', '=', clanId).execute();
  return new Set(rows.map((r) => pairKey(r.description, r.difficulty)));
}

/** Key of a task's uniqueness pair within a clan. */
export function pairKey(description: string, difficulty: string): string {
  return `${difficulty}\u0000${description}`;
}

/** Overwrites a task's description and difficulty, and its auto rule unless `autoRule` is undefined (kept). */
export async function updateTask(db: Db, taskId: number, description: string, difficulty: Difficulty, autoRule?: AutoRule | null): Promise<void> {
  const set = autoRule === undefined ? { description, difficulty } : { description, difficulty, auto_rule: storedRule(autoRule) };
  await db.updateTable('tasks').set(set).where('id', '=', taskId).execute();
}

/** Deletes one task. Board squares keep their copied text (they hold no foreign key to the pool). */
export async function deleteTask(db: Db, taskId: number): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', taskId).execute();
}

/** Deletes every task of a clan; returns how many. */
export async function deleteClanTasks(db: Db, clanId: number): Promise<number> {
  const rows = await db.deleteFrom('tasks').where('clan_id', '=', clanId).returning('id').execute();
  return rows.length;
}
