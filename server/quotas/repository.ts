import type { Db } from '../db/schema';
import type { Config } from '../config';
import { ApiError, conflict } from '../errors';
import { lockClan } from '../clans/repository';
import { nowIso } from '../time';
import { MIB, openEventsMessage, uploadQuotaMessage, type ClanUsage } from '../../contract/quotas';

/**
 * A clan's quotas, counted from the database on every check (docs/server.md §18 "Quotas"), so every
 * process sees the same figures and nothing is kept in memory. Stored proof-image bytes are the
 * `image_bytes` of the clan's submissions plus those of its games' counted Dink posts
 * (progress_entries: their screenshots stay stored while the team's total grows); sizes are what
 * was written to the image store (the re-encoded image and its thumbnail).
 */

/** Bytes of proof images clan `clanId` keeps stored now (two sums over indexed columns). */
async function uploadBytesOf(db: Db, clanId: number): Promise<number> {
  const sent = await db.selectFrom('submissions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('image_bytes'), eb.lit(0)).as('n'))
    .where('clan_id', '=', clanId)
    .executeTakeFirst();
  const counted = await db.selectFrom('progress_entries')
    .innerJoin('games', 'games.id', 'progress_entries.game_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('progress_entries.image_bytes'), eb.lit(0)).as('n'))
    .where('games.clan_id', '=', clanId)
    .executeTakeFirst();
  // PostgreSQL answers a bigint sum as text.
  return Number(sent?.n ?? 0) + Number(counted?.n ?? 0);
}

/** True when clan `clanId` may store `bytes` more: its stored bytes plus `bytes` stay within the quota. */
export async function hasUploadRoom(db: Db, config: Config, clanId: number, bytes: number): Promise<boolean> {
  return (await uploadBytesOf(db, clanId)) + bytes <= config.quotas.uploadBytes;
}

/**
 * 413 uploadQuotaMessage when clan `clanId` may not store `bytes` more. Checked before the image
 * is written: two uploads of one clan checked at the same moment may both pass and overshoot the
 * quota by what they store (documented; the next one is refused).
 */
export async function checkUploadRoom(db: Db, config: Config, clanId: number, bytes: number): Promise<void> {
  if (!(await hasUploadRoom(db, config, clanId, bytes))) throw new ApiError(413, uploadQuotaMessage(config.quotas.uploadBytes / MIB));
}

/** Events of clan `clanId` whose end is after `now` (ISO) or that have none. Stored ends are normalised ISO times, so text order is time order. */
async function openEventsOf(db: Db, clanId: number, now = nowIso()): Promise<number> {
  const row = await db.selectFrom('events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('clan_id', '=', clanId)
    .where((eb) => eb.or([eb('end_datetime', 'is', null), eb('end_datetime', '>', now)]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Inside the transaction that makes an event (create or copy): locks the clan row, so two makes of
 * one clan take turns and the limit holds exactly in every process, then 409 openEventsMessage
 * when the clan already has `config.quotas.openEvents` open events.
 */
export async function checkEventRoom(trx: Db, config: Config, clanId: number): Promise<void> {
  await lockClan(trx, clanId);
  if ((await openEventsOf(trx, clanId)) >= config.quotas.openEvents) throw conflict(openEventsMessage(config.quotas.openEvents));
}

/** The figures of GET /api/clan/{clanId}/usage. */
export async function usageOf(db: Db, config: Config, clanId: number): Promise<ClanUsage> {
  const [upload_bytes, events_open] = await Promise.all([uploadBytesOf(db, clanId), openEventsOf(db, clanId)]);
  return { upload_bytes, upload_quota_bytes: config.quotas.uploadBytes, events_open, events_limit: config.quotas.openEvents };
}
