import { ACTIVITIES, BOSSES, SKILLS } from '@wise-old-man/utils';
import { womMetricError, type AutoRule, type WomMetricLists } from '../../contract/dink';

/**
 * Wise Old Man's metric names from its official package (@wise-old-man/utils): skills for XP
 * rules, bosses and activities for KC rules (docs/server.md §17 Rules). Imported only here, on the
 * server: the package does not tree-shake, so contract/ takes the lists as a parameter and the
 * client's task editor loads them on demand (src/features/tasks/womMetricLists.ts).
 */
const WOM_METRIC_LISTS: WomMetricLists = {
  skills: [...SKILLS],
  killables: [...BOSSES, ...ACTIVITIES],
};

/**
 * The 400 text when a checked rule names something that is not a Wise Old Man metric of its kind
 * (XP: a skill; KC: a boss or activity; EHB/EHP: any name), else null. Used by the task API and
 * the CSV import after AutoRuleSchema.
 */
export function ruleMetricError(rule: AutoRule | null | undefined): string | null {
  return rule ? womMetricError(rule, WOM_METRIC_LISTS) : null;
}
