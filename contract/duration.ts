/** How finely a duration is said: to the minute (a wait, a time ago) or to the second (a game's statistics). */
export type DurationPrecision = 'min' | 's';

/** The units a duration is said in, largest first, with their size in seconds. */
const UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['min', 60],
  ['s', 1],
] as const;

/**
 * The one way a duration of `ms` milliseconds reads on screen (docs/client.md §4 results
 * statistics, §9 relief wait, the review queue's waits): its largest unit and, when not zero, the
 * next one: '2 d 3 h', '1 h 5 min', '3 min 20 s'. To the minute (`'min'`, rounded down): under a
 * minute 'less than a minute'. To the second (`'s'`, the default; rounded): under 10 s with one
 * decimal ('0.4 s'). null or not finite → '—' (nothing to measure).
 * Intl.DurationFormat is not used: no English style of it says these texts ('short' reads
 * '2 hr, 14 min', 'narrow' '2h 14m'), and the texts are part of the spec.
 */
export function formatDuration(ms: number | null, precision: DurationPrecision = 's'): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  const seconds = Math.max(0, ms) / 1000;
  if (precision === 'min' && seconds < 60) return 'less than a minute';
  if (precision === 's' && seconds < 10) return `${(Math.round(seconds * 10) / 10).toFixed(1)} s`;
  const total = precision === 'min' ? Math.floor(seconds / 60) * 60 : Math.round(seconds);
  const units = precision === 'min' ? UNITS.slice(0, 3) : UNITS;
  const i = units.findIndex(([, size]) => total >= size);
  const [unit, size] = units[i];
  const next = units[i + 1];
  const rest = next ? Math.floor((total % size) / next[1]) : 0;
  return rest > 0 ? `${Math.floor(total / size)} ${unit} ${rest} ${next[0]}` : `${Math.floor(total / size)} ${unit}`;
}
