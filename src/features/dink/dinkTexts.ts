import { progressUnit, type AutoRuleType, type DinkOutcome } from '../../../contract/dink';

/**
 * Texts of the Dink panel, the task forms' auto rule and the referee queue's evidence
 * (docs/client.md §7, §8, §10).
 */

/** The rule types as the panel, the task forms and the referee queue name them: Dink's notifiers, then Wise Old Man's. */
export const DINK_TYPE_LABELS: Record<AutoRuleType, string> = {
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
  XP: 'Wise Old Man: XP',
  KC: 'Wise Old Man: Kills or score',
  EHB: 'Wise Old Man: EHB',
  EHP: 'Wise Old Man: EHP',
};

/** What each rule type's names are (docs/server.md §13), shown under the names field. */
export const DINK_NAMES_HINT: Record<AutoRuleType, string> = {
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
  XP: 'Wise Old Man skill names (for example fishing), one per line.',
  KC: 'Wise Old Man boss or activity names (for example zulrah, clue_scrolls_all), one per line.',
  EHB: 'No names: efficient hours bossed.',
  EHP: 'No names: efficient hours played.',
};

/** What `min` means for each rule type, or null when the type has no quantity. */
export const DINK_MIN_LABEL: Record<AutoRuleType, string | null> = {
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
  XP: null,
  KC: null,
  EHB: null,
  EHP: null,
};

/** Why a post did or did not count (docs/server.md §13 outcomes), beside the outcome's own word. */
export const DINK_OUTCOME_TEXT: Record<DinkOutcome, string> = {
  counted: 'added to the team’s total',
  submitted: 'sent to the referees',
  approved: 'approved automatically',
  no_task: 'the team has no open task on its square',
  no_match: 'does not match the task’s rule',
  unknown_player: 'no team member has this IGN',
  suspicious: 'another account posted for this IGN',
  duplicate: 'the same post arrived before',
  not_running: 'the game is not in progress',
  over_quota: 'the clan has used its storage for proof images',
};

/** The tone each outcome shows in. */
export const DINK_OUTCOME_TONE: Record<DinkOutcome, 'success' | 'info' | 'warning' | 'error'> = {
  counted: 'success',
  submitted: 'info',
  approved: 'success',
  no_task: 'info',
  no_match: 'warning',
  unknown_player: 'warning',
  suspicious: 'error',
  duplicate: 'info',
  not_running: 'info',
  over_quota: 'error',
};

/** The game screen's proof box when the task has an auto rule (docs/client.md §9). */
export const DINK_SENDS_PROOF = 'Dink will send this automatically';
/** The same for a Wise Old Man total (XP, KC, EHB, EHP): no post to send, the site checks the gains. */
export const WOM_CHECKS_PROOF = 'Wise Old Man gains count automatically';

/** A Wise Old Man metric name as people read it: 'clue_scrolls_all' → 'Clue scrolls all'. */
function metricLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a team total's unit is called after its number (docs/server.md §17 Rules). */
const UNIT_WORDS = { items: 'items', kills: 'kills', xp: 'XP', hours: 'hours', posts: 'posts' } as const;

/** Names joined for a sentence: 'A', 'A or B', 'A, B or C'. */
const orList = (names: readonly string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`);

/**
 * One line of a task's auto rule, as the task list, the board's square info and the team's task
 * card show it (docs/client.md §8, §9):
 * - a Dink rule without a total: 'Loot: Dragon warhammer, Dragon pickaxe (at least 1)';
 * - a team total: 'Team total: 500,000 Fishing XP', 'Team total: 50 Zulrah kills',
 *   'Team total: 500 items of Zulrah's scales', 'Team total: 20 hours EHB';
 * - distinct: 'Team total: any 3 of Tanzanite fang, Magic fang or Serpentine visage (Collection Log)'.
 */
export function autoRuleText(rule: { type: AutoRuleType; names: readonly string[]; min: number | null; team_total?: number | null; distinct?: boolean }): string {
  const total = rule.team_total ?? null;
  if (total === null) {
    const names = rule.names.length > 0 ? `: ${rule.names.join(', ')}` : '';
    const min = rule.min !== null ? ` (at least ${rule.min})` : '';
    return `${DINK_TYPE_LABELS[rule.type]}${names}${min}`;
  }
  const n = total.toLocaleString('en-US');
  switch (rule.type) {
    case 'XP':
      return `Team total: ${n} ${orList(rule.names.map(metricLabel))} XP`;
    case 'KC':
      return `Team total: ${n} ${orList(rule.names.map(metricLabel))} kills`;
    case 'EHB':
    case 'EHP':
      return `Team total: ${n} hours ${rule.type}`;
    default:
      break;
  }
  if (rule.distinct) return `Team total: any ${n} of ${orList(rule.names)} (${DINK_TYPE_LABELS[rule.type]})`;
  const unit = UNIT_WORDS[progressUnit({ type: rule.type, distinct: false })];
  if (rule.type === 'KILL_COUNT') return `Team total: ${n} ${orList(rule.names)} kills`;
  return `Team total: ${n} ${unit} of ${orList(rule.names)} (${DINK_TYPE_LABELS[rule.type]})`;
}
