import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { LRUCache } from 'lru-cache';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type CompiledQuery, type Migration, type MigrationProvider } from 'kysely';
import type { Database as Schema, Db } from './schema';
import { log } from '../observability/log';
import { PREPARED_SQL } from './compiled';
import type { Dialect, DialectMigration } from './migrations/helpers';
import { foundation } from './migrations/001_foundation';
import { eventsTeamsTasks } from './migrations/002_events_teams_tasks';
import { games } from './migrations/003_games';
import { textRule } from './migrations/004_text_rule';
import { clanRemovals } from './migrations/005_clan_removals';
import { taskPool } from './migrations/006_task_pool';
import { taskProof } from './migrations/007_task_proof';
import { diceSeed } from './migrations/008_dice_seed';
import { discord } from './migrations/009_discord';
import { dink } from './migrations/010_dink';
import { relief } from './migrations/011_relief';
import { signups } from './migrations/012_signups';
import { signupScores } from './migrations/013_signup_scores';
import { draft } from './migrations/014_draft';
import { reliefDraws } from './migrations/015_relief_draws';
import { moveRollIndex } from './migrations/016_move_roll_index';
import { dinkAccountPosts } from './migrations/017_dink_account_posts';
import { womQueue } from './migrations/020_wom_queue';
import { teamProgress } from './migrations/019_team_progress';
import { joinRequests } from './migrations/021_join_requests';
import { invites } from './migrations/022_invites';
import { quotas } from './migrations/024_quotas';
import { audit } from './migrations/023_audit';
import { push } from './migrations/026_push';
import { discordMore } from './migrations/025_discord_more';
import { notifications } from './migrations/027_notifications';

/** The migrations, listed statically in order (docs/architecture.md §5). */
const MIGRATIONS: Record<string, DialectMigration> = {
  '001_foundation': foundation,
  '002_events_teams_tasks': eventsTeamsTasks,
  '003_games': games,
  '004_text_rule': textRule,
  '005_clan_removals': clanRemovals,
  '006_task_pool': taskPool,
  '007_task_proof': taskProof,
  '008_dice_seed': diceSeed,
  '009_discord': discord,
  '010_dink': dink,
  '011_relief': relief,
  '012_signups': signups,
  '013_signup_scores': signupScores,
  '014_draft': draft,
  '015_relief_draws': reliefDraws,
  '016_move_roll_index': moveRollIndex,
  '017_dink_account_posts': dinkAccountPosts,
  '019_team_progress': teamProgress,
  '020_wom_queue': womQueue,
  '021_join_requests': joinRequests,
  '022_invites': invites,
  '023_audit': audit,
  '024_quotas': quotas,
  '025_discord_more': discordMore,
  '026_push': push,
  '027_notifications': notifications,
};

/** Names of every migration this build runs on start (readiness compares them with the applied ones: docs/server.md §14). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/** An open database with its dialect. */
export interface DbHandle {
  db: Kysely<Schema>;
  dialect: Dialect;
  close(): Promise<void>;
}

/**
 * Makes `client` run the compiled statements (compiled.ts PREPARED_SQL) as named prepared
 * statements: pg parses and plans a named statement once per connection and then only binds and
 * executes it. Kysely's driver calls `query(sql, parameters)`; any other call, and any other SQL,
 * goes through unchanged. The name is derived from the SQL text, so one name never stands for two
 * texts.
 */
function preparingCompiledStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && PREPARED_SQL.has(text)) {
      return query({ name: preparedName(text), text, values });
    }
    return query(...args);
  };
}

/** The prepared statement name of `sql`: 'csl_' and the first 24 hex digits of its SHA-1. */
function preparedName(sql: string): string {
  let name = preparedNames.get(sql);
  if (!name) {
    name = `csl_${crypto.createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    preparedNames.set(sql, name);
  }
  return name;
}

/** preparedName's results, one per compiled statement's SQL text. */
const preparedNames = new Map<string, string>();

/** How often a SQLite migration run is tried again after another process's run made it fail. */
const SQLITE_MIGRATION_TRIES = 5;

/**
 * Runs every pending migration; resolves with the error of the last try, or undefined. PostgreSQL
 * processes starting together wait for each other (Kysely's migrator takes an advisory lock).
 * SQLite has no such lock across processes: two processes migrating one new file at once can
 * both read the same pending list, and the second's first change then fails (a column or table
 * the first just added). The run is one transaction, rolled back on failure, so it is tried again
 * after a pause (up to SQLITE_MIGRATION_TRIES times) and then finds the migrations done.
 */
async function migrateToLatest(migrator: Migrator, dialect: Dialect): Promise<unknown> {
  for (let attempt = 1; ; attempt += 1) {
    const { error } = await migrator.migrateToLatest();
    if (!error || dialect !== 'sqlite' || attempt >= SQLITE_MIGRATION_TRIES) return error;
    log.warn({ attempt, err: error instanceof Error ? error.message : String(error) }, '[db] migration run failed; trying again (another process may be migrating)');
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}

/**
 * The SQLite file, its sessions and every secret in them, readable by the server's user only
 * (docs/server.md §14): a missing folder is created 0700, a missing file 0600 (SQLite then creates
 * its -wal and -shm files with the same mode), and an existing file is narrowed to 0600. SQLite's
 * in-memory and temporary databases ('' and ':memory:') have no file.
 */
function createPrivately(file: string): void {
  if (file === '' || file === ':memory:') return;
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600));
  narrowMode(file);
}

/**
 * Takes the group's and others' permissions off `file` when it exists and has any. A file this
 * user may not change (another owner) is left as it is, with a warning: the server still runs.
 */
function narrowMode(file: string): void {
  let mode: number;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    return;
  }
  if ((mode & 0o077) === 0) return;
  try {
    fs.chmodSync(file, mode & 0o700);
  } catch (err) {
    log.warn({ file, err: (err as Error).message }, '[db] could not make the SQLite file private (0600)');
  }
}

/**
 * Opens PostgreSQL when `databaseUrl` is given, else the SQLite file (its folder is created 0700,
 * the file 0600: createPrivately),
 * then runs every pending migration. Throws when the database cannot be reached or migrated.
 * `countQuery`, when given, is called once per statement (benchmarks only: the assembler passes
 * the db_queries_total metric's counter, observability/metrics.ts; Kysely's `log` hook times each
 * query). Passed in rather than imported so the opener depends on no metrics module.
 */
export async function openDatabase(opts: { databaseUrl: string | null; sqliteFile: string; countQuery?: () => void }): Promise<DbHandle> {
  const countQuery = opts.countQuery;
  const counting = countQuery ? { log: () => countQuery() } : {};
  let db: Kysely<Schema>;
  let dialect: Dialect;
  if (opts.databaseUrl) {
    dialect = 'postgres';
    // Integer ids and counts come back as numbers, not strings (int8 from count(*)).
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle pooled connection the server ended (a restart, a terminated backend) is dropped and
    // reported, not a crash: the next query opens a fresh one, and /readyz says when none can be
    // opened (docs/server.md §14).
    pool.on('error', (err) => log.error({ err: err.message }, '[db] idle PostgreSQL connection failed'));
    // A connection lost while lent out (a query running, a transaction open) is an 'error' on the
    // client itself, which pg-pool leaves to the borrower: unheard, it would end the process on a
    // database restart. The statement in flight fails on its own (answered 503 or DATABASE_AWAY,
    // db/unreachable.ts) and pg-pool drops the broken client when it comes back (docs/server.md §14 "Faults").
    pool.on('connect', (client) => {
      client.on('error', (err) => log.warn({ err: err.message }, '[db] PostgreSQL connection in use failed'));
      preparingCompiledStatements(client);
    });
    db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }), ...counting });
  } else {
    dialect = 'sqlite';
    createPrivately(opts.sqliteFile);
    const sqlite = new Database(opts.sqliteFile);
    sqlite.pragma('journal_mode = WAL');
    // SQLite gives the -wal and -shm files the database file's mode; ones left by an older version
    // of the server may still be open to others, so they are narrowed too.
    narrowMode(`${opts.sqliteFile}-wal`);
    narrowMode(`${opts.sqliteFile}-shm`);
    // WAL with synchronous=NORMAL (SQLite's advice for WAL): a commit is not fsynced, the WAL is at
    // each checkpoint. A crash of the process loses nothing committed; a power cut may lose the last
    // commits but never corrupts the file (docs/server.md §7). FULL cost an fsync (4-8 ms here) per
    // roll, request and sign-in.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Unicode lower case for case-insensitive search beyond ASCII (SQLite's own lower() and LIKE
    // fold ASCII only); used by the task pool search (server/tasks/repository.ts).
    sqlite.function('unicode_lower', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
    const statements = reusingStatements(sqlite);
    db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: statements }), ...counting });
    syncHandles.set(db, syncSqlite(db, sqlite, statements, countQuery));
  }
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(MIGRATIONS)) {
        out[name] = { up: (k) => m.up(k, dialect), down: (k) => m.down(k, dialect) };
      }
      return out;
    },
  };
  // Migrations written side by side may land in either order: one that sorts before an executed
  // one still runs (they are independent by construction: each adds its own tables or keys).
  const error = await migrateToLatest(new Migrator({ db, provider, allowUnorderedMigrations: true }), dialect);
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return { db, dialect, close: () => db.destroy() };
}

/** How many prepared SQLite statements reusingStatements keeps (the app's distinct SQL texts are fewer). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite database as Kysely's driver sees it, with prepared statements reused: the driver
 * calls `prepare(sql)` for every query, and preparing was the largest single cost of a roll in a
 * CPU profile (bench/RESULTS.md, many live games). Statements are kept by SQL text (lru-cache), least recently
 * used dropped past STATEMENT_CACHE_SIZE. Safe because the driver runs one query at a time and
 * each runs to completion (`all`/`run`); SQLite re-prepares a statement itself after a schema
 * change. Nothing in the server streams (`iterate`), which would hold a statement busy.
 */
function reusingStatements(sqlite: Database.Database): { prepare(sql: string): Database.Statement; close(): void } {
  const statements = new LRUCache<string, Database.Statement>({ max: STATEMENT_CACHE_SIZE, memoMethod: (sql) => sqlite.prepare(sql) });
  return {
    prepare: (sql) => statements.memo(sql),
    close: () => sqlite.close(),
  };
}

/**
 * Synchronous statements on a SQLite database's better-sqlite3 handle, for a roll that runs its
 * whole transaction in one go (games/play.ts inGame; docs/server.md §5, §7): no await
 * between its statements, none of Kysely's per-statement promises.
 */
export interface SyncSqlite {
  /**
   * Runs `fn` as one `BEGIN IMMEDIATE` … `COMMIT` transaction (SQLite's write lock taken first,
   * so every read in it is current), while holding the Kysely instance's only connection: no
   * Kysely transaction can be open on the handle meanwhile. Rolled back, and the error thrown on,
   * when `fn` throws; SQLITE_BUSY when another process held the lock past busy_timeout.
   */
  transaction<T>(fn: () => T): Promise<T>;
  /** Runs a compiled statement (compiled.ts) on the handle: its rows (empty unless it returns rows) and the rows it changed. */
  execute<R>(query: CompiledQuery<R>): { rows: R[]; changes: number };
}

/** The SyncSqlite of each SQLite Kysely instance openDatabase made. */
const syncHandles = new WeakMap<object, SyncSqlite>();

/** The synchronous access to `db`'s SQLite handle (SyncSqlite), or undefined for PostgreSQL and for a transaction. */
export function syncSqliteOf(db: Db): SyncSqlite | undefined {
  return syncHandles.get(db);
}

/** SyncSqlite over `sqlite`, whose statements are `statements`' (Kysely's), each reported to `countQuery` like Kysely's when given. */
function syncSqlite(db: Kysely<Schema>, sqlite: Database.Database, statements: ReturnType<typeof reusingStatements>, countQuery: (() => void) | undefined): SyncSqlite {
  const run = (sql: string) => {
    countQuery?.();
    statements.prepare(sql).run();
  };
  return {
    transaction: (fn) => db.connection().execute(async () => {
      run('begin immediate');
      try {
        const result = fn();
        run('commit');
        return result;
      } catch (err) {
        if (sqlite.inTransaction) run('rollback');
        throw err;
      }
    }),
    execute<R>(query: CompiledQuery<R>) {
      countQuery?.();
      const stmt = statements.prepare(query.sql);
      if (stmt.reader) return { rows: stmt.all(query.parameters) as R[], changes: 0 };
      return { rows: [], changes: stmt.run(query.parameters).changes };
    },
  };
}
