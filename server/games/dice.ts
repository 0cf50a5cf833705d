import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/schema';
import { isActiveStatus } from '../../contract/game/status';
import { LRUCache } from 'lru-cache';
import { commitmentOf, dieFromSyncSigner, fromHex, sha256Hex, toHex } from '../../contract/game/dice';

/** A round's dice seed and its commitment, both lowercase hex (docs/game-rules.md §9). */
export interface DiceSeed {
  seed: string;
  commitment: string;
}

/**
 * The seed of round `round` (1 at creation, + 1 at every reset) of game `gameId`
 * (docs/game-rules.md §9): 32 bytes from node:crypto, or with BOARD_SEED set (tests) the
 * SHA-256 of "{BOARD_SEED}:{game_id}:{round}", so a test knows every die in advance.
 */
async function drawDiceSeed(config: Config, gameId: number, round: number): Promise<DiceSeed> {
  const seed = config.diceSeedBase === null ? toHex(randomBytes(32)) : await sha256Hex(`${config.diceSeedBase}:${gameId}:${round}`);
  return { seed, commitment: await commitmentOf(seed) };
}

/**
 * Draws and stores the seed of round `round` of game `gameId` (creation: round 1; reset: the
 * next round), in the caller's transaction; returns it. Does not bump the version (creation and
 * reset bump it themselves).
 */
export async function storeDiceSeed(db: Db, config: Config, gameId: number, round: number): Promise<DiceSeed> {
  const drawn = await drawDiceSeed(config, gameId, round);
  await db.updateTable('games').set({ dice_seed: drawn.seed, dice_commitment: drawn.commitment, dice_round: round }).where('id', '=', gameId).execute();
  return drawn;
}

/** The seed a game shape may show: the stored seed once the game is finished, else null (docs/game-rules.md §9). */
export function revealedSeed(row: { status: string; dice_seed: string }): string | null {
  return isActiveStatus(row.status) || row.dice_seed === '' ? null : row.dice_seed;
}

/** The Server log text that reveals the previous round's seed at a reset (docs/game-rules.md §9, exact). */
export function seedRevealText(previous: DiceSeed): string {
  return `Dice seed of the previous round: ${previous.seed} (commitment ${previous.commitment}).`;
}

/**
 * The HMAC key of dice seed `seed` (hex), made once per seed (up to 1,000 seeds: one per live
 * round, the game cache's default bound; lru-cache, the least recently used seed goes first): decoding the hex and importing the key were most of a
 * die's cost. Throws TypeError for a seed that is not hex or empty.
 */
const diceKeys = new LRUCache<string, KeyObject>({
  max: 1_000,
  memoMethod: (seed) => {
    const bytes = fromHex(seed);
    // Web Crypto refuses an empty HMAC key; so does this, so both paths fail alike.
    if (bytes.length === 0) throw new TypeError('Empty dice seed.');
    return createSecretKey(bytes);
  },
});

/**
 * The die (1..6) of the k-th roll of a round of game `gameId` with dice seed `seed` (hex):
 * docs/game-rules.md §9, the same value as the contract's dieFor (Web Crypto, which the browser's
 * 'Verify dice' keeps), computed synchronously with node:crypto's createHmac, since a roll needs
 * no await for it; the seed's key is made once (diceKeys). Throws TypeError for a seed that is
 * not hex or empty, RangeError for a bad game id or k.
 */
export function serverDieFor(seed: string, gameId: number, k: number): number {
  const key = diceKeys.memo(seed);
  return dieFromSyncSigner((message) => createHmac('sha256', key).update(message).digest(), gameId, k);
}
