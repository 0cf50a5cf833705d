/**
 * The named columns of a database row, copied as they are stored: the part of a row-to-answer
 * mapper (docs/server.md §2 answer shapes) that needs no conversion, so each mapper spells out
 * only the columns it converts (booleans stored as 0/1, nulls defaulted, joined names).
 */
export function columns<R, K extends keyof R>(row: R, keys: readonly K[]): Pick<R, K> {
  return Object.fromEntries(keys.map((k) => [k, row[k]])) as Pick<R, K>;
}
