import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The arrows between folders, read from the import statements of the source itself: src/base
 * (and src/ui, src/api, src/realtime) is what features share and imports no feature nor the roof
 * (src/app); src/app is the roof and reaches features only through its route table; features
 * never import the roof; and a server route file never imports another route file (shared
 * handler helpers live in server/http/).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every .ts/.tsx file under `dir` (relative to the repository root), as root-relative paths. */
function sourceFiles(dir: string): string[] {
  const walk = (d: string): string[] =>
    fs.readdirSync(path.join(ROOT, d), { withFileTypes: true }).flatMap((e) => {
      const rel = path.posix.join(d, e.name);
      if (e.isDirectory()) return walk(rel);
      return /\.tsx?$/.test(e.name) ? [rel] : [];
    });
  return walk(dir);
}

/** The modules `file` imports (static, dynamic and re-exports), relative ones resolved to root-relative paths without extension. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  return specs.map((s) => (s.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), s)).replace(/\.tsx?$/, '') : s));
}

/** Each import of a file under `from` that lands under one of `to`, as 'file → module'. */
function arrows(from: string, to: string[], except: (file: string) => boolean = () => false): string[] {
  return sourceFiles(from)
    .filter((f) => !except(f))
    .flatMap((f) => importsOf(f).filter((m) => to.some((t) => m === t || m.startsWith(`${t}/`))).map((m) => `${f} → ${m}`));
}

describe('layers: no arrow points up', () => {
  it('finds the imports it checks (the scanner reads this repository)', () => {
    expect(arrows('src/app', ['src/features']).length).toBeGreaterThan(0);
    expect(arrows('server', ['server/games/routes']).length).toBeGreaterThan(0);
  });

  it.each(['src/base', 'src/ui', 'src/api', 'src/realtime'])('%s imports no feature and not the roof', (dir) => {
    expect(arrows(dir, ['src/features', 'src/app'])).toEqual([]);
  });

  it('src/app reaches features only through its route table', () => {
    expect(arrows('src/app', ['src/features'], (f) => f === 'src/app/routes.tsx')).toEqual([]);
  });

  it('no feature imports the roof', () => {
    expect(arrows('src/features', ['src/app'])).toEqual([]);
  });

  it('no server route file imports another route file', () => {
    const routeFiles = sourceFiles('server')
      .filter((f) => path.posix.basename(f) === 'routes.ts')
      .map((f) => f.replace(/\.ts$/, ''));
    const found = routeFiles.flatMap((f) => importsOf(`${f}.ts`).filter((m) => m !== f && routeFiles.includes(m)).map((m) => `${f} → ${m}`));
    expect(found).toEqual([]);
  });
});
