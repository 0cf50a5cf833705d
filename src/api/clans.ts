import { request } from './client';
import { OkSchema } from '../../contract/common';
import {
  AvailableMembersAnswerSchema,
  ClanMembersAnswerSchema,
  MemberChangeAnswerSchema,
  RenameClanAnswerSchema,
  type ClanMember,
} from '../../contract/clan';
import type { ClanRole } from '../../contract/user';
import * as v from 'valibot';

/** A clan as the member list call answers it: id, name and the sorted members. */
export type ClanRoster = v.InferOutput<typeof ClanMembersAnswerSchema>;
/** A user who may be added to a clan (docs/game-rules.md §12). */
export type AvailableUser = v.InferOutput<typeof AvailableMembersAnswerSchema>['available_users'][number];

/** Fallback texts of docs/client.md §11 (used when the server sends no `error`). */
const CLAN_FALLBACKS = {
  load: 'Failed to load clan data.',
  add: 'Failed to add member.',
  kick: 'Failed to kick member. Please check permissions.',
  leave: 'Failed to leave clan. Check if you are the sole Owner/Admin. Please retry.',
  rename: 'Failed to update clan name. Please check permissions and input rules.',
  disband: 'Failed to disband clan. Please retry.',
  roleChange: (verb: 'promote' | 'demote') => `Failed to ${verb} member. Please check hierarchy rules.`,
} as const;

/**
 * GET /api/clan/{clanId}/members → {clan_id, clan_name, members} sorted Owner, Admin, Member,
 * Guest, then username (docs/server.md §3). Raises ApiRequestError with
 * the HTTP status (401, 403, 404 ...) so the caller can map it (docs/client.md §11).
 */
export function fetchClanMembers(clanId: number): Promise<ClanRoster> {
  return request(ClanMembersAnswerSchema, (h) => h.get(`clan/${clanId}/members`), CLAN_FALLBACKS.load);
}

/**
 * GET /api/clan/{clanId}/available_members → the users Add Member offers (managers only): those who
 * share a clan with the caller or asked to join; with `q` (3+ characters) also up to 20 whose
 * username starts with it (docs/server.md §18). A short `q` is refused by the server with 400.
 */
export async function fetchAvailableMembers(clanId: number, q?: string): Promise<AvailableUser[]> {
  const searchParams = q === undefined ? undefined : { q };
  return (await request(AvailableMembersAnswerSchema, (h) => h.get(`clan/${clanId}/available_members`, { searchParams }), 'Failed to load the users who can be added.')).available_users;
}

/** POST /api/clan/{clanId}/members {user_id, role} → the new member row; fallback 'Failed to add member.' */
export async function addClanMember(clanId: number, userId: number, role: ClanRole): Promise<ClanMember> {
  return (await request(MemberChangeAnswerSchema, (h) => h.post(`clan/${clanId}/members`, { json: { user_id: userId, role } }), CLAN_FALLBACKS.add)).member;
}

/**
 * PUT /api/clan/{clanId}/members/{memberId}/role {role} → the member's new row. `verb` picks the
 * fallback 'Failed to {promote|demote} member. Please check hierarchy rules.' (docs/client.md §11).
 */
export async function changeMemberRole(clanId: number, memberId: number, role: ClanRole, verb: 'promote' | 'demote'): Promise<ClanMember> {
  return (await request(MemberChangeAnswerSchema, (h) => h.put(`clan/${clanId}/members/${memberId}/role`, { json: { role } }), CLAN_FALLBACKS.roleChange(verb))).member;
}

/** DELETE /api/clan/{clanId}/members/{memberId}: kicks another member; fallback of docs/client.md §11 Kick. */
export async function kickClanMember(clanId: number, memberId: number): Promise<void> {
  await request(OkSchema, (h) => h.delete(`clan/${clanId}/members/${memberId}`), CLAN_FALLBACKS.kick);
}

/** DELETE /api/clan/{clanId}/members/{ownId}: leaves the clan (docs/server.md §3); its fallback text is in docs/client.md §11. */
export async function leaveClan(clanId: number, ownUserId: number): Promise<void> {
  await request(OkSchema, (h) => h.delete(`clan/${clanId}/members/${ownUserId}`), CLAN_FALLBACKS.leave);
}

/** PUT /api/clan/{clanId}/name {new_name} → the stored name (Owner only); fallback of docs/client.md §11 Clan. */
export async function renameClan(clanId: number, newName: string): Promise<string> {
  return (await request(RenameClanAnswerSchema, (h) => h.put(`clan/${clanId}/name`, { json: { new_name: newName } }), CLAN_FALLBACKS.rename)).new_name;
}

/** DELETE /api/clan/{clanId}: disbands the clan (Owner only); fallback 'Failed to disband clan. Please retry.' */
export async function disbandClan(clanId: number): Promise<void> {
  await request(OkSchema, (h) => h.delete(`clan/${clanId}`), CLAN_FALLBACKS.disband);
}
