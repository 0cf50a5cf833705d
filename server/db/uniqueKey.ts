import { conflict } from '../errors';

/**
 * True when `err` is a unique-constraint violation of PostgreSQL (23505) or SQLite
 * (SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY): a lost race between two writes of
 * one key. `app.onError` answers it 409 (docs/server.md: no bad input is ever a 500).
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Runs a write whose unique key a racing request may have taken meanwhile; a unique violation
 * becomes the route's own 409 `message` (a conflict ApiError) instead of the generic answer of
 * `app.onError`. Any other error passes through unchanged.
 */
export async function uniqueOrConflict<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message);
    throw err;
  }
}
