import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { balanceTeams, medianScore, snakeSpread, snakeTeam, type BalanceSignup } from '../../contract/balance';

/**
 * Balancing sign-ups into teams (docs/game-rules.md §16), as properties over random inputs
 * (fast-check): every sign-up placed once, team sizes within one, the spread never above the
 * plain snake order's, the same input giving the same teams (in any input order), leaders only
 * among those who would lead; and a few fixed cases.
 */

const signupsArb = fc
  .uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 100_000 }),
      score: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null, freq: 5 }),
      wants_leader: fc.boolean(),
    }),
    { selector: (s) => s.id, minLength: 0, maxLength: 120 },
  );
const slotsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ team_id: null, name: `Team ${i + 1}` }));

describe('balanceTeams', () => {
  it('places every sign-up exactly once, keeps sizes within one and never spreads wider than the snake order', () => {
    fc.assert(
      fc.property(signupsArb, fc.integer({ min: 1, max: 20 }), (signups, n) => {
        const p = balanceTeams(signups, slotsOf(n));
        const placed = p.teams.flatMap((t) => t.signup_ids).sort((a, b) => a - b);
        expect(placed).toEqual(signups.map((s) => s.id).sort((a, b) => a - b));
        const sizes = p.teams.map((t) => t.signup_ids.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        expect(p.spread).toBeLessThanOrEqual(snakeSpread(signups, n) + 1e-6);
        expect(p.teams).toHaveLength(n);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same teams for the same input, whatever order the sign-ups come in', () => {
    fc.assert(
      fc.property(signupsArb, fc.integer({ min: 2, max: 20 }), fc.integer(), (signups, n, seed) => {
        const shuffled = [...signups].sort((a, b) => ((a.id * 2654435761) ^ seed) % 1000 - ((b.id * 2654435761) ^ seed) % 1000);
        expect(balanceTeams(shuffled, slotsOf(n))).toEqual(balanceTeams(signups, slotsOf(n)));
      }),
      { numRuns: 200 },
    );
  });

  it("names as each team's leader its highest-scored member who would lead, or none", () => {
    fc.assert(
      fc.property(signupsArb, fc.integer({ min: 2, max: 10 }), (signups, n) => {
        const byId = new Map<number, BalanceSignup>(signups.map((s) => [s.id, s]));
        const median = medianScore(signups.map((s) => s.score));
        const score = (id: number) => byId.get(id)!.score ?? median;
        for (const t of balanceTeams(signups, slotsOf(n)).teams) {
          const willing = t.signup_ids.filter((id) => byId.get(id)!.wants_leader);
          if (willing.length === 0) expect(t.leader_signup_id).toBeNull();
          else expect(score(t.leader_signup_id!)).toBe(Math.max(...willing.map(score)));
        }
      }),
    );
  });

  it('counts a missing score as the median and deals in a snake order', () => {
    expect(medianScore([1, null, 3, 10])).toBe(3);
    expect(medianScore([4, 2])).toBe(3);
    expect(medianScore([null])).toBe(0);
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => snakeTeam(i, 3))).toEqual([0, 1, 2, 2, 1, 0, 0]);
  });

  it('evens out a lopsided snake with swaps', () => {
    const signups = [100, 90, 10, 9, 8, 1].map((score, i) => ({ id: i + 1, score, wants_leader: false }));
    // Snake: [100, 9, 8] = 117 and [90, 10, 1] = 101 (spread 16); one swap reaches 110 / 108.
    expect(snakeSpread(signups, 2)).toBe(16);
    const p = balanceTeams(signups, slotsOf(2));
    expect(p.spread).toBeLessThan(16);
    expect(p.teams.reduce((s, t) => s + t.total_score, 0)).toBe(218);
  });
});
