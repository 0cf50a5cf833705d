import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import { ApiError, conflict, notFound } from '../errors';
import { nowIso } from '../time';
import { refuseKicked } from '../clans/access';
import { addMembership, lockClan, memberRole } from '../clans/repository';
import { listIgns } from '../users/repository';
import { countMembers, findInvite, insertInvite, listUnexpiredInvites, revokeInvite, takeInviteUse, type InviteRow } from './repository';
import { ALREADY_MEMBER, LINK_IGN_FIRST } from '../../contract/joins';
import {
  INVITE_CODE_PATTERN,
  INVITE_MESSAGES,
  invitePath,
  inviteState,
  type Invite,
  type InviteMembership,
  type InvitePreview,
} from '../../contract/invite';

/** Random bytes in a code: 18 (above the 16 docs/server.md §18 asks), 24 base64url characters. */
const CODE_BYTES = 18;

/** A new invite code: CODE_BYTES random bytes from node:crypto in base64url (no padding). */
function newInviteCode(): string {
  return randomBytes(CODE_BYTES).toString('base64url');
}

/** An invite as managers see it, its url on `origin` (docs/server.md §18). */
function inviteOf(row: InviteRow, origin: string): Invite {
  return { code: row.code, url: origin + invitePath(row.code), max_uses: row.max_uses, uses: row.uses, expires_at: row.expires_at, created_at: row.created_at };
}

/**
 * Makes an invite of clan `clanId` by manager `userId` (docs/server.md §18): `maxUses` accepts
 * (1 to 1,000), lasting `hours` hours (1 to 720) from now; the body's bounds are checked by the
 * contract schema before this. Answers it with its url on `origin`.
 */
export async function createInvite(db: Db, clanId: number, userId: number, maxUses: number, hours: number, origin: string): Promise<Invite> {
  const now = Date.now();
  const row = await insertInvite(db, {
    clanId,
    code: newInviteCode(),
    maxUses,
    expiresAt: new Date(now + hours * 3_600_000).toISOString(),
    createdAt: new Date(now).toISOString(),
    createdBy: userId,
  });
  return inviteOf(row, origin);
}

/** The clan's live invites (inviteState 'live': neither revoked, expired nor used up), newest first. */
export async function liveInvites(db: Db, clanId: number, origin: string): Promise<Invite[]> {
  const now = nowIso();
  const rows = await listUnexpiredInvites(db, clanId, now);
  return rows.filter((r) => inviteState(r, now) === 'live').map((r) => inviteOf(r, origin));
}

/** Revokes the clan's invite `code`; 404 INVITE_MESSAGES.unknown when the clan has no live-or-spent invite of that code. */
export async function revokeClanInvite(db: Db, clanId: number, code: string): Promise<void> {
  if (!INVITE_CODE_PATTERN.test(code) || !(await revokeInvite(db, clanId, code, nowIso()))) throw notFound(INVITE_MESSAGES.unknown);
}

/**
 * The invite of `code` that may still be taken at `now`: 404 INVITE_MESSAGES.unknown for a code
 * never made (or not of a code's shape) or revoked; 410 INVITE_MESSAGES.expired or .usedUp.
 */
async function takeableInvite(db: Db, code: string, now: string): Promise<InviteRow & { clan_name: string }> {
  const invite = INVITE_CODE_PATTERN.test(code) ? await findInvite(db, code) : undefined;
  if (!invite) throw notFound(INVITE_MESSAGES.unknown);
  const state = inviteState(invite, now);
  if (state !== 'live') throw new ApiError(410, INVITE_MESSAGES[state]);
  return invite;
}

/** What GET /api/invites/{code} shows anyone (docs/server.md §18): the clan, its member count and the expiry; 404 / 410 as takeableInvite. */
export async function previewInvite(db: Db, code: string): Promise<InvitePreview> {
  const invite = await takeableInvite(db, code, nowIso());
  return { clan: { id: invite.clan_id, name: invite.clan_name, member_count: await countMembers(db, invite.clan_id) }, expires_at: invite.expires_at };
}

/**
 * Accepts invite `code` for user `userId` (docs/server.md §18): a Member of the invite's clan,
 * whatever its join policy, in one transaction that holds the clan (lockClan, as every membership
 * change does). Checked in this order: 404 / 410 as takeableInvite; 409 LINK_IGN_FIRST without an
 * IGN; 409 ALREADY_MEMBER; 403 the kick text (docs/server.md §8); then one use is taken with a
 * conditional UPDATE (takeInviteUse) in the same transaction as the membership insert, so the
 * uses never pass max_uses however many accept at once: a use not taken answers 410 used up (or
 * 404 / 410 expired when the invite was revoked or ran out meanwhile), and nothing is stored.
 */
export async function acceptInvite(db: Kysely<Database>, code: string, userId: number): Promise<InviteMembership> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const { clan_id: clanId } = await takeableInvite(trx, code, now);
    await lockClan(trx, clanId);
    const invite = await takeableInvite(trx, code, now);
    if ((await listIgns(trx, userId)).length === 0) throw conflict(LINK_IGN_FIRST);
    if ((await memberRole(trx, clanId, userId)) !== null) throw conflict(ALREADY_MEMBER);
    await refuseKicked(trx, clanId, userId);
    if (!(await takeInviteUse(trx, invite.id, now))) {
      await takeableInvite(trx, code, now);
      throw new ApiError(410, INVITE_MESSAGES.usedUp);
    }
    await addMembership(trx, clanId, userId, 'Member');
    const row = await trx.selectFrom('clan_memberships').select('joined_at').where('clan_id', '=', clanId).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return { clan_id: clanId, name: invite.clan_name, role: 'Member' as const, joined_at: row.joined_at };
  });
}
