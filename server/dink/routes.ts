import { Hono, type Context } from 'hono';
import { siteOrigin } from '../http/siteOrigin';
import * as v from 'valibot';
import type { AppEnv } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { EVENT_ID_LABELS, eventScope } from '../http/gameScope';
import { routeBodyLimit } from '../http/bodyLimit';
import { keepUploadSlot, readUploadForm, uploadGate, type UploadFile } from '../http/uploads';
import { ApiError, notFound } from '../errors';
import { recordAudit } from '../audit/service';
import { log } from '../observability/log';
import { countDinkPost } from '../observability/metrics';
import { OkSchema } from '../../contract/common';
import { PROOF_MAX_BYTES } from '../../contract/submission';
import { DINK_MESSAGES, DinkAccountsAnswerSchema, DinkLinkAnswerSchema, DinkRecentAnswerSchema, DinkSettingsBodySchema } from '../../contract/dink';
import { deleteLink, findLinkByToken, findLinkOfEvent, recentPosts, saveLinkToken, setAutoApprove, type DinkLinkRow } from './repository';
import { accountsOf, clearAccount, judgePost, linkOf, newToken, takeRate, TokenParamSchema } from './service';
import { dinkConfigOf } from './config';

const PATH = '/clan/:clanId/events/:eventId/dink';
/** Room for the multipart envelope and payload_json around an 8 MiB screenshot, in bytes. */
const MULTIPART_SLACK = 256 * 1024;
/** The receiver answers 204 after at most this long even while the post is still being judged (docs/server.md §13: within 1 s). */
const ANSWER_WITHIN_MS = 700;

/** The path ids of the settings calls (the event's) and of an account's pin. */
const EVENT_IDS = ids(EVENT_ID_LABELS);
const ACCOUNT_IDS = ids({ ...EVENT_ID_LABELS, ignId: 'IGN id' });

const DinkLinkAnswer = named('DinkLinkAnswer', DinkLinkAnswerSchema);
/** Dink's Dynamic Config URL object: Dink's own key names with string, boolean or number values. */
const DinkConfigAnswer = named('DinkConfig', v.record(v.string(), v.union([v.string(), v.boolean(), v.number()])));

/** The live link of the path's token, or null (a token of another shape than TokenParamSchema's is never looked up). */
async function liveLink(c: Context<AppEnv, string, { out: { param: { token: string } } }>): Promise<DinkLinkRow | null> {
  let token: string;
  try {
    token = valid(c, 'param').token;
  } catch {
    return null;
  }
  return findLinkByToken(c.get('deps').db, token);
}

/** PNG (89 50 4E 47 0D 0A 1A 0A) or JPEG (FF D8 FF) by the first bytes. */
function isPngOrJpeg(bytes: Buffer): boolean {
  const png = bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  return png || jpeg;
}

/** Refuses a post with its status, counted in the metrics (docs/server.md §14 dink_posts_total). */
function refuse(status: 400 | 413, message: string): ApiError {
  countDinkPost(status === 413 ? 'too_large' : 'invalid');
  return new ApiError(status, message);
}

/**
 * The post's `payload_json` text and parsed value, and its screenshot (docs/server.md §13):
 * multipart/form-data with `payload_json` (a text field, or a file part) and an optional `file`
 * (read as it arrives, server/http/uploads.ts), or application/json. 400 when payload_json is
 * missing or not JSON, or the file is not PNG or JPEG by its bytes; 413 when the file is over 8 MiB.
 */
async function readPost(c: Context<AppEnv>): Promise<{ payloadText: string; payload: unknown; file: Buffer | null }> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  let payloadText: string | null = null;
  let file: UploadFile | null = null;
  if (type.startsWith('multipart/form-data')) {
    const form = await readUploadForm(c, PROOF_MAX_BYTES);
    if (!form) throw refuse(400, DINK_MESSAGES.noPayload);
    const partFile = form.files.payload_json;
    payloadText = form.fields.payload_json ?? partFile?.bytes?.toString('utf8') ?? null;
    file = form.files.file ?? null;
  } else if (type.startsWith('application/json')) {
    payloadText = await c.req.text().catch(() => null);
  }
  if (payloadText === null) throw refuse(400, DINK_MESSAGES.noPayload);
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    throw refuse(400, DINK_MESSAGES.noPayload);
  }
  if (!file) return { payloadText, payload, file: null };
  if (!isPngOrJpeg(file.head)) throw refuse(400, DINK_MESSAGES.badFile);
  if (file.size > PROOF_MAX_BYTES || !file.bytes) throw refuse(413, DINK_MESSAGES.tooLarge);
  return { payloadText, payload, file: file.bytes };
}

/**
 * Dink: proof straight from the game (docs/server.md §13).
 * Managers (Owner, Admin) of the event's clan; 401 signed out, 403 otherwise, 404 unknown clan or event:
 * - POST   .../dink → {dink: {url, auto_approve, created_at}}: makes the link, or rotates it (a new
 *   token; the old URL answers 404 at once; auto_approve kept)
 * - GET    .../dink → {dink} or {dink: null}
 * - PUT    .../dink {auto_approve} → {dink}; 404 without a link
 * - DELETE .../dink → {dink: null}: revoked, the URL answers 404 at once
 * - GET    .../dink/recent → {posts}: the last 200 posts, newest first
 * - GET    .../dink/accounts → {accounts: [{ign_id, ign, account_hash_prefix, pinned_at, posts}]}:
 *   the account hash pinned for each IGN on the event's teams (service.ts accountsOf)
 * - DELETE .../dink/accounts/{ignId} → {ok: true}: clears that IGN's pin (200 also when there was
 *   none); 400 a bad id, 404 an IGN not on a team of the event
 * The receiver, for the Dink plugin (no session):
 * - POST   /dink/{token}: 404 unknown token; 429 past 60 posts a minute to the token (both before
 *   any of the body is read); then it waits for an upload slot (503 with Retry-After after 10 s,
 *   docs/server.md §8); 400 payload_json missing or not JSON, or a file that is not PNG or JPEG by
 *   its bytes; 413 a file over 8 MiB; else 204 within 1 s, the post judged (service.ts judgePost)
 *   while the slot is held, so at most UPLOADS_IN_FLIGHT posts are in memory at once
 * - GET    /dink/{token}/config: Dink's "Dynamic Config URL" (config.ts dinkConfigOf); 404 unknown,
 *   rotated or revoked token
 */
export function dinkRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post(
    PATH,
    describe({ tag: 'dink', access: 'manager', summary: "Makes the event's Dink link, or rotates it (the old URL answers 404 at once).", answer: DinkLinkAnswer }),
    input('param', EVENT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      const dink = linkOf(await saveLinkToken(s.deps.db, s.event.id, newToken()), siteOrigin(c));
      // Never the link's URL: its token lets anyone post proof.
      await recordAudit(s.deps.db, s.event.clan_id, s.user.id, 'dink.link', s.event.name, 'Dink link made (any older link stops working)');
      return c.json({ dink });
    },
  );

  app.get(
    PATH,
    describe({ tag: 'dink', access: 'manager', summary: "The event's Dink link, or null.", answer: DinkLinkAnswer }),
    input('param', EVENT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      const row = await findLinkOfEvent(s.deps.db, s.event.id);
      return c.json({ dink: row ? linkOf(row, siteOrigin(c)) : null });
    },
  );

  app.put(
    PATH,
    describe({ tag: 'dink', access: 'manager', summary: 'Turns auto-approval of matching posts with a screenshot on or off.', answer: DinkLinkAnswer }),
    input('param', EVENT_IDS),
    input('json', named('DinkSettingsBody', DinkSettingsBodySchema)),
    async (c) => {
      const s = await eventScope(c, true);
      const body = valid(c, 'json');
      if (!(await setAutoApprove(s.deps.db, s.event.id, body.auto_approve))) throw notFound(DINK_MESSAGES.noLink);
      await recordAudit(s.deps.db, s.event.clan_id, s.user.id, 'dink.link', s.event.name, `Auto-approval ${body.auto_approve ? 'on' : 'off'}`);
      return c.json({ dink: linkOf((await findLinkOfEvent(s.deps.db, s.event.id))!, siteOrigin(c)) });
    },
  );

  app.delete(
    PATH,
    describe({ tag: 'dink', access: 'manager', summary: 'Revokes the link (its URL answers 404 at once).', answer: DinkLinkAnswer }),
    input('param', EVENT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      await deleteLink(s.deps.db, s.event.id);
      await recordAudit(s.deps.db, s.event.clan_id, s.user.id, 'dink.revoke', s.event.name, 'Dink link revoked');
      return c.json({ dink: null });
    },
  );

  app.get(
    `${PATH}/recent`,
    describe({ tag: 'dink', access: 'manager', summary: 'The last 200 posts to the link with their outcomes, newest first.', answer: named('DinkRecentAnswer', DinkRecentAnswerSchema) }),
    input('param', EVENT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      return c.json({ posts: await recentPosts(s.deps.db, s.event.id) });
    },
  );

  app.get(
    `${PATH}/accounts`,
    describe({
      tag: 'dink', access: 'manager', answer: named('DinkAccountsAnswer', DinkAccountsAnswerSchema),
      summary: "The Dink account hash pinned for each IGN on the event's teams (its first 8 characters), when it was pinned and how many posts came with it.",
    }),
    input('param', EVENT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      return c.json({ accounts: await accountsOf(s.deps.db, s.event.id) });
    },
  );

  app.delete(
    `${PATH}/accounts/:ignId`,
    describe({
      tag: 'dink', access: 'manager', answer: named('Ok', OkSchema),
      summary: "Clears the IGN's pinned Dink account: its next post with a hash pins that one (404 for an IGN not on a team of the event).",
    }),
    input('param', ACCOUNT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      await clearAccount(s.deps.db, s.event.id, s.ignId);
      return c.json({ ok: true as const });
    },
  );

  app.get(
    '/dink/:token/config',
    describe({
      tag: 'dink', access: 'public', answer: DinkConfigAnswer,
      summary: "One-link set-up for Dink's Advanced → Dynamic Config URL: discordWebhook, and each notifier a rule on the event's board uses, on with screenshots (lootItemAllowlist, killCountInterval 1); no other key.",
    }),
    input('param', TokenParamSchema, { status: 404, about: { token: "The link's token (43 base64url characters); any other is a 404." } }),
    async (c) => {
      const link = await liveLink(c);
      if (!link) throw notFound(DINK_MESSAGES.notFound);
      const config = await dinkConfigOf(c.get('deps').db, link.event_id, linkOf(link, siteOrigin(c)).url);
      c.header('Cache-Control', 'no-store');
      return c.json(config);
    },
  );

  app.post(
    '/dink/:token',
    describe({
      tag: 'dink', access: 'public', status: 204,
      summary: "Dink's webhook: multipart payload_json (+ optional PNG or JPEG file, at most 8 MiB) or application/json; 204 whatever it matched, judged as docs/server.md §13 says; 503 with Retry-After after 10 s waiting for an upload slot.",
      multipart: {
        fields: {
          payload_json: { type: 'string', contentMediaType: 'application/json', description: "Dink's JSON (type, playerName, dinkAccountHash, extra)." },
          file: { type: 'string', contentMediaType: 'image/png', description: 'The screenshot: PNG or JPEG by its bytes, at most 8 MiB.' },
        },
        required: ['payload_json'],
      },
    }),
    input('param', TokenParamSchema, { status: 404, about: { token: "The link's token (43 base64url characters); any other is a 404." } }),
    async (c, next) => {
      const link = await liveLink(c);
      if (!link) {
        countDinkPost('unknown_token');
        throw notFound(DINK_MESSAGES.notFound);
      }
      if (!(await takeRate(c.get('deps'), link.token))) {
        countDinkPost('rate_limited');
        throw new ApiError(429, DINK_MESSAGES.rateLimited);
      }
      await next();
    },
    uploadGate(PROOF_MAX_BYTES + MULTIPART_SLACK),
    routeBodyLimit(PROOF_MAX_BYTES + MULTIPART_SLACK, DINK_MESSAGES.tooLarge),
    async (c) => {
      const deps = c.get('deps');
      // The judging goes on after the answer, holding the post's bytes: the slot is freed when it ends.
      const release = keepUploadSlot(c);
      let judging: Promise<void> | null = null;
      try {
        const link = await liveLink(c);
        if (!link) throw notFound(DINK_MESSAGES.notFound);
        const post = await readPost(c);
        const event = await deps.db.selectFrom('events').select('clan_id').where('id', '=', link.event_id).executeTakeFirst();
        if (!event) throw notFound(DINK_MESSAGES.notFound);
        judging = judgePost(deps, { link, clanId: event.clan_id, ...post })
          .then(() => undefined, (err: unknown) => {
            log.error({ err, event_id: link.event_id }, '[dink] judging a post failed');
          })
          .finally(release);
      } finally {
        if (!judging) release();
      }
      // Dink does not read answers: 204 once judged, or after ANSWER_WITHIN_MS while it goes on.
      await Promise.race([judging, new Promise((resolve) => setTimeout(resolve, ANSWER_WITHIN_MS).unref())]);
      return c.body(null, 204);
    },
  );

  return app;
}
