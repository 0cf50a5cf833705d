import fs from 'node:fs';
import path from 'node:path';

/** One entry of Vite's build manifest (dist/.vite/manifest.json; vite.config.ts `build.manifest`). */
interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** A spectator game page: /games/spectate/{gameId} (docs/client.md §1), the id in group 1. */
const SPECTATE_PAGE = /^\/games\/spectate\/(\d{1,10})\/?$/;
/** The module the spectator page's route loads lazily (src/app/routes.tsx) and the chunk it is built into (vite.config.ts). */
const SPECTATOR_MODULE = 'src/features/spectate/SpectatorViewPage.tsx';
const SPECTATOR_CHUNK = 'gameScreen';
/** The page's entry (vite.config.ts `input`) and the small one that starts it after the first paint (src/boot.ts). */
const PAGE_ENTRY = 'index.html';
const BOOT_ENTRY = 'src/boot.ts';

let cached: { file: string; mtimeMs: number; manifest: Manifest | null } | null = null;

/** The build manifest of `clientDir`, read again when the file changes; null without one. */
function readManifest(clientDir: string): Manifest | null {
  const file = path.join(clientDir, '.vite', 'manifest.json');
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
  if (cached && cached.file === file && cached.mtimeMs === mtimeMs) return cached.manifest;
  let manifest: Manifest | null;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch {
    manifest = null;
  }
  cached = { file, mtimeMs, manifest };
  return manifest;
}

/** The files of `key` and every chunk it imports statically, minus those in `skip`. */
function chunkFiles(manifest: Manifest, key: string, skip: Set<string>): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const walk = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || seen.has(k) || skip.has(k)) return;
    seen.add(k);
    files.push(chunk.file);
    chunk.imports?.forEach(walk);
  };
  walk(key);
  return files;
}

/** Adds `key` and the keys of every chunk it imports statically to `keys`. */
function chunkKeys(manifest: Manifest, key: string, keys: Set<string>): void {
  if (keys.has(key) || !manifest[key]) return;
  keys.add(key);
  manifest[key].imports?.forEach((k) => chunkKeys(manifest, k, keys));
}

/** The game id of a spectator game page's path (/games/spectate/{gameId}), or null for any other path. */
export function spectatedGameId(pathname: string): number | null {
  const page = SPECTATE_PAGE.exec(pathname);
  const id = page ? Number(page[1]) : 0;
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/**
 * The path of a game's board picture (docs/server.md §19, lobby/boardPicture.ts) at `version`, for
 * the spectator page's link preview and Discord announcements: the version makes each state of the
 * board its own URL, so a previewer that keeps a picture by URL shows the board of that moment.
 */
export function boardPicturePath(gameId: number, version: number): string {
  return `/api/public/game/${gameId}/board.png?v=${version}`;
}

/**
 * The preload tags a page's index.html gets at the end of its <head>.
 * For a spectator game page, /games/spectate/{gameId}: `<link rel="modulepreload">` for the game
 * screen's lazy chunks (from the build manifest in `clientDir`; the entry's own imports, and the
 * steps src/main.tsx imports dynamically with theirs, are preloaded by index.html already) and `<link rel="preload" as="fetch">` for the public game
 * answer (GET /api/public/game/{gameId}, with credentials as the client's ky instance sends
 * them), so both download beside the entry instead of after it has run. Empty for any other path;
 * without a manifest only the game answer is preloaded.
 */
export function pagePreloads(clientDir: string, pathname: string): string {
  const page = SPECTATE_PAGE.exec(pathname);
  if (!page) return '';
  const tags: string[] = [];
  const manifest = readManifest(clientDir);
  if (manifest) {
    const entryKey = PAGE_ENTRY in manifest ? PAGE_ENTRY : Object.keys(manifest).find((k) => manifest[k].isEntry && k !== BOOT_ENTRY);
    // The entry's static imports, and the steps it imports dynamically with theirs (src/main.tsx),
    // are preloaded by index.html already (vite.config.ts stagedEntry).
    const entry = entryKey ? manifest[entryKey] : undefined;
    const skip = new Set<string>(entryKey ? [entryKey] : []);
    for (const k of [...(entry?.imports ?? []), ...(entry?.dynamicImports ?? [])]) chunkKeys(manifest, k, skip);
    const key = SPECTATOR_MODULE in manifest ? SPECTATOR_MODULE : Object.keys(manifest).find((k) => manifest[k].name === SPECTATOR_CHUNK);
    for (const file of key ? chunkFiles(manifest, key, skip) : []) tags.push(`<link rel="modulepreload" crossorigin href="/${file}">`);
  }
  tags.push(`<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/public/game/${Number(page[1])}">`);
  return tags.join('');
}

/** `html` with `tags` added at the end of its <head> (taken as they are: a `$` in them is no replacement pattern). */
export function withHeadTags(html: string, tags: string): string {
  return tags ? html.replace('</head>', () => `  ${tags}\n  </head>`) : html;
}

/** index.html's script and module preload tags (the entry and its static imports, as the build writes them). */
const SCRIPT_TAGS = /[ \t]*(?:<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>)\n?/g;
/** index.html's #root element, up to the last </div> before </body>. */
const ROOT = /<div id="root">[\s\S]*<\/div>(?=\s*<\/body>)/;

/**
 * A spectator game page's index.html with the game's first drawing (server/http/firstDrawing.ts:
 * `drawing`) in place of #root's loading shell, under an empty #root that the app renders into
 * transparent and inert (class `app-behind`, `aria-hidden`, `inert`: src/base/firstDrawing.ts), and its scripts started after the first paint (docs/client.md §9 "First
 * drawing"): the entry's script and module preload tags and the page's preloads (pagePreloads) move
 * into `<template id="after-first-paint">`, which the small boot entry (src/boot.ts, from the build
 * manifest) copies into the document once the page has painted, so the stylesheet and the drawing
 * do not share the first bytes with the scripts. Null when the build has no boot entry (no
 * manifest): the page is then served as usual.
 */
export function withFirstDrawing(html: string, clientDir: string, pathname: string, drawing: string): string | null {
  const boot = readManifest(clientDir)?.[BOOT_ENTRY];
  if (!boot || !ROOT.test(html)) return null;
  const deferred: string[] = [];
  const head = html.replace(SCRIPT_TAGS, (tag) => {
    deferred.push(tag.trim());
    return '';
  });
  const later = `<template id="after-first-paint">${[...deferred, pagePreloads(clientDir, pathname)].join('')}</template>`;
  return head
    .replace('</head>', () => `  <script type="module" crossorigin src="/${boot.file}"></script>\n    ${later}\n  </head>`)
    .replace(ROOT, () => `${drawing}<div id="root" class="app-behind" aria-hidden="true" inert></div>`);
}
