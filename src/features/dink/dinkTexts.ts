import type { DinkOutcome, DinkType } from '../../../contract/dink';

/**
 * Texts of the Dink panel, the task forms' auto rule and the referee queue's evidence
 * (docs/client.md §7, §8, §10).
 */

/** The notifier types of Dink as the panel and the task forms name them. */
export const DINK_TYPE_LABELS: Record<DinkType, string> = {
  LOOT: 'Loot',
  COLLECTION: 'Collection Log',
  KILL_COUNT: 'Kill Count',
  LEVEL: 'Levels',
  QUEST: 'Quests',
  CLUE: 'Clue Scrolls',
  PET: 'Pets',
  COMBAT_ACHIEVEMENT: 'Combat Achievements',
  ACHIEVEMENT_DIARY: 'Achievement Diary',
  SLAYER: 'Slayer',
};

/** What each rule type's names are (docs/server.md §13), shown under the names field. */
export const DINK_NAMES_HINT: Record<DinkType, string> = {
  LOOT: 'Item names, one per line.',
  COLLECTION: 'Item names, one per line.',
  KILL_COUNT: 'Boss names, one per line.',
  LEVEL: 'Skill names, one per line.',
  QUEST: 'Quest names, one per line.',
  CLUE: 'Clue tiers (for example Elite), one per line.',
  PET: 'Pet names, one per line.',
  COMBAT_ACHIEVEMENT: 'Combat task names, one per line.',
  ACHIEVEMENT_DIARY: 'Area and difficulty (for example Ardougne Hard), one per line.',
  SLAYER: 'Monster names, one per line.',
};

/** What `min` means for each rule type, or null when the type has no quantity. */
export const DINK_MIN_LABEL: Record<DinkType, string | null> = {
  LOOT: 'Minimum quantity',
  COLLECTION: null,
  KILL_COUNT: 'Minimum kill count',
  LEVEL: 'Minimum level',
  QUEST: null,
  CLUE: null,
  PET: null,
  COMBAT_ACHIEVEMENT: null,
  ACHIEVEMENT_DIARY: null,
  SLAYER: 'Minimum kill count',
};

/** Why a post did or did not count (docs/server.md §13 outcomes), beside the outcome's own word. */
export const DINK_OUTCOME_TEXT: Record<DinkOutcome, string> = {
  submitted: 'sent to the referees',
  approved: 'approved automatically',
  no_task: 'the team has no open task on its square',
  no_match: 'does not match the task’s rule',
  unknown_player: 'no team member has this IGN',
  suspicious: 'another account posted for this IGN',
  duplicate: 'the same post arrived before',
  not_running: 'the game is not in progress',
};

/** The tone each outcome shows in. */
export const DINK_OUTCOME_TONE: Record<DinkOutcome, 'success' | 'info' | 'warning' | 'error'> = {
  submitted: 'info',
  approved: 'success',
  no_task: 'info',
  no_match: 'warning',
  unknown_player: 'warning',
  suspicious: 'error',
  duplicate: 'info',
  not_running: 'info',
};

/** The game screen's proof box when the task has an auto rule (docs/client.md §9). */
export const DINK_SENDS_PROOF = 'Dink will send this automatically';

/** One line of a task's auto rule: 'Loot: Dragon warhammer, Dragon pickaxe (at least 1)'. */
export function autoRuleText(rule: { type: DinkType; names: readonly string[]; min: number | null }): string {
  const names = rule.names.length > 0 ? `: ${rule.names.join(', ')}` : '';
  const min = rule.min !== null ? ` (at least ${rule.min})` : '';
  return `${DINK_TYPE_LABELS[rule.type]}${names}${min}`;
}
