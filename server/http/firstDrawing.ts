import { boardSide } from '../../contract/game/board';
import {
  BOARD_INFO_DEFAULT,
  pawnColor,
  squareKindOf,
  CELL,
  boardExtent,
  cellCenter,
  cellOrigin,
  headAngle,
  isDrawable,
  ladderLines,
  MARK_BASELINE,
  NUMBER_TOP,
  pawnOffsets,
  pawnRadius,
  snakePath,
} from '../../contract/game/boardGeometry';
import { statusClass, statusLabel } from '../../contract/game/status';
import type { PublicGame } from '../../contract/gameApi';
import type { CachedGame } from '../games/cache';
import type { Deps } from './context';
import { spectatedGameId } from './pagePreloads';

/** Text or attribute value with &, <, >, " and ' escaped, safe inside an element or a quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}




/** A number for an SVG attribute: at most 2 decimals, no trailing zeros. */
function n(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/**
 * The board's SVG content in the client's layers and classes: squares tinted by kind and tier,
 * snakes and ladders, numbers and START/FINISH, pawns. No task text (a phone's board shows none,
 * and it would double the markup): it comes with the client's board.
 */
function boardSvg(game: PublicGame): string {
  const boardSize = game.board_size;
  const drawn = game.board_connections.filter((c) => isDrawable(c, boardSize));
  const starts = new Map(drawn.map((c) => [c.start, c]));
  const bySquare = new Map(game.board_squares.map((s) => [s.square_index, s]));
  const cells: string[] = [];
  const labels: string[] = [];
  for (let square = 1; square <= boardSize; square += 1) {
    const s = bySquare.get(square);
    const kind = squareKindOf(square, boardSize, s?.task_description, starts);
    const o = cellOrigin(square, boardSize);
    const tier = kind === 'task' ? s?.task_difficulty ?? null : null;
    cells.push(
      `<g class="board__cell board__cell--${kind}${tier ? ` board__cell--${tier.toLowerCase()}` : ''}"><rect class="board__square" x="${o.x + 2}" y="${o.y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="8"/></g>`,
    );
    labels.push(`<text class="board__num" x="${o.x + 8}" y="${o.y + NUMBER_TOP}" dominant-baseline="hanging">${square}</text>`);
    if (kind === 'start' || kind === 'finish') {
      labels.push(`<text class="board__mark" x="${o.x + CELL / 2}" y="${n(o.y + MARK_BASELINE)}" text-anchor="middle">${kind === 'start' ? 'START' : 'FINISH'}</text>`);
    }
  }
  const links: string[] = [];
  for (const c of drawn.filter((d) => d.type === 'ladder')) {
    const { rails, rungs } = ladderLines(cellCenter(c.start, boardSize), cellCenter(c.end, boardSize));
    const line = (cls: string, [a, b]: [{ x: number; y: number }, { x: number; y: number }]) =>
      `<line class="${cls}" x1="${n(a.x)}" y1="${n(a.y)}" x2="${n(b.x)}" y2="${n(b.y)}"/>`;
    links.push(`<g class="board__ladder">${rails.map((r) => line('board__ladder-rail', r)).join('')}${rungs.map((r) => line('board__ladder-rung', r)).join('')}</g>`);
  }
  for (const c of drawn.filter((d) => d.type === 'snake')) {
    const head = cellCenter(c.start, boardSize);
    const d = snakePath(head, cellCenter(c.end, boardSize));
    links.push(
      `<g class="board__snake"><path class="board__snake-outline" d="${d}"/><path class="board__snake-body" d="${d}"/><path class="board__snake-stripe" d="${d}"/>` +
        `<g transform="translate(${n(head.x)} ${n(head.y)}) rotate(${n(headAngle(head, cellCenter(c.end, boardSize)))})">` +
        `<ellipse class="board__snake-head" rx="${n(CELL * 0.17)}" ry="${n(CELL * 0.12)}"/>` +
        `<circle class="board__snake-eye" cx="${n(CELL * 0.06)}" cy="${n(-CELL * 0.05)}" r="${n(CELL * 0.03)}"/>` +
        `<circle class="board__snake-eye" cx="${n(CELL * 0.06)}" cy="${n(CELL * 0.05)}" r="${n(CELL * 0.03)}"/></g></g>`,
    );
  }
  const teamsBySquare = new Map<number, PublicGame['team_states']>();
  for (const t of game.team_states.slice().sort((a, b) => a.team_id - b.team_id)) {
    const at = Math.min(Math.max(1, Math.round(t.current_position) || 1), boardSize);
    teamsBySquare.set(at, [...(teamsBySquare.get(at) ?? []), t]);
  }
  const pawns: string[] = [];
  for (const [square, here] of teamsBySquare) {
    const c = cellCenter(square, boardSize);
    const offsets = pawnOffsets(here.length);
    const r = pawnRadius(here.length);
    here.forEach((t, i) => {
      // A transform attribute, not a style one: the page's CSP allows no inline style attributes.
      pawns.push(
        `<g class="board__pawn" transform="translate(${n(c.x + offsets[i].x)} ${n(c.y + offsets[i].y)})"><title>${escapeHtml(`${t.team_name}: square ${square}`)}</title>` +
          `<circle r="${n(r)}" stroke-width="${n(Math.max(1.5, r * 0.2))}" fill="${pawnColor(t.team_color)}"/>` +
          `<circle r="${n(r * 0.45)}" class="board__pawn-shine" cx="${n(-r * 0.25)}" cy="${n(-r * 0.3)}"/></g>`,
      );
    });
  }
  return (
    `<g class="board__cells">${cells.join('')}</g><g class="board__links" aria-hidden="true">${links.join('')}</g>` +
    `<g class="board__labels" aria-hidden="true">${labels.join('')}</g><g class="board__pawns" aria-hidden="true">${pawns.join('')}</g>`
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
  const extent = boardExtent(game.board_size);
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
    '<div class="game-board__frame"><figure class="board"><div class="board__zoom" role="group" aria-label="Board zoom">' +
    '<button type="button" class="btn btn--small" disabled>Zoom out</button><span class="board__zoom-level">100%</span><button type="button" class="btn btn--small" disabled>Zoom in</button></div>' +
    '<div class="board__scroll">' +
    `<svg class="board__svg" viewBox="0 0 ${extent} ${extent}" role="img" aria-label="${escapeHtml(`${game.event_name} board`)}">${boardSvg(game)}</svg></div>` +
    `<figcaption class="board-info"><span class="board-info__text" elementtiming="first-drawing">${BOARD_INFO_DEFAULT}</span></figcaption></figure></div></section></div></div>` +
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
