import { describe, expect, it } from 'vitest';
import { gettingStartedOf, hasHadGame } from '../../contract/clanDesk';
import { countPendingProof, pendingProofsOf } from '../../contract/pendingProofs';
import type { Submission } from '../../contract/submission';

/**
 * The pure rules behind a manager's signals outside Manage Clan: the getting-started steps of a
 * clan (contract/clanDesk.ts) and the pending-proof count's merge of a live update
 * (contract/pendingProofs.ts).
 */

const event = (id: number, game_id: number | null, team_count: number) => ({ id, game_id, team_count });

describe('gettingStartedOf and hasHadGame', () => {
  it('ticks each step from the events (by start) and the task pool, and names the first event', () => {
    expect(gettingStartedOf([], 0)).toEqual({ tasks: false, event: false, teams: false, game: false, eventId: null });
    expect(gettingStartedOf([event(4, null, 0)], 144)).toEqual({ tasks: true, event: true, teams: false, game: false, eventId: 4 });
    expect(gettingStartedOf([event(4, null, 0), event(2, null, 3)], 1)).toEqual({ tasks: true, event: true, teams: true, game: false, eventId: 4 });
    expect(gettingStartedOf([event(4, 9, 2)], 1).game).toBe(true);
  });
  it('a clan has had a game once any of its events has one', () => {
    expect(hasHadGame([])).toBe(false);
    expect(hasHadGame([event(1, null, 2), event(2, null, 0)])).toBe(false);
    expect(hasHadGame([event(1, null, 2), event(2, 7, 0)])).toBe(true);
  });
});

const sub = (id: number, game_id: number, status: Submission['status'] = 'pending') => ({ id, game_id, status }) as Submission;

describe('pendingProofsOf and countPendingProof', () => {
  const known = pendingProofsOf(7, [sub(1, 30), sub(2, 31, 'approved')]);
  it('takes the pending ones of a clan queue with their clan and game', () => {
    expect(known).toEqual([{ id: 1, clanId: 7, gameId: 30 }]);
  });
  it('adds a pending proof of a known game once, drops any other status, and knows nothing of a new game', () => {
    expect(countPendingProof(known, sub(3, 30))).toEqual([...known, { id: 3, clanId: 7, gameId: 30 }]);
    expect(countPendingProof(known, sub(1, 30))).toEqual(known);
    expect(countPendingProof(known, sub(1, 30, 'denied'))).toEqual([]);
    expect(countPendingProof(known, sub(5, 30, 'withdrawn'))).toEqual(known);
    expect(countPendingProof(known, sub(4, 99))).toBeNull();
  });
});
