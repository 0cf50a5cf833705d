import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config';
import { applyHeapGrowth } from '../../server/lifecycle/gcPolicy';

/**
 * The heap's growth between full garbage collections (server/lifecycle/gcPolicy.ts,
 * HEAP_GROWING_PERCENT; docs/server.md §14): 200 unless set, 0 leaves V8's own rule, and the
 * percent reaches V8 as its `--heap-growing-percent` flag.
 */
describe('heap growth between full collections (HEAP_GROWING_PERCENT)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is 200 % unless set; 0 is allowed (V8 decides); anything that is not a whole number keeps the default', () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(200);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '250' }).heapGrowingPercent).toBe(250);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '-5' }).heapGrowingPercent).toBe(200);
    expect(loadConfig({ HEAP_GROWING_PERCENT: 'lots' }).heapGrowingPercent).toBe(200);
  });

  it("hands the percent to V8 as --heap-growing-percent, and nothing for 0", () => {
    const set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    applyHeapGrowth(100);
    applyHeapGrowth(0);
    applyHeapGrowth(37.6);
    expect(set.mock.calls).toEqual([['--heap-growing-percent=100'], ['--heap-growing-percent=38']]);
  });
});
