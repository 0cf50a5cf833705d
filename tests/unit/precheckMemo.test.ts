import { describe, expect, it } from 'vitest';
import { GameCache } from '../../server/games/cache';
import { PrecheckMemo } from '../../server/games/precheckMemo';
import type { AppliedAction, PrecheckedAction } from '../../server/games/play';
import type { TeamAction } from '../../contract/socket';

/**
 * PrecheckMemo (server/games/precheckMemo.ts; docs/server.md §5): what a roll leaves is recalled
 * for the next roll only while the game cache's generation is the one that roll left, and never
 * for what checkAction would refuse.
 */

const GAME = 7;
const action: TeamAction = { game_id: GAME, team_id: 11, performer_ign_id: 21 };

function pre(version = 3): PrecheckedAction {
  return {
    userId: 5,
    sessionHash: 'hash-a',
    game: {
      id: GAME, event_id: 2, status: 'in-progress', board_size: 100, max_reverts_allowed: 3, board_connections: '[]',
      winners: null, version, proof_required: 0, dice_seed: 'seed',
    },
    team: { id: 31, current_position: 1, revert_count: 0, position_history: '[1]', task_state: 'none', name: 'Red Team', color: '#aa0000' },
    lastRollIndex: 0,
  };
}

/** A committed roll of team 11 to square `to` at version `version`, roll index `k`. */
function applied(version: number, to: number, k: number, status = 'in-progress', taskState: 'none' | 'open' = 'none'): AppliedAction {
  return {
    progress: {
      id: GAME, status, winners: null, version, last_move: null,
      team_states: [{
        team_id: 11, team_name: 'Red Team', team_color: '#aa0000', current_position: to, revert_count: 0,
        position_history: [1, to], task_state: taskState, square_since: '2031-06-01T18:00:00.000Z', task_override: null,
      }],
    } as unknown as AppliedAction['progress'],
    log: [{ id: 1, timestamp: '2031-06-01T18:00:00.000Z', team_name: 'Red Team', team_color: '#aa0000', message: 'Red Team rolled.', roll_index: k, die: to - 1 }],
    withdrawn: [],
  };
}

/** A memo over a cache whose invalidations the test makes (no database is read). */
function setup() {
  const cache = new GameCache(null as never, 250);
  return { cache, memo: new PrecheckMemo(cache) };
}

describe('PrecheckMemo', () => {
  it('recalls what the last roll left: the new version, position, history and roll index, for the same session, team and IGN', () => {
    const { cache, memo } = setup();
    const before = memo.generationOf(GAME);
    cache.invalidate(GAME);
    memo.remember(action, pre(), applied(4, 5, 1), before);
    const next = memo.recall(action, 'hash-a');
    expect(next).toMatchObject({ userId: 5, sessionHash: 'hash-a', lastRollIndex: 1, game: { version: 4 }, team: { id: 31, current_position: 5, position_history: '[1,5]' } });
    expect(memo.recall(action, 'hash-b')).toBeNull();
    expect(memo.recall({ ...action, performer_ign_id: 22 }, 'hash-a')).toBeNull();
    expect(memo.recall({ ...action, team_id: 12 }, 'hash-a')).toBeNull();
  });

  it('forgets the game when another invalidation came with the roll, or any comes after it', () => {
    const { cache, memo } = setup();
    let before = memo.generationOf(GAME);
    cache.invalidate(GAME);
    cache.invalidate(GAME, true);
    memo.remember(action, pre(), applied(4, 5, 1), before);
    expect(memo.recall(action, 'hash-a')).toBeNull();
    before = memo.generationOf(GAME);
    cache.invalidate(GAME);
    memo.remember(action, pre(), applied(4, 5, 1), before);
    expect(memo.recall(action, 'hash-a')).not.toBeNull();
    cache.invalidate(GAME, true);
    expect(memo.recall(action, 'hash-a')).toBeNull();
  });

  it('keeps nothing after a win, and recalls nothing checkAction would refuse (a proof gate)', () => {
    const { cache, memo } = setup();
    let before = memo.generationOf(GAME);
    cache.invalidate(GAME);
    memo.remember(action, pre(), applied(4, 100, 1, 'finished'), before);
    expect(memo.recall(action, 'hash-a')).toBeNull();
    const gated = pre();
    gated.game.proof_required = 1;
    before = memo.generationOf(GAME);
    cache.invalidate(GAME);
    memo.remember(action, gated, applied(4, 5, 1, 'in-progress', 'open'), before);
    expect(memo.recall(action, 'hash-a')).toBeNull();
  });
});
