import type { Deps } from '../http/context';

/**
 * An OSRS account name: 1 to 12 letters, digits, spaces, '-' or '_'. Nothing else is put into
 * Wise Old Man's URL path: '.' and '..' would resolve to another address ('/players/..' is '/').
 */
export const OSRS_NAME = /^[A-Za-z0-9 _-]{1,12}$/;

/** How long one call may take, in ms (the budget holds a call's place at least this long until it ends). */
export const CALL_TIMEOUT_MS = 10_000;

/**
 * What one call to Wise Old Man came to: its JSON body (status 200), another status (with
 * Retry-After in ms when it gave one), 'offline' (no connection or timed out) or 'notJson'.
 */
export type WomAnswer =
  | { kind: 'ok'; body: unknown }
  | { kind: 'status'; status: number; retryAfterMs: number | null }
  | { kind: 'offline' }
  | { kind: 'notJson' };

/**
 * One call about a player (docs/server.md §16, §17): `GET {WOM_API_URL}/players/{ign}` (the
 * details) or `POST` (Wise Old Man's update, answering the same details), the IGN
 * percent-encoded, `x-api-key` when WOM_API_KEY is set. Only the queue calls it (queue.ts
 * `AskWom`), with a share of the budget (budget.ts) taken and ended around it; the caller has
 * checked the IGN against OSRS_NAME. Never throws.
 */
export async function callWom(deps: Deps, method: 'GET' | 'POST', ign: string, purpose: string): Promise<WomAnswer> {
  const url = `${deps.config.wom.apiUrl}/players/${encodeURIComponent(ign)}`;
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `ClanSnakesAndLadders (${purpose})` };
  if (deps.config.wom.apiKey) headers['x-api-key'] = deps.config.wom.apiKey;
  let res: Response;
  try {
    res = await fetch(url, { method, headers, redirect: 'error', signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  } catch {
    return { kind: 'offline' };
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    const after = Number(res.headers.get('retry-after'));
    return { kind: 'status', status: res.status, retryAfterMs: Number.isFinite(after) && after > 0 ? after * 1000 : null };
  }
  try {
    return { kind: 'ok', body: await res.json() };
  } catch {
    return { kind: 'notJson' };
  }
}
