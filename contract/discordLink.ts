import * as v from 'valibot';
import { ID_MAX, jsonBodySchema } from './common';

/**
 * Slash commands over Discord's HTTP interactions (docs/server.md §19 "Slash commands"): the texts
 * `/snl` answers, the link of a Discord server (guild) to a clan and its one-time codes. Shared by
 * the server (server/discord/interactions.ts, guilds.ts) and the client's /discord/link/{code} page.
 */

/** How long a `/snl link` code lasts: 15 minutes, in ms. */
export const LINK_CODE_TTL_MS = 15 * 60 * 1000;

/** What `/snl` answers, verbatim where docs/server.md §19 gives the text. */
export const SNL_TEXTS = {
  notLinked: 'This server is not linked to a clan yet: run /snl link.',
  noLiveGames: (clan: string) => `No live games in ${clan}.`,
  signInFirst: (origin: string) => `Sign in on ${origin} with Discord first.`,
  leaderOnly: "Only the team's Leader can roll.",
  slowDown: 'Slow down: too many commands.',
  link: (url: string) => `Open ${url} within 15 minutes, signed in as an Owner or Admin, and pick the clan to link to this server.`,
  guildOnly: 'Run /snl in a Discord server.',
  unknownCommand: 'Unknown command.',
  whichGame: (ids: readonly number[]) => `You lead teams in several live games: run /snl roll with the game option (${ids.join(', ')}).`,
} as const;

/** The refusals of the link page's calls. */
export const DISCORD_LINK_MESSAGES = {
  /** 404: unknown, used or expired code. */
  unknownCode: 'This link has expired or was already used: run /snl link in Discord again.',
  /** 403: the caller does not manage the clan. */
  notManager: 'Only an Owner or Admin of the clan can link it to a Discord server.',
  clanId: 'clan_id must be the id of a clan you manage.',
} as const;

/** The client's page of a link code: `/discord/link/{code}`. */
export const discordLinkPath = (code: string) => `/discord/link/${encodeURIComponent(code)}`;

/** POST /api/discord/links/{code} body: the clan to link. */
export const DiscordLinkBodySchema = jsonBodySchema({
  clan_id: v.pipe(v.number(DISCORD_LINK_MESSAGES.clanId), v.integer(DISCORD_LINK_MESSAGES.clanId), v.minValue(1, DISCORD_LINK_MESSAGES.clanId), v.maxValue(ID_MAX, DISCORD_LINK_MESSAGES.clanId)),
});

/** POST /api/discord/links/{code} answer: the guild now linked and its clan. */
export const DiscordLinkAnswerSchema = v.object({ guild_id: v.string(), clan_id: v.number() });
export type DiscordLink = v.InferOutput<typeof DiscordLinkAnswerSchema>;

/** GET|DELETE /api/clan/{clanId}/discord-guild answer: the linked guild's id, or null. */
export const DiscordGuildAnswerSchema = v.object({ guild_id: v.nullable(v.string()) });
