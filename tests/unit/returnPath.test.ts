import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../../contract/user';
import { returnPathOf } from '../../src/features/auth/returnPath';

describe('return path after sign-in (safeReturnPath, returnPathOf)', () => {
  it('keeps same-origin relative paths with their query and hash', () => {
    for (const path of ['/dashboard', '/clans/manage/1/events/2/game', '/games?x=1#top']) expect(safeReturnPath(path)).toBe(path);
  });

  it('refuses absolute, protocol-relative, backslash, control-character and over-long paths', () => {
    const bad = ['', 'dashboard', '//evil.com', '///evil.com', 'https://evil.com', '/\\evil.com', '\\\\evil.com', '/\t/evil.com', '/\n/evil.com', 'javascript:alert(1)', `/${'a'.repeat(600)}`];
    for (const path of bad) expect({ path, kept: safeReturnPath(path) }).toEqual({ path, kept: null });
    expect(safeReturnPath(null)).toBeNull();
  });

  it('the login page returns to the asked page, else /dashboard', () => {
    expect(returnPathOf({ from: '/clans/manage/1/events' })).toBe('/clans/manage/1/events');
    expect(returnPathOf({ from: '//evil.com' })).toBe('/dashboard');
    expect(returnPathOf({ from: 3 })).toBe('/dashboard');
    expect(returnPathOf(null)).toBe('/dashboard');
  });
});
