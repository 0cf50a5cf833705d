import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { ChancePoint } from '../../../contract/forecastView';
import UPlotChart from './UPlotChart';

/** A team of the chart: id, name, colour. */
export interface ChartTeam {
  team_id: number;
  team_name: string;
  team_color: string;
}

/**
 * How each team's chance to win moved (docs/game-rules.md §14): one line per team in its colour,
 * x counting the points (0 for the first; the history holds a point only where someone moved, so
 * on a game screen x counts the rolls since it opened), y the chance in %. Loaded lazily with uPlot.
 */
export default function WinChanceChart({ history, teams, xLabel = 'Roll' }: { history: readonly ChancePoint[]; teams: readonly ChartTeam[]; xLabel?: string }) {
  const data = useMemo<uPlot.AlignedData>(
    () => [
      history.map((_, i) => i),
      ...teams.map((t) => history.map((p) => Math.round((p.chances.find((c) => c.team_id === t.team_id)?.win_chance ?? 0) * 1000) / 10)),
    ],
    [history, teams],
  );
  const key = teams.map((t) => `${t.team_id}:${t.team_name}:${t.team_color}`).join('|');
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false }, y: { range: [0, 100] } },
      // Whole rolls only on the x axis.
      axes: [{ label: xLabel, size: 36, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }, { label: '%', size: 40 }],
      series: [{ label: xLabel }, ...teams.map((t) => ({ label: t.team_name, stroke: /^#[0-9a-fA-F]{6}$/.test(t.team_color) ? t.team_color : '#555555', width: 2, points: { show: history.length < 30 } }))],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key, xLabel, history.length < 30],
  );
  return <UPlotChart options={options} optionsKey={`${key}|${history.length < 30}`} data={data} height={170} label="How each team's chance to win moved with each roll" />;
}
