import * as v from 'valibot';

/** IGN length limits after trimming, in characters (product-spec section 5 IGNs, section 9). */
export const IGN_MIN = 1;
export const IGN_MAX = 12;

/** An IGN as the server answers it (product-spec section 3). */
export const IgnSchema = v.object({ id: v.number(), ign: v.string() });
export type Ign = v.InferOutput<typeof IgnSchema>;

/** Clan role ladder, lowest to highest (product-spec section 4, Clan roles). */
export const CLAN_ROLES = ['Guest', 'Member', 'Admin', 'Owner'] as const;
export type ClanRole = (typeof CLAN_ROLES)[number];
export const ClanRoleSchema = v.picklist(CLAN_ROLES);

/** True for the manager roles Owner and Admin (product-spec section 6). */
export function isManagerRole(role: string | null | undefined): boolean {
  return role === 'Owner' || role === 'Admin';
}

/** A clan membership of the signed-in user (product-spec section 3). */
export const ClanMembershipSchema = v.object({
  clan_id: v.number(),
  name: v.string(),
  role: ClanRoleSchema,
  joined_at: v.string(),
});
export type ClanMembership = v.InferOutput<typeof ClanMembershipSchema>;

/** GET /api/user/me answer (product-spec section 3 User; server-contract section 3 can_create_clan). */
export const UserSchema = v.object({
  id: v.number(),
  username: v.string(),
  discord_username: v.string(),
  discord_id: v.string(),
  avatar_url: v.nullable(v.string()),
  igns: v.array(IgnSchema),
  clan_memberships_list: v.array(ClanMembershipSchema),
  can_create_clan: v.boolean(),
});
export type User = v.InferOutput<typeof UserSchema>;

/** GET /api/games/auth/status answer (product-spec section 3; server-contract section 1). */
export const AuthStatusSchema = v.object({
  authorized: v.boolean(),
  has_token: v.boolean(),
  session_keys: v.array(v.string()),
  error: v.nullable(v.string()),
  dev_login: v.boolean(),
});
export type AuthStatus = v.InferOutput<typeof AuthStatusSchema>;

/** POST /api/auth/dev body: a development user name, 1-32 characters after trimming. */
export const DevLoginBodySchema = v.object({
  username: v.pipe(
    v.string('Username is required.'),
    v.trim(),
    v.minLength(1, 'Username is required.'),
    v.maxLength(32, 'Username must be at most 32 characters.'),
  ),
});

/** One IGN typed by a user: trimmed, 1-12 characters (server-contract section 3). */
export const IgnTextSchema = v.pipe(
  v.string('IGN is required.'),
  v.trim(),
  v.minLength(IGN_MIN, 'IGN cannot be empty.'),
  v.maxLength(IGN_MAX, `IGN must be at most ${IGN_MAX} characters.`),
);

/** POST /api/user/igns and PUT /api/user/igns/{id} body (server-contract section 2). */
export const IgnBodySchema = v.object({ ign: IgnTextSchema });
/** Answer of link and edit IGN. */
export const IgnAnswerSchema = v.object({ ign: IgnSchema });

/**
 * POST /api/logout body (server-contract sections 1 and 7), optional: none, an empty body or `{}`
 * ends this session only; `{"everywhere": true}` ends every session of the user. Anything but a
 * JSON object (an array, null, a number) or a non-boolean `everywhere` is refused.
 */
export const LogoutBodySchema = v.pipe(
  v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'The logout body must be a JSON object.'),
  v.object({ everywhere: v.optional(v.boolean('everywhere must be true or false.'), false) }),
);
export type LogoutBody = v.InferOutput<typeof LogoutBodySchema>;
