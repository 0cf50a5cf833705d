import fs from 'node:fs';
import { Hono } from 'hono';
import * as v from 'valibot';
import { sql, type Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { MIGRATION_NAMES } from '../db/connect';
import { describe, named } from '../http/route';

/** How long one readiness check may take before it counts as failed, in ms. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * What /readyz reports, one word per check (docs/server.md §14):
 * - database: 'ok', or 'unreachable' (no answer within 2 s, an error, or the SQLite file is no
 *   longer the one the process opened: deleted or replaced under it)
 * - redis: 'ok', 'unreachable', or 'not configured' (no REDIS_URL)
 * - migrations: 'ok', 'pending' (a migration of this build is not applied), or 'unknown' (the
 *   database did not answer)
 * - process: 'running', or 'shutting down' (from the first moment of a SIGTERM or SIGINT; the
 *   other checks are then 'not checked')
 */
export interface ReadinessChecks {
  database: 'ok' | 'unreachable' | 'not checked';
  redis: 'ok' | 'unreachable' | 'not configured' | 'not checked';
  migrations: 'ok' | 'pending' | 'unknown' | 'not checked';
  process: 'running' | 'shutting down';
}

/** A readiness answer: ready when every check is fine (redis 'not configured' counts as fine). */
interface Readiness {
  ready: boolean;
  checks: ReadinessChecks;
}

/** `work`'s result, or a rejection once `ms` have passed without one. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** dev:inode of a file, or null when it cannot be read. */
function fileIdentity(file: string): string | null {
  try {
    const st = fs.statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/**
 * The process's place in its life (docs/server.md §14): running, then shutting down from the
 * first SIGTERM or SIGINT. Answers readiness for /readyz: one check at a time, whatever the
 * number of callers (a load balancer asks every second; concurrent callers share the check in
 * flight), each part bounded by CHECK_TIMEOUT_MS.
 */
export class Lifecycle {
  private stopping = false;
  private inFlight: Promise<Readiness> | null = null;
  /** The SQLite file as opened (dev:inode); a file deleted or replaced since is a lost database. */
  private readonly sqliteIdentity: string | null;

  /**
   * `deps` is the part of the app's Deps (http/context.ts) the checks read, spelled out here so
   * this module needs nothing from the request context, which names Lifecycle in turn.
   */
  constructor(private readonly deps: { db: Kysely<Database>; dialect: Dialect; redis: Redis | null; config: Pick<Config, 'sqliteFile'> }) {
    this.sqliteIdentity = deps.dialect === 'sqlite' ? fileIdentity(deps.config.sqliteFile) : null;
  }

  /** True from the moment shutdown began. */
  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** Marks the start of shutdown: /readyz answers 503 from now on. */
  beginShutdown(): void {
    this.stopping = true;
  }

  /** The current readiness (see ReadinessChecks); never rejects. */
  readiness(): Promise<Readiness> {
    if (this.stopping) return Promise.resolve(shuttingDownAnswer());
    this.inFlight ??= this.check().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async check(): Promise<Readiness> {
    const [migrations, redis] = await Promise.all([this.appliedMigrations(), this.redisCheck()]);
    const database: ReadinessChecks['database'] = migrations === null || !this.sameSqliteFile() ? 'unreachable' : 'ok';
    const migrationState: ReadinessChecks['migrations'] =
      database !== 'ok' || migrations === null ? 'unknown' : MIGRATION_NAMES.every((m) => migrations.has(m)) ? 'ok' : 'pending';
    const checks: ReadinessChecks = { database, redis, migrations: migrationState, process: this.stopping ? 'shutting down' : 'running' };
    const ready = database === 'ok' && migrationState === 'ok' && redis !== 'unreachable' && !this.stopping;
    return { ready, checks };
  }

  /** The names in Kysely's migration table (one query answers both "database" and "migrations"), or null without an answer. */
  private async appliedMigrations(): Promise<Set<string> | null> {
    try {
      const rows = await within(CHECK_TIMEOUT_MS, sql<{ name: string }>`select name from kysely_migration`.execute(this.deps.db));
      return new Set(rows.rows.map((r) => r.name));
    } catch {
      return null;
    }
  }

  private sameSqliteFile(): boolean {
    if (this.deps.dialect !== 'sqlite' || this.sqliteIdentity === null) return true;
    return fileIdentity(this.deps.config.sqliteFile) === this.sqliteIdentity;
  }

  private async redisCheck(): Promise<ReadinessChecks['redis']> {
    const redis = this.deps.redis;
    if (!redis) return 'not configured';
    try {
      // ioredis queues commands while it reconnects; the timeout turns that wait into a failure.
      const answer = await within(CHECK_TIMEOUT_MS, redis.ping());
      return answer === 'PONG' ? 'ok' : 'unreachable';
    } catch {
      return 'unreachable';
    }
  }
}

function shuttingDownAnswer(): Readiness {
  return { ready: false, checks: { database: 'not checked', redis: 'not checked', migrations: 'not checked', process: 'shutting down' } };
}

/** GET /healthz answer: the process runs. */
const HealthSchema = v.object({ status: v.literal('ok') });
/** GET /readyz answer: ready or not, and each check's result (database, Redis when set, migrations). */
const ReadinessSchema = v.object({ status: v.picklist(['ready', 'unready']), checks: v.record(v.string(), v.unknown()) });

/**
 * The probes at the site root (docs/server.md §14), for load balancers and supervisors; never
 * cached (`Cache-Control: no-store`), no sign-in, GET and HEAD:
 * - GET /healthz → 200 `{status: "ok"}` while the process runs (touches nothing);
 * - GET /readyz → 200 `{status: "ready", checks}` when the database answers, Redis answers (when
 *   set) and every migration is applied; 503 `{status: "unready", checks}` otherwise, and from
 *   the first moment of shutdown (checks: ReadinessChecks).
 */
export function probeRoutes(lifecycle: Lifecycle): Hono {
  const probes = new Hono();
  probes.get(
    '/healthz',
    describe({ tag: 'operations', access: 'public', refusals: false, summary: 'Liveness: 200 while the process runs.', answer: named('Health', HealthSchema) }),
    (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ status: 'ok' });
    },
  );
  probes.get(
    '/readyz',
    describe({
      tag: 'operations', access: 'public', refusals: false,
      summary: 'Readiness: 200 when the database (and Redis, when set) answer and migrations are done; 503 otherwise and from the start of shutdown.',
      answer: named('Readiness', ReadinessSchema),
      also: { 503: { description: 'Not ready (or shutting down): `{status: "unready", checks}`.', answer: named('Readiness', ReadinessSchema) } },
    }),
    async (c) => {
      const { ready, checks } = await lifecycle.readiness();
      c.header('Cache-Control', 'no-store');
      return ready ? c.json({ status: 'ready', checks }) : c.json({ status: 'unready', checks }, 503);
    },
  );
  return probes;
}
