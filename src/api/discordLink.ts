import { DiscordLinkAnswerSchema, type DiscordLink } from '../../contract/discordLink';
import { request } from './client';

/**
 * POST /api/discord/links/{code} {clan_id} (docs/server.md §19 "Slash commands") → the link made;
 * rejects with ApiRequestError (status 404 for an unknown, used or expired code, 403 for a clan the
 * user does not manage) carrying the server's text.
 */
export async function linkDiscordGuild(code: string, clanId: number): Promise<DiscordLink> {
  return request(DiscordLinkAnswerSchema, (h) => h.post(`discord/links/${encodeURIComponent(code)}`, { json: { clan_id: clanId } }), 'Failed to link the clan.');
}
