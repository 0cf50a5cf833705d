import * as v from 'valibot';
import { signerOf, type Signer } from './dice';
import { TierSchema } from './tiers';

/**
 * Stuck-tile relief (docs/server.md §15; docs/game-rules.md §15), the pure parts shared by the
 * server and the 'Verify dice' view: which substitute task a relief draws, the texts, the shape a
 * team state carries.
 *
 * The draw, step by step (like the dice, docs/game-rules.md §9):
 * 1. The candidates are the clan pool's tasks of the square's difficulty that are not on the
 *    board, ordered by task id.
 * 2. The k-th relief of team t in game g (k = 1, 2, ...) computes HMAC-SHA256 with key = the
 *    game's dice seed and message = "{g}:relief:{t}:{k}".
 * 3. Read the 32 bytes as eight 32-bit big-endian numbers, first to last; take the first one below
 *    the largest multiple of the candidate count that fits in 32 bits. The substitute is the
 *    candidate at (that number mod the count), counting from 0.
 * 4. If none is below it, repeat with "{g}:relief:{t}:{k}:1", then ":2", and so on.
 */

/** A team's substitute task for its current square (team state `task_override`). */
export const TaskOverrideSchema = v.object({ description: v.string(), difficulty: v.nullable(TierSchema) });
export type TaskOverride = v.InferOutput<typeof TaskOverrideSchema>;

/** request_relief {game_id, team_id}: a Leader asks for a substitute task (docs/server.md §15). */
export const RequestReliefSchema = v.object({
  game_id: v.pipe(v.number('game_id must be a positive whole number.'), v.integer('game_id must be a positive whole number.'), v.minValue(1, 'game_id must be a positive whole number.')),
  team_id: v.pipe(v.number('team_id must be a positive whole number.'), v.integer('team_id must be a positive whole number.'), v.minValue(1, 'team_id must be a positive whole number.')),
});
export type RequestRelief = v.InferOutput<typeof RequestReliefSchema>;

/** Refusals of request_relief, in the order they are checked, and the log line (docs/server.md §15). */
export const RELIEF_MESSAGES = {
  leaderOnly: "Only the team's Leader can ask for a new task.",
  off: 'Relief is off in this game.',
  tooEarly: (hours: number) => `A new task can be asked for after ${hours} h on the square.`,
  limit: (team: string) => `No relief left for ${team}.`,
  noneLeft: (difficulty: string) => `No other ${difficulty} task is left in the pool.`,
  /** Not in the contract: the team's square has no task to replace, or its proof is sent or approved. */
  noTask: 'There is no open task on this square to replace.',
  log: (team: string, square: number, hours: number, description: string) => `${team} was stuck on square ${square} for ${hours} h: new task "${description}".`,
} as const;

/**
 * Index (0..count-1) of the substitute of relief `k` of team `teamId` in game `gameId` given the
 * seed's signer: steps 2 to 4 above. Throws RangeError unless the ids and k are positive integers
 * and count is 1 or more.
 */
export async function reliefIndexFromSigner(sign: Signer, gameId: number, teamId: number, k: number, count: number): Promise<number> {
  for (const [name, n] of [['game id', gameId], ['team id', teamId], ['relief number', k], ['candidate count', count]] as const) {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`Bad ${name} ${n}.`);
  }
  const limit = Math.floor(2 ** 32 / count) * count;
  for (let attempt = 0; ; attempt += 1) {
    const message = attempt === 0 ? `${gameId}:relief:${teamId}:${k}` : `${gameId}:relief:${teamId}:${k}:${attempt}`;
    const digest = await sign(message);
    const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
    for (let i = 0; i + 4 <= digest.byteLength; i += 4) {
      const word = view.getUint32(i, false);
      if (word < limit) return word % count;
    }
  }
}

/** The substitute's index among `count` candidates for relief `k` of a team, from the game's dice seed (hex or bytes). */
export async function reliefIndex(seed: Uint8Array | string, gameId: number, teamId: number, k: number, count: number): Promise<number> {
  return reliefIndexFromSigner(await signerOf(seed), gameId, teamId, k, count);
}
