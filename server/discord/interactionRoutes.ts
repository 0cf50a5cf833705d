import { Hono } from 'hono';
import * as v from 'valibot';
import type { APIInteraction } from 'discord-api-types/v10';
import type { AppEnv, Deps } from '../http/context';
import { requireUser } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { siteOrigin } from '../http/siteOrigin';
import { redisChannelKey } from '../redis';
import { notFound } from '../errors';
import { DiscordGuildAnswerSchema, DiscordLinkAnswerSchema, DiscordLinkBodySchema } from '../../contract/discordLink';
import { answerInTime, publicKeyFromHex, verifyInteraction } from './interactions';
import { GuildCommandLimit } from './commandLimit';
import { guildOfClan, linkGuild, unlinkClan } from './guilds';

/** The 401 of an interaction whose signature does not hold (docs/server.md §19, verbatim). */
const BAD_SIGNATURE = 'invalid request signature';

/** A link code in the path: any text; one not of a code's shape answers 404 like an unknown one. */
const CODE = v.object({ code: v.string() });
const CLAN_ID = ids({ clanId: 'clan id' });

/** An interaction answer: `{type, data?}` (discord-api-types APIInteractionResponse). */
const InteractionAnswerSchema = v.looseObject({ type: v.number() });

/** The command limit of this app's processes (one per Redis prefix; memory without Redis), made on first use. */
const limits = new WeakMap<Deps, GuildCommandLimit>();
function limitOf(deps: Deps): GuildCommandLimit {
  let limit = limits.get(deps);
  if (!limit) {
    limit = new GuildCommandLimit(deps.redis, redisChannelKey(deps.config));
    limits.set(deps, limit);
  }
  return limit;
}

/**
 * Slash commands over Discord's HTTP interactions (docs/server.md §19 "Slash commands"):
 * - POST /discord/interactions: 404 while DISCORD_PUBLIC_KEY is unset; the raw body (at most 64
 *   KiB, the /api limit) verified with Ed25519 over X-Signature-Timestamp + body against the key:
 *   401 {"error": "invalid request signature"} for a missing or wrong signature or a timestamp
 *   more than 5 minutes off; then PING → {type: 1}, `/snl` → {type: 4, data} (interactions.ts), or
 *   {type: 5} when the command takes longer than DISCORD_DEFER_MS, its answer then sent as the
 *   edit of that response (answerInTime)
 * - POST /discord/links/{code} {clan_id} → {guild_id, clan_id}; signed in; 404 unknown, used or
 *   expired code; 403 unless a manager of the clan (guilds.ts linkGuild)
 * - GET /clan/{clanId}/discord-guild → {guild_id} or {guild_id: null}; managers
 * - DELETE /clan/{clanId}/discord-guild → {guild_id: null}; managers; unlinks
 */
export function discordInteractionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post(
    '/discord/interactions',
    describe({
      tag: 'discord',
      access: 'public',
      summary: "Discord's slash-command interactions, signed with the application's Ed25519 key (404 unless DISCORD_PUBLIC_KEY is set).",
      answer: named('DiscordInteractionAnswer', InteractionAnswerSchema),
      also: { 401: { description: "'invalid request signature'" } },
    }),
    async (c) => {
      const arrivedAt = performance.now();
      const arrivedAtMs = Date.now();
      const deps = c.get('deps');
      const hex = deps.config.discordApp.publicKey;
      if (!hex) throw notFound('Not found.');
      const key = publicKeyFromHex(hex);
      // The bytes as sent: the signature covers them, not a re-serialised parse.
      // (No input() validator here: it would parse the body before the signature is checked.)
      const raw = new Uint8Array(await c.req.arrayBuffer());
      if (!key || !verifyInteraction(key, c.req.header('x-signature-ed25519'), c.req.header('x-signature-timestamp'), raw)) {
        return c.json({ error: BAD_SIGNATURE }, 401);
      }
      let interaction: APIInteraction;
      try {
        interaction = JSON.parse(Buffer.from(raw).toString('utf8')) as APIInteraction;
      } catch {
        return c.json({ error: 'Request body must be a JSON object.' }, 400);
      }
      if (typeof interaction !== 'object' || interaction === null) return c.json({ error: 'Request body must be a JSON object.' }, 400);
      const origin = deps.config.publicOrigin ?? siteOrigin(c);
      return c.json(await answerInTime({ deps, origin, limit: limitOf(deps), arrivedAt, arrivedAtMs }, interaction, deps.config.discordApp.deferMs));
    },
  );

  app.post(
    '/discord/links/:code',
    describe({ tag: 'discord', access: 'signed-in', summary: "Links the `/snl link` code's Discord server to a clan the caller manages (replacing either side's old link).", answer: named('DiscordLinkAnswer', DiscordLinkAnswerSchema) }),
    input('param', CODE),
    input('json', named('DiscordLinkBody', DiscordLinkBodySchema)),
    async (c) => {
      const user = requireUser(c);
      const { code } = valid(c, 'param');
      const body = valid(c, 'json');
      return c.json(await linkGuild(c.get('deps').db, code, body.clan_id, user.id));
    },
  );

  app.get(
    '/clan/:clanId/discord-guild',
    describe({ tag: 'discord', access: 'manager', summary: 'The Discord server linked to the clan, or null.', answer: named('DiscordGuildAnswer', DiscordGuildAnswerSchema) }),
    input('param', CLAN_ID),
    async (c) => {
      const { clanId, db } = await clanScope(c, 'manager');
      return c.json({ guild_id: await guildOfClan(db, clanId) });
    },
  );

  app.delete(
    '/clan/:clanId/discord-guild',
    describe({ tag: 'discord', access: 'manager', summary: 'Unlinks the clan from its Discord server.', answer: named('DiscordGuildAnswer', DiscordGuildAnswerSchema) }),
    input('param', CLAN_ID),
    async (c) => {
      const { clanId, db } = await clanScope(c, 'manager');
      await unlinkClan(db, clanId);
      return c.json({ guild_id: null });
    },
  );

  return app;
}
