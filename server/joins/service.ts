import type { Db } from '../db/schema';
import { conflict, forbidden, notFound } from '../errors';
import { refuseKicked } from '../clans/access';
import { addMembership, lockClan, memberRole } from '../clans/repository';
import { listIgns } from '../users/repository';
import { hasPendingRequest, insertJoinRequest, loadClanSettings } from './repository';
import { ALREADY_ASKED, ALREADY_MEMBER, INVITE_ONLY, LINK_IGN_FIRST, type JoinAnswer } from '../../contract/joins';

/** What a join did: the user became a Member (open clan) or asked (request clan). */
export type JoinOutcome = { kind: 'joined'; answer: Extract<JoinAnswer, { membership: unknown }> } | { kind: 'asked'; answer: Extract<JoinAnswer, { join_request: unknown }> };

/**
 * The one rule of joining a clan (docs/server.md §18 "Joining"), for POST /api/clan/{clanId}/join
 * and onboarding's Member choice alike, inside the caller's transaction (the clan row is locked
 * first, so a settings change or a second join of the same user waits). Checked in this order:
 * 404 'Clan ID {id} not found.'; 409 LINK_IGN_FIRST without an IGN; 409 ALREADY_MEMBER; 403 the
 * kick text for a kicked user (docs/server.md §8); then by the clan's join policy: `invite` 403
 * INVITE_ONLY, `request` a pending request (409 ALREADY_ASKED while one is pending), `open` a
 * Member. Nothing is written before every check has passed.
 */
export async function joinClan(trx: Db, clanId: number, userId: number): Promise<JoinOutcome> {
  await lockClan(trx, clanId);
  const clan = await loadClanSettings(trx, clanId);
  if (!clan) throw notFound(`Clan ID ${clanId} not found.`);
  if ((await listIgns(trx, userId)).length === 0) throw conflict(LINK_IGN_FIRST);
  if ((await memberRole(trx, clanId, userId)) !== null) throw conflict(ALREADY_MEMBER);
  await refuseKicked(trx, clanId, userId);
  if (clan.join_policy === 'invite') throw forbidden(INVITE_ONLY);
  if (clan.join_policy === 'request') {
    if (await hasPendingRequest(trx, clanId, userId)) throw conflict(ALREADY_ASKED);
    const { reason: _none, ...join_request } = await insertJoinRequest(trx, clan, userId);
    return { kind: 'asked', answer: { join_request } };
  }
  await addMembership(trx, clanId, userId, 'Member');
  const row = await trx.selectFrom('clan_memberships').select('joined_at').where('clan_id', '=', clanId).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return { kind: 'joined', answer: { membership: { clan_id: clan.id, name: clan.name, role: 'Member', joined_at: row.joined_at } } };
}
