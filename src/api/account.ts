import { request } from './client';
import { IgnAnswerSchema } from '../../contract/user';
import { ClanListSchema, CreateClanAnswerSchema, type ClanSummary } from '../../contract/clan';
import { SetupAnswerSchema, type SetupInput } from '../../contract/onboarding';
import { OkSchema } from '../../contract/common';
import { DeleteAccountAnswerSchema } from '../../contract/dataRights';

/*
 * The calls of the onboarding and profile pages (the user's setup, clans and IGNs). They live apart
 * from the session's own calls (./session.ts), which every page loads with the session chart: these
 * load with the two pages that make them, and their clan and onboarding schemas with them.
 */

/** POST /api/user/setup (onboarding) → {ign_count}. */
export function submitSetup(body: SetupInput): Promise<{ ign_count: number }> {
  return request(SetupAnswerSchema, (h) => h.post('user/setup', { json: body }), 'Setup failed. Please try again.');
}

/** GET /api/clans: every clan, for joining in onboarding. */
export async function fetchClans(): Promise<ClanSummary[]> {
  return (await request(ClanListSchema, (h) => h.get('clans'))).clans;
}

/** POST /api/clans {clan_name} → clan id. */
export async function createClan(clan_name: string): Promise<number> {
  return (await request(CreateClanAnswerSchema, (h) => h.post('clans', { json: { clan_name } }), 'Failed to create clan.')).clan_id;
}

/** POST /api/user/igns {ign} → the new IGN. */
export async function linkIgn(ign: string) {
  return (await request(IgnAnswerSchema, (h) => h.post('user/igns', { json: { ign } }), `Failed to link ${ign}.`)).ign;
}

/** PUT /api/user/igns/{id} {ign} → the edited IGN. */
export async function editIgn(id: number, ign: string) {
  return (await request(IgnAnswerSchema, (h) => h.put(`user/igns/${id}`, { json: { ign } }), 'Failed to update IGN.')).ign;
}

/** DELETE /api/user/igns/{id}. */
export async function deleteIgn(id: number): Promise<void> {
  await request(OkSchema, (h) => h.delete(`user/igns/${id}`), 'Failed to delete IGN.');
}

/** GET /api/user/me/export as a same-origin link: the server answers the user's data as a JSON attachment (docs/server.md §18). */
export const ACCOUNT_EXPORT_URL = '/api/user/me/export';

/** DELETE /api/user/me {confirm}: deletes the account; every session ends (docs/server.md §18 "Data rights"). */
export async function deleteAccount(confirm: string): Promise<void> {
  await request(DeleteAccountAnswerSchema, (h) => h.delete('user/me', { json: { confirm } }), 'Failed to delete your account.');
}
