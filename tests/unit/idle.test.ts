import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_TIMEOUT_MS, whenIdle } from '../../src/base/idle';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it("runs in the browser's next idle period, at most IDLE_TIMEOUT_MS later, and cancels it", () => {
    const callbacks = new Map<number, () => void>();
    const requestIdleCallback = vi.fn((cb: () => void, options: { timeout: number }) => {
      expect(options.timeout).toBe(IDLE_TIMEOUT_MS);
      callbacks.set(callbacks.size + 1, cb);
      return callbacks.size;
    });
    const cancelIdleCallback = vi.fn((id: number) => callbacks.delete(id));
    vi.stubGlobal('window', { requestIdleCallback, cancelIdleCallback });
    const run = vi.fn();
    whenIdle(run);
    const cancel = whenIdle(run);
    expect(run).not.toHaveBeenCalled();
    cancel();
    expect(cancelIdleCallback).toHaveBeenCalledWith(2);
    for (const cb of callbacks.values()) cb();
    expect(run).toHaveBeenCalledTimes(1);
    expect(IDLE_TIMEOUT_MS).toBe(1000);
  });

  it('falls back to a 0 ms timer where the browser has no idle callbacks', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    whenIdle(run);
    whenIdle(run)();
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
