import * as v from 'valibot';
import { IGN_MAX, IGN_MIN } from './user';
import { clanNameSchema } from './clan';
import { cleanText, typedTextSchema } from './text';
import { NewJoinRequestSchema } from './joins';

/** Onboarding step 1 error (docs/game-rules.md §13). */
export const ONBOARDING_IGN_ERROR = 'Please enter at least one valid IGN.';
/** Onboarding step 2 errors (docs/game-rules.md §13). */
export const OWNER_NEEDS_NAME = 'Clan Owner must enter a Clan Name.';
export const MEMBER_NEEDS_CLAN = 'Clan Member must select an existing Clan.';

/**
 * Splits comma-separated IGN text: items cleaned as the text rule does (zero-width and bidi
 * controls removed, NFC, trimmed; contract/text.ts cleanText), empty ones dropped, duplicates
 * (case-sensitive) dropped. Control characters are kept for the server to refuse with the field
 * named. Input: raw text. Output: IGN strings in typed order.
 */
export function splitIgnList(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const ign = cleanText(part);
    if (ign) seen.add(ign);
  }
  return [...seen];
}

/**
 * Onboarding step 1 rule (docs/game-rules.md §13): keeps the items of 1-12 characters
 * after trimming, drops longer ones. Returns the kept IGNs, or the documented error text when none.
 */
export function onboardingIgns(text: string): { igns: string[] } | { error: string } {
  const igns = splitIgnList(text).filter((i) => i.length >= IGN_MIN && i.length <= IGN_MAX);
  return igns.length > 0 ? { igns } : { error: ONBOARDING_IGN_ERROR };
}

/** The items of `text` that onboardingIgns drops (not 1-12 characters), so step 2 can say so instead of dropping them silently. */
export function droppedIgns(text: string, kept: readonly string[]): string[] {
  return splitIgnList(text).filter((i) => !kept.includes(i));
}

/** The line naming the IGNs onboarding will not link. */
export const droppedIgnsText = (igns: readonly string[]) => `Not linked (an IGN has 1 to ${IGN_MAX} characters): ${igns.join(', ')}`;

/** Clan choice of onboarding step 2 (docs/game-rules.md §12). */
const CLAN_SETUP_ROLES = ['Owner', 'Member', 'None'] as const;
export type ClanSetupRole = (typeof CLAN_SETUP_ROLES)[number];

/**
 * Onboarding step 2 rule (docs/game-rules.md §13): Owner needs a clan name (what is left
 * after the text rule's cleaning, so a name of invisible characters is none), Member a clan.
 * Returns the documented error text, or null when the choice is complete.
 */
export function clanSetupError(choice: { role: ClanSetupRole; clan_name?: string; clan_id?: number | null }): string | null {
  if (choice.role === 'Owner' && !cleanText(choice.clan_name ?? '')) return OWNER_NEEDS_NAME;
  if (choice.role === 'Member' && !choice.clan_id) return MEMBER_NEEDS_CLAN;
  return null;
}

/** One IGN of the setup list: the text rule ('IGN (igns) must not contain control characters.'), then 1-12 characters. */
const SetupIgnSchema = typedTextSchema({
  label: 'IGN',
  field: 'igns',
  required: ONBOARDING_IGN_ERROR,
  min: IGN_MIN,
  max: IGN_MAX,
  tooLong: `Each IGN must be 1 to ${IGN_MAX} characters.`,
});

/**
 * POST /api/user/setup body (docs/server.md §3): igns 1-12 characters each, at least
 * one; clan_setup Owner with clan_name, Member with clan_id, or None.
 */
export const SetupBodySchema = v.object({
  igns: v.pipe(v.array(SetupIgnSchema, ONBOARDING_IGN_ERROR), v.minLength(1, ONBOARDING_IGN_ERROR), v.maxLength(20, 'At most 20 IGNs at once.')),
  clan_setup: v.variant('role', [
    v.object({ role: v.literal('Owner'), clan_name: v.optional(clanNameSchema('clan_name', OWNER_NEEDS_NAME), '') }),
    v.object({ role: v.literal('Member'), clan_id: v.pipe(v.optional(v.number(MEMBER_NEEDS_CLAN), 0), v.integer(MEMBER_NEEDS_CLAN), v.minValue(1, MEMBER_NEEDS_CLAN), v.maxValue(2147483647, `Clan ID not found.`)) }),
    v.object({ role: v.literal('None') }),
  ], 'Clan setup role must be Owner, Member or None.'),
});
export type SetupInput = v.InferInput<typeof SetupBodySchema>;

/** POST /api/user/setup answer; `join_request` when the Member choice asked a `request` clan (docs/server.md §18). */
export const SetupAnswerSchema = v.object({ ign_count: v.number(), join_request: v.optional(NewJoinRequestSchema) });
