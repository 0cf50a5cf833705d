import { describe, expect, it } from 'vitest';
import type { GameHistory, HistoryReview, Move } from '../../contract/history';
import { formatDuration } from '../../contract/duration';
import { moveText, raceSeries, replayFrames, standings, summarize, teamStats } from '../../contract/results';

/**
 * The pure functions of the results page (contract/results.ts): replay frames, race
 * series, per-team statistics (rolls, sixes, snakes, ladders, reverts, time per square, time to
 * approval), final standings and the duration text, over a small hand-made history.
 */

const RED = { team_id: 1, name: 'Red Dragons', color: '#cc2222' };
const BLUE = { team_id: 2, name: 'Blue Moons', color: '#2244cc' };
const GREEN = { team_id: 3, name: 'Green Goblins', color: '#22aa22' };
const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

let k = 0;
function roll(team: number, s: number, from: number, die: number, to: number, via: Move['via'] = null): Move {
  k += 1;
  return { at: at(s), team_id: team, kind: 'roll', roll_index: k, die, from, landing: Math.min(from + die, 100), to, via };
}
const revert = (team: number, s: number, from: number, to: number): Move => ({ at: at(s), team_id: team, kind: 'revert', roll_index: null, die: null, from, landing: null, to, via: null });

// Red: 1 →(6) 7, ladder to 30 …; Blue: 1 →(6) 7; …
const MOVES: Move[] = [
  roll(1, 10, 1, 6, 7), // Red arrives on 7 at 10 s
  roll(2, 20, 1, 6, 7), // Blue arrives on 7 at 20 s
  roll(1, 70, 7, 3, 30, 'ladder'), // Red stayed 60 s on 7
  roll(2, 80, 7, 5, 12), // Blue stayed 60 s on 7
  revert(2, 90, 12, 7), // Blue stayed 10 s on 12, back to 7
  roll(1, 250, 30, 4, 14, 'snake'), // Red stayed 180 s on 30
  roll(2, 260, 7, 2, 9), // Blue stayed 170 s on 7 (since the revert)
];
const REVIEWS: HistoryReview[] = [
  { at: at(40), team_id: 1, square_index: 7, decision: 'deny' },
  { at: at(55), team_id: 1, square_index: 7, decision: 'approve' }, // 45 s after Red arrived on 7
  { at: at(200), team_id: 1, square_index: 30, decision: 'approve' }, // 130 s after Red arrived on 30
  { at: at(210), team_id: 1, square_index: 30, decision: 'approve' }, // a second approval of the same stay: not counted
  { at: at(35), team_id: 2, square_index: 99, decision: 'approve' }, // not the square Blue stood on: not counted
];

function history(over: Partial<GameHistory> = {}, game: Partial<GameHistory['game']> = {}): GameHistory {
  return {
    game: { id: 5, event_name: 'Spring Bash', clan_name: 'Iron Legion', board_size: 100, status: 'in-progress', winners: null, dice_commitment: 'ab', dice_seed: null, ...game },
    teams: [RED, BLUE, GREEN],
    moves: MOVES,
    reviews: REVIEWS,
    ...over,
  };
}

describe('replayFrames', () => {
  it('starts every team on square 1 and applies one move per frame', () => {
    const frames = replayFrames(history());
    expect(frames).toHaveLength(MOVES.length + 1);
    expect(frames[0]).toEqual({ index: 0, positions: { 1: 1, 2: 1, 3: 1 }, move: null, role: null, undone: null });
    expect(frames[3].positions).toEqual({ 1: 30, 2: 7, 3: 1 });
    expect(frames[3].move).toBe(MOVES[2]);
    expect(frames[5].positions).toEqual({ 1: 30, 2: 7, 3: 1 }); // after Blue's revert
    // Blue's roll to 12 is marked reverted; the revert names it.
    expect(frames[4].role).toEqual({ kind: 'roll', revertedBy: 4 });
    expect(frames[5]).toMatchObject({ role: { kind: 'revert', undoes: 3 }, undone: MOVES[3] });
    expect(frames[6].role).toEqual({ kind: 'roll', revertedBy: null });
    expect(frames.at(-1)!.positions).toEqual({ 1: 14, 2: 9, 3: 1 });
  });

  it('gives one frame for a history without moves', () => {
    expect(replayFrames(history({ moves: [] }))).toEqual([{ index: 0, positions: { 1: 1, 2: 1, 3: 1 }, move: null, role: null, undone: null }]);
  });
});

describe('raceSeries', () => {
  it('gives one line per team with its square at every frame, over the moves’ times', () => {
    const race = raceSeries(history());
    expect(race.times).toEqual([T0 + 10_000, T0 + 10_000, T0 + 20_000, T0 + 70_000, T0 + 80_000, T0 + 90_000, T0 + 250_000, T0 + 260_000]);
    expect(race.series.map((s) => s.team.name)).toEqual(['Red Dragons', 'Blue Moons', 'Green Goblins']);
    expect(race.series[0].positions).toEqual([1, 7, 7, 30, 30, 30, 14, 14]);
    expect(race.series[1].positions).toEqual([1, 1, 7, 7, 12, 7, 7, 9]);
    expect(race.series[2].positions).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('never lets time go backwards', () => {
    const moves = [roll(1, 50, 1, 2, 3), roll(2, 40, 1, 3, 4)];
    expect(raceSeries(history({ moves })).times).toEqual([T0 + 50_000, T0 + 50_000, T0 + 50_000]);
  });
});

describe('teamStats', () => {
  const [red, blue, green] = teamStats(history());

  it('counts rolls, reverts, turns, sixes, snakes and ladders per team', () => {
    expect([red.rolls, red.reverts, red.turns, red.sixes, red.snakes, red.ladders]).toEqual([3, 0, 3, 1, 1, 1]);
    expect([blue.rolls, blue.reverts, blue.turns, blue.sixes, blue.snakes, blue.ladders]).toEqual([3, 1, 2, 1, 0, 0]);
    expect([green.rolls, green.reverts, green.turns, green.sixes, green.snakes, green.ladders]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('measures each stay from arrival to the next move: median and longest', () => {
    expect(red.timePerSquare).toEqual({ count: 2, median: 120_000, longest: 180_000 });
    expect(blue.timePerSquare).toEqual({ count: 3, median: 60_000, longest: 170_000 });
    expect(green.timePerSquare).toEqual({ count: 0, median: null, longest: null });
  });

  it('measures time to approval from arrival on the square, once per stay, approvals only', () => {
    expect(red.timeToApproval).toEqual({ count: 2, median: 87_500, longest: 130_000 });
    expect(blue.timeToApproval).toEqual({ count: 0, median: null, longest: null });
  });
});

describe('summarize', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(summarize([5, 1, 3])).toEqual({ count: 3, median: 3, longest: 5 });
    expect(summarize([4, 1, 3, 10])).toEqual({ count: 4, median: 3.5, longest: 10 });
    expect(summarize([])).toEqual({ count: 0, median: null, longest: null });
  });
});

describe('standings', () => {
  it('puts the winner first, then the others by square', () => {
    const finished = history(
      { moves: [...MOVES, roll(2, 300, 9, 6, 100)] },
      { status: 'finished', winners: [{ name: 'Blue Moons', color: '#2244cc' }] },
    );
    expect(standings(finished).map((s) => [s.place, s.team.name, s.position, s.winner])).toEqual([
      [1, 'Blue Moons', 100, true],
      [2, 'Red Dragons', 14, false],
      [3, 'Green Goblins', 1, false],
    ]);
  });

  it('without a winner, ranks by square; a tie goes to the team that got there first', () => {
    const moves = [roll(1, 10, 1, 4, 5), roll(2, 20, 1, 4, 5), roll(3, 30, 1, 2, 3)];
    expect(standings(history({ moves })).map((s) => s.team.name)).toEqual(['Red Dragons', 'Blue Moons', 'Green Goblins']);
    const swapped = [roll(2, 10, 1, 4, 5), roll(1, 20, 1, 4, 5)];
    expect(standings(history({ moves: swapped })).map((s) => s.team.name)).toEqual(['Blue Moons', 'Red Dragons', 'Green Goblins']);
  });

  it('ranks teams that never moved in team order (lower team id first)', () => {
    expect(standings(history({ moves: [] })).map((s) => [s.team.name, s.position])).toEqual([
      ['Red Dragons', 1],
      ['Blue Moons', 1],
      ['Green Goblins', 1],
    ]);
  });

  it('puts a team that came back to square 1 (it arrived there at its revert) before teams that never moved', () => {
    const back = [roll(3, 10, 1, 2, 3), revert(3, 20, 3, 1)];
    expect(standings(history({ moves: back })).map((s) => s.team.name)).toEqual(['Green Goblins', 'Red Dragons', 'Blue Moons']);
  });
});

describe('formatDuration', () => {
  it.each([
    [null, '—'],
    [0, '0.0 s'],
    [420, '0.4 s'],
    [9_940, '9.9 s'],
    [12_300, '12 s'],
    [60_000, '1 min'],
    [200_000, '3 min 20 s'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
    [2 * 86_400_000 + 3 * 3_600_000, '2 d 3 h'],
  ])('%s ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('moveText', () => {
  it('tells a roll, a ladder, a snake and a revert', () => {
    expect(moveText(MOVES[0], 'Red')).toBe('Red rolled a 6: square 1 → 7.');
    expect(moveText(MOVES[2], 'Red')).toBe('Red rolled a 3: square 7 → 10, up a ladder to 30.');
    expect(moveText(MOVES[5], 'Red')).toBe('Red rolled a 4: square 30 → 34, down a snake to 14.');
    expect(moveText(MOVES[4], 'Blue')).toBe('Blue reverted: square 12 → 7.');
  });

  it('marks a roll a revert undid, and names the undone roll in the revert', () => {
    const frames = replayFrames(history());
    const text = (i: number) => moveText(frames[i].move!, 'Blue', frames[i].role, frames[i].undone);
    expect(text(4)).toBe('Blue rolled a 5: square 7 → 12. Reverted later.');
    expect(text(5)).toBe('Blue reverted roll 4 (a 5): square 12 → 7.');
    expect(text(7)).toBe('Blue rolled a 2: square 7 → 9.');
  });
});
