import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { standingsOf, type StandingTeam } from '../../../contract/game';

const team = (team_id: number, team_name: string, current_position: number, square_since?: string): StandingTeam => ({
  team_id,
  team_name,
  team_color: `#00000${team_id}`,
  current_position,
  square_since,
});

describe('standingsOf', () => {
  it('puts the winner first, then the others furthest first', () => {
    const teams = [team(1, 'Red', 40), team(2, 'Blue', 100), team(3, 'Green', 77)];
    expect(standingsOf(teams, [{ name: 'Blue' }])).toEqual([
      { place: 1, team_id: 2, team_name: 'Blue', team_color: '#000002', position: 100, winner: true },
      { place: 2, team_id: 3, team_name: 'Green', team_color: '#000003', position: 77, winner: false },
      { place: 3, team_id: 1, team_name: 'Red', team_color: '#000001', position: 40, winner: false },
    ]);
  });

  it('ranks a winner first even when its square is not the highest (a winner named by the game)', () => {
    const out = standingsOf([team(1, 'Red', 99), team(2, 'Blue', 50)], [{ name: 'Blue' }]);
    expect(out.map((s) => s.team_name)).toEqual(['Blue', 'Red']);
    expect(out.map((s) => s.winner)).toEqual([true, false]);
  });

  it('breaks a tie on a square by the earlier arrival, then the lower team id; a missing time counts last', () => {
    const teams = [
      team(3, 'C', 50, '2026-11-24T10:05:00.000Z'),
      team(1, 'A', 50),
      team(2, 'B', 50, '2026-11-24T10:01:00.000Z'),
      team(5, 'E', 50, 'not a time'),
      team(4, 'D', 50),
    ];
    expect(standingsOf(teams, null).map((s) => s.team_name)).toEqual(['B', 'C', 'A', 'D', 'E']);
  });

  it('without winners nobody is marked a winner; empty in, empty out', () => {
    expect(standingsOf([team(1, 'Red', 3)], []).every((s) => !s.winner)).toBe(true);
    expect(standingsOf([], [{ name: 'Ghost' }])).toEqual([]);
  });

  it('is a permutation with places 1..n, winners first and squares non-increasing after them (property)', () => {
    const arb = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 1000 }), pos: fc.integer({ min: 1, max: 100 }), t: fc.option(fc.integer({ min: 0, max: 1e6 })) }), {
      selector: (r) => r.id,
      maxLength: 12,
    });
    fc.assert(
      fc.property(arb, fc.nat(), (rows, pick) => {
        const teams = rows.map((r) => team(r.id, `T${r.id}`, r.pos, r.t === null ? undefined : new Date(r.t).toISOString()));
        const winners = teams.length > 0 ? [{ name: teams[pick % teams.length].team_name }] : null;
        const out = standingsOf(teams, winners);
        expect(out.map((s) => s.place)).toEqual(teams.map((_, i) => i + 1));
        expect(new Set(out.map((s) => s.team_id))).toEqual(new Set(teams.map((t) => t.team_id)));
        if (winners) expect(out[0]).toMatchObject({ team_name: winners[0].name, winner: true });
        const rest = out.filter((s) => !s.winner);
        for (let i = 1; i < rest.length; i += 1) expect(rest[i - 1].position).toBeGreaterThanOrEqual(rest[i].position);
      }),
    );
  });
});
