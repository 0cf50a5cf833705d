import { request } from './client';
import { ClanUsageSchema, type ClanUsage } from '../../contract/quotas';

/**
 * GET /api/clan/{clanId}/usage → {upload_bytes, upload_quota_bytes, events_open, events_limit}
 * (managers; docs/server.md §18 "Quotas"); raises with the server's text, else 'Failed to load the
 * clan’s usage.'
 */
export function fetchClanUsage(clanId: number): Promise<ClanUsage> {
  return request(ClanUsageSchema, (h) => h.get(`clan/${clanId}/usage`), 'Failed to load the clan’s usage.');
}
