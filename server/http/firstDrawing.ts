import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { boardSide } from '../../contract/game/board';
import { statusClass, statusLabel } from '../../contract/game/status';
import type { PublicGame } from '../../contract/gameApi';
// The app's own board, rendered here with React's server renderer, so the first drawing is the
// board the app draws (docs/architecture.md §2: the one arrow from server/ to src/).
import { BoardView } from '../../src/features/board/BoardView';
import type { CachedGame } from '../games/cache';
import type { Deps } from './context';
import { spectatedGameId } from './pagePreloads';

/**
 * Text or attribute value with &, <, >, " and ' escaped as React's server renderer escapes them
 * (the board beside it comes from there), safe inside an element or a quoted attribute (also the
 * link preview's tags: http/linkPreview.ts).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/**
 * The board as the app draws it (src/features/board/BoardView.tsx) in its still form: every
 * square with its number, START and FINISH, snakes, ladders and the team pawns, no task text, the
 * zoom buttons disabled and the info text named for element timing; React escapes every text.
 * Also the drawing of the board picture (lobby/boardPicture.ts, docs/server.md §19).
 */
export function boardHtml(game: PublicGame): string {
  return renderToStaticMarkup(
    createElement(BoardView, {
      boardSize: game.board_size,
      squares: game.board_squares,
      connections: game.board_connections,
      teams: game.team_states,
      label: `${game.event_name} board`,
      still: true,
    }),
  );
}

/** The navigation bar's logo (src/features/layout/Navbar.tsx). */
const LOGO =
  '<svg class="navbar__logo" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><rect x="1" y="1" width="30" height="30" rx="6" fill="#d4aa3a" stroke="#7a5c12" stroke-width="2"/>' +
  '<path d="M10 6v20M20 6v20M10 10h10M10 16h10M10 22h10" stroke="#3a2708" stroke-width="2.4" stroke-linecap="round"/>' +
  '<path d="M26 7c-6 2 2 6-4 9s2 6-5 9" fill="none" stroke="#2f6b2a" stroke-width="2.6" stroke-linecap="round"/></svg>';

/**
 * The roll strip above the board as the client shows it before a roll plays
 * (src/features/play/RollMoment.tsx): the newest logged roll in words, or 'No roll yet.'; its die
 * blank and its sound toggle disabled until the app takes over.
 */
function rollStrip(game: PublicGame): string {
  const last = game.log_entries.find((e) => typeof e.die === 'number');
  const said = last ? `${last.team_name} rolled a ${last.die}` : 'No roll yet.';
  return (
    `<div class="roll-strip"><span class="die" aria-hidden="true">${'<span class="die__pip"></span>'.repeat(9)}</span>` +
    `<p class="roll-strip__text">${escapeHtml(said)}</p><button type="button" class="btn btn--small roll-strip__sound" disabled>Sound off</button></div>`
  );
}

/**
 * The spectator page's first drawing (docs/client.md §9 "First drawing"), as HTML put before
 * index.html's #root and laid out as the client's screen: the navigation bar, the breadcrumb, the
 * game header (event type, name, clan, status, board size), the roll strip (rollStrip) and the board
 * as the client draws it (squares with numbers, START and FINISH, snakes, ladders, the team pawns on
 * their squares; no task text) with its zoom buttons and info text. Every text a user typed is
 * escaped (escapeHtml). It holds no script and no inline style attribute, and its buttons are
 * disabled (links are plain links): the client replaces it with its own screen once its board is
 * drawn (src/base/firstDrawing.ts). The outer element carries `data-first-drawing` and the class
 * `first-drawing`, which takes it out of the flow, under #root.
 */
function firstDrawingHtml(game: PublicGame): string {
  const side = boardSide(game.board_size);
  const cls = statusClass(game.status);
  return (
    `<div class="shell first-drawing" data-first-drawing="${game.id}">` +
    `<header class="navbar"><a href="/" class="navbar__brand">${LOGO}<span>Clan Snakes &amp; Ladders</span></a>` +
    '<nav class="navbar__links" aria-label="Main"><a href="/games/spectate" class="btn btn--ghost">Spectate</a></nav></header>' +
    '<main class="page"><div class="game-page">' +
    `<nav class="breadcrumb" aria-label="Breadcrumb"><ol class="breadcrumb__list"><li class="breadcrumb__item"><a href="/games/spectate">Spectate Games</a></li><li class="breadcrumb__item" aria-current="page">${escapeHtml(game.event_name)}</li></ol></nav>` +
    '<header class="panel game-header game-header--compact"><div class="game-header__titles">' +
    `<p class="game-header__type">${escapeHtml(game.event_type)}</p><h1 class="game-header__name">${escapeHtml(game.event_name)}</h1><p class="game-header__clan muted">${escapeHtml(game.clan_name)}</p></div>` +
    `<div class="game-header__facts"><span class="status-badge status-badge--${escapeHtml(cls)}" data-status="${escapeHtml(cls)}">${escapeHtml(statusLabel(game.status))}</span>` +
    `<span class="game-header__size">Board: ${game.board_size} squares (${side}x${side})</span>` +
    '<span class="connection"><span class="connection__badge connection__badge--connecting"><span class="connection__dot" aria-hidden="true"></span>Connecting…</span></span></div></header>' +
    '<div class="game-layout"><div class="game-layout__board"><section class="panel game-board" aria-label="Board">' +
    rollStrip(game) +
    '<div class="game-board__frame">' +
    boardHtml(game) +
    '</div></section></div></div>' +
    '</div></main></div>'
  );
}

/** The first drawing of each cached game version (an entry is one version: games/cache.ts). */
const drawings = new WeakMap<CachedGame, string>();

/**
 * The first drawing (firstDrawingHtml) of the game a spectator page's path names
 * (/games/spectate/{gameId}), from the game cache (built once per game version); null for any
 * other path, a game that does not exist or is PENDING, or a cache error: that page is served
 * as usual.
 */
export async function spectatorDrawing(deps: Pick<Deps, 'gameCache'>, pathname: string): Promise<string | null> {
  const gameId = spectatedGameId(pathname);
  if (gameId === null) return null;
  let entry: CachedGame | null;
  try {
    entry = deps.gameCache.peek(gameId) ?? (await deps.gameCache.get(gameId));
  } catch {
    return null;
  }
  if (!entry || entry.status === 'PENDING') return null;
  let html = drawings.get(entry);
  if (html === undefined) {
    html = firstDrawingHtml(entry.public);
    drawings.set(entry, html);
  }
  return html;
}
