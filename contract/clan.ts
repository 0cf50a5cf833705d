import * as v from 'valibot';
import { CLAN_ROLES, isManagerRole, type ClanRole, ClanRoleSchema } from './user';
import { typedTextSchema, type TextField, type TypedTextSpec } from './text';
import { ClanSettingsSchema } from './joins';

/** Clan name limit after trimming, in characters (docs/client.md §12). */
export const CLAN_NAME_MAX = 40;
/** Clans one user may own (docs/server.md §4). */
export const CLAN_OWN_LIMIT = 3;
/** Largest id the databases store (32-bit signed integer columns); larger ids name nothing. */
export const DB_ID_MAX = 2_147_483_647;

/** docs/game-rules.md §13 messages. */
export const CLAN_NAME_EMPTY = 'Clan name cannot be empty. Please enter a name.';
const CLAN_NAME_TOO_LONG = `Clan name must be at most ${CLAN_NAME_MAX} characters.`;

/** A clan name field for the text rule's messages: 'Clan name ({field}) …' (contract/text.ts). */
export function clanNameField(field: 'clan_name' | 'new_name'): TextField {
  return { label: 'Clan name', field };
}

/**
 * A clan name typed in `field` (clan_name, or new_name in a rename), with `empty` for nothing
 * left: the text rule (contract/text.ts; control characters refused as 'Clan name ({field}) must
 * not contain control characters.'), then 1-40 characters. Uniqueness uses clanNameKey.
 */
export function clanNameSchema(field: 'clan_name' | 'new_name', empty: string = CLAN_NAME_EMPTY) {
  const spec: TypedTextSpec = { ...clanNameField(field), required: empty, max: CLAN_NAME_MAX, tooLong: CLAN_NAME_TOO_LONG };
  return typedTextSchema(spec);
}

/** A clan name typed by a user in create clan (`clan_name`): the text rule, then 1-40 characters. */
const ClanNameSchema = clanNameSchema('clan_name');

/** A clan in a list (docs/game-rules.md §12). */
const ClanSummarySchema = v.object({ id: v.number(), name: v.string() });
export type ClanSummary = v.InferOutput<typeof ClanSummarySchema>;

/** GET /api/clans answer. */
export const ClanListSchema = v.object({ clans: v.array(ClanSummarySchema) });

/** POST /api/clans body and answer (docs/game-rules.md §12). */
export const CreateClanBodySchema = v.object({ clan_name: ClanNameSchema });
export const CreateClanAnswerSchema = v.object({ clan_id: v.number() });

/** The text for an empty rename or one equal to the current name (docs/game-rules.md §13). */
export const RENAME_EMPTY_OR_SAME = 'Clan name cannot be empty or the same as the current name.';

/**
 * PUT /api/clan/{clanId}/name body and answer (docs/server.md §3): new_name after the text
 * rule, 1-40 characters; an empty one answers RENAME_EMPTY_OR_SAME.
 */
export const RenameClanBodySchema = v.object({ new_name: clanNameSchema('new_name', RENAME_EMPTY_OR_SAME) });
export const RenameClanAnswerSchema = v.object({ new_name: v.string() });

/** A clan member row (docs/game-rules.md §12); member_id is the user id. */
const ClanMemberSchema = v.object({
  member_id: v.number(),
  username: v.string(),
  role: ClanRoleSchema,
  joined_at: v.string(),
  /** Only to the clan's managers, and in one's own row; null to others (docs/server.md §18). */
  last_login: v.nullable(v.string()),
  clan_name: v.string(),
  /** To the user and to managers of a clan they share, else null (docs/server.md §18). */
  discord_id: v.nullable(v.string()),
});
export type ClanMember = v.InferOutput<typeof ClanMemberSchema>;

/** GET /api/clan/{clanId}/members answer. */
export const ClanMembersAnswerSchema = v.object({
  clan_id: v.number(),
  clan_name: v.string(),
  /** The clan's settings (docs/server.md §18): id, name, join_policy, listed (always sent; optional for older answers). */
  clan: v.optional(ClanSettingsSchema),
  members: v.array(ClanMemberSchema),
});

/** GET /api/clan/{clanId}/available_members answer (docs/game-rules.md §12). */
export const AvailableMembersAnswerSchema = v.object({
  available_users: v.array(v.object({ id: v.number(), username: v.string() })),
});

/** A role in a request body, with a readable message for anything else. */
const RoleBodyField = v.picklist(CLAN_ROLES, 'Role must be one of Guest, Member, Admin or Owner.');

/**
 * POST /api/clan/{clanId}/members body (docs/game-rules.md §12): user_id a
 * positive integer id; role any ladder role here, the server refuses Owner with a clear 400.
 */
export const AddClanMemberBodySchema = v.object({
  user_id: v.pipe(
    v.number('A user must be chosen.'),
    v.integer('A user must be chosen.'),
    v.minValue(1, 'A user must be chosen.'),
    v.maxValue(DB_ID_MAX, 'A user must be chosen.'),
  ),
  role: RoleBodyField,
});

/** PUT /api/clan/{clanId}/members/{memberId}/role body: the member's new role, one ladder step away. */
export const ChangeRoleBodySchema = v.object({ role: RoleBodyField });

// ---------------------------------------------------------------------------------------------
// Members and the role ladder: answers of the member calls and the pure rules of
// docs/client.md §5; docs/game-rules.md §11, shared by client and server.
// ---------------------------------------------------------------------------------------------

/** Answer of POST /api/clan/{clanId}/members and PUT …/members/{memberId}/role: the member's new row. */
export const MemberChangeAnswerSchema = v.object({ ok: v.literal(true), member: ClanMemberSchema });

/** Answer of POST /api/clan/{clanId}/join-requests/{id}/approve: the new Member's row (docs/server.md §18). */
export const ApproveJoinAnswerSchema = v.object({ member: ClanMemberSchema });

/** Position of a role on the ladder, 0 (Guest) to 3 (Owner) (docs/client.md §5). */
function roleRank(role: ClanRole): number {
  return CLAN_ROLES.indexOf(role);
}

/** The role one step up (`+1`) or down (`-1`) the ladder, or null beyond its ends. */
export function ladderStep(role: ClanRole, direction: 1 | -1): ClanRole | null {
  return CLAN_ROLES[roleRank(role) + direction] ?? null;
}

/**
 * Member list order (docs/game-rules.md §12): Owner, Admin, Member, Guest, then
 * username case-insensitively, then member_id so the order is total.
 */
export function compareClanMembers(a: { role: ClanRole; username: string; member_id: number }, b: { role: ClanRole; username: string; member_id: number }): number {
  const byRole = roleRank(b.role) - roleRank(a.role);
  if (byRole !== 0) return byRole;
  const ua = a.username.toLowerCase();
  const ub = b.username.toLowerCase();
  if (ua !== ub) return ua < ub ? -1 : 1;
  return a.member_id - b.member_id;
}

/** The verdict of a member rule: allowed, or refused with the status and text the server answers. */
export type RuleVerdict<T = object> = ({ ok: true } & T) | { ok: false; status: 400 | 403 | 409; error: string };

/** The documented permission text (docs/game-rules.md §11). */
export const PERMISSION_DENIED = 'Permission denied. You are not authorized to manage this clan.';

/**
 * Whether `actor` may set `target`'s role to `newRole` (docs/game-rules.md §6, §11, §13). Rules, in order:
 * only managers change roles (403); nobody changes their own role (403); the same role at a ladder
 * end gives the documented 'Cannot promote {name} further than Owner.' / 'Cannot demote {name} further
 * than Guest.' (400), elsewhere '{name} is already {role}.' (400); a change is one step (400);
 * promoting an Admin is the ownership transfer, Owner only (403); the Owner is never demoted (403);
 * demoting an Admin is for the Owner only, as kicking one is (403). `transfer` is true for Admin → Owner.
 */
export function checkRoleChange(p: { actorRole: ClanRole; targetRole: ClanRole; newRole: ClanRole; targetName: string; self: boolean }): RuleVerdict<{ transfer: boolean }> {
  const { actorRole, targetRole, newRole, targetName: name } = p;
  if (!isManagerRole(actorRole)) return { ok: false, status: 403, error: PERMISSION_DENIED };
  if (p.self) return { ok: false, status: 403, error: 'You cannot change your own role.' };
  const step = roleRank(newRole) - roleRank(targetRole);
  if (step === 0) {
    if (targetRole === 'Owner') return { ok: false, status: 400, error: `Cannot promote ${name} further than Owner.` };
    if (targetRole === 'Guest') return { ok: false, status: 400, error: `Cannot demote ${name} further than Guest.` };
    return { ok: false, status: 400, error: `${name} is already ${targetRole}.` };
  }
  if (Math.abs(step) > 1) {
    return { ok: false, status: 400, error: `A role changes one step at a time: ${name} is ${targetRole}, so the next role is ${ladderStep(targetRole, step > 0 ? 1 : -1)}.` };
  }
  if (step > 0) {
    if (newRole === 'Owner' && actorRole !== 'Owner') {
      return { ok: false, status: 403, error: 'Permission denied. Only the clan Owner can promote an Admin (transfer ownership).' };
    }
    return { ok: true, transfer: newRole === 'Owner' };
  }
  if (targetRole === 'Owner') {
    return { ok: false, status: 403, error: 'The clan Owner cannot be demoted. The Owner can transfer ownership by promoting an Admin.' };
  }
  if (targetRole === 'Admin' && actorRole !== 'Owner') {
    return { ok: false, status: 403, error: 'Permission denied. Only the clan Owner can demote an Admin.' };
  }
  return { ok: true, transfer: false };
}

/**
 * Whether `actor` may kick `target` (docs/client.md §5; docs/game-rules.md §11): managers only;
 * Guests and Members by any manager; an Admin only by the Owner; the Owner never.
 */
export function checkKick(actorRole: ClanRole, targetRole: ClanRole): RuleVerdict {
  if (!isManagerRole(actorRole)) return { ok: false, status: 403, error: PERMISSION_DENIED };
  if (targetRole === 'Owner') return { ok: false, status: 403, error: 'The clan Owner cannot be kicked.' };
  if (targetRole === 'Admin' && actorRole !== 'Owner') return { ok: false, status: 403, error: 'Permission denied. Only the clan Owner can kick an Admin.' };
  return { ok: true };
}

/** The hint shown to a sole manager on their own row (docs/client.md §5). */
export const SOLE_MANAGER_HINT = 'As the sole manager, you must use the Disband Clan button on the Manage Clan page.';

/** Why the Owner cannot leave while another manager exists: the refusal and the hint on their own row. */
export const OWNER_LEAVE_HINT = 'The clan Owner cannot leave. Transfer ownership first by promoting an Admin, then leave.';

/**
 * Whether a member with `role` may leave a clan that has `managerCount` managers (docs/game-rules.md
 * §11; docs/server.md §4). A sole
 * manager is refused (409); so is an Owner while other managers exist, since a clan keeps its Owner:
 * they transfer ownership first (409).
 */
export function checkLeave(role: ClanRole, managerCount: number): RuleVerdict {
  if (isManagerRole(role) && managerCount <= 1) {
    return { ok: false, status: 409, error: 'You are the sole manager of this clan and cannot leave it. Use the Disband Clan button on the Manage Clan page instead.' };
  }
  if (role === 'Owner') {
    return { ok: false, status: 409, error: OWNER_LEAVE_HINT };
  }
  return { ok: true };
}

/**
 * Whether `actor` may add a member with `role` (docs/client.md §5): managers
 * only (403); never as Owner (400); as Admin only by the Owner (403).
 */
export function checkAddRole(actorRole: ClanRole, role: ClanRole): RuleVerdict {
  if (!isManagerRole(actorRole)) return { ok: false, status: 403, error: PERMISSION_DENIED };
  if (role === 'Owner') return { ok: false, status: 400, error: 'A member cannot be added as Owner. Add them as Admin and transfer ownership instead.' };
  if (role === 'Admin' && actorRole !== 'Owner') return { ok: false, status: 403, error: 'Permission denied. Only the clan Owner can add an Admin.' };
  return { ok: true };
}
