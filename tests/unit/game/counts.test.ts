import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { applyRoll, canRevert, revertHistory, type Connection } from '../../../contract/game';
import { boardTaskCounts, countMoves, countsText, countTeamMoves, countTeamStates, moveRoles, rollsText, tasksOnBoard } from '../../../contract/game/counts';
import type { GameHistory, Move } from '../../../contract/history';
import { historyCsv } from '../../../server/history/csv';

const BOARD: Connection[] = [
  { type: 'ladder', start: 4, end: 14 },
  { type: 'snake', start: 17, end: 7 },
];
const SIZE = 25;

/** What a played game leaves behind: the server's team states and its move list. */
interface Played {
  teams: { team_id: number; position_history: number[]; revert_count: number; current_position: number }[];
  moves: Move[];
}

/**
 * Plays `actions` as the server does (docs/server.md §5): a roll appends the final square
 * to the team's history; a revert, when canRevert allows it, pops it and counts. Refused reverts
 * and actions after a win leave no move.
 */
function play(teamCount: number, maxReverts: number, actions: { team: number; revert: boolean; die: number }[]): Played {
  const teams = Array.from({ length: teamCount }, (_, i) => ({ team_id: i + 1, position_history: [1], revert_count: 0, current_position: 1 }));
  const moves: Move[] = [];
  let k = 0;
  for (const a of actions) {
    const team = teams[a.team % teamCount];
    if (teams.some((t) => t.current_position === SIZE)) break;
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, moves.length)).toISOString();
    if (a.revert) {
      if (!canRevert(team, maxReverts)) continue;
      const from = team.current_position;
      const next = revertHistory(team.position_history);
      Object.assign(team, { position_history: next.history, current_position: next.position, revert_count: team.revert_count + 1 });
      moves.push({ at, team_id: team.team_id, kind: 'revert', roll_index: null, die: null, from, landing: null, to: next.position, via: null });
    } else {
      const out = applyRoll({ position: team.current_position, die: a.die, board_size: SIZE, connections: BOARD });
      k += 1;
      moves.push({ at, team_id: team.team_id, kind: 'roll', roll_index: k, die: a.die, from: team.current_position, landing: out.landing, to: out.final, via: out.connection?.type ?? null });
      team.position_history.push(out.final);
      team.current_position = out.final;
    }
  }
  return { teams, moves };
}

const actionsArb = fc.array(fc.record({ team: fc.nat(3), revert: fc.boolean(), die: fc.integer({ min: 1, max: 6 }) }), { maxLength: 60 });

describe('rolls, reverts and turns (contract/game/counts)', () => {
  it('the move list and the live team states give the same counts, and turns are the spec\'s sum of history length - 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 3 }), actionsArb, (teamCount, maxReverts, actions) => {
        const { teams, moves } = play(teamCount, maxReverts, actions);
        const fromMoves = countMoves(moves);
        expect(countTeamStates(teams)).toEqual(fromMoves);
        expect(fromMoves.turns).toBe(teams.reduce((sum, t) => sum + t.position_history.length - 1, 0));
        expect(fromMoves.rolls).toBe(moves.filter((m) => m.roll_index !== null).length);
        for (const t of teams) expect(countTeamMoves(moves, t.team_id)).toEqual(countTeamStates([t]));
      }),
    );
  });

  it('every revert undoes an earlier roll of its own team, and the rolls that stand are each team\'s history', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 3 }), actionsArb, (teamCount, maxReverts, actions) => {
        const { teams, moves } = play(teamCount, maxReverts, actions);
        const roles = moveRoles(moves);
        expect(roles).toHaveLength(moves.length);
        roles.forEach((role, i) => {
          expect(role.kind).toBe(moves[i].kind);
          if (role.kind === 'revert') {
            expect(role.undoes).not.toBeNull();
            expect(role.undoes!).toBeLessThan(i);
            expect(moves[role.undoes!].team_id).toBe(moves[i].team_id);
            expect(roles[role.undoes!]).toEqual({ kind: 'roll', revertedBy: i });
          }
        });
        expect(roles.filter((r) => r.kind === 'roll' && r.revertedBy !== null)).toHaveLength(countMoves(moves).reverts);
        for (const t of teams) {
          const standing = moves.filter((m, i) => m.team_id === t.team_id && roles[i].kind === 'roll' && (roles[i] as { revertedBy: number | null }).revertedBy === null);
          expect([1, ...standing.map((m) => m.to)]).toEqual(t.position_history);
        }
      }),
    );
  });

  it('the history CSV has one roll row per roll and one revert row per revert', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), actionsArb, (teamCount, actions) => {
        const { teams, moves } = play(teamCount, 2, actions);
        const history: GameHistory = {
          game: { id: 1, event_name: 'E', clan_name: 'C', board_size: SIZE, status: 'in-progress', winners: null, dice_commitment: 'ab', dice_seed: null },
          teams: teams.map((t) => ({ team_id: t.team_id, name: `Team ${t.team_id}`, color: '#112233' })),
          moves,
          reviews: [],
        };
        const rows = parse(historyCsv(history), { columns: true }) as { kind: string; roll_index: string }[];
        const counts = countMoves(moves);
        expect(rows.filter((r) => r.kind === 'roll')).toHaveLength(counts.rolls);
        expect(rows.filter((r) => r.kind === 'revert')).toHaveLength(counts.reverts);
        expect(rows.filter((r) => r.roll_index !== '').map((r) => Number(r.roll_index))).toEqual(Array.from({ length: counts.rolls }, (_, i) => i + 1));
      }),
    );
  });

  it('the CSV lists relief draws among the moves by time, kind relief with the square and the task drawn (in via)', () => {
    const history: GameHistory = {
      game: { id: 1, event_name: 'E', clan_name: 'C', board_size: SIZE, status: 'in-progress', winners: [], dice_commitment: 'x', dice_seed: null },
      teams: [{ team_id: 1, name: 'Red', color: '#ff0000' }],
      moves: [
        { at: '2026-01-01T10:00:00.000Z', team_id: 1, kind: 'roll', roll_index: 1, die: 3, from: 1, landing: 4, to: 14, via: 'ladder' },
        { at: '2026-01-01T14:00:00.000Z', team_id: 1, kind: 'roll', roll_index: 2, die: 2, from: 14, landing: 16, to: 16, via: null },
      ],
      reviews: [],
      reliefs: [{ at: '2026-01-01T12:00:00.000Z', team_id: 1, k: 1, square_index: 14, candidate_ids: [5, 6], task_id: 6, description: '=Kill 5 goblins' }],
    };
    const rows = parse(historyCsv(history), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.kind)).toEqual(['roll', 'relief', 'roll']);
    expect(rows[1]).toEqual({ at: '2026-01-01T12:00:00.000Z', team: 'Red', kind: 'relief', roll_index: '', die: '', from: '14', landing: '', to: '14', via: "'=Kill 5 goblins" });
    expect(rows[0].via).toBe('ladder');
  });

  it('a revert with no roll of its team before it undoes nothing', () => {
    expect(moveRoles([{ team_id: 1, kind: 'revert' }, { team_id: 1, kind: 'roll' }])).toEqual([
      { kind: 'revert', undoes: null },
      { kind: 'roll', revertedBy: null },
    ]);
  });

  it('counts an empty history in team states as no turn', () => {
    expect(countTeamStates([{ position_history: '[]', revert_count: 0 }, { position_history: '[1, 6]', revert_count: 2 }])).toEqual({ rolls: 3, reverts: 2, turns: 1 });
    expect(countTeamStates([])).toEqual({ rolls: 0, reverts: 0, turns: 0 });
  });

  it('reads rolls as "44 rolls, 1 reverted"', () => {
    expect(rollsText({ rolls: 44, reverts: 1 })).toBe('44 rolls, 1 reverted');
    expect(rollsText({ rolls: 1, reverts: 0 })).toBe('1 roll');
    expect(rollsText({ rolls: 0, reverts: 0 })).toBe('0 rolls');
    expect(countsText({ rolls: 44, reverts: 1, turns: 43 })).toBe('44 rolls, 1 reverted · 43 turns processed');
    expect(countsText({ rolls: 1, reverts: 0, turns: 1 })).toBe('1 roll · 1 turn processed');
  });

  it('task squares: a board holds board size - 2 minus the squares where a snake or ladder starts', () => {
    expect(tasksOnBoard(98, 5, 5)).toBe(88);
    expect(tasksOnBoard(23, 0, 0)).toBe(23);
    expect(tasksOnBoard(3, 2, 2)).toBe(0);
    expect(
      boardTaskCounts([
        { task_id: null, task_difficulty: null },
        { task_id: 4, task_difficulty: 'EASY' },
        { task_id: null, task_difficulty: 'HARD' },
      ]),
    ).toEqual({ taskSquares: 2, withTask: 1 });
  });
});
