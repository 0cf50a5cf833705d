import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context';
import { pathId, readJson, requireUser } from '../http/context';
import { requireManager } from '../clans/access';
import { findEvent } from '../events/repository';
import { DiscordSettingsBodySchema } from '../../contract/discord';
import { deleteWebhook, findWebhook } from './repository';
import { putSettings, settingsOf, testPost } from './service';

const PATH = '/clan/:clanId/events/:eventId/discord';

/** The manager and the event of a Discord settings call: 401, 400 bad ids, 404 clan, 403 non-manager, 404 event. */
async function managerScope(c: Context<AppEnv>) {
  const user = requireUser(c);
  const clanId = pathId(c, 'clanId', 'clan id');
  const eventId = pathId(c, 'eventId', 'event id');
  const deps = c.get('deps');
  await requireManager(deps.db, clanId, user.id);
  const event = await findEvent(deps.db, clanId, eventId);
  return { event, deps, origin: deps.config.announcements.webhookOrigin };
}

/**
 * An event's Discord announcements (docs/server.md §10), managers (Owner, Admin) only;
 * 401 signed out, 403 otherwise, 404 unknown clan or event. Every answer with settings is
 * `{discord: {webhook_url_masked, announce, state, last_error}}`, the token never whole.
 * - GET    .../discord → {discord} or {discord: null} when none is set
 * - PUT    .../discord {webhook_url, announce: {status, rolls, reviews, results}} → {discord};
 *   400 'Enter a Discord webhook URL (https://discord.com/api/webhooks/...).' for any other URL
 * - DELETE .../discord → {discord: null} (the queue goes with it)
 * - POST   .../discord/test → {ok: true} once Discord took a test message; 502 {error} with
 *   Discord's answer; 404 without a webhook
 */
export function discordRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(PATH, async (c) => {
    const s = await managerScope(c);
    const row = await findWebhook(s.deps.db, s.event.id);
    return c.json({ discord: row ? settingsOf(row, s.origin) : null });
  });

  app.put(PATH, async (c) => {
    const s = await managerScope(c);
    const body = await readJson(c, DiscordSettingsBodySchema);
    return c.json({ discord: await putSettings(s.deps.db, s.event.id, body, s.origin) });
  });

  app.delete(PATH, async (c) => {
    const s = await managerScope(c);
    await deleteWebhook(s.deps.db, s.event.id);
    return c.json({ discord: null });
  });

  app.post(`${PATH}/test`, async (c) => {
    const s = await managerScope(c);
    await testPost(s.deps.db, s.event.id, s.event.name, s.origin);
    return c.json({ ok: true as const });
  });

  return app;
}
