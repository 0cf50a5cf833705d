import { OkSchema } from '../../contract/common';
import { DiscordAnswerSchema, type Announce, type DiscordSettings } from '../../contract/discord';
import { request } from './client';

/**
 * The Discord announcement calls of docs/server.md §10, one function per endpoint,
 * answers parsed with contract/discord.ts schemas; failures raise ApiRequestError with the
 * server's `error` text (or a fallback).
 */

const discordPath = (clanId: number, eventId: number) => `clan/${clanId}/events/${eventId}/discord`;

/** GET .../discord → the event's settings, or null when no webhook is set. */
export async function fetchDiscordSettings(clanId: number, eventId: number): Promise<DiscordSettings | null> {
  return (await request(DiscordAnswerSchema, (h) => h.get(discordPath(clanId, eventId)), 'Failed to load the Discord settings.')).discord;
}

/**
 * PUT .../discord {webhook_url, announce, ping_teams} → the saved settings (URL masked).
 * `webhookUrl` null keeps the saved URL (only the flags change); `pingTeams` false unless given
 * (docs/server.md §19). 400 'Enter a Discord webhook URL (...)' for a URL the server refuses.
 */
export async function saveDiscordSettings(clanId: number, eventId: number, webhookUrl: string | null, announce: Announce, pingTeams = false): Promise<DiscordSettings> {
  const json = webhookUrl === null ? { announce, ping_teams: pingTeams } : { webhook_url: webhookUrl, announce, ping_teams: pingTeams };
  const answer = await request(DiscordAnswerSchema, (h) => h.put(discordPath(clanId, eventId), { json }), 'Failed to save the Discord settings.');
  if (!answer.discord) throw new Error('The server sent an answer this page cannot read.');
  return answer.discord;
}

/** DELETE .../discord: no more announcements for the event. */
export async function deleteDiscordSettings(clanId: number, eventId: number): Promise<void> {
  await request(DiscordAnswerSchema, (h) => h.delete(discordPath(clanId, eventId)), 'Failed to remove the Discord webhook.');
}

/** POST .../discord/test: a test message now; rejects with Discord's answer (502) when it refused. */
export async function testDiscordWebhook(clanId: number, eventId: number): Promise<void> {
  await request(OkSchema, (h) => h.post(`${discordPath(clanId, eventId)}/test`), 'The test message could not be sent.');
}
