import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countingLoadGame } from '../support/countingLoadGame';

/**
 * GameCache's freshness (server/games/cache.ts; GAME_CACHE_CHECK_MS, docs/server.md §14 "The game
 * cache"): a read of an entry past half of checkMs starts one background check while the entry is
 * still answered, and a check that finds it current restarts its time from the check's start; an
 * entry is never answered from memory past checkMs after the start of the last check that found
 * it current. loadGame and the check's SELECT are stand-ins (no database); the clock is faked.
 */

vi.mock('../../server/games/service', async (importActual) =>
  (await import('../support/countingLoadGame')).countingLoadGame.withCountingLoadGame(await importActual<typeof import('../../server/games/service')>()),
);

const { loads } = countingLoadGame;
const { GameCache } = await import('../../server/games/cache');

/** The row the check's SELECT answers. */
interface StampRow {
  version: number;
  clan_name: string;
  event_name: string;
  event_type: string;
}

/** A stand-in for the check's query (selectFrom ... executeTakeFirst) whose answers the test releases one by one. */
function fakeDb(): { db: never; checks: ((row: StampRow) => void)[] } {
  const checks: ((row: StampRow) => void)[] = [];
  const chain: Record<string, unknown> = {};
  for (const step of ['selectFrom', 'innerJoin', 'select', 'where']) chain[step] = () => chain;
  chain.executeTakeFirst = () => new Promise<StampRow>((resolve) => checks.push(resolve));
  return { db: chain as never, checks };
}

const CURRENT: StampRow = { version: 1, clan_name: 'Clan', event_name: 'Event', event_type: 'snakes' };

describe('GameCache freshness (GAME_CACHE_CHECK_MS)', () => {
  beforeEach(() => {
    loads.count = 0;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('past half of checkMs one check starts in the background while the entry is answered; found current, the entry stays answered past its first checkMs', async () => {
    const { db, checks } = fakeDb();
    const cache = new GameCache(db, 100);
    const entry = await cache.get(7);
    expect(entry?.id).toBe(7);
    vi.setSystemTime(1_000_040);
    expect(cache.peek(7)).toBe(entry);
    expect(checks).toHaveLength(0);
    vi.setSystemTime(1_000_060);
    expect(cache.peek(7)).toBe(entry);
    expect(checks).toHaveLength(1);
    // One check at a time.
    vi.setSystemTime(1_000_070);
    expect(cache.peek(7)).toBe(entry);
    expect(checks).toHaveLength(1);
    checks[0](CURRENT);
    await vi.waitFor(() => expect(entry!.checkedAt).toBe(1_000_060));
    // Past the build's checkMs, answered from memory: the check started at +60 found it current.
    vi.setSystemTime(1_000_150);
    expect(cache.peek(7)).toBe(entry);
    expect(loads.count).toBe(1);
  });

  it('never answers from memory checkMs after the start of the last check that found the entry current', async () => {
    const { db, checks } = fakeDb();
    const cache = new GameCache(db, 100);
    const entry = await cache.get(7);
    vi.setSystemTime(1_000_060);
    expect(cache.peek(7)).toBe(entry);
    expect(checks).toHaveLength(1);
    // The check has not answered: at checkMs after the build the entry is no longer answered from memory.
    vi.setSystemTime(1_000_100);
    expect(cache.peek(7)).toBeNull();
  });

  it('a background check that finds a write made beside the server drops the entry; the next read builds the new one', async () => {
    const { db, checks } = fakeDb();
    const cache = new GameCache(db, 100);
    const entry = await cache.get(7);
    vi.setSystemTime(1_000_060);
    expect(cache.peek(7)).toBe(entry);
    checks[0]({ ...CURRENT, clan_name: 'Renamed' });
    await vi.waitFor(() => expect(loads.count).toBe(2));
    const rebuilt = await cache.get(7);
    expect(rebuilt).not.toBe(entry);
    expect(rebuilt?.id).toBe(7);
    expect(cache.peek(7)).toBe(rebuilt);
  });
});
