import * as v from 'valibot';

/**
 * The clan History (docs/server.md §18 "History"): what GET /api/clan/{clanId}/audit answers
 * its managers, the action names every manager action is recorded under, and the page size.
 * Shared by the server (server/audit/) and the client (the clan page's History tab).
 */

/** The `action` names, exactly as the document lists them. */
const AUDIT_ACTIONS = [
  'member.add', 'member.role', 'member.kick', 'member.leave', 'join.approve', 'join.deny',
  'invite.create', 'invite.revoke', 'clan.rename', 'clan.settings', 'event.create', 'event.update',
  'event.delete', 'event.copy', 'team.create', 'team.update', 'team.delete', 'team.member.add',
  'team.member.remove', 'team.member.role', 'game.create', 'game.delete', 'game.reset', 'game.status',
  'game.randomize', 'game.board', 'game.rules', 'tasks.import', 'task.create', 'task.update',
  'task.delete', 'tasks.delete_all', 'review.approve', 'review.deny', 'review.undo', 'dink.link',
  'dink.revoke', 'webhook.set', 'webhook.delete', 'signups.open', 'signups.close', 'balance.apply',
  'draft.start', 'draft.end',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Entries in one page of the History. */
export const AUDIT_PAGE_SIZE = 100;

/** How long an entry is kept, in days. */
export const AUDIT_KEEP_DAYS = 365;

/** 400 for a `before` that is not an entry id. */
export const AUDIT_BAD_BEFORE = 'Invalid before id.';

/** Who made a change: null when their account is gone. */
const AuditActorSchema = v.nullable(v.object({ user_id: v.number(), username: v.string() }));

/** One entry: `at` ISO time; `target` and `detail` plain words (shown as text, never HTML). */
const AuditEntrySchema = v.object({
  id: v.number(),
  at: v.string(),
  actor: AuditActorSchema,
  action: v.picklist(AUDIT_ACTIONS),
  target: v.string(),
  detail: v.string(),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;

/** GET /api/clan/{clanId}/audit answer: at most AUDIT_PAGE_SIZE entries, newest first (ties by id). */
export const AuditAnswerSchema = v.object({ entries: v.array(AuditEntrySchema) });
export type AuditAnswer = v.InferOutput<typeof AuditAnswerSchema>;

/** The query: `before` an entry id (the last one of the previous page), optional. */
export const AuditQuerySchema = v.object({
  before: v.optional(v.pipe(v.string(AUDIT_BAD_BEFORE), v.regex(/^[1-9]\d{0,9}$/, AUDIT_BAD_BEFORE), v.transform(Number), v.maxValue(2_147_483_647, AUDIT_BAD_BEFORE))),
});
