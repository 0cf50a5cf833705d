import { badRequest } from '../errors';
import { readCsvRows } from '../http/csvRows';
import {
  CSV_BAD_HEADER,
  CSV_EMPTY,
  CSV_NO_ROWS,
  DIFFICULTIES,
  TASK_DESCRIPTION_FIELD,
  TASK_DESCRIPTION_MAX,
  TASK_DESCRIPTION_TOO_LONG,
  normalizeDifficulty,
  type CsvRowError,
  type Difficulty,
} from '../../contract/task';
import { applyTextRule } from '../../contract/text';
import { autoRuleFromCells, type AutoRule } from '../../contract/dink';
import { ruleMetricError } from './womMetrics';

/** A good CSV record: its line in the file, description after the text rule, upper-case difficulty, Dink rule or null. */
interface CsvTask {
  row: number;
  description: string;
  difficulty: Difficulty;
  auto_rule: AutoRule | null;
}

/** The good records and the refused ones of a task CSV. */
export interface ParsedTaskCsv {
  tasks: CsvTask[];
  errors: CsvRowError[];
}

/**
 * Reads task CSV text (docs/server.md §4) with readCsvRows (server/http/csvRows.ts): a header row naming
 * `description` and `difficulty` in any column order (case-insensitive, trimmed; other columns
 * ignored; the optional `auto_type`, `auto_names` (separated by `|`), `auto_min`, `auto_total` and
 * `auto_distinct` (`true` or `false`, blank false) columns give the task's auto rule,
 * docs/server.md §13 and §17 Rules), UTF-8 with or without BOM, LF or CRLF, quoted fields with commas, line breaks and
 * doubled quotes, quotes inside unquoted fields taken literally, blank (or all-blank) lines
 * skipped, rows with missing or extra cells read as far as they go. Descriptions go through the
 * text rule of JSON bodies (contract/text.ts: control characters other than line breaks refused,
 * zero-width and bidi controls removed, NFC, trimmed); difficulty is trimmed and case-insensitive.
 *
 * A bad record (no description, a control character in it, no or unknown difficulty, description
 * over 500 characters, an auto rule that breaks contract/dink.ts AutoRuleSchema or names no Wise Old
 * Man metric of its kind) is returned in `errors` with `row` = the file line where the record starts
 * (header = line 1, blank lines counted) and never stops the good ones.
 *
 * Raises 400 for a file-level problem: malformed CSV (such as an unclosed quote), no content,
 * a header without both columns, or a header with no data rows.
 */
export function parseTaskCsv(text: string): ParsedTaskCsv {
  const rows = readCsvRows(text);
  if (rows.length === 0) throw badRequest(CSV_EMPTY);

  const header = rows[0].cells.map((h) => h.trim().toLowerCase());
  const descCol = header.indexOf('description');
  const diffCol = header.indexOf('difficulty');
  if (descCol < 0 || diffCol < 0) throw badRequest(CSV_BAD_HEADER);
  if (header.lastIndexOf('description') !== descCol || header.lastIndexOf('difficulty') !== diffCol) {
    throw badRequest('The CSV header names the description or difficulty column more than once.');
  }
  if (rows.length === 1) throw badRequest(CSV_NO_ROWS);
  const autoTypeCol = header.indexOf('auto_type');
  const autoNamesCol = header.indexOf('auto_names');
  const autoMinCol = header.indexOf('auto_min');
  const autoTotalCol = header.indexOf('auto_total');
  const autoDistinctCol = header.indexOf('auto_distinct');
  const cell = (cells: string[], col: number) => (col < 0 ? '' : (cells[col] ?? ''));

  const tasks: CsvTask[] = [];
  const errors: CsvRowError[] = [];
  for (const { cells, line } of rows.slice(1)) {
    const text = applyTextRule(cells[descCol] ?? '', TASK_DESCRIPTION_FIELD);
    const description = text.ok ? text.value : '';
    const rawDifficulty = (cells[diffCol] ?? '').trim();
    const difficulty = normalizeDifficulty(rawDifficulty);
    const problems: string[] = [];
    if (!text.ok) problems.push(text.message);
    else if (!description) problems.push('Description is required.');
    else if (description.length > TASK_DESCRIPTION_MAX) problems.push(TASK_DESCRIPTION_TOO_LONG);
    if (!rawDifficulty) problems.push('Difficulty is required.');
    else if (!difficulty) problems.push(`Difficulty '${rawDifficulty.slice(0, 40)}' is not one of ${DIFFICULTIES.join(', ')}.`);
    const rule = autoRuleFromCells(cell(cells, autoTypeCol), cell(cells, autoNamesCol), cell(cells, autoMinCol), cell(cells, autoTotalCol), cell(cells, autoDistinctCol));
    const metricError = rule.ok ? ruleMetricError(rule.rule) : null;
    if (!rule.ok) problems.push(rule.message);
    else if (metricError !== null) problems.push(metricError);
    if (problems.length > 0 || !difficulty || !rule.ok || metricError !== null) errors.push({ row: line, message: problems.join(' ') });
    else tasks.push({ row: line, description, difficulty, auto_rule: rule.rule });
  }
  return { tasks, errors };
}
