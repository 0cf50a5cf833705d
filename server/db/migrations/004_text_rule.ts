import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers';
import { clanNameKey } from '../../../contract/text';

/**
 * Separator of the key given to a clan whose name now collides with an older clan's
 * (e.g. 'Iron\u200B Dragons' beside 'Iron Dragons'): U+0001 is refused by the text rule, so no
 * name typed from now on can produce such a key, and PostgreSQL stores it (it refuses only NUL).
 */
const LEGACY_SEPARATOR = '\u0001';

/**
 * Rewrites every `clans.name_key` with `keyOf`, oldest clan first. The oldest clan of a set whose
 * names share a key keeps the plain key; each younger one gets `{key}\u0001{id}` so the unique
 * index holds and the migration never fails on existing data. Only rows whose key changes are
 * written, in two passes (temporary keys first) so no row meets another's old key on the way.
 */
async function rewriteKeys(db: Kysely<any>, keyOf: (name: string) => string): Promise<void> {
  const rows: { id: number; name: string; name_key: string }[] = await db.selectFrom('clans').select(['id', 'name', 'name_key']).orderBy('id').execute();
  const taken = new Set<string>();
  const keys: { id: number; key: string }[] = [];
  for (const r of rows) {
    const key = keyOf(r.name);
    const unique = taken.has(key) ? `${key}${LEGACY_SEPARATOR}${r.id}` : key;
    taken.add(unique);
    if (unique !== r.name_key) keys.push({ id: Number(r.id), key: unique });
  }
  for (const { id } of keys) {
    await db.updateTable('clans').set({ name_key: `${LEGACY_SEPARATOR}tmp${LEGACY_SEPARATOR}${id}` }).where('id', '=', id).execute();
  }
  for (const { id, key } of keys) {
    await db.updateTable('clans').set({ name_key: key }).where('id', '=', id).execute();
  }
}

/**
 * The text rule (docs/server.md §8): clan names are unique case-insensitively
 * after NFKC, so the stored `clans.name_key` of existing clans is recomputed with clanNameKey
 * (contract/text.ts). Data only: the same on both dialects. Down restores the old key
 * (trimmed, lower case), with the same collision handling.
 */
export const textRule: DialectMigration = {
  async up(db) {
    await rewriteKeys(db, clanNameKey);
  },
  async down(db) {
    await rewriteKeys(db, (name) => name.trim().toLowerCase());
  },
};
