import crypto from 'node:crypto';
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

/** Bytes of PNG kept at most (least recently used out): an 800 px picture of a 225-square board weighs about 300 KB. */
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

/** One rule of the board's stylesheet: its selector's compounds (descendant combinators only), specificity, order and declarations. */
interface BoardRule {
  compounds: Compound[];
  specificity: number;
  order: number;
  declarations: [string, string][];
}

/** One compound selector: an optional element name, classes, and whether it is `:first-of-type`. */
interface Compound {
  tag: string | null;
  classes: string[];
  firstOfType: boolean;
}

/** The board's stylesheet split for the picture: rules inlined per element, rules kept as a sheet, and the background. */
interface BoardStyles {
  inline: BoardRule[];
  sheet: string;
  background: string;
}

let boardCss: BoardStyles | null = null;

/**
 * A selector of the forms the board's rules use (`.a`, `.a .b`, `.a circle:first-of-type`:
 * compounds joined by the descendant combinator), or null for any other (kept as a sheet).
 */
function parseSelector(selector: string): Compound[] | null {
  const compounds: Compound[] = [];
  for (const part of selector.trim().split(/\s+/)) {
    const m = /^([a-z]+)?((?:\.[\w-]+)*)(:first-of-type)?$/.exec(part);
    if (!m || (!m[1] && !m[2])) return null;
    compounds.push({ tag: m[1] ?? null, classes: m[2] ? m[2].slice(1).split('.') : [], firstOfType: Boolean(m[3]) });
  }
  return compounds;
}

/** Properties of the board's rules that only a page uses: left out of the picture's styles. */
const PAGE_ONLY = new Set(['transition', 'cursor', 'outline', 'pointer-events']);

/** `prop: value; …` as [property, value] pairs (no `!important` in the board's rules). */
function parseDeclarations(body: string): [string, string][] {
  return body.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const colon = d.indexOf(':');
    return [d.slice(0, colon).trim(), d.slice(colon + 1).trim()] as [string, string];
  });
}

/**
 * The board's own rules of the client's stylesheet: every top-level rule whose selectors are all
 * `.board__…` (squares by tier, START/FINISH, numbers with their halo, snakes, ladders, pawns),
 * and the board's background colour (`.board__svg`'s), so the picture takes its colours from the
 * one place the app does. Media queries (the phone's larger numbers) are left out. Read once.
 * Rules whose selectors are of the simple forms parseSelector reads are applied to the elements
 * by inlineBoardStyles (librsvg matches every rule of a sheet against every element, which cost
 * more than half of a 225-square picture's drawing); any other rule is kept as a sheet.
 */
function boardStyles(): BoardStyles {
  if (boardCss) return boardCss;
  let css = '';
  try {
    css = fs.readFileSync(stylesheetPath(), 'utf8');
  } catch {
    css = '';
  }
  css = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const inline: BoardRule[] = [];
  const sheet: string[] = [];
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
      const parsed = selectors.map(parseSelector);
      if (parsed.some((c) => c === null) || /!important/.test(body)) {
        sheet.push(`${head}{${body}}`);
        continue;
      }
      // What only a page does (transitions, the pointer, the focus outline) never shows in a picture.
      const declarations = parseDeclarations(body).filter(([prop]) => !PAGE_ONLY.has(prop));
      if (declarations.length === 0) continue;
      for (const compounds of parsed as Compound[][]) {
        // (classes and pseudo-classes, element names): two digits each is plenty for these selectors.
        const specificity = compounds.reduce((s, c) => s + 100 * (c.classes.length + (c.firstOfType ? 1 : 0)) + (c.tag ? 1 : 0), 0);
        inline.push({ compounds, specificity, order: inline.length, declarations });
      }
    }
  }
  boardCss = { inline, sheet: sheet.join(''), background };
  return boardCss;
}

/** An open element while inlining: its name, classes and how many children of each name it has so far. */
interface OpenElement {
  tag: string;
  classes: string[];
  firstOfType: boolean;
  children: Map<string, number>;
  /** The element with its ancestors as text: the same key, the same styles. */
  key: string;
}

/** True when `element` (with its open ancestors, innermost last) matches `compounds`. */
function matches(compounds: Compound[], element: OpenElement, ancestors: OpenElement[]): boolean {
  const fits = (c: Compound, e: OpenElement) => (!c.tag || c.tag === e.tag) && (!c.firstOfType || e.firstOfType) && c.classes.every((k) => e.classes.includes(k));
  if (!fits(compounds[compounds.length - 1], element)) return false;
  let a = ancestors.length - 1;
  for (let i = compounds.length - 2; i >= 0; i -= 1) {
    while (a >= 0 && !fits(compounds[i], ancestors[a])) a -= 1;
    if (a < 0) return false;
    a -= 1;
  }
  return true;
}

/**
 * `svg` (React's server markup: well-formed, every `<` and `>` in text and attributes escaped)
 * with the board's rules applied as each element's `style` attribute, in the cascade's order
 * (specificity, then order in the stylesheet); a style attribute the element had comes last. The
 * same declarations on the same elements as the sheet gives them: a style attribute, like a
 * sheet, wins over presentation attributes.
 */
function inlineBoardStyles(svg: string, rules: BoardRule[]): string {
  const open: OpenElement[] = [];
  const memo = new Map<string, string>();
  return svg.replace(/<(\/?)([A-Za-z][\w-]*)([^>]*?)(\/?)>/g, (tag, closing: string, name: string, attrs: string, selfClosing: string) => {
    if (closing) {
      open.pop();
      return tag;
    }
    const parent = open.at(-1);
    const seen = parent?.children.get(name) ?? 0;
    parent?.children.set(name, seen + 1);
    const classes = attrs.includes('class="') ? (/\sclass="([^"]*)"/.exec(attrs)?.[1].split(/\s+/).filter(Boolean) ?? []) : [];
    const key = `${parent?.key ?? ''}>${name}.${classes.join('.')}${seen === 0 ? ':1' : ''}`;
    const element: OpenElement = { tag: name, classes, firstOfType: seen === 0, children: new Map(), key };
    let style = memo.get(key);
    if (style === undefined) {
      const props = new Map<string, string>();
      for (const rule of rules.filter((r) => matches(r.compounds, element, open)).sort((x, y) => x.specificity - y.specificity || x.order - y.order)) {
        for (const [prop, value] of rule.declarations) props.set(prop, value);
      }
      style = escapeAttribute([...props].map(([prop, value]) => `${prop}:${value}`).join(';'));
      memo.set(key, style);
    }
    if (!selfClosing) open.push(element);
    if (!style) return tag;
    const own = /\sstyle="([^"]*)"/.exec(attrs);
    const body = own ? attrs.replace(own[0], '') : attrs;
    return `<${name}${body} style="${own ? `${style};${own[1]}` : style}"${selfClosing ? '/' : ''}>`;
  });
}

/** A value put in a double-quoted attribute. */
const escapeAttribute = (text: string) => text.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch);

/**
 * The board of `game` as one standalone SVG document `width` pixels square: the `<svg>` of the
 * client's own board in its still form (BoardView, as the spectator page's first drawing renders
 * it: server/http/firstDrawing.ts boardHtml), with the SVG namespace, its size, the board's
 * background and the board's rules of the client's stylesheet (inlineBoardStyles), in a generic
 * sans-serif font (librsvg, which draws it, has the system's fonts only). No drawing of its own.
 */
function boardPictureSvg(game: PublicGame, width: number): string {
  const html = boardHtml(game);
  const from = html.indexOf('<svg');
  const to = html.lastIndexOf('</svg>');
  const { inline, sheet, background } = boardStyles();
  const svg = inlineBoardStyles(html.slice(from, to + '</svg>'.length), inline);
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const extent = viewBox ? Number(viewBox[1]) : 0;
  const open = svg.indexOf('>');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${width}" font-family="sans-serif"${svg.slice('<svg'.length, open)}>` +
    (sheet ? `<style>${sheet}</style>` : '') +
    `<rect x="0" y="0" width="${extent}" height="${extent}" fill="${background.replace(/[<>"&]/g, '')}"/>` +
    svg.slice(open + 1)
  );
}

/** Top-level groups of the board's `<svg>` whose drawing changes from one game version to the next: the pawns and the team-total progress marks. */
const LIVE_GROUP = /^<g class="board__(?:pawns|progress)"/;

/** One layer of the picture: a whole SVG document, and whether it changes with the game's version. */
interface Layer {
  live: boolean;
  svg: string;
}

/**
 * `doc` (boardPictureSvg) cut into layers in drawing order: each run of top-level elements that
 * stays the same while the game is played (background, squares, snakes and ladders, numbers) and
 * each run of LIVE_GROUP groups, each a whole SVG document with `doc`'s opening tag and sheet and
 * nothing else. Drawn apart on transparent canvases and laid over one another in order they give
 * the picture of `doc`: painting over is associative, and no element refers to another by id.
 */
function layersOf(doc: string): Layer[] {
  const openEnd = doc.indexOf('>') + 1;
  let start = openEnd;
  let prelude = doc.slice(0, openEnd);
  if (doc.startsWith('<style>', start)) {
    const end = doc.indexOf('</style>', start) + '</style>'.length;
    prelude += doc.slice(start, end);
    start = end;
  }
  const close = doc.lastIndexOf('</svg>');
  const layers: Layer[] = [];
  const tags = /<(\/?)[A-Za-z][\w-]*[^>]*?(\/?)>/g;
  tags.lastIndex = start;
  let depth = 0;
  let childStart = start;
  for (let m = tags.exec(doc); m && m.index < close; m = tags.exec(doc)) {
    if (m[1]) depth -= 1;
    else if (!m[2]) depth += 1;
    if (depth > 0) continue;
    const child = doc.slice(childStart, tags.lastIndex);
    const live = LIVE_GROUP.test(child.slice(child.indexOf('<')));
    const last = layers.at(-1);
    if (last && last.live === live) last.svg += child;
    else layers.push({ live, svg: child });
    childStart = tags.lastIndex;
  }
  return layers.map((l) => ({ live: l.live, svg: prelude + l.svg + '</svg>' }));
}

/** One layer drawn: RGBA pixels, straight alpha. */
interface DrawnLayer {
  data: Buffer;
  info: { width: number; height: number; channels: 4 };
}

/** Draws one layer's SVG document to RGBA pixels with sharp (librsvg). */
async function drawLayer(svg: string): Promise<DrawnLayer> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(Buffer.from(svg), { density: 72 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: 4 } };
}

/**
 * Layers that stay the same while a game is played, drawn, by their SVG text (which holds the
 * width): a game's next version draws only its pawns and progress marks, the squares' 225 numbers
 * (most of librsvg's time) once per board and width. Bounded by bytes (an 800 px layer is 2.5 MB);
 * callers asking for the same layer at the same time share one drawing (lru-cache's fetch).
 */
const stillLayers = new LRUCache<string, DrawnLayer, string>({
  maxSize: 96 * 1024 * 1024,
  sizeCalculation: (l) => Math.max(1, l.data.byteLength),
  fetchMethod: (_key, _stale, { context }) => drawLayer(context),
});

/** A still layer's key: its SVG document's SHA-1 (the document itself can be 100 KB). */
const layerKey = (svg: string) => crypto.createHash('sha1').update(svg).digest('base64');

/**
 * Renders boardPictureSvg to PNG bytes with sharp: the layers that change with the version drawn
 * now, the others from stillLayers (drawn on a board's first picture at that width), laid over one
 * another and encoded at zlib level 3 rather than sharp's 6 (about half the encoding time of an
 * 800 px board for about 5% more bytes; a picture is drawn once per version and cached, and
 * Discord fetches it once).
 */
async function render(game: PublicGame, width: number): Promise<Buffer> {
  countBoardPictureRender();
  const layers = await Promise.all(layersOf(boardPictureSvg(game, width)).map(async (layer) => {
    if (layer.live) return drawLayer(layer.svg);
    const drawn = await stillLayers.fetch(layerKey(layer.svg), { context: layer.svg });
    if (!drawn) throw new Error('board picture layer not drawn');
    return drawn;
  }));
  const sharp = await loadSharp();
  const [bottom, ...over] = layers;
  return sharp(bottom.data, { raw: bottom.info })
    .composite(over.map((l) => ({ input: l.data, raw: l.info })))
    .png({ compressionLevel: 3 })
    .toBuffer();
}

/** Forgets every drawn still layer, so the next picture of each board is its first drawing (bench/boardPicture.bench.ts times both). */
export function forgetBoardLayers(): void {
  stillLayers.clear();
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
