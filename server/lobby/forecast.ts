import type { ForecastAnswer } from '../../contract/lobby';
import { forecastGame, forecastSeed, type SimBoard, type TeamForecast } from '../../contract/game/forecast';
import { seededRandom } from '../../contract/game/random';
import type { CachedGame } from '../games/cache';

/** Simulated continuations per forecast (docs/server.md §15: at least 10,000). */
const RUNS = 10_000;
/** Runs simulated between two turns of the event loop, so a forecast never stalls other requests. */
const CHUNK = 250;

/** Forecasts by cache entry: an entry is one version of one game, so this is "cached per version". */
const forecasts = new WeakMap<CachedGame, Promise<ForecastAnswer>>();

/** Teams' figures by board and squares (positionsKey), so a version that moved nobody reuses them. */
const bySquares = new Map<string, Promise<ForecastAnswer['teams']>>();
/** The most boards-and-squares kept in bySquares (the oldest go first). */
const BY_SQUARES_LIMIT = 500;

/**
 * The forecast of a cached game's version (docs/server.md §15; docs/game-rules.md §14): RUNS
 * continuations of the teams' current squares, drawn from a generator seeded from the board and
 * the squares (contract forecastSeed: the same squares give the same chances in every process and
 * every version), simulated CHUNK runs at a time with the event loop free in between. Computed
 * once per entry and once per board and squares; every caller shares it.
 */
export function forecastOf(entry: CachedGame): Promise<ForecastAnswer> {
  let answer = forecasts.get(entry);
  if (!answer) {
    answer = teamsOf(entry).then((teams) => ({ version: entry.version, runs: RUNS, teams }));
    forecasts.set(entry, answer);
  }
  return answer;
}

function teamsOf(entry: CachedGame): Promise<ForecastAnswer['teams']> {
  const game = entry.public;
  const board = { board_size: game.board_size, connections: game.board_connections };
  const teams = game.team_states.map((t) => ({ team_id: t.team_id, position: t.current_position }));
  const key = positionsKey(board, teams);
  let answer = bySquares.get(key);
  if (answer) {
    // Kept as the newest.
    bySquares.delete(key);
  } else {
    answer = simulate(board, teams);
    // A failed simulation is not kept: the next request tries again.
    answer.catch(() => bySquares.delete(key));
  }
  bySquares.set(key, answer);
  if (bySquares.size > BY_SQUARES_LIMIT) bySquares.delete(bySquares.keys().next().value as string);
  return answer;
}

/** The board (size, snakes and ladders in square order) and each team's id and square, as one string. */
function positionsKey(board: SimBoard, teams: readonly { team_id: number; position: number }[]): string {
  const connections = board.connections.map((c) => `${c.start}>${c.end}`).sort();
  return `${board.board_size}|${connections.join(',')}|${teams.map((t) => `${t.team_id}@${t.position}`).join(',')}`;
}

async function simulate(board: SimBoard, teams: readonly { team_id: number; position: number }[]): Promise<ForecastAnswer['teams']> {
  const rng = seededRandom(forecastSeed(board, teams.map((t) => t.position)));
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
  return teams.map((t, i) => ({ team_id: t.team_id, win_chance: wins[i] / RUNS, expected_rolls_to_finish: rolls[i] / RUNS }));
}
