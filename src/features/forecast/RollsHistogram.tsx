import { useMemo } from 'react';
import uPlot from 'uplot';
import UPlotChart from './UPlotChart';

/**
 * The distribution of rolls to finish (docs/game-rules.md §14) as bars: x the number of rolls, y the
 * share of simulated games in %. Loaded lazily with uPlot.
 */
export default function RollsHistogram({ rolls, runs }: { rolls: readonly number[]; runs: number }) {
  const data = useMemo<uPlot.AlignedData>(() => {
    const last = rolls.reduce((end, count, k) => (count > 0 ? k : end), 0);
    const xs = Array.from({ length: last + 1 }, (_, k) => k);
    return [xs, xs.map((k) => (runs > 0 ? Math.round(((rolls[k] ?? 0) / runs) * 10000) / 100 : 0))];
  }, [rolls, runs]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false } },
      axes: [{ label: 'Rolls to finish', size: 36, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] }, { label: '% of games', size: 44 }],
      series: [{ label: 'Rolls' }, { label: '% of games', stroke: '#8a5a00', fill: 'rgba(201, 150, 40, 0.55)', width: 1, paths: uPlot.paths.bars!({ size: [0.9, 40] }), points: { show: false } }],
    }),
    [],
  );
  return <UPlotChart options={options} optionsKey="rolls" data={data} height={180} label="How many rolls a team needs to finish, over 10,000 simulated games" />;
}
