import * as v from 'valibot';
import { request } from './client';
import { AuthStatusSchema, IgnAnswerSchema, UserSchema, type AuthStatus, type User } from '../../contract/user';
import { ClanListSchema, CreateClanAnswerSchema, type ClanSummary } from '../../contract/clan';
import { SetupAnswerSchema, type SetupInput } from '../../contract/onboarding';
import { OkSchema } from '../../contract/common';

/** GET /api/games/auth/status (docs/server.md §3). */
export function fetchAuthStatus(): Promise<AuthStatus> {
  return request(AuthStatusSchema, (h) => h.get('games/auth/status'));
}

/** GET /api/user/me: the signed-in user's profile; raises on 401 or an unreadable answer. */
export function fetchUser(): Promise<User> {
  return request(UserSchema, (h) => h.get('user/me'), 'Failed to load your profile.');
}

/**
 * POST /api/logout: with no body it ends this session; with `everywhere` it sends
 * `{"everywhere": true}`, which ends every session of the user (docs/server.md §8).
 * Errors are ignored by callers (docs/game-rules.md §6).
 */
export async function postLogout({ everywhere = false }: { everywhere?: boolean } = {}): Promise<void> {
  await request(v.unknown(), (h) => (everywhere ? h.post('logout', { json: { everywhere: true } }) : h.post('logout')));
}

/** POST /api/auth/dev {username}: development sign-in (docs/server.md §2). */
export async function devLogin(username: string): Promise<void> {
  await request(OkSchema, (h) => h.post('auth/dev', { json: { username } }), 'Sign-in failed.');
}

/** Where the Discord sign-in starts; the browser is sent there (docs/server.md §2). */
export function discordLoginUrl(path = '/dashboard'): string {
  return `/api/auth/discord?path=${encodeURIComponent(path)}`;
}

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
