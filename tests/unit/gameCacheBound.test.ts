import { beforeEach, describe, expect, it, vi } from 'vitest';
import { countingLoadGame } from '../support/countingLoadGame';

/**
 * GameCache's bound (server/games/cache.ts; config GAME_CACHE_GAMES, docs/server.md §6): up to
 * `maxGames` games stay served from memory; one more pushes the least recently used out, whose
 * next read builds it again. loadGame is replaced by a counter (no database), the rest is the
 * real cache.
 */

vi.mock('../../server/games/service', async (importActual) =>
  (await import('../support/countingLoadGame')).countingLoadGame.withCountingLoadGame(await importActual<typeof import('../../server/games/service')>()),
);

const { loads } = countingLoadGame;
const { GameCache } = await import('../../server/games/cache');
const { loadConfig } = await import('../../server/config');

/** Reads games `ids` one after another and answers how many builds they took. */
async function buildsFor(cache: InstanceType<typeof GameCache>, ids: number[]): Promise<number> {
  const before = loads.count;
  for (const id of ids) expect((await cache.get(id))?.id).toBe(id);
  return loads.count - before;
}

describe('GameCache bound (GAME_CACHE_GAMES)', () => {
  beforeEach(() => {
    loads.count = 0;
  });

  it('serves as many games as the bound from memory, and builds again only the one pushed out', async () => {
    // checkMs of a minute: an entry in memory is answered without a check.
    const cache = new GameCache(null as never, 60_000, 3);
    expect(await buildsFor(cache, [1, 2, 3])).toBe(3);
    expect(await buildsFor(cache, [1, 2, 3, 1, 2, 3])).toBe(0);
    // A fourth game pushes out the least recently used (1); 2 and 3 stay.
    expect(await buildsFor(cache, [4])).toBe(1);
    expect(await buildsFor(cache, [2, 3, 4])).toBe(0);
    expect(await buildsFor(cache, [1])).toBe(1);
  });

  it('below the number of games read in turn, every read builds its game again', async () => {
    const cache = new GameCache(null as never, 60_000, 2);
    expect(await buildsFor(cache, [1, 2, 3, 1, 2, 3])).toBe(6);
  });

  it('takes its bound from GAME_CACHE_GAMES, 1,000 when unset', () => {
    expect(loadConfig({}).gameCacheGames).toBe(1000);
    expect(loadConfig({ GAME_CACHE_GAMES: '250' }).gameCacheGames).toBe(250);
  });
});
