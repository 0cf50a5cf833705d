import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fileURLToPath } from 'node:url';

/** Database backends a suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export type Backend = 'sqlite' | 'postgres';

/**
 * The backends to run API suites against (README "Tests"). Without TEST_DATABASE_URL the
 * PostgreSQL variants are skipped, except under CI=true where that throws (checkServices).
 */
export function backends(): Backend[] {
  if (process.env.TEST_DATABASE_URL) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true') throw new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL suites must run, not be skipped.');
  return ['sqlite'];
}

/** How long checkServices waits for PostgreSQL or Redis to answer (ms). */
const SERVICE_CHECK_MS = 5_000;

/** Resolves with `work`'s answer, or rejects naming `what` once `ms` have passed. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks once per run (vitest globalSetup, tests/support/serverBundle.ts) the services the suites
 * use beyond SQLite: PostgreSQL at TEST_DATABASE_URL (`SELECT 1`) and Redis at TEST_REDIS_URL
 * (`PING`), each within 5 s. Under CI=true both must be set and answer, else it throws and the run
 * fails: the PostgreSQL variants and the two-process suites would otherwise skip and the run pass
 * without them. Outside CI an unset one is a loud notice (its suites skip); a set one that does not
 * answer throws in both cases, since its suites would only fail later, one by one.
 */
export async function checkServices(): Promise<void> {
  const ci = process.env.CI === 'true';
  const problems: string[] = [];
  const skipped: string[] = [];
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) (ci ? problems : skipped).push('TEST_DATABASE_URL is not set (PostgreSQL suites)');
  else {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: SERVICE_CHECK_MS });
    try {
      await within(SERVICE_CHECK_MS, 'PostgreSQL', client.connect().then(() => client.query('SELECT 1')));
    } catch (e) {
      problems.push(`PostgreSQL at TEST_DATABASE_URL=${databaseUrl} does not answer: ${(e as Error).message}`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) (ci ? problems : skipped).push('TEST_REDIS_URL is not set (two-process suites sharing Redis)');
  else {
    // Loaded here, not at the top: every test file that starts a server imports this module, and
    // ioredis cost each of those test processes about 0.2 s of CPU for a check made once per run.
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: SERVICE_CHECK_MS });
    let lastError = '';
    redis.on('error', (e: Error) => (lastError = e.message));
    try {
      const pong = await within(SERVICE_CHECK_MS, 'Redis', redis.connect().then(() => redis.ping()));
      if (pong !== 'PONG') throw new Error(`PING answered ${pong}`);
    } catch (e) {
      problems.push(`Redis at TEST_REDIS_URL=${redisUrl} does not answer: ${lastError || (e as Error).message}`);
    } finally {
      redis.disconnect();
    }
  }
  if (problems.length) {
    const why = ci ? 'CI=true: the PostgreSQL and Redis suites must run, not be skipped' : 'set them to services that answer, or unset them';
    throw new Error(`Test services missing (${why}):\n  ${problems.join('\n  ')}`);
  }
  if (skipped.length) console.warn(`\n!!! SUITES SKIPPED: ${skipped.join('; ')} !!!\n`);
}

/**
 * The database of browser tests: SQLite only. A browser test's subject is what the page shows and
 * does (drawing and layout, the results page, the dice check, routing, the setup screens, the
 * journeys of sign-in, proof review, Dink and sign-ups); the server paths behind every one of them
 * run on both databases in the API suites (dice-history, game-cache, socket, games, game-tasks,
 * clans, foundation, proof, dink*, signups), which is where a database can make a difference. A
 * browser journey on PostgreSQL cost a CI run about a minute each and checked nothing those do not.
 * The journeys that are about several processes (whole-event over two, rolling-restart over three
 * behind nginx) choose their own databases.
 */
export function clientOnlyBackends(): Backend[] {
  return ['sqlite'];
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A fresh, empty database for one suite: a temp SQLite file or a new PostgreSQL database. */
export interface TestDatabase {
  backend: Backend;
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** Environment names of the migrated template databases a run's globalSetup makes (makeTemplates). */
const SQLITE_TEMPLATE_ENV = 'CSL_SQLITE_TEMPLATE';
const PG_TEMPLATE_ENV = 'CSL_PG_TEMPLATE';

/**
 * Creates a fresh database on `backend`; PostgreSQL ones are named csl_t_<random> and dropped
 * after. When the run made migrated templates (makeTemplates, in globalSetup) the new database is
 * a copy of one (SQLite: the file copied; PostgreSQL: CREATE DATABASE … TEMPLATE), so the first
 * server on it starts on a migrated schema instead of running every migration again, as a
 * restarted server does. `empty: true` gives a database with no tables, for the suites that test
 * migrating itself.
 */
export async function createTestDatabase(backend: Backend, { empty = false }: { empty?: boolean } = {}): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-'));
    const file = path.join(dir, 'test.db');
    const template = process.env[SQLITE_TEMPLATE_ENV];
    if (!empty && template && fs.existsSync(template)) fs.copyFileSync(template, file);
    return {
      backend,
      env: { SQLITE_FILE: file },
      async drop() {
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = 'csl_t_' + crypto.randomBytes(6).toString('hex');
  const template = empty ? undefined : process.env[PG_TEMPLATE_ENV];
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  // A test database need not survive a power cut: its commits do not wait for the WAL's fsync
  // (4-8 ms each here, and slower when every suite flushes at once), so a suite waits on the
  // server, not on the disk. The product's own databases keep PostgreSQL's default.
  await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  await admin.end();
  const url = new URL(base);
  url.pathname = '/' + name;
  return {
    backend,
    env: { DATABASE_URL: url.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * For a run's globalSetup: one migrated database per backend (SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set), made by starting the real server on an empty one once and stopping
 * it, and named in the environment the test workers inherit, so createTestDatabase copies it.
 * Resolves with the clean-up that drops them (globalSetup's teardown).
 */
export async function makeTemplates(): Promise<() => Promise<void>> {
  const made: TestDatabase[] = [];
  for (const backend of process.env.TEST_DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
    const db = await createTestDatabase(backend, { empty: true });
    made.push(db);
    const server = await startServer(db.env, undefined, SLOW_START_MS);
    await server.stop();
    if (backend === 'sqlite') process.env[SQLITE_TEMPLATE_ENV] = db.env.SQLITE_FILE;
    else process.env[PG_TEMPLATE_ENV] = new URL(db.env.DATABASE_URL).pathname.slice(1);
  }
  return async () => {
    delete process.env[SQLITE_TEMPLATE_ENV];
    delete process.env[PG_TEMPLATE_ENV];
    await Promise.all(made.map((db) => db.drop()));
  };
}

/** A running server process of the real product. */
export interface TestServer {
  url: string;
  port: number;
  proc: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output: () => string;
  /** What the process wrote to stdout alone: its log, one JSON object per line (docs/server.md §14). */
  stdout: () => string;
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Resolves once server process `proc` prints 'listening on' on stdout; rejects with its output
 * (`output()`, stdout and stderr so far) when it exits first or takes over `startMs`.
 */
export function untilListening(proc: ChildProcess, output: () => string, startMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${startMs / 1000} s:\n` + output())), startMs);
    // Stops looking once it listens: the output keeps growing (a line per request), and searching
    // all of it on every chunk would cost the test or benchmark process more with every request.
    const onData = () => {
      if (output().includes('listening on')) {
        clearTimeout(timer);
        proc.stdout!.off('data', onData);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output()}`));
    });
  });
}

/**
 * How long a test that starts several server processes (or restarts them) gives each to start, in
 * ms: on a busy machine, and through tsx when no bundle is named, a start can take far over
 * startServer's default 30 s. For startServer's `startMs`.
 */
export const SLOW_START_MS = 120_000;

/**
 * Starts `server/index.ts` (the run's bundle of it, tests/support/serverBundle.ts) in its own process on `port`, or on a free port (chosen again when it was taken before the server bound it), with `env` (database env from
 * createTestDatabase, Discord overrides, NODE_ENV …). Suites make many events in one clan, so the
 * open-events quota is lifted (CLAN_OPEN_EVENTS) unless `env` sets it ('' for the default of 50,
 * as the quotas suite does), as the sign-in limit is; a slash command is deferred only after 30 s
 * (DISCORD_DEFER_MS) unless `env` says otherwise, so a loaded machine never turns an answer a test
 * reads into a deferral (the deferral's own suite sets 2 s); GAME_CACHE_CHECK_MS is 0 unless `env` says
 * otherwise, so every read of a cached game asks the database for its version and a test's direct
 * database write shows at once. Resolves once it listens; rejects with the
 * process output when it exits first or takes over `startMs` (default 30 s).
 */
export async function startServer(env: Record<string, string>, port?: number, startMs = 30_000): Promise<TestServer> {
  if (port !== undefined) return startOn(env, port, startMs);
  // A port freePort found free can be taken before the server binds it, most often as the local
  // end of some other process's outgoing connection (the same ephemeral range): a chosen port that
  // turned out taken is chosen again, a few times.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOn(env, await freePort(), startMs);
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !String((err as Error).message).includes('EADDRINUSE')) throw err;
    }
  }
}

/** How many free ports startServer tries when the one it chose was taken before the server bound it. */
const PORT_ATTEMPTS = 4;

/** startServer on port `p`. */
async function startOn(env: Record<string, string>, p: number, startMs: number): Promise<TestServer> {
  // The run's bundle of the server (tests/support/serverBundle.ts) when there is one, else tsx.
  // Stack traces name the bundle's lines unless TEST_SERVER_SOURCE_MAPS=1 (then server/ files,
  // at a fifth more CPU per start).
  const bundle = process.env.CSL_SERVER_BUNDLE;
  const maps = process.env.TEST_SERVER_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : [];
  const args = bundle && fs.existsSync(bundle) ? [...maps, bundle] : ['--import', 'tsx', 'server/index.ts'];
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', DISCORD_CLIENT_ID: '', NODE_ENV: 'test', AUTH_RATE_LIMIT: '100000', CLAN_OPEN_EVENTS: '100000', GAME_CACHE_CHECK_MS: '0', DISCORD_DEFER_MS: '30000', CLIENT_DIR: path.join(ROOT, 'dist'), ...env, PORT: String(p) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  proc.stdout!.on('data', (d) => {
    out += d;
    stdout += d;
  });
  proc.stderr!.on('data', (d) => (out += d));
  await untilListening(proc, () => out, startMs);
  return {
    url: `http://127.0.0.1:${p}`,
    port: p,
    proc,
    output: () => out,
    stdout: () => stdout,
    async stop() {
      if (proc.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
      });
    },
  };
}
