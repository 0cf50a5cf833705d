import * as v from 'valibot';
import { request } from './client';
import { AuthStatusSchema, UserSchema, type AuthStatus, type User } from '../../contract/user';
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
