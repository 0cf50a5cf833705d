import * as v from 'valibot';
import { jsonBodySchema } from './common';
import { JoinMembershipSchema } from './joins';

/**
 * Invites to a clan (docs/server.md §18 "Invites"): a manager's invite link, the bounds of a new
 * one, what the invite page shows, the texts of its refusals and the one rule of whether an invite
 * can still be taken. Shared by the server (server/invites/) and the client (the clan page's
 * invites, the /invite/{code} page).
 */

/** How many times an invite may be accepted: 1 to 1,000, 25 unless the manager says. */
export const INVITE_USES = { min: 1, max: 1000, default: 25 } as const;
/** How long an invite lasts, in hours: 1 to 720 (30 days), 168 (a week) unless the manager says. */
export const INVITE_HOURS = { min: 1, max: 720, default: 168 } as const;

/** The refusal texts of the invite calls, and the 400s of a new invite's fields. */
export const INVITE_MESSAGES = {
  /** 404: a code that was never made, or one a manager revoked. */
  unknown: 'This invite does not exist or has been revoked.',
  /** 410, verbatim (docs/server.md §18). */
  expired: 'This invite has expired.',
  /** 410, verbatim (docs/server.md §18). */
  usedUp: 'This invite has been used up.',
  maxUses: `max_uses must be a whole number from ${INVITE_USES.min} to 1,000.`,
  hours: `expires_in_hours must be a whole number from ${INVITE_HOURS.min} to ${INVITE_HOURS.max}.`,
} as const;

/** A whole number from `min` to `max`, refused with `message` otherwise (a string, a fraction, null). */
const wholeIn = (min: number, max: number, message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

/** POST /api/clan/{clanId}/invites body: both fields may be left out (their defaults), and so may the body. */
export const CreateInviteBodySchema = jsonBodySchema({
  max_uses: v.optional(wholeIn(INVITE_USES.min, INVITE_USES.max, INVITE_MESSAGES.maxUses), INVITE_USES.default),
  expires_in_hours: v.optional(wholeIn(INVITE_HOURS.min, INVITE_HOURS.max, INVITE_MESSAGES.hours), INVITE_HOURS.default),
});
export type CreateInviteBody = v.InferInput<typeof CreateInviteBodySchema>;

/** An invite as its clan's managers see it: `url` is `<origin>/invite/{code}`. */
const InviteSchema = v.object({
  code: v.string(),
  url: v.string(),
  max_uses: v.number(),
  uses: v.number(),
  expires_at: v.string(),
  created_at: v.string(),
});
export type Invite = v.InferOutput<typeof InviteSchema>;

/** POST /api/clan/{clanId}/invites answer (201). */
export const InviteAnswerSchema = v.object({ invite: InviteSchema });

/** GET /api/clan/{clanId}/invites answer: the live invites, newest first. */
export const InviteListAnswerSchema = v.object({ invites: v.array(InviteSchema) });

/** GET /api/invites/{code} answer (no sign-in): the clan the invite leads to, and until when. */
export const InvitePreviewAnswerSchema = v.object({
  invite: v.object({
    clan: v.object({ id: v.number(), name: v.string(), member_count: v.number() }),
    expires_at: v.string(),
  }),
});
export type InvitePreview = v.InferOutput<typeof InvitePreviewAnswerSchema>['invite'];

/** POST /api/invites/{code}/accept answer (201): the new membership, as a join answers it. */
export const InviteAcceptAnswerSchema = v.object({ membership: JoinMembershipSchema });
export type InviteMembership = v.InferOutput<typeof InviteAcceptAnswerSchema>['membership'];

/**
 * The shape of a code the server makes (base64url of random bytes); anything else in the path is
 * answered as unknown without a look in the database.
 */
export const INVITE_CODE_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** Whether an invite that is not revoked can still be taken, by this order: expired, used up, else live. */
export type InviteState = 'live' | 'expired' | 'usedUp';

/**
 * The one rule of a (not revoked) invite's state at `nowIso` (an ISO time, as stored): expired
 * from its `expires_at` on, used up when `uses` reached `max_uses`, else live. The managers' list,
 * the invite page and the accept all judge by it.
 */
export function inviteState(invite: { uses: number; max_uses: number; expires_at: string }, nowIso: string): InviteState {
  if (invite.expires_at <= nowIso) return 'expired';
  if (invite.uses >= invite.max_uses) return 'usedUp';
  return 'live';
}

/** The page an invite link opens: /invite/{code}. */
export function invitePath(code: string): string {
  return `/invite/${encodeURIComponent(code)}`;
}

/** The texts of the clan page's invites (docs/client.md §15). */
export const INVITE_LIST_TEXTS = {
  loadFailed: 'Failed to load the invites.',
  copied: 'Invite link copied.',
  copyFailed: 'Could not copy: select the link and copy it by hand.',
  empty: 'No live invites. Make one to let people join with a link.',
} as const;

/** Who opens an invite page, as far as joining goes: signed out, signed in without an IGN yet, or ready to join. */
export type InviteViewer = 'signedOut' | 'needsIgn' | 'ready';

/** The texts of the /invite/{code} page (docs/client.md §15). */
export const INVITE_PAGE_TEXTS = {
  loadFailed: 'Failed to load the invite.',
  joinFailed: 'Failed to join the clan.',
  join: (clan: string) => `Join ${clan}`,
  joined: (clan: string) => `You joined ${clan}.`,
} as const;

/**
 * Whether a failed invite load or accept means the invite itself cannot be taken (404 unknown or
 * revoked, 410 expired or used up: the server's text is the page's message) rather than a
 * failure worth a retry.
 */
export function isInviteGone(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return status === 404 || status === 410;
}
