/** The longest that work put off until the page is idle waits (ms). */
export const IDLE_TIMEOUT_MS = 1000;

/**
 * Runs `run` in the page's next idle period, at most `timeoutMs` (ms) later: requestIdleCallback,
 * or a 0 ms timer where the browser has none. Returns the cancel. On the first load, requests
 * a page does not draw from (the session check, the game socket's handshake) go out after the
 * page's first drawing instead of between its slices.
 */
export function whenIdle(run: () => void, timeoutMs = IDLE_TIMEOUT_MS): () => void {
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(() => run(), { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const timer = setTimeout(run, 0);
  return () => clearTimeout(timer);
}
