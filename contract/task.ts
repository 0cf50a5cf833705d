import * as v from 'valibot';
import { ID_MAX, jsonBodySchema } from './common';
import { TIERS, type Tier } from './game/tiers';
import { typedTextSchema, type TextField } from './text';
import { AutoRuleFieldSchema, AutoRuleShapeSchema } from './dink';

/** Task difficulties, easiest first: the game tiers (docs/game-rules.md §12 Task and 9). */
export const DIFFICULTIES = TIERS;
export type Difficulty = Tier;

/** Description limit after trimming, in characters (docs/server.md §4). */
export const TASK_DESCRIPTION_MAX = 500;
/** Largest accepted CSV file, in bytes: 1 MiB (docs/server.md §4). */
export const CSV_MAX_BYTES = 1024 * 1024;

/** Messages (docs/game-rules.md §13; docs/client.md §11; docs/server.md §4). */
export const TASK_REQUIRED = 'Description and Difficulty are required.';
export const TASK_DESCRIPTION_TOO_LONG = `Description must be at most ${TASK_DESCRIPTION_MAX} characters.`;
export const TASK_BAD_DIFFICULTY = `Difficulty must be one of ${TIERS.join(', ')}.`;
export const TASK_DUPLICATE = 'This task (same description and difficulty) is already in the clan pool.';
export const CSV_NO_FILE = 'No file selected for upload.';
export const CSV_BAD_NAME = 'Please select a valid .csv file.';
export const CSV_EMPTY = 'The CSV file is empty.';
export const CSV_TOO_LARGE = 'The CSV file is larger than 1 MiB.';
export const CSV_BAD_HEADER = 'The CSV header row must name a description column and a difficulty column.';
export const CSV_NOT_UTF8 = 'The CSV file must be UTF-8 text.';
export const CSV_NO_ROWS = 'The CSV file has a header but no task rows.';

/**
 * A difficulty typed by a person or read from a CSV cell, case-insensitively and trimmed:
 * ' easy ' → 'EASY'. Returns null when it is no tier.
 */
export function normalizeDifficulty(text: string): Difficulty | null {
  const up = text.trim().toUpperCase();
  return (TIERS as readonly string[]).includes(up) ? (up as Difficulty) : null;
}

/** Difficulty in a JSON body: one of the tiers, case-insensitively; answered upper-case. */
const DifficultySchema = v.pipe(
  v.string(TASK_REQUIRED),
  v.trim(),
  v.minLength(1, TASK_REQUIRED),
  v.toUpperCase(),
  v.picklist(TIERS, TASK_BAD_DIFFICULTY),
);

/** The description field for the text rule: multi-line, so line breaks are kept (docs/server.md §8). */
export const TASK_DESCRIPTION_FIELD: TextField = { label: 'Description', field: 'description', multiline: true };

/**
 * A task description: the text rule (contract/text.ts; line breaks allowed, other control
 * characters refused as 'Description (description) must not contain control characters.'),
 * then 1-500 characters. CSV rows apply the same rule (server/tasks/csv.ts).
 */
export const TaskDescriptionSchema = typedTextSchema({
  ...TASK_DESCRIPTION_FIELD,
  required: TASK_REQUIRED,
  max: TASK_DESCRIPTION_MAX,
  tooLong: TASK_DESCRIPTION_TOO_LONG,
});

/**
 * POST /api/clan/{clanId}/tasks and PUT /api/clan/{clanId}/tasks/{taskId} body (docs/server.md §3).
 * `auto_rule` (docs/server.md §13): a Dink rule or null; left out it is null on create and kept
 * as it was on edit.
 */
export const TaskBodySchema = jsonBodySchema({
  description: v.optional(TaskDescriptionSchema, ''),
  difficulty: v.optional(DifficultySchema, ''),
  auto_rule: v.optional(AutoRuleFieldSchema),
});
export type TaskBody = v.InferOutput<typeof TaskBodySchema>;

/** A pool task (docs/game-rules.md §12), with its Dink auto rule or null (docs/server.md §13). */
const TaskSchema = v.object({
  id: v.number(),
  description: v.string(),
  difficulty: v.picklist(TIERS),
  clan_id: v.number(),
  clan_name: v.string(),
  auto_rule: AutoRuleShapeSchema,
});
export type Task = v.InferOutput<typeof TaskSchema>;

/** GET /api/clan/{clanId}/tasks/ answer: the clan's whole pool, sorted by tier then description. */
export const TaskListAnswerSchema = v.object({ tasks: v.array(TaskSchema) });
/** POST and PUT task answer. */
export const TaskAnswerSchema = v.object({ task: TaskSchema });
/** DELETE one task answer. */
export const TaskDeletedAnswerSchema = v.object({ ok: v.literal(true) });
/** DELETE all tasks answer, with 'All clan tasks have been successfully deleted.' */
export const TasksClearedAnswerSchema = v.object({ ok: v.literal(true), deleted_count: v.number(), message: v.optional(v.string()) });

/**
 * One refused CSV record. `row` is the line of the file on which the record starts, counting
 * the header as line 1 (blank lines count too), so it matches an editor's line numbers.
 */
const CsvRowErrorSchema = v.object({ row: v.number(), message: v.string() });
export type CsvRowError = v.InferOutput<typeof CsvRowErrorSchema>;

/**
 * POST /api/clan/{clanId}/tasks/upload_csv answer (docs/server.md §4): new rows inserted,
 * duplicates (already in the pool or repeated in the file) skipped, bad rows listed by line.
 * `error_count` is the number of bad rows; `errors` lists at most CSV_MAX_LISTED_ERRORS of them.
 */
export const CsvUploadAnswerSchema = v.object({
  inserted_count: v.number(),
  skipped_count: v.number(),
  error_count: v.optional(v.number()),
  errors: v.array(CsvRowErrorSchema),
});
export type CsvUploadAnswer = v.InferOutput<typeof CsvUploadAnswerSchema>;
/** Most bad rows listed in one CSV answer (the count is always complete). */
export const CSV_MAX_LISTED_ERRORS = 100;

/** Success messages of docs/client.md §11. */
export const tasksImportedMessage = (n: number) => `Tasks extracted successfully! ${n} tasks imported/updated.`;
export const TASKS_CLEARED = 'All clan tasks have been successfully deleted.';

/**
 * The importer's message for an upload answer: the documented success text, then how many rows were
 * skipped as duplicates. Tone: success only when something was imported and no row had an error;
 * a warning otherwise (mixed results are not shown as a success).
 */
export function csvImportNotice(answer: CsvUploadAnswer): { tone: 'success' | 'warning'; text: string } {
  const errors = answer.error_count ?? answer.errors.length;
  const skipped = answer.skipped_count > 0 ? ` ${answer.skipped_count} skipped as duplicates (already in the pool or repeated in the file).` : '';
  const bad = errors > 0 ? ` ${errors} rows had errors.` : '';
  return { tone: answer.inserted_count > 0 && errors === 0 ? 'success' : 'warning', text: `${tasksImportedMessage(answer.inserted_count)}${skipped}${bad}` };
}

/** Most tasks one clan's pool holds (docs/server.md §8). */
export const TASK_POOL_MAX = 5000;
/** 409 of POST /api/clan/{clanId}/tasks and the CSV row error past TASK_POOL_MAX (docs/server.md §8). */
export const TASK_POOL_FULL = 'The task pool is full (5,000 tasks).';

/** Page size of GET /api/tasks/ without `?limit=` (docs/server.md §8). */
const TASK_PAGE_DEFAULT_LIMIT = 100;
/** Largest page of GET /api/tasks/: a larger `?limit=` gives this many (docs/server.md §8). */
const TASK_PAGE_MAX_LIMIT = 500;
/** Longest `?q=` of GET /api/tasks/, in UTF-16 code units like every other text limit. */
const TASK_SEARCH_MAX = 200;
/** 400 texts of GET /api/tasks/ (each names its parameter). */
export const TASK_PAGE_BAD_LIMIT = 'limit must be a whole number (0 or more).';
export const TASK_PAGE_BAD_OFFSET = 'offset must be a whole number (0 or more).';
export const TASK_SEARCH_CONTROL = 'q must not contain control characters.';
export const TASK_SEARCH_TOO_LONG = `q must be at most ${TASK_SEARCH_MAX} characters.`;

/** Decimal digits only: '0', '42', '007'; refuses '', '-1', '1.5', '1e3', '+2', ' 3'. */
const wholeNumber = (message: string) => v.pipe(v.string(message), v.regex(/^[0-9]+$/, message), v.transform(Number));

/**
 * GET /api/tasks/ query (docs/server.md §8), from the query-string strings:
 * - `limit`: page size, default 100; larger than 500 gives 500; 0 answers only `total`;
 * - `offset`: tasks skipped, default 0 (past 2^31 - 1 it is that, an empty page anyway);
 * - `q`: case-insensitive substring of the description or the clan name, taken literally (`%`
 *   and `_` are no wildcards), NFC-normalised; '' for none. At most 200 characters; no C0 or C1
 *   control characters (NUL included).
 * Each bad value fails with the 400 text naming its parameter.
 */
export const TaskPageQuerySchema = v.object({
  limit: v.optional(v.pipe(wholeNumber(TASK_PAGE_BAD_LIMIT), v.transform((n) => Math.min(n, TASK_PAGE_MAX_LIMIT))), String(TASK_PAGE_DEFAULT_LIMIT)),
  offset: v.optional(v.pipe(wholeNumber(TASK_PAGE_BAD_OFFSET), v.transform((n) => Math.min(n, ID_MAX))), '0'),
  q: v.optional(
    v.pipe(
      v.string(TASK_SEARCH_CONTROL),
      // eslint-disable-next-line no-control-regex
      v.regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, TASK_SEARCH_CONTROL),
      v.normalize('NFC'),
      v.maxLength(TASK_SEARCH_MAX, TASK_SEARCH_TOO_LONG),
    ),
    '',
  ),
});
/** A checked GET /api/tasks/ query: `{limit, offset, q}` with numbers (the client builds one too). */
export type TaskPageQuery = v.InferOutput<typeof TaskPageQuerySchema>;

/**
 * GET /api/tasks/ answer: one page of every clan's tasks in tier order (EASY..MASTER), then
 * description (code-point order on both databases), then id; `total` counts every task matching
 * `q` (all pages).
 */
export const TaskPageAnswerSchema = v.object({ tasks: v.array(TaskSchema), total: v.number() });
export type TaskPageAnswer = v.InferOutput<typeof TaskPageAnswerSchema>;
