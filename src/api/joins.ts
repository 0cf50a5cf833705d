import { request } from './client';
import { OkSchema } from '../../contract/common';
import { ApproveJoinAnswerSchema, type ClanMember } from '../../contract/clan';
import {
  ClanJoinRequestsAnswerSchema,
  ClanSettingsAnswerSchema,
  DenyJoinAnswerSchema,
  type ClanJoinRequest,
  type ClanSettings,
  type ClanSettingsBody,
} from '../../contract/joins';

/** PUT /api/clan/{clanId}/settings {join_policy?, listed?} → the clan as it now is (Owner only; docs/server.md §18). */
export async function saveClanSettings(clanId: number, body: ClanSettingsBody): Promise<ClanSettings> {
  return (await request(ClanSettingsAnswerSchema, (h) => h.put(`clan/${clanId}/settings`, { json: body }), 'Failed to save the clan settings.')).clan;
}

/** GET /api/clan/{clanId}/join-requests → the pending requests, oldest first (managers). */
export async function fetchJoinRequests(clanId: number): Promise<ClanJoinRequest[]> {
  return (await request(ClanJoinRequestsAnswerSchema, (h) => h.get(`clan/${clanId}/join-requests`), 'Failed to load the requests to join.')).join_requests;
}

/** POST /api/clan/{clanId}/join-requests/{id}/approve → the new Member's row. */
export async function approveJoinRequest(clanId: number, requestId: number): Promise<ClanMember> {
  return (await request(ApproveJoinAnswerSchema, (h) => h.post(`clan/${clanId}/join-requests/${requestId}/approve`), 'Failed to approve the request.')).member;
}

/** POST /api/clan/{clanId}/join-requests/{id}/deny {reason} (an empty reason is sent as none). */
export async function denyJoinRequest(clanId: number, requestId: number, reason: string): Promise<void> {
  const json = reason.trim() ? { reason } : {};
  await request(DenyJoinAnswerSchema, (h) => h.post(`clan/${clanId}/join-requests/${requestId}/deny`, { json }), 'Failed to deny the request.');
}

/** DELETE /api/user/join-requests/{id}: the asker withdraws a pending request. */
export async function withdrawJoinRequest(requestId: number): Promise<void> {
  await request(OkSchema, (h) => h.delete(`user/join-requests/${requestId}`), 'Failed to withdraw the request.');
}
