import fs from 'node:fs';
import path from 'node:path';

/** One entry of Vite's build manifest (dist/.vite/manifest.json; vite.config.ts `build.manifest`). */
interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** A spectator game page: /games/spectate/{gameId} (docs/client.md §1), the id in group 1. */
const SPECTATE_PAGE = /^\/games\/spectate\/(\d{1,10})\/?$/;
/** The module the spectator page's route loads lazily (src/app/routes.tsx) and the chunk it is built into (vite.config.ts). */
const SPECTATOR_MODULE = 'src/features/spectate/SpectatorViewPage.tsx';
const SPECTATOR_CHUNK = 'gameScreen';

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

/**
 * The preload tags a page's index.html gets at the end of its <head>.
 * For a spectator game page, /games/spectate/{gameId}: `<link rel="modulepreload">` for the game
 * screen's lazy chunks (from the build manifest in `clientDir`; the entry's own imports are
 * preloaded by index.html already) and `<link rel="preload" as="fetch">` for the public game
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
    const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
    const skip = new Set(entryKey ? [entryKey, ...(manifest[entryKey].imports ?? [])] : []);
    const key = SPECTATOR_MODULE in manifest ? SPECTATOR_MODULE : Object.keys(manifest).find((k) => manifest[k].name === SPECTATOR_CHUNK);
    for (const file of key ? chunkFiles(manifest, key, skip) : []) tags.push(`<link rel="modulepreload" crossorigin href="/${file}">`);
  }
  tags.push(`<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/public/game/${Number(page[1])}">`);
  return tags.join('');
}

/** `html` with `tags` added at the end of its <head>. */
export function withHeadTags(html: string, tags: string): string {
  return tags ? html.replace('</head>', `  ${tags}\n  </head>`) : html;
}
