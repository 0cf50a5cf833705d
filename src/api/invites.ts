import { request } from './client';
import { OkSchema } from '../../contract/common';
import {
  InviteAcceptAnswerSchema,
  InviteAnswerSchema,
  InviteListAnswerSchema,
  InvitePreviewAnswerSchema,
  type CreateInviteBody,
  type Invite,
  type InviteMembership,
  type InvitePreview,
} from '../../contract/invite';

/** POST /api/clan/{clanId}/invites {max_uses?, expires_in_hours?} → the new invite (managers; docs/server.md §18). */
export async function createInvite(clanId: number, body: CreateInviteBody): Promise<Invite> {
  return (await request(InviteAnswerSchema, (h) => h.post(`clan/${clanId}/invites`, { json: body }), 'Failed to make the invite.')).invite;
}

/** GET /api/clan/{clanId}/invites → the live invites, newest first (managers). */
export async function fetchInvites(clanId: number): Promise<Invite[]> {
  return (await request(InviteListAnswerSchema, (h) => h.get(`clan/${clanId}/invites`), 'Failed to load the invites.')).invites;
}

/** DELETE /api/clan/{clanId}/invites/{code}: revokes the invite (managers). */
export async function revokeInvite(clanId: number, code: string): Promise<void> {
  await request(OkSchema, (h) => h.delete(`clan/${clanId}/invites/${encodeURIComponent(code)}`), 'Failed to revoke the invite.');
}

/** GET /api/invites/{code} (no sign-in) → the clan it leads to and the expiry; 404 / 410 raise with the server's text. */
export async function fetchInvite(code: string): Promise<InvitePreview> {
  return (await request(InvitePreviewAnswerSchema, (h) => h.get(`invites/${encodeURIComponent(code)}`), 'Failed to load the invite.')).invite;
}

/** POST /api/invites/{code}/accept → the new membership (signed in, with an IGN). */
export async function acceptInvite(code: string): Promise<InviteMembership> {
  return (await request(InviteAcceptAnswerSchema, (h) => h.post(`invites/${encodeURIComponent(code)}/accept`), 'Failed to join the clan.')).membership;
}
