import type { EligibleMember, TeamMember } from './team';

/**
 * The eligible list of a team's member manager (docs/client.md §6): one
 * option per in-game account on no team of the event, sorted by name; pure helpers of the
 * teamMembers chart.
 */

/** One in-game account that may be added to the team: the dropdown's option. */
export interface EligibleIgn {
  id: number;
  ign: string;
  /** The owner's chat-platform id, null when the viewer may not see it (docs/server.md §18). */
  discord_id: string | null;
  /** The owner's chat-platform name, when known. */
  discord_username: string | null;
}

/** Sort order of the eligible list: by IGN, case-insensitively, then by id. */
function compareEligible(a: EligibleIgn, b: EligibleIgn): number {
  return a.ign.localeCompare(b.ign, undefined, { sensitivity: 'base' }) || a.id - b.id;
}

/** The eligible members of the members answer as one option per in-game account, sorted by name. */
export function flattenEligible(members: EligibleMember[]): EligibleIgn[] {
  return members
    .flatMap((m) => m.osrs_accounts.map((a) => ({ id: a.id, ign: a.ign, discord_id: m.discord_id, discord_username: m.discord_username })))
    .sort(compareEligible);
}

/** The eligible list without the account `ignId` (added to the team). */
export function withoutIgn(list: EligibleIgn[], ignId: number): EligibleIgn[] {
  return list.filter((e) => e.id !== ignId);
}

/** The eligible list with a removed member's account put back, sorted by name (docs/game-rules.md §6). */
export function withIgnReturned(list: EligibleIgn[], member: TeamMember, usernames: Record<string, string>): EligibleIgn[] {
  if (list.some((e) => e.id === member.osrs_ign_id)) return list;
  const back: EligibleIgn = {
    id: member.osrs_ign_id,
    ign: member.osrs_ign,
    discord_id: member.discord_id,
    discord_username: member.discord_id === null ? null : (usernames[member.discord_id] ?? null),
  };
  return [...list, back].sort(compareEligible);
}

