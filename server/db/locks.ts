import type { Transaction } from 'kysely';
import type { Database } from './schema';
import type { Dialect } from './migrations/helpers';

/**
 * Serializes changes to one event's teams inside a transaction: `SELECT … FOR UPDATE` on the
 * event row in PostgreSQL. SQLite needs nothing: Kysely runs its transactions one at a time on
 * the one connection. Use before checking a team name or an IGN for uniqueness in the event.
 */
export async function lockEvent(trx: Transaction<Database>, dialect: Dialect, eventId: number): Promise<void> {
  if (dialect === 'postgres') {
    await trx.selectFrom('events').select('id').where('id', '=', eventId).forUpdate().execute();
  }
}
