import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { ApiClient } from './api';
import { closeContexts, sharedBrowser, takeCspViolations } from './browser';
import { createTestDatabase, startServer, type Backend, type TestDatabase, type TestServer } from './server';

/** The running server of one suite and its database; read the getters inside hooks and tests only. */
export interface ServerSuite {
  /** The server process (throws before the suite's beforeAll has run). */
  readonly server: TestServer;
  /** The suite's fresh database. */
  readonly db: TestDatabase;
  /** The server's base URL, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  /**
   * The second process's base URL when the suite runs two processes sharing Redis (see
   * useServerSuite's `redisUrl`), else the same as `url`.
   */
  readonly urlB: string;
  /** The database env (SQLITE_FILE or DATABASE_URL), for direct SQL from the test process. */
  readonly env: Record<string, string>;
  /** A new cookie-keeping client of the server (one per simulated person). */
  client(): ApiClient;
}

/**
 * Registers the per-suite server lifecycle in the calling `describe`: beforeAll creates a fresh
 * database on `backend` and starts the real server on it with `env` added (e.g. BOARD_SEED);
 * afterAll stops the server, then drops the database. Call it before the suite's own hooks:
 * vitest runs beforeAll hooks in order and afterAll hooks in reverse, so the suite's own set-up
 * sees a running server and its own tear-down (closing DB handles, sockets…) runs first.
 * With `redisUrl`, two processes share the database and that Redis (docs/server.md §7):
 * `server`/`url` is the first, `urlB` the second.
 */
export function useServerSuite(backend: Backend, env: Record<string, string> = {}, redisUrl?: string): ServerSuite {
  let db: TestDatabase | undefined;
  let server: TestServer | undefined;
  let second: TestServer | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
    if (redisUrl) {
      // Scale-out as deployed: REDIS_URL, and the game cache as in production (GAME_CACHE_CHECK_MS
      // unset: each process trusts its cache for 250 ms, so the other's changes reach it through Redis).
      const all = { ...db.env, REDIS_URL: redisUrl, GAME_CACHE_CHECK_MS: '', ...env };
      [server, second] = await Promise.all([startServer(all), startServer(all)]);
    } else {
      server = await startServer({ ...db.env, ...env });
    }
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), second?.stop()]);
    await db?.drop();
  });
  const running = (): { db: TestDatabase; server: TestServer } => {
    if (!db || !server) throw new Error('useServerSuite: the server is not running (use it inside hooks and tests)');
    return { db, server };
  };
  return {
    get server() {
      return running().server;
    },
    get urlB() {
      return (second ?? running().server).url;
    },
    get db() {
      return running().db;
    },
    get url() {
      return running().server.url;
    },
    get env() {
      return running().db.env;
    },
    client() {
      return new ApiClient(running().server.url);
    },
  };
}

/** A ServerSuite plus one headless Chromium shared by the suite's journeys. */
export interface BrowserSuite extends ServerSuite {
  readonly browser: Browser;
}

/**
 * useServerSuite plus a browser: beforeAll takes the worker's Chromium (sharedBrowser) once the
 * server runs; afterAll closes every context the suite left open before the server stops (and after
 * the suite's own tear-down), so no page of it outlives its server. After each test, no page of the
 * browser may have hit a CSP violation (docs/server.md §8).
 */
export function useBrowserSuite(backend: Backend, env: Record<string, string> = {}, redisUrl?: string): BrowserSuite {
  const suite = useServerSuite(backend, env, redisUrl);
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await sharedBrowser();
    // Nothing of an earlier suite on this browser counts against this one.
    await closeContexts(browser);
  });
  afterEach(() => {
    if (browser) expect(takeCspViolations(browser), 'CSP violations in the browser').toEqual([]);
  });
  afterAll(async () => {
    if (browser?.isConnected()) await closeContexts(browser);
  });
  return Object.defineProperty(Object.create(suite) as BrowserSuite, 'browser', {
    get() {
      if (!browser) throw new Error('useBrowserSuite: the browser is not running (use it inside hooks and tests)');
      return browser;
    },
  });
}

/** Two server processes of one site (scale-out, docs/server.md §7); read inside hooks and tests only. */
export interface TwoProcessSuite {
  readonly a: TestServer;
  readonly b: TestServer;
  readonly db: TestDatabase;
}

/**
 * Registers, in the calling `describe`, two server processes sharing a fresh PostgreSQL database
 * and `redisUrl` (REDIS_URL), both started with `env` added; afterAll stops both and drops the
 * database. Call it before the suite's own hooks (see useServerSuite).
 */
export function useTwoProcesses(redisUrl: string, env: Record<string, string> = {}): TwoProcessSuite {
  let db: TestDatabase | undefined;
  let servers: [TestServer, TestServer] | undefined;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    // The game cache as in production (GAME_CACHE_CHECK_MS unset), unless `env` says otherwise.
    const all = { ...db.env, REDIS_URL: redisUrl, GAME_CACHE_CHECK_MS: '', ...env };
    servers = await Promise.all([startServer(all), startServer(all)]);
  });
  afterAll(async () => {
    await Promise.all((servers ?? []).map((s) => s.stop()));
    await db?.drop();
  });
  const running = () => {
    if (!db || !servers) throw new Error('useTwoProcesses: the servers are not running (use them inside hooks and tests)');
    return { db, servers };
  };
  return {
    get a() {
      return running().servers[0];
    },
    get b() {
      return running().servers[1];
    },
    get db() {
      return running().db;
    },
  };
}
