import { whenIdle } from './idle';

/**
 * The Live Game Log's clock time of an entry (docs/client.md §9: the log's
 * entries with their time), in the browser's locale like toLocaleTimeString() (hour, minute,
 * second), from one formatter built once.
 *
 * The browser's first date formatter loads its locale's date data: 40-75 ms on the main thread in
 * Chromium (measured), one long task on a phone. A worker builds one first (warmTimeFormat): that
 * data is cached for the whole renderer process, so the page's own formatter then costs under 1 ms.
 * The entry starts it on a game page's first load, before the app's code runs, so it is done before
 * the log first shows; the game screen starts it too when reached by a link (the worker
 * then has the time the page's lazy code and the game take to arrive).
 */
let timeFormat: Intl.DateTimeFormat | null = null;
let warming = false;

const makeTimeFormat = () => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' });

/**
 * Starts the warm-up once per page: a module worker (timeFormatWarmup.worker.ts) that builds a
 * formatter and is closed when it answers; without workers (or when the CSP refuses one), the page
 * builds its formatter when idle (whenIdle), unless the first log render has built it already.
 */
export function warmTimeFormat(): void {
  if (warming || typeof window === 'undefined') return;
  warming = true;
  if (typeof Worker === 'function') {
    try {
      const worker = new Worker(new URL('./timeFormatWarmup.worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = () => worker.terminate();
      worker.onerror = () => worker.terminate();
      return;
    } catch {
      // No worker: warm on the page when it is idle.
    }
  }
  whenIdle(() => {
    timeFormat ??= makeTimeFormat();
    timeFormat.format(0);
  });
}

/** `iso` (an ISO 8601 timestamp) as the browser's locale writes a clock time; '' when it is not a date. */
export function logTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  timeFormat ??= makeTimeFormat();
  return timeFormat.format(d);
}

/**
 * `iso` (an ISO 8601 timestamp) as the browser's locale writes a date and a time, for moments that
 * may lie on another day (an invite's expiry, a history entry, a notification); the ISO text itself
 * when it is not a date.
 */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
