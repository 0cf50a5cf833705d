import type { Db } from '../db/schema';
import { nowIso } from '../time';
import { log } from '../observability/log';
import { badRequest } from '../errors';
import { deleteAuditBefore, insertAuditEntry, listAuditEntries } from './repository';
import { AUDIT_BAD_BEFORE, AUDIT_KEEP_DAYS, AUDIT_PAGE_SIZE, type AuditAction, type AuditEntry } from '../../contract/audit';

/** The longest `target` and `detail` kept, in characters (a long pasted name stays readable). */
const TEXT_MAX = 300;

/** `text` cut to TEXT_MAX characters. */
function clip(text: string): string {
  const chars = [...text];
  return chars.length <= TEXT_MAX ? text : chars.slice(0, TEXT_MAX - 1).join('') + '…';
}

/**
 * Records one manager action in the clan's History (docs/server.md §18 "History"): `actorId` the
 * manager, `action` one of the contract's names, `target` the thing in words ('Team 2', an
 * event's name, a username or a team member's IGN), `detail` what changed ('Member → Admin').
 * Callers pass their transaction where they have one, so a refused or rolled-back change leaves
 * no entry; never a token, secret, webhook URL or invite code. One INSERT, no read.
 */
export async function recordAudit(db: Db, clanId: number, actorId: number | null, action: AuditAction, target: string, detail = ''): Promise<void> {
  await insertAuditEntry(db, { clan_id: clanId, at: nowIso(), actor_user_id: actorId, action, target: clip(target), detail: clip(detail) });
}

/**
 * One page of the clan's History: up to AUDIT_PAGE_SIZE entries newest first (ties by id), those
 * after entry `before` when given; 400 AUDIT_BAD_BEFORE when `before` is no entry of this clan.
 */
export async function auditPage(db: Db, clanId: number, before: number | undefined): Promise<AuditEntry[]> {
  const rows = await listAuditEntries(db, clanId, before, AUDIT_PAGE_SIZE);
  if (!rows) throw badRequest(AUDIT_BAD_BEFORE);
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    actor: r.actor_user_id !== null && r.username !== null ? { user_id: r.actor_user_id, username: r.username } : null,
    // Only recordAudit writes rows, and only with AUDIT_ACTIONS names.
    action: r.action as AuditAction,
    target: r.target,
    detail: r.detail,
  }));
}

/** How often the running server prunes old History entries, in ms (1 hour). */
const AUDIT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes History entries older than AUDIT_KEEP_DAYS now and then every hour on an unref'd timer
 * (one indexed DELETE, off the request path); a failed prune is logged and tried at the next
 * tick. Returns the function that stops the timer.
 */
export function startAuditPrune(db: Db, intervalMs = AUDIT_PRUNE_INTERVAL_MS): () => void {
  const prune = () => deleteAuditBefore(db, new Date(Date.now() - AUDIT_KEEP_DAYS * 86_400_000).toISOString())
    .then(() => undefined, (err: unknown) => log.error({ err }, '[audit] prune failed'));
  void prune();
  const timer = setInterval(prune, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
