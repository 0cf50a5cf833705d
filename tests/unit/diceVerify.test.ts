import { describe, expect, it } from 'vitest';
import { verifyHistory } from '../../contract/diceVerify';
import { commitmentOf, dieFor } from '../../contract/game/dice';
import type { GameHistory } from '../../contract/history';
import { reliefIndex } from '../../contract/game/relief';

/** The logic of the 'Verify dice' view (docs/game-rules.md §9): a history checked against its seed. */

const SEED = '204e27b9697905af3c216755a02458d00b020172507fb7f50f831bbf05659eaf';
const GAME_ID = 7;

/** A finished game's history with `rolls` true rolls (two teams in turn) and one revert, dice from SEED. */
async function honestHistory(rolls = 6): Promise<GameHistory> {
  const moves: GameHistory['moves'] = [];
  const at = { 1: 1, 2: 1 } as Record<number, number>;
  for (let k = 1; k <= rolls; k += 1) {
    const team = k % 2 === 1 ? 1 : 2;
    const die = await dieFor(SEED, GAME_ID, k);
    const from = at[team];
    at[team] = Math.min(from + die, 100);
    moves.push({ at: `2026-11-24T00:00:0${k}.000Z`, team_id: team, kind: 'roll', roll_index: k, die, from, landing: at[team], to: at[team], via: null });
    if (k === 2) {
      moves.push({ at: '2026-11-24T00:00:02.500Z', team_id: 2, kind: 'revert', roll_index: null, die: null, from: at[2], landing: null, to: from, via: null });
      at[2] = from;
    }
  }
  return {
    game: { id: GAME_ID, event_name: 'E', clan_name: 'C', board_size: 100, status: 'finished', winners: null, dice_commitment: await commitmentOf(SEED), dice_seed: SEED },
    teams: [{ team_id: 1, name: 'Red', color: '#aa0000' }, { team_id: 2, name: 'Blue', color: '#0000aa' }],
    moves,
    reviews: [],
  };
}

describe('verifyHistory', () => {
  it('marks every roll of an honest history verified and lists rolls only (no reverts)', async () => {
    const report = await verifyHistory(await honestHistory());
    expect(report.phase).toBe('checked');
    expect(report.commitmentMatches).toBe(true);
    expect(report.rolls.map((r) => r.roll_index)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(report.rolls.every((r) => r.result === 'verified' && r.expected === r.die)).toBe(true);
    expect([report.verified, report.failed]).toEqual([6, 0]);
    expect(report.rolls[1].team).toEqual({ team_id: 2, name: 'Blue', color: '#0000aa' });
  });

  it('marks the roll the revert undid as reverted, still verified, and counts 6 rolls, 1 reverted, 5 turns', async () => {
    const report = await verifyHistory(await honestHistory());
    expect(report.rolls.map((r) => r.reverted)).toEqual([false, true, false, false, false, false]);
    expect(report.rolls[1].result).toBe('verified');
    expect(report.counts).toEqual({ rolls: 6, reverts: 1, turns: 5 });
  });

  it('marks exactly the tampered roll not verified', async () => {
    const h = await honestHistory();
    const third = h.moves.find((m) => m.roll_index === 3)!;
    third.die = (third.die! % 6) + 1;
    const report = await verifyHistory(h);
    expect(report.rolls.map((r) => r.result)).toEqual(['verified', 'verified', 'failed', 'verified', 'verified', 'verified']);
    expect(report.rolls[2].expected).toBe(await dieFor(SEED, GAME_ID, 3));
    expect([report.verified, report.failed]).toEqual([5, 1]);
  });

  it('a roll whose index was changed is not verified unless the die happens to agree', async () => {
    const h = await honestHistory();
    const first = h.moves[0];
    first.roll_index = 26; // the die of roll 26 is 1 (tests/unit/game/dice.test.ts)
    const report = await verifyHistory(h);
    expect(report.rolls[0].expected).toBe(1);
    expect(report.rolls[0].result).toBe(first.die === 1 ? 'verified' : 'failed');
  });

  it('a seed that does not hash to the commitment verifies nothing', async () => {
    const h = await honestHistory();
    h.game.dice_commitment = await commitmentOf('00'.repeat(32));
    const report = await verifyHistory(h);
    expect(report.commitmentMatches).toBe(false);
    expect(report.rolls.every((r) => r.result === 'failed')).toBe(true);
    expect(report.failed).toBe(6);
  });

  it('a seed that is not hex is refused, not thrown', async () => {
    const h = await honestHistory();
    h.game.dice_seed = 'not a seed';
    const report = await verifyHistory(h);
    expect(report.commitmentMatches).toBe(false);
    expect(report.rolls.every((r) => r.result === 'failed' && r.expected === null)).toBe(true);
  });

  it('before the seed is revealed, the rolls wait and nothing is marked', async () => {
    const h = await honestHistory();
    h.game.dice_seed = null;
    h.game.status = 'in-progress';
    const report = await verifyHistory(h);
    expect([report.phase, report.commitmentMatches, report.verified, report.failed]).toEqual(['sealed', null, 0, 0]);
    expect(report.rolls.every((r) => r.result === 'pending' && r.expected === null)).toBe(true);
  });

  it('a game without rolls has an empty report', async () => {
    const report = await verifyHistory({ ...(await honestHistory()), moves: [] });
    expect(report.rolls).toEqual([]);
  });
});

/** Relief draws checked from the seed (docs/game-rules.md §15; contract reliefIndex). */
describe('verifyHistory: relief draws', () => {
  const CANDIDATES = [101, 104, 109, 130, 131];
  /** The honest draw of relief k of team 1: the candidate reliefIndex picks. */
  const drawn = async (k: number) => CANDIDATES[await reliefIndex(SEED, GAME_ID, 1, k, CANDIDATES.length)];
  const withReliefs = async (over: Partial<NonNullable<GameHistory['reliefs']>[number]> = {}, seed: string | null = SEED): Promise<GameHistory> => {
    const h = await honestHistory(2);
    return {
      ...h,
      game: { ...h.game, dice_seed: seed },
      reliefs: [
        { at: '2026-11-24T01:00:00.000Z', team_id: 1, k: 1, square_index: 5, candidate_ids: CANDIDATES, task_id: await drawn(1), description: 'Kill Vorkath', ...over },
        { at: '2026-11-24T02:00:00.000Z', team_id: 1, k: 2, square_index: 5, candidate_ids: CANDIDATES, task_id: await drawn(2), description: 'Kill Zulrah' },
      ],
    };
  };

  it('verifies honest draws and names the team, k, square and candidates', async () => {
    const report = await verifyHistory(await withReliefs());
    expect(report.reliefs.map((r) => [r.k, r.result, r.expected_task_id === r.task_id, r.candidates, r.square, r.team.name])).toEqual([
      [1, 'verified', true, 5, 5, 'Red'],
      [2, 'verified', true, 5, 5, 'Red'],
    ]);
    expect(report.reliefsFailed).toBe(0);
  });

  it('fails a substitute the seed does not pick, candidates out of id order, and any draw under a seed that is not the commitment', async () => {
    const wrong = (await drawn(1)) === 101 ? 104 : 101;
    expect((await verifyHistory(await withReliefs({ task_id: wrong }))).reliefs[0].result).toBe('failed');
    expect((await verifyHistory(await withReliefs({ candidate_ids: [...CANDIDATES].reverse() }))).reliefs[0].result).toBe('failed');
    const bad = await verifyHistory(await withReliefs({}, '00'.repeat(32)));
    expect(bad.reliefs.map((r) => r.result)).toEqual(['failed', 'failed']);
    expect(bad.reliefsFailed).toBe(2);
  });

  it('leaves draws pending while the seed is sealed, and a history without reliefs has none', async () => {
    expect((await verifyHistory(await withReliefs({}, null))).reliefs.map((r) => r.result)).toEqual(['pending', 'pending']);
    expect((await verifyHistory(await honestHistory())).reliefs).toEqual([]);
  });
});
