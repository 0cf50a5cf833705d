import * as v from 'valibot';

// ---------------------------------------------------------------------------------------------
// Add Member's search (docs/server.md §18, "What members see"): GET
// /api/clan/{clanId}/available_members?q= and the texts the dialog shows.
// ---------------------------------------------------------------------------------------------

/** Fewest characters of a search by name. */
export const MEMBER_SEARCH_MIN = 3;
/** Longest search by name (a username is shorter). */
const MEMBER_SEARCH_MAX = 100;
/** Most users a search adds to the list. */
export const MEMBER_SEARCH_LIMIT = 20;

/** The 400 texts of a bad `q`. */
export const MEMBER_SEARCH_MESSAGES = {
  tooShort: `Type at least ${MEMBER_SEARCH_MIN} characters to search by name.`,
  tooLong: `A search by name is at most ${MEMBER_SEARCH_MAX} characters.`,
} as const;

/**
 * The query of GET .../available_members: `q`, when given, the start of a username (trimmed,
 * NFC), at least 3 and at most 100 characters, else 400 with MEMBER_SEARCH_MESSAGES.
 */
export const AvailableMembersQuerySchema = v.object({
  q: v.optional(
    v.pipe(
      v.string(MEMBER_SEARCH_MESSAGES.tooShort),
      v.trim(),
      v.normalize('NFC'),
      v.check((q) => [...q].length >= MEMBER_SEARCH_MIN, MEMBER_SEARCH_MESSAGES.tooShort),
      v.check((q) => [...q].length <= MEMBER_SEARCH_MAX, MEMBER_SEARCH_MESSAGES.tooLong),
    ),
  ),
});
