import * as v from 'valibot';
import { ClanRoleSchema } from './user';

/** Clan name limit after trimming, in characters (product-spec section 9). */
export const CLAN_NAME_MAX = 40;
/** Clans one user may own (server-contract section 3). */
export const CLAN_OWN_LIMIT = 3;

/** A clan name typed by a user: trimmed, 1-40 characters. */
export const ClanNameSchema = v.pipe(
  v.string('Clan name cannot be empty. Please enter a name.'),
  v.trim(),
  v.minLength(1, 'Clan name cannot be empty. Please enter a name.'),
  v.maxLength(CLAN_NAME_MAX, `Clan name must be at most ${CLAN_NAME_MAX} characters.`),
);

/** A clan in a list (product-spec section 3). */
export const ClanSummarySchema = v.object({ id: v.number(), name: v.string() });
export type ClanSummary = v.InferOutput<typeof ClanSummarySchema>;

/** GET /api/clans answer. */
export const ClanListSchema = v.object({ clans: v.array(ClanSummarySchema) });

/** POST /api/clans body and answer (product-spec section 3 Create clan payload). */
export const CreateClanBodySchema = v.object({ clan_name: ClanNameSchema });
export const CreateClanAnswerSchema = v.object({ clan_id: v.number() });

/** PUT /api/clan/{clanId}/name body and answer (product-spec section 7). */
export const RenameClanBodySchema = v.object({ new_name: ClanNameSchema });
export const RenameClanAnswerSchema = v.object({ new_name: v.string() });

/** A clan member row (product-spec section 3 Clan member); member_id is the user id. */
export const ClanMemberSchema = v.object({
  member_id: v.number(),
  username: v.string(),
  role: ClanRoleSchema,
  joined_at: v.string(),
  last_login: v.nullable(v.string()),
  clan_name: v.string(),
});
export type ClanMember = v.InferOutput<typeof ClanMemberSchema>;

/** GET /api/clan/{clanId}/members answer. */
export const ClanMembersAnswerSchema = v.object({
  clan_id: v.number(),
  clan_name: v.string(),
  members: v.array(ClanMemberSchema),
});

/** GET /api/clan/{clanId}/available_members answer (product-spec section 3 Available user). */
export const AvailableMembersAnswerSchema = v.object({
  available_users: v.array(v.object({ id: v.number(), username: v.string() })),
});

/** POST /api/clan/{clanId}/members body (product-spec section 3 Add-member forms). */
export const AddClanMemberBodySchema = v.object({
  user_id: v.pipe(v.number('A user must be chosen.'), v.integer('A user must be chosen.')),
  role: ClanRoleSchema,
});

/** PUT /api/clan/{clanId}/members/{memberId}/role body. */
export const ChangeRoleBodySchema = v.object({ role: ClanRoleSchema });
