import type { ForecastAnswer } from './lobby';

/**
 * What the game screens show of a forecast (docs/game-rules.md §14; docs/server.md §15): pure
 * helpers shared by the forecast chart and its components.
 */

/** One point of the chances' history: the game version it was computed for (or, on the results page, the move) and each team's chance. */
export interface ChancePoint {
  version: number;
  chances: { team_id: number; win_chance: number }[];
}

/** The most points a screen keeps (the oldest go first). */
const CHANCE_HISTORY_LIMIT = 500;

/**
 * The history with the forecast's point added in version order (a version already held is
 * replaced). A point with the same chances as the one before it is not added: the forecast
 * follows the teams' squares only (docs/server.md §15), so that version moved nobody (a proof sent
 * or approved), and the chart's points stay one per roll.
 */
export function appendForecast(history: readonly ChancePoint[], forecast: ForecastAnswer): ChancePoint[] {
  const point: ChancePoint = { version: forecast.version, chances: forecast.teams.map((t) => ({ team_id: t.team_id, win_chance: t.win_chance })) };
  const others = history.filter((p) => p.version !== forecast.version);
  const before = others.filter((p) => p.version < point.version).at(-1);
  const same = before !== undefined && JSON.stringify(before.chances) === JSON.stringify(point.chances);
  const next = (same ? others : [...others, point]).sort((a, b) => a.version - b.version);
  return next.slice(-CHANCE_HISTORY_LIMIT);
}

/** A chance as the screens say it: '34%', '<1%' for a chance above 0 that rounds to 0, '>99%' for one short of 1 that rounds to 100. */
export function winChanceText(chance: number): string {
  const pct = Math.round(chance * 100);
  if (chance > 0 && pct === 0) return '<1%';
  if (chance < 1 && pct === 100) return '>99%';
  return `${pct}%`;
}

