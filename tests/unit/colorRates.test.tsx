// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedCallback, useThrottledCallback } from 'use-debounce';
import { COLOR_DEBOUNCE_MS, COLOR_THROTTLE_MS } from '../../src/features/teams/teamForm';

/**
 * The colour field's rates as ColorField sets them up (use-debounce with its defaults): the picker
 * drag throttled to one call per 50 ms ending on the last value, the hex input debounced by 100 ms
 * with flush on blur, and a pending call dropped when the field unmounts (the dialog closed).
 */
describe('colour picker rates (throttle 50 ms, debounce 100 ms)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('throttle calls at once, then at most every 50 ms, ending on the last value', () => {
    const seen: string[] = [];
    const { result } = renderHook(() => useThrottledCallback((v: string) => seen.push(v), COLOR_THROTTLE_MS));
    const t = result.current;
    t('a');
    t('b');
    t('c');
    expect(seen).toEqual(['a']);
    vi.advanceTimersByTime(49);
    expect(seen).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['a', 'c']);
    vi.advanceTimersByTime(200);
    expect(seen).toEqual(['a', 'c']);
  });

  it('debounce calls once, 100 ms after the last call; flush runs it now, cancel drops it', () => {
    const seen: string[] = [];
    const { result } = renderHook(() => useDebouncedCallback((v: string) => seen.push(v), COLOR_DEBOUNCE_MS));
    const d = result.current;
    d('a');
    vi.advanceTimersByTime(90);
    d('b');
    vi.advanceTimersByTime(90);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(seen).toEqual(['b']);
    d('c');
    d.flush();
    expect(seen).toEqual(['b', 'c']);
    d('d');
    d.cancel();
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(['b', 'c']);
  });

  it('a pending call is dropped when the component unmounts', () => {
    const seen: string[] = [];
    const { result, unmount } = renderHook(() => useDebouncedCallback((v: string) => seen.push(v), COLOR_DEBOUNCE_MS));
    result.current('a');
    unmount();
    vi.advanceTimersByTime(500);
    expect(seen).toEqual([]);
  });

  it('always calls the latest callback given on render', () => {
    const seen: string[] = [];
    const { result, rerender } = renderHook(({ tag }) => useDebouncedCallback((v: string) => seen.push(`${tag}${v}`), COLOR_DEBOUNCE_MS), {
      initialProps: { tag: 'old:' },
    });
    result.current('a');
    rerender({ tag: 'new:' });
    vi.advanceTimersByTime(COLOR_DEBOUNCE_MS);
    expect(seen).toEqual(['new:a']);
  });
});
