import { describe, expect, it } from 'vitest';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { commitmentOf, diceRoller, dieFor, dieFromSigner, fromHex, isDiceHex, sha256Hex, toHex } from '../../../contract/game/dice';
import { verifyPath } from '../../../src/base/paths';

/** Fixed vectors of docs/game-rules.md §9: seed = SHA-256("vector seed"), game 7. */
const SEED = '204e27b9697905af3c216755a02458d00b020172507fb7f50f831bbf05659eaf';
const COMMITMENT = '679c7eb2f0fb3d3f0230f2cde4aeb80a5fc5f2a3b5ce1a12100fc1848b9d958e';

/** An independent reference with node:crypto: the die and how many bytes were skipped. */
function reference(seed: Buffer, gameId: number, k: number): { die: number; skipped: number } {
  for (let attempt = 0; ; attempt += 1) {
    const digest = createHmac('sha256', seed).update(attempt === 0 ? `${gameId}:${k}` : `${gameId}:${k}:${attempt}`).digest();
    const at = digest.findIndex((b) => b < 252);
    if (at >= 0) return { die: (digest[at] % 6) + 1, skipped: attempt * 32 + at };
  }
}

describe('verifiable dice (docs/game-rules.md §9)', () => {
  it('the commitment is the lowercase hex SHA-256 of the seed bytes', async () => {
    expect(SEED).toBe(createHash('sha256').update('vector seed').digest('hex'));
    expect(await commitmentOf(SEED)).toBe(COMMITMENT);
    expect(await commitmentOf(fromHex(SEED))).toBe(COMMITMENT);
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(isDiceHex(COMMITMENT)).toBe(true);
    expect(isDiceHex(COMMITMENT.toUpperCase())).toBe(false);
  });

  it('rolls 1 to 10 of game 7 give the fixed vector', async () => {
    const dice = [];
    for (let k = 1; k <= 10; k += 1) dice.push(await dieFor(SEED, 7, k));
    expect(dice).toEqual([4, 6, 5, 4, 2, 1, 6, 2, 1, 4]);
  });

  it('the rejection rule skips bytes of 252 and above', async () => {
    const seed = Buffer.from(SEED, 'hex');
    // k = 26: the HMAC begins ff 18: 0xff is skipped, 0x18 = 24 gives 24 % 6 + 1 = 1.
    expect(createHmac('sha256', seed).update('7:26').digest().subarray(0, 2).toString('hex')).toBe('ff18');
    expect(await dieFor(SEED, 7, 26)).toBe(1);
    // k = 236: fe fb: 0xfe is skipped, 0xfb = 251 is the largest byte taken: 251 % 6 + 1 = 6.
    expect(createHmac('sha256', seed).update('7:236').digest().subarray(0, 2).toString('hex')).toBe('fefb');
    expect(await dieFor(SEED, 7, 236)).toBe(6);
    // Without the rule the first byte would decide: 0xff % 6 + 1 = 4, 0xfe % 6 + 1 = 3.
    expect([(0xff % 6) + 1, (0xfe % 6) + 1]).toEqual([4, 3]);
  });

  it('when all 32 bytes are 252 or more, the messages "{game_id}:{k}:1", ":2", ... are tried in turn', async () => {
    const asked: string[] = [];
    const sign = async (message: string) => {
      asked.push(message);
      const bytes = new Uint8Array(32).fill(0xfc);
      if (message.endsWith(':2')) bytes[31] = 9; // 9 % 6 + 1 = 4
      return bytes;
    };
    expect(await dieFromSigner(sign, 12, 3)).toBe(4);
    expect(asked).toEqual(['12:3', '12:3:1', '12:3:2']);
  });

  it('agrees with a node:crypto reference on random seeds, games and roll indexes', async () => {
    for (let i = 0; i < 20; i += 1) {
      const seed = randomBytes(32);
      const roller = await diceRoller(toHex(seed));
      for (const [gameId, k] of [[1, 1], [i + 2, 1 + i * 7], [2147483647, 500]]) {
        expect(await roller.die(gameId, k)).toBe(reference(seed, gameId, k).die);
      }
      expect(await commitmentOf(seed)).toBe(createHash('sha256').update(seed).digest('hex'));
    }
  });

  it('refuses seeds that are not hex and roll indexes that are not positive integers', async () => {
    await expect(dieFor('xyz', 1, 1)).rejects.toThrow(TypeError);
    await expect(dieFor(SEED, 1, 0)).rejects.toThrow(RangeError);
    await expect(dieFor(SEED, 0, 1)).rejects.toThrow(RangeError);
    await expect(dieFor(SEED, 1, 1.5)).rejects.toThrow(RangeError);
  });

  it('the verify view lives at /games/{gameId}/verify', () => {
    expect(verifyPath(42)).toBe('/games/42/verify');
  });
});
