import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

// What the live-game benchmarks (bench/spectators.bench.ts, bench/many.bench.ts) measure with,
// written once.

/** Resolves after `ms` milliseconds (pacing only; never used to wait for a state). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes of one machine. */
export const wallNow = () => performance.timeOrigin + performance.now();

/** Snakes on 213..218 of a 225-square board: no team can get past 212, so the game never ends. */
export const NO_WIN_SNAKES = [[213, 2], [214, 3], [215, 4], [216, 5], [217, 6], [218, 7]];

/** The p-th percentile (0..100) of sorted values, nearest rank; NaN when empty. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** VmHWM (peak resident set) of a process in kB, from /proc/<pid>/status; NaN when absent. */
export function peakRssKb(pid: number): number {
  const m = /VmHWM:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** The body of a 200 answer; throws with `what`, the status and the body otherwise. */
export function ok(r: { status: number; body: unknown }, what: string): any {
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
