import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * One uPlot chart (uplot 1.6) sized to its box: made when mounted, given new data in place, resized
 * with its box (ResizeObserver), destroyed when unmounted. `options` without width and height;
 * a change of `optionsKey` makes the chart again (new series). This module is only loaded lazily,
 * so pages that do not draw a chart do not carry uPlot.
 */
export default function UPlotChart({
  options,
  optionsKey,
  data,
  height,
  label,
}: {
  options: Omit<uPlot.Options, 'width' | 'height'>;
  optionsKey: string;
  data: uPlot.AlignedData;
  height: number;
  /** What the chart shows, for screen readers (the numbers are also given as text beside it). */
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);
  latest.current = data;

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const chart = new uPlot({ ...options, width: Math.max(el.clientWidth, 200), height }, latest.current, el);
    plot.current = chart;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.setSize({ width: Math.max(el.clientWidth, 200), height }));
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      chart.destroy();
      plot.current = null;
    };
    // options are rebuilt per render; optionsKey says when they really changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [optionsKey, height]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  return <div ref={box} className="uplot-box" role="img" aria-label={label} data-testid="uplot-chart" />;
}
