import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { EVENT_ID_LABELS, eventScope } from '../http/gameScope';
import { OkSchema } from '../../contract/common';
import { DiscordAnswerSchema, DiscordSettingsBodySchema } from '../../contract/discord';
import { deleteWebhook, findWebhook } from './repository';
import { putSettings, settingsOf, testPost } from './service';
import { recordAudit } from '../audit/service';

const PATH = '/clan/:clanId/events/:eventId/discord';
/** The path ids: the event's. */
const EVENT_IDS = ids(EVENT_ID_LABELS);
const DiscordAnswer = named('DiscordAnswer', DiscordAnswerSchema);

/**
 * An event's Discord announcements (docs/server.md §10), managers (Owner, Admin) only;
 * 401 signed out, 403 otherwise, 404 unknown clan or event. Every answer with settings is
 * `{discord: {webhook_url_masked, announce, state, last_error, ping_teams}}`, the token never whole.
 * - GET    .../discord → {discord} or {discord: null} when none is set
 * - PUT    .../discord {webhook_url, announce: {status, rolls, reviews, results}, ping_teams} → {discord}
 *   (ping_teams default false: docs/server.md §19 "Team pings");
 *   400 'Enter a Discord webhook URL (https://discord.com/api/webhooks/...).' for any other URL
 * - DELETE .../discord → {discord: null} (the queue goes with it)
 * - POST   .../discord/test → {ok: true} once Discord took a test message; 502 {error} with
 *   Discord's answer; 404 without a webhook
 */
export function discordRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    PATH,
    describe({ tag: 'discord', access: 'manager', summary: "The event's Discord settings (the webhook masked), or null.", answer: DiscordAnswer }),
    input('param', EVENT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      const row = await findWebhook(s.deps.db, s.event.id);
      return c.json({ discord: row ? settingsOf(row, s.deps.config.announcements.webhookOrigin) : null });
    },
  );

  app.put(
    PATH,
    describe({ tag: 'discord', access: 'manager', summary: 'Sets the webhook and what it announces.', answer: DiscordAnswer }),
    input('param', EVENT_IDS),
    input('json', named('DiscordSettingsBody', DiscordSettingsBodySchema)),
    async (c) => {
      const s = await eventScope(c, true);
      const body = valid(c, 'json');
      const discord = await putSettings(s.deps.db, s.event.id, body, s.deps.config.announcements.webhookOrigin);
      // What it announces, never the webhook URL (the URL is a secret that lets anyone post).
      const on = Object.entries(discord.announce).filter(([, v]) => v).map(([k]) => k);
      await recordAudit(s.deps.db, s.event.clan_id, s.user.id, 'webhook.set', s.event.name, `Announces: ${on.length > 0 ? on.join(', ') : 'nothing'}`);
      return c.json({ discord });
    },
  );

  app.delete(
    PATH,
    describe({ tag: 'discord', access: 'manager', summary: 'Removes the webhook and its queue.', answer: DiscordAnswer }),
    input('param', EVENT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      await deleteWebhook(s.deps.db, s.event.id);
      await recordAudit(s.deps.db, s.event.clan_id, s.user.id, 'webhook.delete', s.event.name, 'Discord webhook removed');
      return c.json({ discord: null });
    },
  );

  app.post(
    `${PATH}/test`,
    describe({
      tag: 'discord', access: 'manager', summary: "Posts a test message (502 with Discord's answer when it refuses).", answer: named('Ok', OkSchema),
      also: { 502: { description: "Discord refused the test message: `{error}` with Discord's answer." } },
    }),
    input('param', EVENT_IDS),
    async (c) => {
      const s = await eventScope(c, true);
      await testPost(s.deps.db, s.event.id, s.event.name, s.deps.config.announcements.webhookOrigin);
      return c.json({ ok: true as const });
    },
  );

  return app;
}
