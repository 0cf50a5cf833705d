import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

/** Fake timers that still advance by themselves (for user-event), and a clean screen, around every test of the suite. */
export function useFakeTimersPerTest() {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });
}
