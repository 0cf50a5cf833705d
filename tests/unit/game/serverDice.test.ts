import { describe, expect, it } from 'vitest';
import { randomBytes, randomInt } from 'node:crypto';
import { dieFor, dieFromSyncSigner, toHex } from '../../../contract/game/dice';
import { serverDieFor } from '../../../server/games/dice';

/**
 * The server's die (server/games/dice.ts serverDieFor: node:crypto createHmac, synchronous) is
 * the die of docs/game-rules.md §9 as the contract's dieFor computes it with Web Crypto (which the
 * browser's 'Verify dice' keeps): the same value on many seeds, games and roll indexes, on the
 * fixed vectors (rejected bytes included), and the same refusals.
 */

/** Fixed vectors of docs/game-rules.md §9 (tests/unit/game/dice.test.ts): seed = SHA-256("vector seed"), game 7. */
const SEED = '204e27b9697905af3c216755a02458d00b020172507fb7f50f831bbf05659eaf';

describe('the server die equals the Web Crypto die (docs/game-rules.md §9)', () => {
  it('on the fixed vectors, the rolls whose first bytes are rejected included', () => {
    const dice = Array.from({ length: 10 }, (_, i) => serverDieFor(SEED, 7, i + 1));
    expect(dice).toEqual([4, 6, 5, 4, 2, 1, 6, 2, 1, 4]);
    // k = 26 starts with 0xff and k = 236 with 0xfe: both skip a byte.
    expect([serverDieFor(SEED, 7, 26), serverDieFor(SEED, 7, 236)]).toEqual([1, 6]);
  });

  it('on 2,000 random seeds, games and roll indexes (and upper-case hex)', async () => {
    for (let i = 0; i < 2000; i += 1) {
      const seed = toHex(randomBytes(32));
      const gameId = randomInt(1, 2 ** 31);
      const k = i < 1000 ? (i % 300) + 1 : randomInt(1, 2 ** 40);
      const hex = i % 2 === 0 ? seed : seed.toUpperCase();
      expect(serverDieFor(hex, gameId, k), `${seed} ${gameId} ${k}`).toBe(await dieFor(hex, gameId, k));
    }
  });

  it('on every k of one round of a long game', async () => {
    for (let k = 1; k <= 1000; k += 1) expect(serverDieFor(SEED, 7, k)).toBe(await dieFor(SEED, 7, k));
  });

  it('refuses what dieFor refuses: a seed that is not hex or empty, a bad game id or k', async () => {
    for (const [seed, gameId, k] of [['xyz', 1, 1], ['abc', 1, 1], [SEED, 0, 1], [SEED, 1.5, 1], [SEED, 1, 0], [SEED, 1, -2], ['', 1, 1]] as const) {
      const web = await dieFor(seed, gameId, k).then(() => null, (err: unknown) => err);
      expect(web, `${seed} ${gameId} ${k}`).toBeInstanceOf(Error);
      expect(() => serverDieFor(seed, gameId, k)).toThrow();
      if (web instanceof RangeError || web instanceof TypeError) expect(() => serverDieFor(seed, gameId, k)).toThrow(web.constructor as typeof Error);
    }
  });

  it('a synchronous signer tries "{game_id}:{k}:1", ":2", ... when every byte is 252 or more', () => {
    const asked: string[] = [];
    const sign = (message: string) => {
      asked.push(message);
      const bytes = new Uint8Array(32).fill(0xfc);
      if (message.endsWith(':2')) bytes[31] = 9; // 9 % 6 + 1 = 4
      return bytes;
    };
    expect(dieFromSyncSigner(sign, 12, 3)).toBe(4);
    expect(asked).toEqual(['12:3', '12:3:1', '12:3:2']);
  });
});
