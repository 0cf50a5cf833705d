import * as v from 'valibot';
import { typedTextSchema } from './text';

/** Team name limit after trimming, in characters (server rule; the docs only requires a name). */
export const TEAM_NAME_MAX = 50;
/**
 * Default colour of the team form (docs/client.md §12): the edit form's fallback for an
 * unreadable stored colour. A new team's form starts on a preset instead (TEAM_COLOR_PRESETS).
 */
export const DEFAULT_TEAM_COLOR = '#000000';

/** One preset team colour: its name (the swatch's accessible name) and `#rrggbb`. */
export interface TeamColorPreset {
  name: string;
  hex: string;
}

/**
 * The preset swatches of the team form, in the order a new team takes them: hues far apart on the
 * colour wheel, each mid-dark, so pawns, colour bars and podium blocks of different teams are told
 * apart at a glance and stand out on the parchment board.
 */
export const TEAM_COLOR_PRESETS: readonly TeamColorPreset[] = [
  { name: 'Red', hex: '#c62828' },
  { name: 'Blue', hex: '#1565c0' },
  { name: 'Green', hex: '#2e7d32' },
  { name: 'Gold', hex: '#f9a825' },
  { name: 'Purple', hex: '#6a1b9a' },
  { name: 'Orange', hex: '#ef6c00' },
  { name: 'Teal', hex: '#00838f' },
  { name: 'Pink', hex: '#d81b60' },
];
/** Team roles (docs/client.md §6, §12). */
export const TEAM_ROLES = ['Member', 'Leader'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** Messages (docs/client.md §6; docs/server.md §4). */
/** A team row's size (docs/client.md §1 'N Members'), singular for one: '1 Member'. */
export const teamSizeText = (n: number) => `${n} ${n === 1 ? 'Member' : 'Members'}`;

export const TEAM_NAME_REQUIRED = 'Team name is required.';
export const TEAM_NAME_TOO_LONG = `Team name must be at most ${TEAM_NAME_MAX} characters.`;
export const TEAM_BAD_COLOR = 'Colour must be a hex colour like #1a2b3c (no alpha).';
export const TEAM_BAD_ROLE = 'Role must be Member or Leader.';
export const TEAM_IGN_REQUIRED = 'An in-game account must be chosen.';
/** The refusal of a Discord role id that is not 17 to 20 digits (docs/server.md §19 "Team pings"). */
export const TEAM_BAD_DISCORD_ROLE = 'Discord role ID must be 17 to 20 digits.';

/** A hex colour `#rrggbb` with no alpha (docs/server.md §4); answered lowercased. */
const HexColorSchema = v.pipe(
  v.string(TEAM_BAD_COLOR),
  v.trim(),
  v.regex(/^#[0-9a-fA-F]{6}$/, TEAM_BAD_COLOR),
  v.toLowerCase(),
);

/**
 * A team's Discord role id (docs/server.md §19 "Team pings"): 17 to 20 digits, or null (an empty
 * or blank text is null too, so a cleared form field removes it).
 */
const DiscordRoleIdSchema = v.nullable(v.pipe(
  v.string(TEAM_BAD_DISCORD_ROLE),
  v.trim(),
  v.transform((s) => (s === '' ? null : s)),
  v.nullable(v.pipe(v.string(), v.regex(/^[0-9]{17,20}$/, TEAM_BAD_DISCORD_ROLE))),
));

/** Team role picklist: 'Member' | 'Leader'. */
const TeamRoleSchema = v.picklist(TEAM_ROLES, TEAM_BAD_ROLE);

/**
 * A team name: the text rule (contract/text.ts; 'Team name (name) must not contain control
 * characters.'), then 1-50 characters.
 */
export const TeamNameSchema = typedTextSchema({ label: 'Team name', field: 'name', required: TEAM_NAME_REQUIRED, max: TEAM_NAME_MAX, tooLong: TEAM_NAME_TOO_LONG });

/**
 * POST /api/clan/{clanId}/events/{eventId}/teams/ and PUT .../teams/{teamId} body
 * (docs/server.md §3): name after the text rule 1-50, colour `#rrggbb`, and the team's Discord
 * role id (17-20 digits or null; docs/server.md §19 "Team pings").
 */
export const TeamBodySchema = v.object(
  {
    // Missing keys default to '' (0 for ids) so the field's own message answers.
    name: v.optional(TeamNameSchema, ''),
    color: v.optional(HexColorSchema, ''),
    /** The team's Discord role (docs/server.md §19): absent keeps it on edit (none on create). */
    discord_role_id: v.optional(DiscordRoleIdSchema),
  },
  'Request body must be a JSON object.',
);
export type TeamBody = v.InferOutput<typeof TeamBodySchema>;

/** A team (docs/game-rules.md §12). */
const TeamSchema = v.object({ id: v.number(), name: v.string(), color: v.string(), member_count: v.number(), discord_role_id: v.nullable(v.string()) });
export type Team = v.InferOutput<typeof TeamSchema>;

/** GET .../teams/ answer. */
export const TeamListAnswerSchema = v.object({ teams: v.array(TeamSchema) });
/** POST and PUT team answer (message: "Team '{name}' created/updated successfully."). */
export const TeamAnswerSchema = v.object({ team: TeamSchema, message: v.optional(v.string()) });
/** DELETE team answer. */
export const TeamDeletedAnswerSchema = v.object({ ok: v.literal(true), message: v.optional(v.string()) });

/** A team member (docs/game-rules.md §12); id is the team membership id. */
const TeamMemberSchema = v.object({
  id: v.number(),
  osrs_ign: v.string(),
  osrs_ign_id: v.number(),
  role: TeamRoleSchema,
  /** The IGN's user's chat-platform id: to that user and to managers of a clan they share, else null (docs/server.md §18). */
  discord_id: v.nullable(v.string()),
});
export type TeamMember = v.InferOutput<typeof TeamMemberSchema>;

/** A clan member with the IGNs that are on no team of the event (docs/game-rules.md §12). */
const EligibleMemberSchema = v.object({
  /** As a team member's: null unless the viewer is the user or manages a clan they share (docs/server.md §18). */
  discord_id: v.nullable(v.string()),
  discord_username: v.string(),
  user_id: v.number(),
  osrs_accounts: v.array(v.object({ id: v.number(), ign: v.string() })),
});
export type EligibleMember = v.InferOutput<typeof EligibleMemberSchema>;

/** GET .../teams/{teamId}/members answer; eligible members sorted by name, their IGNs too. */
export const TeamMembersAnswerSchema = v.object({
  team_members: v.array(TeamMemberSchema),
  eligible_members: v.array(EligibleMemberSchema),
});
export type TeamMembersAnswer = v.InferOutput<typeof TeamMembersAnswerSchema>;

const IgnIdSchema = v.pipe(
  v.number(TEAM_IGN_REQUIRED),
  v.integer(TEAM_IGN_REQUIRED),
  v.minValue(1, TEAM_IGN_REQUIRED),
  v.maxValue(2147483647, TEAM_IGN_REQUIRED),
);

/** POST .../teams/{teamId}/members body (docs/game-rules.md §12 Add-member forms: team). */
export const AddTeamMemberBodySchema = v.object(
  { osrs_ign_id: v.optional(IgnIdSchema, 0), role: v.optional(TeamRoleSchema, 'Member') },
  'Request body must be a JSON object.',
);

/** PUT .../teams/{teamId}/members/{id} body. */
export const UpdateTeamMemberBodySchema = v.object({ role: v.optional(TeamRoleSchema, '' as TeamRole) }, 'Request body must be a JSON object.');

/** POST and PUT team member answer with the documented success message (docs/client.md §11). */
export const TeamMemberAnswerSchema = v.object({ member: TeamMemberSchema, message: v.string() });
/** DELETE team member answer: '{ign} removed from team.' */
export const TeamMemberRemovedAnswerSchema = v.object({ ok: v.literal(true), message: v.string() });

/** Success messages of docs/client.md §11: member added, */
export const teamMemberAddedMessage = (ign: string, team: string, role: string) => `${ign} added to team ${team} as a ${role}.`;
/** ... member role changed, */
export const teamRoleUpdatedMessage = (role: string, ign: string) => `Role updated to ${role} for ${ign}.`;
/** ... member removed, */
export const teamMemberRemovedMessage = (ign: string) => `${ign} removed from team.`;
/** ... team created, */
export const teamCreatedMessage = (name: string) => `Team '${name}' created successfully.`;
/** ... team updated, */
export const teamUpdatedMessage = (name: string) => `Team '${name}' updated successfully.`;
/** ... team deleted. */
export const teamDeletedMessage = (name: string) => `Team '${name}' deleted successfully.`;
