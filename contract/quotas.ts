import * as v from 'valibot';

/**
 * Per-clan quotas (docs/server.md §18 "Quotas"): the answer of GET /api/clan/{clanId}/usage, the
 * refusal texts, and the lines the clan page shows managers.
 */

/** Bytes in one MiB: the quota setting CLAN_UPLOAD_QUOTA_MB counts MiB. */
export const MIB = 1024 * 1024;

/** A whole number written the way the site writes counts: 2,048. */
const count = (n: number) => n.toLocaleString('en-US');

/** 413 for a proof image that would take the clan past its upload quota of `quotaMib` MiB. */
export const uploadQuotaMessage = (quotaMib: number) => `This clan has used its ${count(quotaMib)} MiB for proof images.`;

/** 409 for an event create or copy while the clan already has `limit` events that have not ended. */
export const openEventsMessage = (limit: number) =>
  `This clan already has ${count(limit)} events that have not ended, the most it may have at once. Delete one, or wait until one ends.`;

/**
 * GET /api/clan/{clanId}/usage (managers): the clan's stored proof-image bytes and its quota in
 * bytes, and its events whose end has not passed (or that have none) and their limit.
 */
export const ClanUsageSchema = v.object({
  upload_bytes: v.number(),
  upload_quota_bytes: v.number(),
  events_open: v.number(),
  events_limit: v.number(),
});
export type ClanUsage = v.InferOutput<typeof ClanUsageSchema>;

/** MiB with one decimal under 100 MiB ('12.3'), whole above ('2,048'). */
function mib(bytes: number): string {
  const value = bytes / MIB;
  return value < 100 ? value.toLocaleString('en-US', { maximumFractionDigits: 1 }) : count(Math.round(value));
}

/** The clan page's line for stored proof images: 'Proof images: 12.3 MiB of 2,048 MiB'. */
export const uploadUsageText = (u: Pick<ClanUsage, 'upload_bytes' | 'upload_quota_bytes'>) =>
  `Proof images: ${mib(u.upload_bytes)} MiB of ${mib(u.upload_quota_bytes)} MiB`;

/** The clan page's line for open events: 'Open events: 3 of 50'. */
export const eventsUsageText = (u: Pick<ClanUsage, 'events_open' | 'events_limit'>) => `Open events: ${count(u.events_open)} of ${count(u.events_limit)}`;

/** True when the clan cannot store another proof image or make another event: the page warns. */
export const isAtQuota = (u: ClanUsage) => u.upload_bytes >= u.upload_quota_bytes || u.events_open >= u.events_limit;
