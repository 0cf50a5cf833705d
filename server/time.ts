/**
 * Current time as an ISO-8601 string (UTC, ms precision), the one time format stored in both
 * databases (docs/server.md §7). Its own module so the many stores that stamp rows need not load
 * the database opener (db/connect.ts).
 */
export function nowIso(): string {
  return new Date().toISOString();
}
