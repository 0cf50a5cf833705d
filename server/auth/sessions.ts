import crypto from 'node:crypto';
import type { Db } from '../db/schema';
import { nowIso } from '../db/connect';

/** sha-256 hex of a session id; only the hash is stored. */
export function hashSessionId(id: string): string {
  return crypto.createHash('sha256').update(id).digest('hex');
}

/**
 * Creates a session for `userId` lasting `ttlMs` ms with data keys `data`.
 * Returns the random id (32 bytes, base64url) to put in the cookie.
 */
export async function createSession(db: Db, userId: number, ttlMs: number, data: Record<string, unknown>): Promise<string> {
  const id = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.insertInto('sessions').values({
    id: hashSessionId(id),
    user_id: userId,
    data: JSON.stringify(data),
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + ttlMs).toISOString(),
  }).execute();
  return id;
}

/** A session row with its user, or null when unknown or expired. */
export async function findSession(db: Db, id: string): Promise<{ userId: number; username: string; keys: string[]; sessionId: string } | null> {
  const row = await db.selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id', 'sessions.user_id', 'sessions.data', 'sessions.expires_at', 'users.username'])
    .where('sessions.id', '=', hashSessionId(id))
    .executeTakeFirst();
  if (!row || row.expires_at <= nowIso()) return null;
  let keys: string[] = [];
  try {
    keys = Object.keys(JSON.parse(row.data) as object);
  } catch {
    keys = [];
  }
  return { userId: row.user_id, username: row.username, keys, sessionId: id };
}

/** Deletes a session by its cookie id (logout). */
export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', hashSessionId(id)).execute();
}
