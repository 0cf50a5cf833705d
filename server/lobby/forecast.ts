import type { ForecastAnswer } from '../../contract/lobby';
import { forecastGame, type TeamForecast } from '../../contract/game/forecast';
import { seededRandom } from '../../contract/game/random';
import type { CachedGame } from '../games/cache';

/** Simulated continuations per forecast (docs/server.md §15: at least 10,000). */
const RUNS = 10_000;
/** Runs simulated between two turns of the event loop, so a forecast never stalls other requests. */
const CHUNK = 250;

/** Forecasts by cache entry: an entry is one version of one game, so this is "cached per version". */
const forecasts = new WeakMap<CachedGame, Promise<ForecastAnswer>>();

/**
 * The forecast of a cached game's version (docs/server.md §15; docs/game-rules.md §14): RUNS
 * continuations of the teams' current squares, drawn from a generator seeded by game id and
 * version (the same answer in every process), simulated CHUNK runs at a time with the event loop
 * free in between. Computed once per entry; every caller of that version shares it.
 */
export function forecastOf(entry: CachedGame): Promise<ForecastAnswer> {
  let answer = forecasts.get(entry);
  if (!answer) {
    answer = simulate(entry);
    forecasts.set(entry, answer);
  }
  return answer;
}

async function simulate(entry: CachedGame): Promise<ForecastAnswer> {
  const game = entry.public;
  const board = { board_size: game.board_size, connections: game.board_connections };
  const teams = game.team_states.map((t) => ({ team_id: t.team_id, position: t.current_position }));
  const rng = seededRandom(Math.imul(entry.id, 0x9e3779b1) ^ entry.version);
  const wins = teams.map(() => 0);
  const rolls = teams.map(() => 0);
  for (let done = 0; done < RUNS; done += CHUNK) {
    const part = forecastGame({ board, teams, runs: CHUNK, rng });
    part.teams.forEach((t: TeamForecast, i) => {
      wins[i] += t.win_chance * CHUNK;
      rolls[i] += t.expected_rolls_to_finish * CHUNK;
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return {
    version: entry.version,
    runs: RUNS,
    teams: teams.map((t, i) => ({ team_id: t.team_id, win_chance: wins[i] / RUNS, expected_rolls_to_finish: rolls[i] / RUNS })),
  };
}
