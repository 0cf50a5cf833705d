import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pagePreloads, withFirstDrawing, withHeadTags } from '../../server/http/pagePreloads';

/**
 * A client build with the manifest shape Vite writes (vite.config.ts: the game screen's group
 * chunks; the entry's steps, imported dynamically by src/main.tsx and preloaded by index.html).
 */
function fakeBuild(withBoot = false): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'preloads-'));
  fs.mkdirSync(path.join(dir, '.vite'));
  const manifest = {
    'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_jsx-runtime-B.js'], dynamicImports: ['_react-H.js', 'src/app/mount.tsx'] },
    '_jsx-runtime-B.js': { file: 'assets/jsx-runtime-B.js' },
    '_react-H.js': { file: 'assets/react-H.js', name: 'react', isDynamicEntry: true },
    'src/app/mount.tsx': { file: 'assets/mount-I.js', name: 'mount', isDynamicEntry: true, imports: ['_react-H.js', '_client-C.js', 'index.html'], dynamicImports: ['_gameScreen-D.js'] },
    '_client-C.js': { file: 'assets/client-C.js', imports: ['_jsx-runtime-B.js'] },
    '_gameScreen-D.js': { file: 'assets/gameScreen-D.js', name: 'gameScreen', imports: ['src/app/mount.tsx', '_react-H.js', '_client-C.js', '_gameShared-E.js', 'index.html'] },
    '_gameShared-E.js': { file: 'assets/gameShared-E.js', name: 'gameShared', imports: ['_jsx-runtime-B.js', 'index.html'] },
  };
  const boot = withBoot ? { 'src/boot.ts': { file: 'assets/boot-F.js', name: 'boot', isEntry: true } } : {};
  fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify({ ...boot, ...manifest }));
  return dir;
}

describe('preload tags of a page', () => {
  const dir = fakeBuild();
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a spectator game page preloads the game screen's chunks (not the entry's, nor its steps') and its public game answer", () => {
    const tags = pagePreloads(dir, '/games/spectate/42');
    expect(tags).toBe(
      '<link rel="modulepreload" crossorigin href="/assets/gameScreen-D.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/gameShared-E.js">' +
        '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/public/game/42">',
    );
    expect(pagePreloads(dir, '/games/spectate/42/')).toBe(tags);
  });

  it('other pages get nothing; without a manifest only the game answer is preloaded', () => {
    for (const p of ['/', '/dashboard', '/games/spectate', '/games/spectate/x', '/games/12/verify']) expect(pagePreloads(dir, p), p).toBe('');
    expect(pagePreloads(path.join(dir, 'missing'), '/games/spectate/7')).toBe('<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/public/game/7">');
  });

  it('the tags go at the end of <head>', () => {
    expect(withHeadTags('<html><head><title>x</title></head><body></body></html>', '<link rel="x">')).toBe('<html><head><title>x</title>  <link rel="x">\n  </head><body></body></html>');
    expect(withHeadTags('<head></head>', '')).toBe('<head></head>');
  });
});

describe('a spectator page with its first drawing', () => {
  const dir = fakeBuild(true);
  const plain = fakeBuild();
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(plain, { recursive: true, force: true });
  });
  const index =
    '<html><head>\n    <script type="module" crossorigin src="/assets/index-A.js"></script>\n    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-B.js">\n' +
    '    <link rel="stylesheet" crossorigin href="/assets/index-G.css">\n  </head>\n  <body>\n    <div id="root"><div class="shell boot-shell"><main>Loading…</main></div></div>\n  </body>\n</html>';

  it("puts the drawing before an empty #root and the app's scripts and preloads in the template the boot entry starts", () => {
    // `$&` in a drawing is text, never a replacement pattern.
    const html = withFirstDrawing(index, dir, '/games/spectate/42', '<div data-first-drawing="42">$& 1</div>');
    expect(html).toBe(
      '<html><head>\n    <link rel="stylesheet" crossorigin href="/assets/index-G.css">\n' +
        '    <script type="module" crossorigin src="/assets/boot-F.js"></script>\n' +
        '    <template id="after-first-paint"><script type="module" crossorigin src="/assets/index-A.js"></script><link rel="modulepreload" crossorigin href="/assets/jsx-runtime-B.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/gameScreen-D.js"><link rel="modulepreload" crossorigin href="/assets/gameShared-E.js">' +
        '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/public/game/42"></template>\n  </head>\n' +
        '  <body>\n    <div data-first-drawing="42">$& 1</div><div id="root" class="app-behind" aria-hidden="true" inert></div>\n  </body>\n</html>',
    );
  });

  it('without a boot entry in the build (or without #root) there is none', () => {
    expect(withFirstDrawing(index, plain, '/games/spectate/42', '<div></div>')).toBeNull();
    expect(withFirstDrawing(index, path.join(dir, 'missing'), '/games/spectate/42', '<div></div>')).toBeNull();
    expect(withFirstDrawing('<html><head></head><body></body></html>', dir, '/games/spectate/42', '<div></div>')).toBeNull();
  });
});
