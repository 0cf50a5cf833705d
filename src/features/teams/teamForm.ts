import * as v from 'valibot';
import { DEFAULT_TEAM_COLOR, TEAM_BAD_COLOR, TEAM_BAD_DISCORD_ROLE, TEAM_COLOR_PRESETS, TeamNameSchema, type Team, type TeamBody } from '../../../contract/team';
import { firstIssueMessage } from '../../../contract/common';

/** Colour picker rates of docs/client.md §12: picker updates throttled, typed hex debounced (ms). */
export const COLOR_THROTTLE_MS = 50;
export const COLOR_DEBOUNCE_MS = 100;
/** Colour shown for a team whose stored colour is unreadable (docs/game-rules.md §12 Team: display fallback). */
const TEAM_COLOR_FALLBACK = '#cccccc';

/** The team form as the confirmAction draft holds it. */
export interface TeamDraft {
  name: string;
  color: string;
  /** The 'Discord role ID' field (docs/server.md §19 "Team pings"); absent until typed on create. */
  discordRoleId?: string;
}

/**
 * The colour a new team starts with: the first of TEAM_COLOR_PRESETS that no team in `used` (the
 * event's team colours, any hex spelling) has; the first preset again once all are taken.
 */
export function firstFreeTeamColor(used: readonly string[]): string {
  const taken = new Set(used.map((c) => normalizeHex(c)));
  return (TEAM_COLOR_PRESETS.find((p) => !taken.has(p.hex)) ?? TEAM_COLOR_PRESETS[0]).hex;
}

/** Draft of the create modal: empty name, the first preset colour not used by `usedColors` (the event's teams). */
export function newTeamDraft(usedColors: readonly string[] = []): TeamDraft {
  return { name: '', color: firstFreeTeamColor(usedColors) };
}

/** Draft of the edit modal, filled from the team. */
export function editTeamDraft(team: Pick<Team, 'name' | 'color'> & { discord_role_id?: string | null }): TeamDraft {
  return { name: team.name, color: normalizeHex(team.color) ?? DEFAULT_TEAM_COLOR, discordRoleId: team.discord_role_id ?? '' };
}

/** Reads an untyped draft (the model tests' `Record<string, unknown>`) as a TeamDraft. */
export function asTeamDraft(draft: Record<string, unknown>): TeamDraft {
  return {
    name: typeof draft.name === 'string' ? draft.name : '',
    color: typeof draft.color === 'string' ? draft.color : DEFAULT_TEAM_COLOR,
    ...(typeof draft.discordRoleId === 'string' ? { discordRoleId: draft.discordRoleId } : {}),
  };
}

/**
 * A hex colour as `#rrggbb` lower-case (no alpha, docs/game-rules.md §4 "colour
 * field"): accepts '#abc' / 'abc' / '#AABBCC'; null for anything else (including alpha forms).
 */
export function normalizeHex(text: string): string | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (!m) return null;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return `#${hex.toLowerCase()}`;
}

/** A stored team colour for display: the colour, or #cccccc when it is unreadable. */
export function displayColor(color: string | null | undefined): string {
  return (color && normalizeHex(color)) || TEAM_COLOR_FALLBACK;
}

/**
 * The team form rule (docs/client.md §6): the name as the server checks it
 * (TeamNameSchema: the text rule, then 'Team name is required.', at most 50 characters); colour a
 * hex colour; the Discord role ID empty or 17 to 20 digits (docs/server.md §19). Null when the
 * form may be submitted.
 */
export function teamFormError(draft: TeamDraft): string | null {
  const name = v.safeParse(TeamNameSchema, draft.name);
  if (!name.success) return firstIssueMessage(name.issues);
  if (!normalizeHex(draft.color)) return TEAM_BAD_COLOR;
  const role = (draft.discordRoleId ?? '').trim();
  if (role !== '' && !/^[0-9]{17,20}$/.test(role)) return TEAM_BAD_DISCORD_ROLE;
  return null;
}

/** The body of POST / PUT team from a valid draft: the Discord role id (null when cleared) only once the draft has the field. */
export function teamBody(draft: TeamDraft): TeamBody {
  const body: TeamBody = { name: draft.name.trim(), color: normalizeHex(draft.color) ?? DEFAULT_TEAM_COLOR };
  if (draft.discordRoleId !== undefined) body.discord_role_id = draft.discordRoleId.trim() === '' ? null : draft.discordRoleId.trim();
  return body;
}
