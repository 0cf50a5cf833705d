import { request } from './client';
import { AuditAnswerSchema, type AuditEntry } from '../../contract/audit';

/**
 * GET /api/clan/{clanId}/audit?before={id} → one page of the clan's History, newest first, 100 a
 * page (managers; docs/server.md §18 "History"); `before` the last entry of the page shown.
 */
export async function fetchAuditEntries(clanId: number, before?: number): Promise<AuditEntry[]> {
  const query = before === undefined ? '' : `?before=${before}`;
  return (await request(AuditAnswerSchema, (h) => h.get(`clan/${clanId}/audit${query}`), 'Failed to load the history.')).entries;
}
