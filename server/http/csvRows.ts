import { parse } from 'csv-parse/sync';
import { badRequest } from '../errors';

/** One non-blank record of a CSV file and the line of the file where it starts (1-based). */
export interface CsvRow {
  cells: string[];
  line: number;
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * Line numbers (1-based) of byte offsets in `buf`, asked in increasing order: CRLF, LF and a lone
 * CR each end one line. Linear over the whole file.
 */
function lineCounter(buf: Buffer): (offset: number) => number {
  let pos = 0;
  let line = 1;
  return (offset: number) => {
    for (; pos < offset; pos++) {
      if (buf[pos] === LF || (buf[pos] === CR && buf[pos + 1] !== LF)) line++;
    }
    return line;
  };
}

/**
 * The records of CSV text (docs/server.md §4, §16), read with csv-parse: UTF-8 with or without
 * BOM, LF or CRLF, quoted fields with commas, line breaks and doubled quotes, quotes inside
 * unquoted fields taken literally, blank (or all-blank) records skipped, rows with missing or
 * extra cells read as far as they go. Each record carries the file line where it starts (blank
 * lines counted), so row errors can name it. Raises 400 'The CSV file is malformed: ...' for CSV
 * that does not parse (such as an unclosed quote).
 */
export function readCsvRows(text: string): CsvRow[] {
  // Parse bytes so csv-parse's `info.bytes` (offset after each record) indexes `buf` directly.
  const buf = Buffer.from(text.startsWith('\uFEFF') ? text.slice(1) : text, 'utf8');
  let records: { record: string[]; info: { bytes: number } }[];
  try {
    records = parse(buf, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
    }) as unknown as { record: string[]; info: { bytes: number } }[];
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw badRequest(`The CSV file is malformed: ${detail}`);
  }
  const lineOf = lineCounter(buf);
  let prevEnd = 0;
  const rows: CsvRow[] = [];
  for (const r of records) {
    // A record starts after the previous one's delimiter and any skipped blank lines.
    let start = prevEnd;
    while (start < buf.length && (buf[start] === CR || buf[start] === LF)) start++;
    prevEnd = r.info.bytes;
    if (r.record.every((cell) => cell.trim() === '')) continue;
    rows.push({ cells: r.record, line: lineOf(start) });
  }
  return rows;
}
