import crypto from 'node:crypto';
import type { Db } from '../db/schema';
import { nowIso } from '../time';
import { log } from '../observability/log';

/**
 * sha-256 hex of a session id; only the hash is stored. node:crypto's one-shot `hash` (no Hash
 * object per call): every roll hashes its socket's session id.
 */
export function hashSessionId(id: string): string {
  return crypto.hash('sha256', id, 'hex');
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

/** Deletes every session of `userId` (logout everywhere, docs/server.md §8); returns how many. */
export async function deleteUserSessions(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes every session whose expiry has passed (docs/server.md §8: expired sessions are
 * purged); returns how many. Expired sessions already stop authorising (findSession); this only
 * keeps the table from growing.
 */
export async function purgeExpiredSessions(db: Db): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', nowIso()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How often the running server purges expired sessions, in ms (1 hour). */
const SESSION_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Purges expired sessions now (resolves once done) and then every `intervalMs` ms on an unref'd
 * timer, so it never keeps the process alive. A failed purge is reported to `onError` and tried
 * again at the next tick; it never throws. Returns the function that stops the timer.
 */
export async function startSessionPurge(
  db: Db,
  intervalMs = SESSION_PURGE_INTERVAL_MS,
  onError: (err: unknown) => void = (err) => log.error({ err }, '[sessions] purge failed'),
): Promise<() => void> {
  const purge = () => purgeExpiredSessions(db).then(() => undefined, onError);
  await purge();
  const timer = setInterval(purge, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
