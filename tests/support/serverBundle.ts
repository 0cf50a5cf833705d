import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { checkServices, makeTemplates } from './server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Vitest global setup: bundles `server/index.ts` once per run with esbuild (the transform tsx
 * applies on every start, done once; packages stay external and resolve from the repository's
 * node_modules) into `.cache/test-server/index.mjs`, and names it in CSL_SERVER_BUNDLE, so every
 * test server (tests/support/server.ts startServer) starts with plain `node` instead of compiling
 * the server through tsx again: about a second less CPU per start, and a run starts a few hundred.
 * Same source, same module graph; `npm start` keeps running it through tsx. Its source map is a
 * file beside it (index.mjs.map), read only when TEST_SERVER_SOURCE_MAPS=1 (see startServer):
 * Node's --enable-source-maps made every start about a fifth dearer in CPU (parsing the inline
 * map and looking for one in every package file it loads).
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
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  process.env.CSL_SERVER_BUNDLE = outfile;
  return makeTemplates();
}
