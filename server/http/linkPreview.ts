import type { Context } from 'hono';
import { standingsOf } from '../../contract/game/standings';
import type { PublicGame } from '../../contract/gameApi';
import type { CachedGame } from '../games/cache';
import type { AppEnv } from './context';
import { escapeHtml } from './firstDrawing';
import { boardPicturePath, spectatedGameId } from './pagePreloads';
import { siteOrigin } from './siteOrigin';

/**
 * A link preview's description of a game (docs/server.md §19): each team and its square in the
 * order of the standings (contract standingsOf: winners first, then furthest first), then the
 * game's status as the API spells it, e.g. 'Team 2 on 54 · Team 1 on 31 · in-progress'.
 */
function previewDescription(game: PublicGame): string {
  const teams = standingsOf(game.team_states, game.winners).map((s) => `${s.team_name} on ${s.position}`);
  return [...teams, game.status].join(' · ');
}

/**
 * The link preview tags of a spectator page (docs/server.md §19 "Link previews"), for the end of
 * its <head>: og:title '{event name}: live snakes and ladders', og:description
 * (previewDescription), og:image (the board picture of the game's version, absolute), og:url and
 * twitter:card summary_large_image. Absolute URLs start with PUBLIC_ORIGIN, else the request's own
 * origin (siteOrigin). Every text goes in escaped as attribute text. '' for any other path, a
 * missing or PENDING game (not public) or a cache error: the page is served without them.
 */
export async function linkPreviewTags(c: Context<AppEnv>, pathname: string): Promise<string> {
  const gameId = spectatedGameId(pathname);
  if (gameId === null) return '';
  const deps = c.get('deps');
  let entry: CachedGame | null;
  try {
    entry = deps.gameCache.peek(gameId) ?? (await deps.gameCache.get(gameId));
  } catch {
    return '';
  }
  if (!entry || entry.status === 'PENDING') return '';
  const origin = deps.config.publicOrigin ?? siteOrigin(c);
  const meta = (key: 'property' | 'name', name: string, content: string) => `<meta ${key}="${name}" content="${escapeHtml(content)}">`;
  return [
    meta('property', 'og:title', `${entry.public.event_name}: live snakes and ladders`),
    meta('property', 'og:description', previewDescription(entry.public)),
    meta('property', 'og:image', origin + boardPicturePath(gameId, entry.version)),
    meta('property', 'og:url', `${origin}/games/spectate/${gameId}`),
    meta('name', 'twitter:card', 'summary_large_image'),
  ].join('');
}
