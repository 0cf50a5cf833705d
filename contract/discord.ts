import * as v from 'valibot';
import { isJsonObject } from './common';

/**
 * Discord announcements of an event (docs/server.md §10): the settings payloads, the
 * webhook URL rule and its masking, shared by the server and the Discord panel.
 */

/** The one refusal text of a webhook URL that breaks the rule (docs/server.md §10). */
export const WEBHOOK_URL_MESSAGE = 'Enter a Discord webhook URL (https://discord.com/api/webhooks/...).';

/** Hosts whose webhooks are accepted, all over https on the default port. */
const DISCORD_WEBHOOK_HOSTS = ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com'] as const;

/** The refusal of an `announce` that is not a JSON object (an array would otherwise pass as `{}`). */
const ANNOUNCE_NOT_OBJECT = 'announce must be a JSON object with any of status, rolls, reviews and results.';

/** Which kinds of announcement are posted; each switchable, all on by default. */
const AnnounceSchema = v.pipe(
  v.custom<Record<string, unknown>>(isJsonObject, ANNOUNCE_NOT_OBJECT),
  v.object({
    status: v.optional(v.boolean('announce.status must be true or false.'), true),
    rolls: v.optional(v.boolean('announce.rolls must be true or false.'), true),
    reviews: v.optional(v.boolean('announce.reviews must be true or false.'), true),
    results: v.optional(v.boolean('announce.results must be true or false.'), true),
  }),
);
export type Announce = v.InferOutput<typeof AnnounceSchema>;

/** The kinds of announcement, in the order the panel lists them. */
export const ANNOUNCE_KINDS = ['status', 'rolls', 'reviews', 'results'] as const;
export type AnnounceKind = (typeof ANNOUNCE_KINDS)[number];

/** The panel's label of each kind. */
export const ANNOUNCE_LABELS: Record<AnnounceKind, string> = {
  status: 'Game status changes',
  rolls: 'Rolls',
  reviews: 'Proof reviews',
  results: 'Results',
};

/**
 * PUT .../discord body: `webhook_url` (checked by parseWebhookUrl on the server; it may be left
 * out to keep the saved one), `announce` (each flag defaults to true) and `ping_teams` (default
 * false; docs/server.md §19).
 */
export const DiscordSettingsBodySchema = v.object(
  {
    webhook_url: v.optional(v.string(WEBHOOK_URL_MESSAGE)),
    announce: v.optional(AnnounceSchema, {}),
    /** Announcements about one team ping its Discord role (docs/server.md §19 "Team pings"); absent: false. */
    ping_teams: v.optional(v.boolean('ping_teams must be true or false.'), false),
  },
  'Request body must be a JSON object with webhook_url and announce.',
);
export type DiscordSettingsBody = v.InferOutput<typeof DiscordSettingsBodySchema>;

/** Delivery state of a webhook: posting, retrying after failures, or switched off by Discord's answer. */
const WebhookStateSchema = v.picklist(['active', 'failing', 'disabled']);
export type WebhookState = v.InferOutput<typeof WebhookStateSchema>;

/** The settings as answered: the URL with its token masked, never whole. */
const DiscordSettingsSchema = v.object({
  webhook_url_masked: v.string(),
  announce: v.object({ status: v.boolean(), rolls: v.boolean(), reviews: v.boolean(), results: v.boolean() }),
  state: WebhookStateSchema,
  last_error: v.nullable(v.string()),
  /** Whether announcements about one team ping its Discord role (docs/server.md §19). */
  ping_teams: v.boolean(),
});
export type DiscordSettings = v.InferOutput<typeof DiscordSettingsSchema>;

/** GET/PUT/DELETE .../discord answer: `{discord}`, null when no webhook is set. */
export const DiscordAnswerSchema = v.object({ discord: v.nullable(DiscordSettingsSchema) });

/**
 * A webhook URL that passed the rule: the URL to post to (with `?thread_id=` when it names a forum
 * thread), its id, token and thread id (null for none).
 */
export interface WebhookUrl {
  url: string;
  id: string;
  token: string;
  threadId: string | null;
}

/**
 * Checks a webhook URL (docs/server.md §10) with the WHATWG URL parser: exactly
 * `https://{host}/api/webhooks/{id}/{token}` on one of DISCORD_WEBHOOK_HOSTS, no user info, no
 * port, no fragment, nothing else in the path, and no query but one `thread_id={digits}` (a
 * forum channel's thread: posts go to that thread, docs/server.md §13). `origin`
 * (DISCORD_WEBHOOK_ORIGIN, tests only) replaces the allowed origins with that one. Null when the
 * URL breaks the rule.
 */
export function parseWebhookUrl(text: string, origin: string | null = null): WebhookUrl | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') return null;
  const thread = /^\?thread_id=([0-9]{1,25})$/.exec(url.search);
  if (url.search !== '' && !thread) return null;
  const threadId = thread ? thread[1] : null;
  if (origin !== null) {
    if (url.origin !== new URL(origin).origin) return null;
  } else {
    if (url.protocol !== 'https:' || url.port !== '') return null;
    if (!(DISCORD_WEBHOOK_HOSTS as readonly string[]).includes(url.hostname)) return null;
  }
  const m = /^\/api\/webhooks\/([0-9]{1,25})\/([A-Za-z0-9_-]{1,100})$/.exec(url.pathname);
  if (!m) return null;
  const query = threadId === null ? '' : `?thread_id=${threadId}`;
  return { url: `${url.origin}/api/webhooks/${m[1]}/${m[2]}${query}`, id: m[1], token: m[2], threadId };
}

/** The URL with all but the last 4 characters of its token replaced by '•' (never sent back whole). */
export function maskWebhookUrl(webhook: WebhookUrl): string {
  const query = webhook.threadId === null ? '' : `?thread_id=${webhook.threadId}`;
  const base = webhook.url.slice(0, webhook.url.length - webhook.token.length - query.length);
  const tail = webhook.token.length > 8 ? webhook.token.slice(-4) : '';
  return `${base}${'•'.repeat(8)}${tail}${query}`;
}

/** The panel's text of each state. */
export const WEBHOOK_STATE_TEXT: Record<WebhookState, string> = {
  active: 'Active: announcements are posted.',
  failing: 'Failing: Discord did not accept the last post; retrying.',
  disabled: 'Disabled: Discord refused the webhook. Save a new webhook URL to post again.',
};

/** The Discord panel's messages after an action. */
export const DISCORD_PANEL_TEXTS = {
  saved: 'Discord settings saved.',
  tested: 'Test message sent. Check the channel.',
  removed: 'Discord webhook removed.',
  loadFailed: 'Failed to load the Discord settings.',
  actionFailed: 'The request failed. Please try again.',
} as const;

/**
 * The panel's own check before saving (the server decides for good, with the same text): a URL
 * is required unless one is saved (then an empty field keeps it); a URL must look like
 * `http(s)://host/api/webhooks/{id}/{token}`, optionally with `?thread_id={digits}`. Null when it
 * may be sent, else WEBHOOK_URL_MESSAGE.
 */
export function webhookDraftProblem(draft: string, hasSaved: boolean): string | null {
  const text = draft.trim();
  if (text === '') return hasSaved ? null : WEBHOOK_URL_MESSAGE;
  return /^https?:\/\/[^/@\s]+\/api\/webhooks\/[0-9]+\/[A-Za-z0-9_-]+(\?thread_id=[0-9]+)?$/.test(text) ? null : WEBHOOK_URL_MESSAGE;
}
