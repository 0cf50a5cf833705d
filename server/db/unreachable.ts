/** What a caller is told when the database does not answer (docs/server.md §14 "Faults"). */
export const DATABASE_AWAY = 'The database is not answering, so nothing was changed. Please try again in a moment.';

/** Node's socket error codes of a connection that could not be made or was cut. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres' own texts for a connection lost or not made (it gives them no code). */
const CONNECTION_TEXTS = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;

/**
 * True when `err` says the database could not be reached rather than that the statement was
 * wrong (docs/server.md §14 "Faults"): a socket error of the connection, node-postgres' texts for
 * a lost connection, PostgreSQL's connection exceptions (SQLSTATE class 08) and its shutdown and
 * start-up refusals (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now).
 * The HTTP API answers these 503 and the live socket its DATABASE_AWAY refusal, never a 500.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')) return true;
  if (typeof message === 'string' && CONNECTION_TEXTS.test(message)) return true;
  // Node's AggregateError of a connection tried on several addresses.
  const inner = (err as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every((e) => isDatabaseUnreachable(e));
}
