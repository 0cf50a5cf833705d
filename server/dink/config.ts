import type { Db } from '../db/schema';
import { dinkConfig, type DinkConfig, type DinkConfigRule } from '../../contract/dinkConfig';
import { parseStoredRule } from '../tasks/repository';

/**
 * The one-link set-up of an event's Dink URL (docs/server.md §13 "One-link set-up"): the rules of
 * the tasks on its games' boards, and of every relief substitute drawn so far (a substitute counts
 * from when it is drawn), turned into Dink's config keys by contract/dinkConfig.ts. Rules are read
 * in square order, then draw order, so the LOOT allowlist keeps a stable order.
 */
export async function dinkConfigOf(db: Db, eventId: number, webhook: string): Promise<DinkConfig> {
  const onBoard = await db
    .selectFrom('board_squares')
    .innerJoin('games', 'games.id', 'board_squares.game_id')
    .innerJoin('tasks', 'tasks.id', 'board_squares.task_id')
    .select('tasks.auto_rule')
    .where('games.event_id', '=', eventId)
    .where('tasks.auto_rule', 'is not', null)
    .orderBy('board_squares.game_id')
    .orderBy('board_squares.square_index')
    .execute();
  const drawn = await db
    .selectFrom('relief_draws')
    .innerJoin('games', 'games.id', 'relief_draws.game_id')
    .innerJoin('tasks', 'tasks.id', 'relief_draws.task_id')
    .select('tasks.auto_rule')
    .where('games.event_id', '=', eventId)
    .where('tasks.auto_rule', 'is not', null)
    .orderBy('relief_draws.id')
    .execute();
  const rules: DinkConfigRule[] = [];
  for (const row of [...onBoard, ...drawn]) {
    const rule = parseStoredRule(row.auto_rule);
    if (rule) rules.push(rule);
  }
  return dinkConfig(webhook, rules);
}
