/**
 * Verifiable dice (docs/game-rules.md §9), pure and shared: the server derives every die
 * with the rule below (dieFromSyncSigner, signing with node:crypto in server/games/dice.ts), and
 * the browser's 'Verify dice' view recomputes them with WebCrypto (`globalThis.crypto.subtle`,
 * present in Node 20 and in every browser on a secure origin or localhost); both HMACs give the
 * same bytes, so both give the same die.
 *
 * The method, step by step (what a player can follow by hand):
 * 1. The seed is 32 secret bytes drawn when the game is created (and again at every reset). The
 *    game shows its commitment from the start: the lowercase hex SHA-256 of the seed bytes.
 * 2. The k-th roll of a round (k = 1, 2, ... over all teams, in the order applied; reverts do not
 *    count) computes HMAC-SHA256 with key = the seed bytes and message = "{game_id}:{k}".
 * 3. Read the 32 bytes of that HMAC from the first on; take the first byte b below 252 (252 is
 *    the largest multiple of 6 that fits a byte, so every face is equally likely). The die is
 *    b % 6 + 1.
 * 4. If all 32 bytes are 252 or more, repeat with the message "{game_id}:{k}:1", then
 *    "{game_id}:{k}:2", and so on.
 * 5. When the game finishes (or is reset) the seed is revealed: anyone can check that its SHA-256
 *    is the commitment shown before the first roll, and recompute every die.
 */

/** Bytes at or above this are skipped (the rejection rule): 252 = 42 * 6. */
const REJECT_FROM = 252;

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * Bytes of a hex string (either case, even length); throws TypeError on anything else, so a
 * tampered or truncated seed is refused loudly rather than read as other bytes.
 */
export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new TypeError('Not a hex string.');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** True for a 64-character lowercase hex string (a seed or a commitment as the server sends them). */
export function isDiceHex(text: unknown): text is string {
  return typeof text === 'string' && /^[0-9a-f]{64}$/.test(text);
}

/** A seed given as bytes or hex, as bytes (a copy backed by a plain ArrayBuffer, as WebCrypto wants). */
function seedBytes(seed: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const bytes = typeof seed === 'string' ? fromHex(seed) : seed;
  const copy = new Uint8Array(new ArrayBuffer(bytes.length));
  copy.set(bytes);
  return copy;
}

/** WebCrypto's SubtleCrypto; throws when this runtime has none (a browser page over plain http). */
function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('This browser cannot compute SHA-256 here (WebCrypto needs https or localhost).');
  return s;
}

/** Lowercase hex SHA-256 of UTF-8 text or of bytes. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : seedBytes(data);
  return toHex(new Uint8Array(await subtle().digest('SHA-256', bytes)));
}

/** The commitment of a seed (docs/game-rules.md §9): lowercase hex SHA-256 of the seed bytes. */
export async function commitmentOf(seed: Uint8Array | string): Promise<string> {
  return sha256Hex(seedBytes(seed));
}

/** Signs a message with the seed: HMAC-SHA256 bytes of UTF-8 `message`. */
export type Signer = (message: string) => Promise<Uint8Array>;

/** The Signer of a seed (bytes or hex), its HMAC key imported once. Throws TypeError for a seed that is not hex. */
export async function signerOf(seed: Uint8Array | string): Promise<Signer> {
  const key = await subtle().importKey('raw', seedBytes(seed), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return async (message) => new Uint8Array(await subtle().sign('HMAC', key, new TextEncoder().encode(message)));
}

/**
 * The die of roll `k` of game `gameId` given a signer (HMAC-SHA256 with the seed as key): steps 2
 * to 4 of the method above. Exposed so tests can drive the rejection rule with made-up digests.
 * Throws RangeError unless gameId and k are positive integers.
 */
export async function dieFromSigner(sign: Signer, gameId: number, k: number): Promise<number> {
  checkRoll(gameId, k);
  for (let attempt = 0; ; attempt += 1) {
    const face = faceOf(await sign(rollMessage(gameId, k, attempt)));
    if (face !== null) return face;
  }
}

/**
 * dieFromSigner with a synchronous signer (steps 2 to 4 of the method above, the same bytes give
 * the same die): the server signs with node:crypto's createHmac (server/games/dice.ts), which
 * needs no await. Throws RangeError unless gameId and k are positive integers.
 */
export function dieFromSyncSigner(sign: (message: string) => Uint8Array, gameId: number, k: number): number {
  checkRoll(gameId, k);
  for (let attempt = 0; ; attempt += 1) {
    const face = faceOf(sign(rollMessage(gameId, k, attempt)));
    if (face !== null) return face;
  }
}

/** RangeError unless gameId and k are positive integers. */
function checkRoll(gameId: number, k: number): void {
  if (!Number.isSafeInteger(gameId) || gameId < 1) throw new RangeError(`Bad game id ${gameId}.`);
  if (!Number.isSafeInteger(k) || k < 1) throw new RangeError(`Bad roll index ${k}.`);
}

/** The message signed for roll k: "{game_id}:{k}", then "{game_id}:{k}:{attempt}" (steps 2 and 4). */
function rollMessage(gameId: number, k: number, attempt: number): string {
  return attempt === 0 ? `${gameId}:${k}` : `${gameId}:${k}:${attempt}`;
}

/** The face of the first byte below 252 of a digest (step 3), or null when every byte is 252 or more. */
function faceOf(digest: Uint8Array): number | null {
  for (const b of digest) if (b < REJECT_FROM) return (b % 6) + 1;
  return null;
}

/**
 * A roller for one seed: `die(gameId, k)` is the die of the k-th roll of the round (1..6), with
 * the HMAC key imported once. Use for many rolls of one seed (the verify view).
 */
export async function diceRoller(seed: Uint8Array | string): Promise<{ die(gameId: number, k: number): Promise<number> }> {
  const sign = await signerOf(seed);
  return { die: (gameId, k) => dieFromSigner(sign, gameId, k) };
}

/**
 * The die (1..6) of the k-th roll of a round of game `gameId` with dice seed `seed` (bytes or
 * hex): docs/game-rules.md §9. Throws TypeError for a seed that is not hex, RangeError for a
 * bad game id or k.
 */
export async function dieFor(seed: Uint8Array | string, gameId: number, k: number): Promise<number> {
  return (await diceRoller(seed)).die(gameId, k);
}
