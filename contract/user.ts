import * as v from 'valibot';
import { OwnJoinRequestSchema } from './joins';
import { typedTextSchema, type TextField } from './text';

/** IGN length limits after trimming, in characters (docs/game-rules.md §13; docs/client.md §12). */
export const IGN_MIN = 1;
export const IGN_MAX = 12;

/** An IGN as the server answers it (docs/game-rules.md §12). */
const IgnSchema = v.object({ id: v.number(), ign: v.string() });
type Ign = v.InferOutput<typeof IgnSchema>;

/** Clan role ladder, lowest to highest (docs/game-rules.md §6, Clan roles). */
export const CLAN_ROLES = ['Guest', 'Member', 'Admin', 'Owner'] as const;
export type ClanRole = (typeof CLAN_ROLES)[number];
export const ClanRoleSchema = v.picklist(CLAN_ROLES);

/** True for the manager roles Owner and Admin (docs/game-rules.md §11). */
export function isManagerRole(role: string | null | undefined): boolean {
  return role === 'Owner' || role === 'Admin';
}

/** A clan membership of the signed-in user (docs/game-rules.md §12). */
const ClanMembershipSchema = v.object({
  clan_id: v.number(),
  name: v.string(),
  role: ClanRoleSchema,
  joined_at: v.string(),
});
export type ClanMembership = v.InferOutput<typeof ClanMembershipSchema>;

/** GET /api/user/me answer (docs/game-rules.md §12; docs/server.md §4 can_create_clan). */
export const UserSchema = v.object({
  id: v.number(),
  username: v.string(),
  discord_username: v.string(),
  discord_id: v.string(),
  avatar_url: v.nullable(v.string()),
  igns: v.array(IgnSchema),
  clan_memberships_list: v.array(ClanMembershipSchema),
  can_create_clan: v.boolean(),
  /** The user's join requests: pending ones and those decided in the last 30 days, newest first (docs/server.md §18); always sent. */
  join_requests: v.optional(v.array(OwnJoinRequestSchema)),
});
export type User = v.InferOutput<typeof UserSchema>;

/** Shown when the profile could not be loaded or parsed and the server session was closed (docs/client.md §2). */
export const USER_LOAD_FAILED = 'We could not load your profile, so you have been signed out. Please log in again.';

/** GET /api/games/auth/status answer (docs/game-rules.md §12; docs/server.md §2). */
export const AuthStatusSchema = v.object({
  authorized: v.boolean(),
  has_token: v.boolean(),
  session_keys: v.array(v.string()),
  error: v.nullable(v.string()),
  dev_login: v.boolean(),
  /** Whether Discord sign-in is configured (a client id): the login page disables its button otherwise. */
  discord_login: v.boolean(),
});
/** Why 'Log in with Discord' is disabled when the server has no Discord client (as its auth start path says). */
export const DISCORD_NOT_CONFIGURED = 'Discord sign-in is not configured on this server.';
export type AuthStatus = v.InferOutput<typeof AuthStatusSchema>;

/** POST /api/auth/dev body: a development user name, 1-32 characters after the text rule (contract/text.ts). */
export const DevLoginBodySchema = v.object({
  username: typedTextSchema({
    label: 'Username',
    field: 'username',
    required: 'Username is required.',
    max: 32,
    tooLong: 'Username must be at most 32 characters.',
  }),
});

/** The IGN of link and edit for the text rule's messages (contract/text.ts). */
export const IGN_FIELD: TextField = { label: 'IGN', field: 'ign' };

/**
 * One IGN typed by a user in link and edit (docs/server.md §4): the text rule
 * (contract/text.ts; control characters refused as 'IGN (ign) must not contain control
 * characters.'), then 1-12 characters.
 */
const IgnTextSchema = typedTextSchema({
  ...IGN_FIELD,
  required: 'IGN is required.',
  empty: 'IGN cannot be empty.',
  min: IGN_MIN,
  max: IGN_MAX,
  tooLong: `IGN must be at most ${IGN_MAX} characters.`,
});

/** POST /api/user/igns and PUT /api/user/igns/{id} body (docs/server.md §3). */
export const IgnBodySchema = v.object({ ign: IgnTextSchema });
/** Answer of link and edit IGN. */
export const IgnAnswerSchema = v.object({ ign: IgnSchema });

/**
 * POST /api/logout body (docs/server.md §2, §8), optional: none, an empty body or `{}`
 * ends this session only; `{"everywhere": true}` ends every session of the user. Anything but a
 * JSON object (an array, null, a number) or a non-boolean `everywhere` is refused.
 */
export const LogoutBodySchema = v.pipe(
  v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'The logout body must be a JSON object.'),
  v.object({ everywhere: v.optional(v.boolean('everywhere must be true or false.'), false) }),
);

/** Where a sign-in lands when it was not asked for a page (docs/client.md §2). */
export const DEFAULT_RETURN_PATH = '/dashboard';
/** Longest return path kept through a sign-in. */
const RETURN_PATH_MAX = 500;
/** Origin used only to resolve a return path; a path that leaves it is foreign. */
const LOCAL_ORIGIN = 'http://local.invalid';

/**
 * The page to return to after sign-in, when `path` is a same-origin relative path (starts with
 * one '/', no backslash, no control character, at most 500 characters, and resolving it against
 * any origin stays on that origin); else null. Refuses '//evil.com', 'https://evil.com',
 * '/\\evil.com', '/\t/evil.com' and 'javascript:...'. Shared by the server's auth start path and
 * the client's /loading redirect (docs/server.md §2: never an open redirect).
 */
export function safeReturnPath(path: string | null | undefined): string | null {
  if (!path || path.length > RETURN_PATH_MAX || !path.startsWith('/') || path.startsWith('//')) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return null;
  let url: URL;
  try {
    url = new URL(path, LOCAL_ORIGIN);
  } catch {
    return null;
  }
  return url.origin === LOCAL_ORIGIN ? url.pathname + url.search + url.hash : null;
}
