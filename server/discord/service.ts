import type { Db } from '../db/schema';
import { ApiError, badRequest, notFound } from '../errors';
import {
  WEBHOOK_URL_MESSAGE,
  maskWebhookUrl,
  parseWebhookUrl,
  type DiscordSettings,
  type DiscordSettingsBody,
  type WebhookState,
} from '../../contract/discord';
import { singleMessage, type WebhookMessage } from './embeds';
import { announceOf, findWebhook, saveWebhook, type WebhookRow } from './repository';

/** Discord's answer to one post, sorted by what the worker does about it (docs/server.md §10). */
export type PostOutcome =
  | { kind: 'ok' }
  /** 429: wait `retryAfterMs` (Discord's retry_after), then post again. */
  | { kind: 'rateLimited'; retryAfterMs: number; error: string }
  /** 401, 403, 404 or a redirect: the webhook is dead; disable it. */
  | { kind: 'gone'; error: string }
  /** 5xx, a timeout or a network failure: retry with backoff. */
  | { kind: 'retry'; error: string }
  /** Any other 4xx: Discord will never take this message; drop it. */
  | { kind: 'rejected'; error: string };

/** Discord waits at most this long per request (docs/server.md §10: 5 s). */
const POST_TIMEOUT_MS = 5000;

/** Discord's answer body, cut short for last_error and the test post's 502. */
async function answerText(res: Response): Promise<string> {
  const body = (await res.text().catch(() => '')).replace(/\s+/g, ' ').trim();
  return body.length > 300 ? `${body.slice(0, 299)}…` : body;
}

/** Seconds to wait from a 429: the JSON body's retry_after, else the Retry-After header, else 1 s; at most 1 hour. */
async function retryAfterMs(res: Response, body: string): Promise<number> {
  let seconds = NaN;
  try {
    seconds = Number((JSON.parse(body) as { retry_after?: unknown }).retry_after);
  } catch {
    seconds = NaN;
  }
  if (!Number.isFinite(seconds) || seconds < 0) seconds = Number(res.headers.get('retry-after'));
  if (!Number.isFinite(seconds) || seconds < 0) seconds = 1;
  return Math.min(Math.ceil(seconds * 1000), 3600_000);
}

/**
 * Posts `message` to a webhook URL (which must pass parseWebhookUrl with `origin`; anything else
 * is never requested and counts as 'gone'). JSON body, no redirects followed (a 3xx is 'gone'),
 * aborted after POST_TIMEOUT_MS (5 s). Never throws.
 */
export async function postWebhook(url: string, origin: string | null, message: WebhookMessage): Promise<PostOutcome> {
  const checked = parseWebhookUrl(url, origin);
  if (!checked) return { kind: 'gone', error: 'The saved webhook URL is not a Discord webhook URL.' };
  let res: Response;
  try {
    res = await fetch(checked.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'ClanSnakesAndLadders (announcements, 1.0)' },
      body: JSON.stringify(message),
      redirect: 'manual',
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return { kind: 'retry', error: timedOut ? 'Discord did not answer within 5 seconds.' : 'Discord could not be reached.' };
  }
  const body = await answerText(res);
  const said = `Discord answered ${res.status}${body ? `: ${body}` : '.'}`;
  if (res.status >= 200 && res.status < 300) return { kind: 'ok' };
  if (res.status === 429) return { kind: 'rateLimited', retryAfterMs: await retryAfterMs(res, body), error: said };
  if (res.status === 401 || res.status === 403 || res.status === 404) {
    return { kind: 'gone', error: `${said} The webhook was deleted or its URL is wrong: save a new webhook URL.` };
  }
  if (res.status >= 300 && res.status < 400) return { kind: 'gone', error: `Discord answered ${res.status} (a redirect, never followed): save a new webhook URL.` };
  if (res.status >= 500) return { kind: 'retry', error: said };
  return { kind: 'rejected', error: said };
}

/** The settings as the API answers them: URL masked, flags, state and last error. */
export function settingsOf(row: WebhookRow, origin: string | null): DiscordSettings {
  const parsed = parseWebhookUrl(row.webhook_url, origin) ?? parseWebhookUrl(row.webhook_url);
  return {
    webhook_url_masked: parsed ? maskWebhookUrl(parsed) : '••••••••',
    announce: announceOf(row),
    state: (['active', 'failing', 'disabled'].includes(row.state) ? row.state : 'active') as WebhookState,
    last_error: row.last_error,
    ping_teams: row.ping_teams === 1,
  };
}

/**
 * PUT .../discord (docs/server.md §10): checks the URL (400 WEBHOOK_URL_MESSAGE unless it
 * passes parseWebhookUrl; it may be left out to keep the saved one, which needs one saved) and
 * saves it with the flags and ping_teams (docs/server.md §19); the state starts over as 'active'.
 */
export async function putSettings(db: Db, eventId: number, body: DiscordSettingsBody, origin: string | null): Promise<DiscordSettings> {
  let url: string;
  if (body.webhook_url === undefined) {
    const existing = await findWebhook(db, eventId);
    if (!existing) throw badRequest(WEBHOOK_URL_MESSAGE);
    url = existing.webhook_url;
  } else {
    const parsed = parseWebhookUrl(body.webhook_url, origin);
    if (!parsed) throw badRequest(WEBHOOK_URL_MESSAGE);
    url = parsed.url;
  }
  await saveWebhook(db, eventId, url, body.announce, body.ping_teams);
  const row = await findWebhook(db, eventId);
  return settingsOf(row!, origin);
}

/**
 * POST .../discord/test: posts a test message now. Resolves when Discord took it; 404 'No
 * Discord webhook is set for this event.' without one; 502 with Discord's answer otherwise.
 */
export async function testPost(db: Db, eventId: number, eventName: string, origin: string | null): Promise<void> {
  const row = await findWebhook(db, eventId);
  if (!row) throw notFound('No Discord webhook is set for this event.');
  const outcome = await postWebhook(row.webhook_url, origin, singleMessage({ kind: 'test', event_name: eventName }));
  if (outcome.kind !== 'ok') throw new ApiError(502, outcome.error);
}
