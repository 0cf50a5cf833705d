import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import type { Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { ApiError, badRequest } from '../errors';
import { readUploadForm } from '../http/uploads';
import { insertTasks, lockClanPool, pairKey, poolKeys } from './repository';
import { parseTaskCsv } from './csv';
import {
  CSV_BAD_NAME,
  CSV_EMPTY,
  CSV_MAX_BYTES,
  CSV_MAX_LISTED_ERRORS,
  CSV_NO_FILE,
  CSV_NOT_UTF8,
  CSV_TOO_LARGE,
  TASK_POOL_FULL,
  TASK_POOL_MAX,
  type CsvRowError,
  type CsvUploadAnswer,
} from '../../contract/task';

/**
 * The text of the `file` field of a multipart upload (docs/server.md §4), read as it arrives
 * (server/http/uploads.ts, docs/server.md §8) and checked in this order: 400 CSV_NO_FILE without a
 * file field (or with a plain text field), 400 CSV_BAD_NAME unless the name ends in .csv (any
 * case), 413 CSV_TOO_LARGE over 1 MiB, 400 CSV_EMPTY for 0 bytes, 400 CSV_NOT_UTF8 for bytes that
 * are not UTF-8. A leading BOM is dropped. The route's bodyLimit middleware has already refused
 * bodies far over the limit, and its uploadGate holds a slot.
 */
export async function readCsvUpload(c: Context<AppEnv>): Promise<string> {
  const form = await readUploadForm(c, CSV_MAX_BYTES);
  if (!form) throw badRequest('The upload must be a multipart/form-data body with a file field.');
  const f = form.files.file;
  if (!f) throw badRequest(CSV_NO_FILE);
  if (!f.filename || !f.filename.toLowerCase().endsWith('.csv')) throw badRequest(CSV_BAD_NAME);
  if (f.size > CSV_MAX_BYTES || !f.bytes) throw new ApiError(413, CSV_TOO_LARGE);
  if (f.size === 0) throw badRequest(CSV_EMPTY);
  const bytes = f.bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest(CSV_NOT_UTF8);
  }
}

/**
 * Imports task CSV text into a clan's pool (docs/server.md §4, §8): good rows
 * are inserted, pairs already in the pool or repeated in the file are skipped and counted, bad
 * rows are listed by line. The pool holds at most TASK_POOL_MAX (5,000) tasks: the new rows, in
 * file order, are inserted up to it and each one past it is a row error TASK_POOL_FULL (skipped
 * rows take no room). `errors` is in line order, at most CSV_MAX_LISTED_ERRORS of them;
 * `error_count` counts them all. Run inside a transaction: the pool is locked (lockClanPool) and
 * counted in it, so concurrent imports and creates cannot pass the cap together.
 * Raises 400 for file-level problems (see parseTaskCsv).
 */
export async function importTaskCsv(db: Db, dialect: Dialect, clanId: number, text: string): Promise<CsvUploadAnswer> {
  const { tasks, errors } = parseTaskCsv(text);
  await lockClanPool(db, dialect, clanId);
  const seen = await poolKeys(db, clanId);
  // The pairs are unique in a clan, so the pool holds exactly as many tasks as `seen` has keys.
  let room = Math.max(0, TASK_POOL_MAX - seen.size);
  const fresh: typeof tasks = [];
  const refused: CsvRowError[] = [...errors];
  let skipped = 0;
  for (const t of tasks) {
    const key = pairKey(t.description, t.difficulty);
    if (seen.has(key)) {
      skipped++;
      continue;
    }
    seen.add(key);
    if (room === 0) {
      refused.push({ row: t.row, message: TASK_POOL_FULL });
      continue;
    }
    room--;
    fresh.push(t);
  }
  const inserted = await insertTasks(db, clanId, fresh);
  skipped += fresh.length - inserted;
  refused.sort((a, b) => a.row - b.row);
  return {
    inserted_count: inserted,
    skipped_count: skipped,
    error_count: refused.length,
    errors: refused.slice(0, CSV_MAX_LISTED_ERRORS),
  };
}
