/// <reference types="vitest/config" />
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every built JS, CSS, HTML and SVG file over
 * 1 KiB (node:zlib, maximum levels), so the server answers them pre-compressed (server/app.ts:
 * serveStatic with `precompressed`) instead of compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      // A failed build wrote nothing: leave its own error to be reported.
      if (!fs.existsSync(outDir)) return;
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue;
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * The game screen's own code (the board, panels, game charts, live socket, the tab socket's leases
 * and socket.io-client) in one chunk, and the contract/ui modules it shares with other lazy pages in
 * another, instead of a dozen small chunks that each cost a request and its headers (the leases
 * were one more on the spectator page). Neither may be loaded by the entry: see
 * entryStaysLight. Files the app's first screens import too (StatusBadge, the path builders of
 * src/base/paths.ts: appShared), the members-only proof panel (with
 * its 'Check now', which it imports: in gameScreen the two chunks would import each other) and the
 * Leader's revert dialog stay out.
 */
const GAME_SCREEN =
  /\/(src\/features\/(play|board)\/|contract\/game\/boardGeometry\.|src\/features\/spectate\/SpectatorViewPage|src\/realtime\/(gameSocket|socketLease)|src\/ui\/Podium|src\/api\/(games|submissions)\.ts|machines\/(gamePlay|socketConnection|liveGame|rollMoment)[.]|node_modules\/(socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io)\/)/;
const GAME_SCREEN_EXCLUDED = /\/src\/features\/play\/(StatusBadge|ProofPanel|ProgressCheck|progressCheckTexts|RevertDialog|GamePlayPage)\./;
const GAME_SHARED = /\/(contract\/(socket|proofView|game\/(viewTexts|roles|moves|standings))\.ts|src\/ui\/Breadcrumb\.)/;
/**
 * The contract modules the public game's schema and the game screen import (the game answer, its
 * submissions, dice and relief; the connection shape and settings; Dink's evidence and rule
 * shapes, the team totals' progress and a Wise Old Man check's answer), the not-found page the screen shows for a missing game,
 * and the public game call. Each was a chunk of its own of 0.5-5 KiB, each a request with about
 * 1 KiB of headers; the spectator page loaded seven of them. They go with GAME_SHARED and SMALL_SHARED into the gameShared chunk. Board
 * generation (contract/game/generate.ts, boardShape, random, pure-rand), the board editor's checks
 * (validate.ts) and the contract/game index that re-exports them stay out: a group keeps every
 * export any page uses, so the spectator page downloaded the generator and the editor's parsing
 * that its schema never ran (about 4 KiB on the wire).
 */
const GAME_CONTRACT =
  /\/(contract\/(gameApi|submission|dink|progress|womCheck|duration|game\/(dice|relief|reliefView|connection|settings))\.ts|src\/api\/publicGame\.ts|src\/ui\/NotFoundPage\.)/;
/**
 * React (its DOM renderer, scheduler and JSX runtime) in one chunk, the app's first step
 * (src/main.tsx), and the few small modules the app's first screens share with the lazy pages in
 * another (the status badge and path builders among them: on their own they were two more
 * requests of the spectator page); the lazy pages' smallest shared modules (SMALL_SHARED: game tiers, the forecast and confirm-flow
 * charts with the fading-banner chart the confirm flow invokes, small hooks) go into gameShared, instead of a request for each.
 * A group must not make two chunks import each other
 * (see noChunkCycles).
 */
const REACT = /\/node_modules\/(react|react-dom|scheduler)\//;
const SMALL_SHARED = /\/(contract\/(game\/tiers|forecastView)|src\/base\/(useNow|useNearScreen)|src\/ui\/confirmAction|machines\/(forecast\.|confirmAction\.machine|banner\.))/;
const APP_SHARED = /\/(src\/ui\/Notice|src\/base\/paths|src\/features\/play\/StatusBadge|contract\/game\/(status|board|split)|contract\/lobby|machines\/listLoader)\./;
const LAZY_ONLY_CHUNKS = ['gameScreen', 'gameShared'];

/**
 * Fails the build when the entry chunk imports the game screen's chunks statically (a new import
 * from src/main.tsx's graph into one of their files would make every page, the landing page
 * included, download the game screen).
 */
function entryStaysLight(): Plugin {
  return {
    name: 'entry-stays-light',
    apply: 'build',
    generateBundle(_options, bundle) {
      const names = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c.name] as const] : [])));
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const seen = new Set<string>();
        const walk = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          const c = bundle[file];
          if (c?.type === 'chunk') c.imports.forEach(walk);
        };
        walk(chunk.fileName);
        const heavy = [...seen].filter((f) => LAZY_ONLY_CHUNKS.includes(names.get(f) ?? ''));
        if (heavy.length > 0) this.error(`the entry ${chunk.fileName} statically imports ${heavy.join(', ')}: a module of its graph matches GAME_SCREEN or GAME_SHARED (vite.config.ts)`);
      }
    },
  };
}

/**
 * Fails the build when chunks import each other in a cycle: the chunk a page happens to load
 * first then runs before the one it needs, and reads its exports while they are still undefined
 * (a codeSplitting group that gathers modules from both sides of an import makes such a cycle).
 */
function noChunkCycles(): Plugin {
  return {
    name: 'no-chunk-cycles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const imports = (file: string) => {
        const c = bundle[file];
        return c?.type === 'chunk' ? c.imports : [];
      };
      const done = new Set<string>();
      const walk = (file: string, path: string[]) => {
        const at = path.indexOf(file);
        if (at >= 0) this.error(`chunks import each other: ${[...path.slice(at), file].join(' -> ')} (vite.config.ts codeSplitting groups)`);
        if (done.has(file)) return;
        imports(file).forEach((next) => walk(next, [...path, file]));
        done.add(file);
      };
      for (const file of Object.keys(bundle)) walk(file, []);
    },
  };
}

/**
 * Adds `<link rel="modulepreload">` to index.html for the chunks the entry imports dynamically
 * (src/main.tsx evaluates the app in steps, one dynamic import each) and for everything they import
 * statically, so they download beside the entry instead of after it has run. Vite itself preloads
 * only an entry's static imports.
 */
function stagedEntry(): Plugin {
  return {
    name: 'staged-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const entry = ctx.chunk;
        const bundle = ctx.bundle;
        if (!entry || !bundle) return;
        const files: string[] = [];
        const seen = new Set<string>([entry.fileName, ...entry.imports]);
        const walk = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          const c = bundle[file];
          if (c?.type !== 'chunk') return;
          files.push(file);
          c.imports.forEach(walk);
        };
        entry.dynamicImports.forEach(walk);
        return files.map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

/**
 * Test files that bound a wait in wall time under load (a roll's latency under a flood of socket
 * events or of uploads, a process answering again within 5 s of a fault or a restart, a change
 * served by the other process within 1 s, Discord's batching window, a slash command's 3 s
 * deadline, a log line or metric within a deadline, 20 s of rolls at half the limits that a stalled
 * test process would bunch past them): they run in a group of their own after every
 * other file, three at a time, so the rest of the suite's load does not count against their bounds.
 * Three, not two: the fault test (about 85 s) spends most of its time waiting out its outages, so it
 * takes a worker of its own while the others share two; the group took 88 s so, its bounds' margins
 * as wide as at two (the deferral's 2.6 s of 3, the fault test's returns 0.2-0.9 s of 5, measured).
 */
const TIMED = [
  ...['faults.api', 'game-cache.api', 'discord.api', 'discord-defer.api', 'logs.api', 'metrics.api', 'concurrent-rolls.socket'].map((name) => `tests/server/${name}.test.ts`),
  'tests/e2e/rolling-restart.e2e.test.ts',
];
/**
 * The timed files whose own load takes the machine (floods of socket events, upload decodes) while
 * they bound others' calls to 0.5-1 s. They once ran after TIMED, one at a time, when floods of 1 s
 * each, a 10 s idle upload and 20 s of legitimate rolls made them 155 s of the run's tail; at about
 * 90 s now, they share TIMED's group and its three workers: in two runs of the group so (141-144 s
 * against 177 s for the two groups one after the other), the worst of others' calls under a flood
 * were 91 of 500 ms (socket events), 142 of 500 and the Leader's roll 313 of 1,000 ms (roll and
 * join floods), 101 of 500 ms at p95 (upload decodes).
 */
const FLOODS = ['socket-flood.api', 'abuse.socket', 'upload-gate.api'].map((name) => `tests/server/${name}.test.ts`);
/** Workers of the group TIMED and FLOODS share: Vitest requires one maxWorkers for the projects of a group. */
const TAIL_WORKERS = 3;
/** The tests/unit files that call vi.mock, stub a global or change the working directory: a fresh process each (see test.projects). */
const UNIT_ISOLATED = ['gameCacheBound', 'gameCacheRecheck', 'idle', 'layers', 'progressCheckApi', 'tabSocket'].map((name) => `tests/unit/${name}.test.ts`);
/** The tests/ui files that call vi.mock: Vitest runs each with a module graph of its own (see test.projects). */
const UI_MOCKING = ['boardSimulator', 'clanUrls', 'eventsTab', 'forecast', 'gameChances'].map((name) => `tests/ui/${name}.*test.tsx`);

/**
 * Vite builds the client into dist/; Vitest runs every test kind (see README). Vitest is only
 * referenced for its types, so `npm start` builds with production dependencies alone.
 */
export default defineConfig(({ command }) => ({
  plugins: [react(), precompress(), entryStaysLight(), noChunkCycles(), stagedEntry()],
  resolve: {
    // react-router's package exports name only its development build (dev warnings on), for
    // production builds too (remix-run/react-router#12532, #14102); the build takes its production
    // build, which the package ships beside it.
    alias:
      command === 'build'
        ? [
            { find: /^react-router$/, replacement: path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs') },
            { find: /^react-router\/dom$/, replacement: path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production/dom-export.mjs') },
          ]
        : [],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the server preloads a page's lazy chunks from it (server/http/pagePreloads.ts).
    manifest: true,
    // No modulepreload polyfill in the main chunk every page evaluates: Chromium, Firefox and Safari
    // 17+ preload natively; an older browser only loses the hint (its imports still load).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // index.html's app, and the small entry that starts it after the first paint on a page served
      // with a first drawing (src/boot.ts; server/http/pagePreloads.ts withFirstDrawing).
      input: { index: path.resolve(import.meta.dirname, 'index.html'), boot: path.resolve(import.meta.dirname, 'src/boot.ts') },
      output: {
        codeSplitting: {
          groups: [
            { name: 'gameScreen', includeDependenciesRecursively: false, test: (id: string) => GAME_SCREEN.test(id) && !GAME_SCREEN_EXCLUDED.test(id) },
            { name: 'gameShared', includeDependenciesRecursively: false, test: (id: string) => GAME_SHARED.test(id) || GAME_CONTRACT.test(id) || SMALL_SHARED.test(id) },
            { name: 'react', includeDependenciesRecursively: false, test: REACT },
            { name: 'appShared', includeDependenciesRecursively: false, test: APP_SHARED },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/socket.io': { target: 'http://localhost:3000', ws: true },
    },
  },
  test: {
    environment: 'node',
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // Four test files at a time even on a 2-core machine (Vitest's default there is one): most of
    // an API or browser file's time is waiting on servers, browsers and timers, not on the CPU (one
    // file kept 0.2-0.5 of a core busy, measured). The files that bound a wait in wall time run
    // after the rest, three at a time (TIMED).
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A polled expectation waits up to 10 s for the state it names (Vitest's own default is 1 s):
    // a page or a second process under a fully loaded 2-core run takes longer than 1 s to show it,
    // and a poll returns as soon as the state is there.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      // The jsdom screen tests: a worker thread keeps its jsdom and its imported modules (React, the
      // DOM renderer, Testing Library, XState, the app's own) from one file to the next instead of
      // building them again per file; every file cleans up what it renders. A file that replaces a
      // module (vi.mock) needs a fresh module graph, since another file may have imported the real
      // one already: those run in UI_MOCKING, isolated as before.
      { extends: true, test: { name: 'ui', include: ['tests/ui/**/*.test.{ts,tsx}'], exclude: UI_MOCKING, environment: 'jsdom', pool: 'threads', isolate: false, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'ui-mocking', include: UI_MOCKING, environment: 'jsdom', sequence: { groupOrder: 0 } } },
      // Unit tests in worker processes (tests/unit/layers.test.ts changes the working directory,
      // which a worker thread may not), one file after another in each (isolate: false). The files
      // that replace a module, a global or the working directory (UNIT_ISOLATED) keep a fresh
      // process each. The 68 files took 29 s of CPU so, against 40 s with a process per file
      // (measured). Each project names its own include: a project's arrays add to the root's.
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], exclude: ['**/node_modules/**', ...UNIT_ISOLATED], isolate: false, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'unit-isolated', include: UNIT_ISOLATED, sequence: { groupOrder: 0 } } },
      // API, socket and browser tests talk to server processes and browsers, never replace a module,
      // a timer or the environment: a worker process runs one file after another (isolate: false)
      // instead of starting Node and Vitest and importing the test support again for each (about
      // 1.6 s of CPU a file, measured on 8 files). One project, so the files are sorted together and
      // browser files run between API files: as projects of their own, four browser files ran at
      // once and the load on 2 cores reached 26. The server they start is bundled once per run
      // (globalSetup). A browser journey of a dozen pages under a fully loaded 2-core run takes
      // longer than 30 s.
      {
        extends: true,
        test: {
          name: 'rest',
          include: ['tests/server/**/*.test.{ts,tsx}', 'tests/e2e/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', ...TIMED, ...FLOODS],
          globalSetup: ['./tests/support/serverBundle.ts'],
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 0 },
        },
      },
      // The timed files, once the others are done, three at a time (see TIMED).
      {
        extends: true,
        test: { name: 'timed', include: TIMED, globalSetup: ['./tests/support/serverBundle.ts'], isolate: false, sequence: { groupOrder: 1 }, maxWorkers: TAIL_WORKERS },
      },
      // The flood files, beside the timed ones (see FLOODS): a process of their own per file, as
      // they had when each ran alone.
      {
        extends: true,
        test: { name: 'floods', include: FLOODS, globalSetup: ['./tests/support/serverBundle.ts'], sequence: { groupOrder: 1 }, maxWorkers: TAIL_WORKERS },
      },
    ],
  },
}));
