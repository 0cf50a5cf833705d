import { AUTO_RULE_TYPES } from '../../../contract/dink';
import { TIERS } from '../../../contract/game/tiers';

/** The texts of the Tasks tab (docs/client.md §8). */
export const TASK_TEXTS = {
  /** The CSV importer's hint: the columns the server reads (docs/server.md §4, the auto_* columns §13 and §17 Rules). */
  csvHint: [
    `A .csv file (at most 1 MiB) with a header row naming the columns description and difficulty (${TIERS.join(', ')}).`,
    `Optional columns give a task's rule: auto_type (${AUTO_RULE_TYPES.join(', ')}), auto_names (the names that count, separated by |; Wise Old Man metric names for XP and KC), auto_min (the minimum, or blank), auto_total (a team total, or blank) and auto_distinct (true or false: each name counts once).`,
    'Rows already in the pool are skipped.',
  ].join(' '),
} as const;
