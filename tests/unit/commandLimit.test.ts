import { describe, expect, it } from 'vitest';
import { GuildCommandLimit } from '../../server/discord/commandLimit';

/**
 * The per-guild slash command limit in memory (docs/server.md §19: 5 in any second, a sliding
 * window) with the clock given: exact where the API tests, on a real clock, can only bound it.
 */
describe('GuildCommandLimit in memory', () => {
  it('passes 5 commands of a guild within a second, refuses the 6th, and passes again once the first is a second old', async () => {
    const limit = new GuildCommandLimit(null, 'test');
    const t = 1_000_000;
    const taken = [];
    for (const at of [t, t + 100, t + 200, t + 300, t + 999]) taken.push(await limit.take('g1', at));
    expect(taken).toEqual([true, true, true, true, true]);
    expect(await limit.take('g1', t + 999)).toBe(false);
    // A burst across a second's edge is refused too: a sliding window, not fixed seconds.
    expect(await limit.take('g1', t + 1000 - 1)).toBe(false);
    expect(await limit.take('g1', t + 1000)).toBe(true);
    expect(await limit.take('g1', t + 1001)).toBe(false);
    expect(await limit.take('g1', t + 1100)).toBe(true);
  });

  it('a refused command is not counted, and another guild is not held back', async () => {
    const limit = new GuildCommandLimit(null, 'test');
    const t = 5_000_000;
    for (let i = 0; i < 5; i += 1) expect(await limit.take('busy', t + i)).toBe(true);
    for (let i = 0; i < 20; i += 1) expect(await limit.take('busy', t + 10 + i)).toBe(false);
    expect(await limit.take('quiet', t + 50)).toBe(true);
    // The five counted ones leave the window one second after each; the refused ones never counted.
    expect(await limit.take('busy', t + 1000)).toBe(true);
  });
});
