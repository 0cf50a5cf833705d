import type { Db } from '../db/schema';
import { dinkConfig, type DinkConfig, type DinkConfigRule } from '../../contract/dinkConfig';
import { parseStoredRule } from '../tasks/repository';

/**
 * The one-link set-up of an event's Dink URL (docs/server.md §13 "One-link set-up"): the rules of
 * the tasks on its games' boards, and of every relief substitute drawn so far (a substitute counts
 * from when it is drawn), turned into Dink's config keys by contract/dinkConfig.ts. One query;
 * tasks by id, so the LOOT allowlist keeps a stable order.
 */
export async function dinkConfigOf(db: Db, eventId: number, webhook: string): Promise<DinkConfig> {
  const rows = await db
    .selectFrom('tasks')
    .select('auto_rule')
    .where('auto_rule', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('id', 'in', eb.selectFrom('board_squares').innerJoin('games', 'games.id', 'board_squares.game_id').select('board_squares.task_id').where('games.event_id', '=', eventId)),
        eb('id', 'in', eb.selectFrom('relief_draws').innerJoin('games', 'games.id', 'relief_draws.game_id').select('relief_draws.task_id').where('games.event_id', '=', eventId)),
      ]),
    )
    .orderBy('id')
    .execute();
  const rules: DinkConfigRule[] = [];
  for (const row of rows) {
    const rule = parseStoredRule(row.auto_rule);
    if (rule) rules.push(rule);
  }
  return dinkConfig(webhook, rules);
}
