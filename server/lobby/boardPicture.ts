import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';
import { loadSharp } from '../images/sharp';
import type { PublicGame } from '../../contract/gameApi';
import type { CachedGame } from '../games/cache';
import { boardHtml } from '../http/firstDrawing';
import { countBoardPictureRender } from '../observability/metrics';

/** Widths of the board picture in pixels (docs/server.md §19 "The board as a picture"): 200 to 1,600, 800 unless asked. */
export const PICTURE_MIN_WIDTH = 200;
export const PICTURE_MAX_WIDTH = 1600;
export const PICTURE_DEFAULT_WIDTH = 800;

/** Bytes of PNG kept at most (least recently used out): a 800 px picture weighs about 50-150 KB. */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The client's stylesheet, where the board's colours live (src/styles.css, "The board (SVG)"):
 * the same file in the repository whether the server runs from source or from the tests' bundle
 * (both two folders below the root), else found from the working directory.
 */
function stylesheetPath(): string {
  const beside = fileURLToPath(new URL('../../src/styles.css', import.meta.url));
  return fs.existsSync(beside) ? beside : 'src/styles.css';
}

let boardCss: { rules: string; background: string } | null = null;

/**
 * The board's own rules of the client's stylesheet: every top-level rule whose selectors are all
 * `.board__…` (squares by tier, START/FINISH, numbers with their halo, snakes, ladders, pawns),
 * and the board's background colour (`.board__svg`'s), so the picture takes its colours from the
 * one place the app does. Media queries (the phone's larger numbers) are left out. Read once.
 */
function boardStyles(): { rules: string; background: string } {
  if (boardCss) return boardCss;
  let css = '';
  try {
    css = fs.readFileSync(stylesheetPath(), 'utf8');
  } catch {
    css = '';
  }
  css = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: string[] = [];
  let background = '#5a4630';
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i += 1) {
    if (css[i] === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (css[i] === '}') {
      depth -= 1;
      if (depth !== 0) continue;
      const head = css.slice(css.lastIndexOf('}', start) + 1, start).trim();
      const body = css.slice(start + 1, i).trim();
      const selectors = head.split(',').map((s) => s.trim());
      // A state of the page (hover, focus, selection) never shows in a picture.
      if (head.startsWith('@') || !selectors.every((s) => s.startsWith('.board__')) || /:(?:hover|focus)/.test(head)) continue;
      if (head === '.board__svg') {
        background = /(?:^|;)\s*background:\s*([^;]+)/.exec(body)?.[1].trim() ?? background;
        continue;
      }
      rules.push(`${head}{${body}}`);
    }
  }
  boardCss = { rules: rules.join(''), background };
  return boardCss;
}

/**
 * The board of `game` as one standalone SVG document `width` pixels square: the `<svg>` of the
 * client's own board in its still form (BoardView, as the spectator page's first drawing renders
 * it: server/http/firstDrawing.ts boardHtml), with the SVG namespace, its size, the board's
 * background and the board's rules of the client's stylesheet, in a generic sans-serif font
 * (librsvg, which draws it, has the system's fonts only). No drawing of its own.
 */
function boardPictureSvg(game: PublicGame, width: number): string {
  const html = boardHtml(game);
  const from = html.indexOf('<svg');
  const to = html.lastIndexOf('</svg>');
  const svg = html.slice(from, to + '</svg>'.length);
  const { rules, background } = boardStyles();
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const extent = viewBox ? Number(viewBox[1]) : 0;
  const open = svg.indexOf('>');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${width}"${svg.slice('<svg'.length, open)}>` +
    `<style>svg{font-family:sans-serif}${rules}</style>` +
    `<rect x="0" y="0" width="${extent}" height="${extent}" fill="${background.replace(/[<>"&]/g, '')}"/>` +
    svg.slice(open + 1)
  );
}

/** Renders boardPictureSvg to PNG bytes with sharp (librsvg draws the SVG, libvips encodes). */
async function render(game: PublicGame, width: number): Promise<Buffer> {
  countBoardPictureRender();
  const svg = boardPictureSvg(game, width);
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg), { density: 72 }).png({ compressionLevel: 6 }).toBuffer();
}

/** One drawn picture: its PNG bytes and ETag. */
export interface BoardPicture {
  png: Buffer;
  etag: string;
}

/** Pictures by ETag (one game version and width), bounded by their bytes. */
const pictures = new LRUCache<string, BoardPicture>({ maxSize: CACHE_BYTES, sizeCalculation: (p) => Math.max(1, p.png.byteLength) });
/** Renders under way by ETag: callers asking for the same picture meanwhile share one. */
const rendering = new Map<string, Promise<BoardPicture>>();

/**
 * The ETag of the picture of a cached game version at `width`: the game's version and its public
 * body's hash (an entry's own ETag, which also changes when a team is renamed or recoloured without
 * a new version) and the width.
 */
export function pictureEtag(entry: CachedGame, width: number): string {
  return `${entry.etag.slice(0, -1)}-w${width}"`;
}

/**
 * The board picture of a cached game version at `width` (docs/server.md §19): from memory when
 * drawn before (lru-cache bounded by bytes), else rendered once however many ask at the same time
 * (they share one promise); a failed render is not kept.
 */
export function boardPicture(entry: CachedGame, width: number): BoardPicture | Promise<BoardPicture> {
  const etag = pictureEtag(entry, width);
  const cached = pictures.get(etag);
  if (cached) return cached;
  let pending = rendering.get(etag);
  if (!pending) {
    pending = render(entry.public, width).then(
      (png) => {
        const picture = { png, etag };
        pictures.set(etag, picture);
        rendering.delete(etag);
        return picture;
      },
      (err: unknown) => {
        rendering.delete(etag);
        throw err;
      },
    );
    rendering.set(etag, pending);
  }
  return pending;
}
