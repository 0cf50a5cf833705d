import 'uplot/dist/uPlot.min.css';
import type { RaceSeries } from '../../../contract/results';

/** Display fallback of a team colour (docs/game-rules.md §12). */
const FALLBACK_COLOR = '#cccccc';
const HEX = /^#[0-9a-fA-F]{6}$/;
/** Height of the chart's plot area (px). */
const CHART_HEIGHT = 300;

/**
 * Draws the race chart with uPlot (loaded on first use, so it comes down only with this page):
 * x is time, y the square (1..`boardSize`), one stepped line per team in its colour, labelled with the team
 * name in uPlot's legend (a DOM table: one `.u-series` row per line, after the Time row). While
 * the cursor is off the plot the legend shows the last point (the final time and every team's
 * final square) instead of uPlot's '--'; hovering shows the point under the cursor. The chart
 * follows the width of `host`. Returns the function that removes it; should uPlot fail to
 * load, `host` says so in text.
 */
export function drawRaceChart(host: HTMLElement, race: RaceSeries, boardSize: number): () => void {
  let stopped = false;
  let cleanup = () => {};
  void (async () => {
    try {
      const { default: UPlot } = await import('uplot');
      if (stopped) return;
      const width = () => Math.max(240, host.clientWidth || 600);
      const last = race.times.length - 1;
      // uPlot blanks the legend whenever no point is under the cursor (also before the first hover).
      const showLast = (u: InstanceType<typeof UPlot>) => {
        if (u.cursor.idx == null && last >= 0) u.setLegend({ idx: last }, false);
      };
      const chart = new UPlot(
        {
          width: width(),
          height: CHART_HEIGHT,
          ms: 1,
          cursor: { drag: { x: false, y: false } },
          hooks: { ready: [showLast], setCursor: [showLast] },
          scales: { x: { time: true }, y: { range: [1, Math.max(boardSize, ...race.series.flatMap((s) => s.positions), 2)] } },
          axes: [{}, { label: 'Square', values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) }],
          series: [
            { label: 'Time' },
            ...race.series.map((s) => ({
              label: s.team.name,
              stroke: HEX.test(s.team.color) ? s.team.color : FALLBACK_COLOR,
              width: 2.5,
              paths: UPlot.paths.stepped!({ align: 1 }),
              points: { show: false },
            })),
          ],
        },
        [race.times, ...race.series.map((s) => s.positions)],
        host,
      );
      host.dataset.series = String(chart.series.length - 1);
      const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.setSize({ width: width(), height: CHART_HEIGHT }));
      observer?.observe(host);
      cleanup = () => {
        observer?.disconnect();
        chart.destroy();
        delete host.dataset.series;
      };
    } catch {
      if (!stopped) host.textContent = 'The race chart could not be drawn in this browser.';
    }
  })();
  return () => {
    stopped = true;
    cleanup();
  };
}
