import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { checkServices, makeTemplates } from './server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Packages that stay outside the bundle: native addons, found by their own location on disk
 * (better-sqlite3 and sharp; bufferutil and utf-8-validate, which ws would otherwise quietly
 * replace by their JavaScript fallbacks), and optional ones a package only tries to load.
 */
const NOT_BUNDLED = ['better-sqlite3', 'sharp', 'bufferutil', 'utf-8-validate', 'pg-native'];

/**
 * Vitest global setup: bundles `server/index.ts` once per run with esbuild into
 * `.cache/test-server/index.mjs`, and names it in CSL_SERVER_BUNDLE, so every test server
 * (tests/support/server.ts startServer) starts with plain `node` from one file: no tsx transform
 * on every start, and the packages bundled too (but NOT_BUNDLED, which resolve from the
 * repository's node_modules), since finding, reading and compiling their several hundred files
 * was most of a start: 0.5 s of CPU a start against 1.3 s with the packages outside, and a run
 * starts over a hundred servers. Same source; `npm start` keeps running it through tsx. A
 * `require` is defined for the packages written as CommonJS (an ES module has none). Its source
 * map is a file beside it (index.mjs.map), read only when TEST_SERVER_SOURCE_MAPS=1 (see
 * startServer): Node's --enable-source-maps made every start about a fifth dearer in CPU.
 * First it checks PostgreSQL and Redis (checkServices): under CI=true a missing one fails the run.
 * Last it makes the run's migrated template databases (makeTemplates), which its teardown drops.
 */
export default async function setup(): Promise<() => Promise<void>> {
  await checkServices();
  const outfile = path.join(ROOT, '.cache/test-server/index.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'server/index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: NOT_BUNDLED,
    banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  process.env.CSL_SERVER_BUNDLE = outfile;
  return makeTemplates();
}
