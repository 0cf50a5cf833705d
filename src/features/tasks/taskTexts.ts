import { DINK_TYPES } from '../../../contract/dink';
import { TIERS } from '../../../contract/game/tiers';

/** The texts of the Tasks tab (docs/client.md §8). */
export const TASK_TEXTS = {
  /** The CSV importer's hint: the columns the server reads (docs/server.md §4, the auto_* columns §13). */
  csvHint: [
    `A .csv file (at most 1 MiB) with a header row naming the columns description and difficulty (${TIERS.join(', ')}).`,
    `Optional columns give a task's Dink rule: auto_type (${DINK_TYPES.join(', ')}), auto_names (the names that count, separated by |) and auto_min (the minimum, or blank).`,
    'Rows already in the pool are skipped.',
  ].join(' '),
} as const;
