import { describe, expect, it } from 'vitest';
import { DEFAULT_HOURS_PER_TIER, MAX_ROLLS_PER_RUN, expectedRollsExact, forecastGame, forecastSeed, simulateBoard, type SimBoard } from '../../contract/game/forecast';
import { chancesOverGame } from '../../contract/game/chances';
import { appendForecast } from '../../contract/forecastView';
import { seededRandom } from '../../contract/game/random';

/**
 * The forecast and the board simulator (docs/server.md §15) against exact values: the Markov
 * chain's expected rolls, computed here a second way where the board allows it, and the Monte
 * Carlo estimates within their own 99 % interval of it.
 */

/** Expected rolls to N on a board without connections, by the backward recurrence (no solver). */
function plainBoardExpectation(n: number): number[] {
  const e = new Array<number>(n + 1).fill(0);
  for (let s = n - 1; s >= 1; s -= 1) {
    let sum = 0;
    for (let d = 1; d <= 6; d += 1) sum += e[Math.min(s + d, n)];
    e[s] = 1 + sum / 6;
  }
  return e;
}

/** 225 squares with 12 snakes and 12 ladders, none starting on N or on another's start. */
const BUSY: SimBoard = {
  board_size: 225,
  connections: [
    ...[[30, 12], [47, 26], [62, 19], [88, 67], [99, 54], [121, 101], [140, 95], [163, 129], [180, 151], [199, 170], [211, 188], [222, 150]].map(([start, end]) => ({ start, end })),
    ...[[4, 25], [15, 44], [33, 70], [51, 78], [72, 110], [90, 118], [105, 139], [126, 160], [145, 171], [158, 196], [175, 205], [190, 215]].map(([start, end]) => ({ start, end })),
  ],
};

/** Mean and standard deviation of the simulator's rolls histogram. */
function histogramStats(rolls: number[]): { mean: number; sd: number; count: number } {
  let count = 0;
  let sum = 0;
  let sq = 0;
  rolls.forEach((c, k) => {
    count += c;
    sum += c * k;
    sq += c * k * k;
  });
  const mean = sum / count;
  return { mean, sd: Math.sqrt(sq / count - mean * mean), count };
}

describe('expected rolls by the Markov chain', () => {
  it('equals the backward recurrence on boards without snakes or ladders', () => {
    for (const n of [2, 7, 100, 225]) {
      const exact = expectedRollsExact({ board_size: n, connections: [] });
      const check = plainBoardExpectation(n);
      for (let s = 1; s <= n; s += 1) expect(exact[s]).toBeCloseTo(check[s], 9);
    }
    expect(expectedRollsExact({ board_size: 2, connections: [] })[1]).toBe(1);
  });

  it('grows with a snake and shrinks with a ladder', () => {
    const plain = expectedRollsExact({ board_size: 100, connections: [] })[1];
    expect(expectedRollsExact({ board_size: 100, connections: [{ start: 95, end: 5 }] })[1]).toBeGreaterThan(plain + 1);
    expect(expectedRollsExact({ board_size: 100, connections: [{ start: 3, end: 90 }] })[1]).toBeLessThan(plain - 1);
  });
});

describe('the simulations against the exact values', () => {
  it('without snakes or ladders the simulated mean matches the Markov chain to 1 %', () => {
    const board: SimBoard = { board_size: 100, connections: [] };
    const exact = expectedRollsExact(board)[1];
    const forecast = forecastGame({ board, teams: [{ team_id: 1, position: 1 }], rng: seededRandom(11) });
    expect(forecast.runs).toBe(10_000);
    expect(Math.abs(forecast.teams[0].expected_rolls_to_finish - exact) / exact).toBeLessThan(0.01);
    const sim = simulateBoard({ board, rng: seededRandom(12) });
    expect(Math.abs(sim.mean_rolls - exact) / exact).toBeLessThan(0.01);
  });

  it('with 12 snakes and 12 ladders the estimate lies within its own 99 % interval of the Markov value', () => {
    const exact = expectedRollsExact(BUSY);
    for (const [seed, from] of [[1, 1], [2, 100], [3, 200]] as const) {
      const sim = simulateBoard({ board: BUSY, rng: seededRandom(seed), runs: 10_000 });
      // simulateBoard starts on square 1; other starting squares go through forecastGame.
      const f = forecastGame({ board: BUSY, teams: [{ team_id: 7, position: from }], rng: seededRandom(seed) });
      if (from === 1) {
        const { mean, sd, count } = histogramStats(sim.rolls);
        expect(count).toBe(10_000);
        expect(mean).toBeCloseTo(sim.mean_rolls, 9);
        expect(Math.abs(mean - exact[1])).toBeLessThan((2.576 * sd) / Math.sqrt(count));
      }
      // The spread of one team's rolls from `from`, estimated from a second, independent sample
      // of single runs.
      const single = Array.from({ length: 2_000 }, (_, i) => forecastGame({ board: BUSY, teams: [{ team_id: 7, position: from }], runs: 1, rng: seededRandom(seed * 10_000 + i) }).teams[0].expected_rolls_to_finish);
      const m = single.reduce((a, b) => a + b, 0) / single.length;
      const sd = Math.sqrt(single.reduce((a, b) => a + (b - m) ** 2, 0) / (single.length - 1));
      expect(Math.abs(f.teams[0].expected_rolls_to_finish - exact[from])).toBeLessThan((2.576 * sd) / Math.sqrt(f.runs));
    }
  });
});

describe('forecastGame', () => {
  it('gives win chances that sum to 1, shared evenly by equal teams', () => {
    const f = forecastGame({ board: BUSY, teams: [{ team_id: 1, position: 1 }, { team_id: 2, position: 1 }], rng: seededRandom(5) });
    expect(f.teams.map((t) => t.team_id)).toEqual([1, 2]);
    expect(f.teams[0].win_chance + f.teams[1].win_chance).toBeCloseTo(1, 12);
    expect(Math.abs(f.teams[0].win_chance - 0.5)).toBeLessThan(0.03);
    const three = forecastGame({ board: BUSY, teams: [1, 50, 120].map((position, i) => ({ team_id: i + 1, position })), rng: seededRandom(6) });
    expect(three.teams.reduce((s, t) => s + t.win_chance, 0)).toBeCloseTo(1, 12);
    expect(three.teams[2].win_chance).toBeGreaterThan(three.teams[1].win_chance);
    expect(three.teams[1].win_chance).toBeGreaterThan(three.teams[0].win_chance);
  });

  it('a team on N has won: 0 rolls and every run', () => {
    const f = forecastGame({ board: BUSY, teams: [{ team_id: 1, position: 225 }, { team_id: 2, position: 224 }], runs: 500, rng: seededRandom(8) });
    expect(f.teams[0]).toEqual({ team_id: 1, win_chance: 1, expected_rolls_to_finish: 0 });
    expect(f.teams[1].win_chance).toBe(0);
  });

  it('stops at once where no roll can reach N (six snakes in a row) and caps the runs', () => {
    const wall: SimBoard = { board_size: 225, connections: [213, 214, 215, 216, 217, 218].map((start, i) => ({ start, end: i + 2 })) };
    const stuck = forecastGame({ board: wall, teams: [{ team_id: 1, position: 1 }, { team_id: 2, position: 100 }], rng: seededRandom(3) });
    expect(stuck.teams).toEqual([
      { team_id: 1, win_chance: 0.5, expected_rolls_to_finish: MAX_ROLLS_PER_RUN },
      { team_id: 2, win_chance: 0.5, expected_rolls_to_finish: MAX_ROLLS_PER_RUN },
    ]);
    // Beyond the wall N is reachable: that team wins every run.
    const past = forecastGame({ board: wall, teams: [{ team_id: 1, position: 1 }, { team_id: 2, position: 220 }], runs: 500, rng: seededRandom(4) });
    expect(past.teams.map((t) => t.win_chance)).toEqual([0, 1]);
    expect(expectedRollsExact(wall)[1]).toBe(Infinity);
    expect(expectedRollsExact(wall)[220]).toBeCloseTo(expectedRollsExact({ board_size: 225, connections: [] })[220], 9);
  });

  it('refuses a position off the board', () => {
    expect(() => forecastGame({ board: BUSY, teams: [{ team_id: 1, position: 0 }] })).toThrow(RangeError);
    expect(() => forecastGame({ board: BUSY, teams: [{ team_id: 1, position: 226 }] })).toThrow(RangeError);
  });
});

describe('forecastSeed: the runs follow the board and the squares only', () => {
  it('is the same for the same board and squares, whatever order the connections come in', () => {
    const reordered: SimBoard = { board_size: 225, connections: [...BUSY.connections].reverse() };
    expect(forecastSeed(reordered, [4, 4])).toBe(forecastSeed(BUSY, [4, 4]));
    expect(Number.isInteger(forecastSeed(BUSY, [4, 4]))).toBe(true);
  });

  it('changes with a square, a team, the board size or a snake', () => {
    const base = forecastSeed(BUSY, [4, 4]);
    const others = [
      forecastSeed(BUSY, [4, 5]),
      forecastSeed(BUSY, [5, 4]),
      forecastSeed(BUSY, [4, 4, 4]),
      forecastSeed({ ...BUSY, board_size: 224 }, [4, 4]),
      forecastSeed({ ...BUSY, connections: BUSY.connections.map((c, i) => (i === 0 ? { start: c.start, end: c.end + 1 } : c)) }, [4, 4]),
      forecastSeed({ ...BUSY, connections: BUSY.connections.slice(1) }, [4, 4]),
    ];
    for (const seed of others) expect(seed).not.toBe(base);
    expect(new Set(others).size).toBe(others.length);
  });

  it('gives the same forecast for the same squares, whatever team ids or calls came before', () => {
    const a = forecastGame({ board: BUSY, teams: [{ team_id: 1, position: 30 }, { team_id: 2, position: 60 }], runs: 2_000 });
    forecastGame({ board: BUSY, teams: [{ team_id: 1, position: 31 }, { team_id: 2, position: 60 }], runs: 2_000 });
    const b = forecastGame({ board: BUSY, teams: [{ team_id: 8, position: 30 }, { team_id: 9, position: 60 }], runs: 2_000 });
    expect(b.teams.map((t) => [t.win_chance, t.expected_rolls_to_finish])).toEqual(a.teams.map((t) => [t.win_chance, t.expected_rolls_to_finish]));
    const moved = forecastGame({ board: BUSY, teams: [{ team_id: 1, position: 31 }, { team_id: 2, position: 60 }], runs: 2_000 });
    expect(moved.teams[0].win_chance).not.toBe(a.teams[0].win_chance);
  });

  it('gives teams on the same square equal chances, and the chances still sum to 1', () => {
    for (const square of [1, 4, 100]) {
      const f = forecastGame({ board: BUSY, teams: [{ team_id: 1, position: square }, { team_id: 2, position: square }, { team_id: 3, position: 150 }], runs: 1_000, rng: seededRandom(square) });
      expect(f.teams[0].win_chance).toBe(f.teams[1].win_chance);
      expect(f.teams[0].expected_rolls_to_finish).toBe(f.teams[1].expected_rolls_to_finish);
      expect(f.teams.reduce((s, t) => s + t.win_chance, 0)).toBeCloseTo(1, 12);
    }
  });

  it('the results page gives a frame the same chances wherever those squares come in the game', () => {
    const points = chancesOverGame({ board: BUSY, teamIds: [11, 12], frames: [{ 11: 1, 12: 1 }, { 11: 30, 12: 1 }, { 11: 30, 12: 60 }, { 11: 1, 12: 1 }], runs: 500 });
    expect(points[3].chances).toEqual(points[0].chances);
    expect(points[0].chances[0].win_chance).toBe(0.5);
  });

  it("the live chart adds no point for a version whose chances did not move (nobody moved)", () => {
    const answer = (version: number, red: number) => ({ version, runs: 10_000, teams: [{ team_id: 1, win_chance: red, expected_rolls_to_finish: 9 }, { team_id: 2, win_chance: 1 - red, expected_rolls_to_finish: 9 }] });
    let history = appendForecast([], answer(3, 0.5));
    history = appendForecast(history, answer(4, 0.5));
    history = appendForecast(history, answer(5, 0.5));
    expect(history.map((p) => p.version)).toEqual([3]);
    history = appendForecast(history, answer(6, 0.7));
    history = appendForecast(history, answer(7, 0.5));
    expect(history.map((p) => p.version)).toEqual([3, 6, 7]);
  });
});

describe('simulateBoard', () => {
  const tiers = Array.from({ length: 226 }, (_, s) => (s === 0 || s === 225 ? null : ['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'][s % 5]));

  it('counts every run once in the histogram and every roll once in the landings', () => {
    const sim = simulateBoard({ board: BUSY, tiers, runs: 3_000, rng: seededRandom(9) });
    const { count, mean } = histogramStats(sim.rolls);
    expect(count).toBe(3_000);
    expect(sim.landings.reduce((a, b) => a + b, 0)).toBe(Math.round(mean * 3_000));
    // Every run ends on N; no roll ends on a snake's or ladder's start.
    expect(sim.landings[225]).toBe(3_000);
    for (const c of BUSY.connections) expect(sim.landings[c.start]).toBe(0);
  });

  it('prices the squares landed on by their tier and tells the chance to finish in the time', () => {
    const sim = simulateBoard({ board: BUSY, tiers, runs: 3_000, rng: seededRandom(10) });
    const tasksHours = sim.landings.reduce((sum, c, s) => sum + (s === 225 ? 0 : c * (DEFAULT_HOURS_PER_TIER[tiers[s] ?? ''] ?? 0)), 0);
    expect(sim.mean_hours).toBeCloseTo(tasksHours / 3_000, 6);
    expect(sim.finish_chance).toBeNull();
    const generous = simulateBoard({ board: BUSY, tiers, runs: 1_000, available_hours: 1e9, rng: seededRandom(10) });
    expect(generous.finish_chance).toBe(1);
    const none = simulateBoard({ board: BUSY, tiers, runs: 1_000, available_hours: 0, rng: seededRandom(10) });
    expect(none.finish_chance).toBe(0);
    const median = simulateBoard({ board: BUSY, tiers, runs: 2_000, available_hours: sim.mean_hours, rng: seededRandom(10) });
    expect(median.finish_chance).toBeGreaterThan(0.2);
    expect(median.finish_chance).toBeLessThan(0.8);
    expect(() => simulateBoard({ board: BUSY, hours_per_tier: { EASY: -1 } })).toThrow(RangeError);
  });
});
