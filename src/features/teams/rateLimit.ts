import { useEffect, useMemo, useRef } from 'react';

/** A rate-limited callback with `flush` (run a pending call now) and `cancel` (drop it). */
export interface RateLimited<A extends unknown[]> {
  (...args: A): void;
  flush(): void;
  cancel(): void;
}

/**
 * The pending call both limiters keep: `run` makes the latest call (if any), `later` schedules it,
 * and the returned callback gets `flush` and `cancel`.
 */
function limiter<A extends unknown[]>(fn: (...args: A) => void, call: (args: A, pending: Pending<A>) => void): RateLimited<A> {
  const p: Pending<A> = {
    timer: null,
    args: null,
    run: () => {
      p.timer = null;
      if (p.args) {
        const args = p.args;
        p.args = null;
        fn(...args);
      }
    },
  };
  const limited = ((...args: A) => call(args, p)) as RateLimited<A>;
  limited.flush = () => {
    if (p.timer) clearTimeout(p.timer);
    p.run();
  };
  limited.cancel = () => {
    if (p.timer) clearTimeout(p.timer);
    p.timer = null;
    p.args = null;
  };
  return limited;
}

/** The state of a limiter: its timer, the latest arguments not yet passed on, and the call that passes them. */
interface Pending<A> {
  timer: ReturnType<typeof setTimeout> | null;
  args: A | null;
  run: () => void;
}

/**
 * Throttle: calls `fn` at once, then at most once every `waitMs` milliseconds with the latest
 * arguments (trailing call), so a drag reports while it moves and always ends on the final value.
 */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): RateLimited<A> {
  let last = -Infinity;
  return limiter<A>(
    (...args) => {
      last = Date.now();
      fn(...args);
    },
    (args, p) => {
      p.args = args;
      const wait = waitMs - (Date.now() - last);
      if (wait <= 0 && !p.timer) p.run();
      else if (!p.timer) p.timer = setTimeout(p.run, Math.max(wait, 0));
    },
  );
}

/** Debounce: calls `fn` with the latest arguments once no call came for `waitMs` milliseconds. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): RateLimited<A> {
  return limiter(fn, (args, p) => {
    p.args = args;
    if (p.timer) clearTimeout(p.timer);
    p.timer = setTimeout(p.run, waitMs);
  });
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
