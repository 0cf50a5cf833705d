import { randomInt } from 'node:crypto';
import type { Config } from '../config';
import { checkRange, seededRandom, type Rng } from '../../contract/game/random';

/** Rng backed by node:crypto's randomInt: unpredictable, for production boards (dice come from the game's seed, server/games/dice.ts). */
const cryptoRandom: Rng = {
  int(min: number, max: number): number {
    checkRange(min, max);
    return randomInt(min, max + 1);
  },
};

const seeded = new WeakMap<Config, Rng>();

/**
 * The random source of board generation and task assignment (docs/server.md §5:
 * "Randomness comes from a seedable generator so tests can fix it"): `seededRandom(config.boardSeed)`
 * when BOARD_SEED is set — one stream per configuration (so per server process), so the boards of
 * a run depend only on the seed and the order of the calls — else cryptoRandom.
 */
export function randomSource(config: Config): Rng {
  if (config.boardSeed === null || !Number.isFinite(config.boardSeed)) return cryptoRandom;
  let rng = seeded.get(config);
  if (!rng) {
    rng = seededRandom(config.boardSeed);
    seeded.set(config, rng);
  }
  return rng;
}
