import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from './migrations/helpers';

/**
 * `value` with LIKE's wildcards `%` and `_` and the escape character `\` escaped, for
 * `LIKE ... ESCAPE '\'`: 'a%b_c\\' → 'a\\%b\\_c\\\\'. So a search matches them literally.
 */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Where the typed text stands in a pattern: anywhere in the column, or at its start. */
export type LikeShape = 'contains' | 'prefix';

/**
 * The SQL condition "column `column` (a trusted `table.column` reference) contains, or starts
 * with, `text`", case-insensitively and with `text` taken literally, alike on both databases.
 * PostgreSQL: ILIKE (case folding of the database's locale, Unicode under a UTF-8 one). SQLite:
 * its LIKE folds ASCII only, so a `text` beyond ASCII is compared lower-cased on both sides with
 * `unicode_lower` (JavaScript's toLowerCase, registered in server/db/connect.ts).
 */
export function likeFolded(dialect: Dialect, column: string, text: string, shape: LikeShape): Expression<SqlBool> {
  const ref = sql.ref(column);
  const pattern = (t: string) => (shape === 'contains' ? `%${escapeLike(t)}%` : `${escapeLike(t)}%`);
  if (dialect === 'postgres') return sql<SqlBool>`(${ref} ilike ${pattern(text)} escape '\\')`;
  if (/^[\x00-\x7f]*$/.test(text)) return sql<SqlBool>`(${ref} like ${pattern(text)} escape '\\')`;
  return sql<SqlBool>`(unicode_lower(${ref}) like ${pattern(text.toLowerCase())} escape '\\')`;
}
