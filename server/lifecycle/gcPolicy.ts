import v8 from 'node:v8';

/**
 * The old generation's growth between major garbage collections (HEAP_GROWING_PERCENT; docs/server.md
 * §14): after a full collection V8 lets the heap grow by this percent of what survived before the
 * next one. V8's own rule (0 here) grows it only 10-20 % while collecting is cheap against the rate
 * objects reach the old generation, which for a process holding thousands of sockets meant a full
 * collection every 4-5 s under a steady roll rate, each pausing broadcasts for tens of ms
 * (bench/RESULTS.md, many live games: the slowest 1 % of rolls clustered on those collections).
 * 200 (the default) collects when the heap has tripled: at 200 rolls/s with 10,000 sockets a full
 * collection about once a minute instead of every few seconds, for at most three times the live
 * heap, which V8's own rule allows too (up to 4x).
 * Applied with node:v8's setFlagsFromString (V8's `--heap-growing-percent`), read by V8 at each
 * full collection; 0 leaves V8's rule. Percent, a whole number; nothing is raised for a flag a
 * future V8 no longer knows (V8 then warns on stderr and keeps its rule).
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
