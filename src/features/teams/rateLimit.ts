import { useEffect, useMemo, useRef } from 'react';

/** A rate-limited callback with `flush` (run a pending call now) and `cancel` (drop it). */
export interface RateLimited<A extends unknown[]> {
  (...args: A): void;
  flush(): void;
  cancel(): void;
}

/**
 * Throttle: calls `fn` at once, then at most once every `waitMs` milliseconds with the latest
 * arguments (trailing call), so a drag reports while it moves and always ends on the final value.
 */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): RateLimited<A> {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: A | null = null;
  const run = () => {
    timer = null;
    if (pending) {
      const args = pending;
      pending = null;
      last = Date.now();
      fn(...args);
    }
  };
  const throttled = ((...args: A) => {
    pending = args;
    const wait = waitMs - (Date.now() - last);
    if (wait <= 0 && !timer) run();
    else if (!timer) timer = setTimeout(run, Math.max(wait, 0));
  }) as RateLimited<A>;
  throttled.flush = () => {
    if (timer) clearTimeout(timer);
    run();
  };
  throttled.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    pending = null;
  };
  return throttled;
}

/** Debounce: calls `fn` with the latest arguments once no call came for `waitMs` milliseconds. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): RateLimited<A> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: A | null = null;
  const run = () => {
    timer = null;
    if (pending) {
      const args = pending;
      pending = null;
      fn(...args);
    }
  };
  const debounced = ((...args: A) => {
    pending = args;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, waitMs);
  }) as RateLimited<A>;
  debounced.flush = () => {
    if (timer) clearTimeout(timer);
    run();
  };
  debounced.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    pending = null;
  };
  return debounced;
}

function useRateLimited<A extends unknown[]>(
  make: typeof throttle,
  fn: (...args: A) => void,
  waitMs: number,
): RateLimited<A> {
  const latest = useRef(fn);
  latest.current = fn;
  const limited = useMemo(() => make<A>((...args) => latest.current(...args), waitMs), [make, waitMs]);
  // A pending call dies with the component (the dialog closed): nothing is sent afterwards.
  useEffect(() => () => limited.cancel(), [limited]);
  return limited;
}

/** `throttle` as a hook: stable across renders, always calling the latest `fn`. */
export function useThrottledCallback<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): RateLimited<A> {
  return useRateLimited(throttle, fn, waitMs);
}

/** `debounce` as a hook: stable across renders, always calling the latest `fn`. */
export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): RateLimited<A> {
  return useRateLimited(debounce, fn, waitMs);
}
