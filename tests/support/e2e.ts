import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiClient } from './api';
import type { TestServer } from './server';

/** The repository root (tests/support/../..). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The sample task pool of the repository (examples/osrs-tasks.csv, 144 tasks). */
export const SAMPLE_TASKS_CSV = path.resolve(REPO_ROOT, 'examples/osrs-tasks.csv');

/**
 * How long a browser step (a click, a wait for text) may take before it fails, in ms: a loaded
 * 2-core CI run has needed more than 15 s. Every context openSignedIn and openAnonymous open has it.
 */
export const STEP_MS = 30_000;

/**
 * How long a browser journey of many pages and people (a whole event, a draft, a review round)
 * may take, in ms: unloaded one takes 20-60 s, and a fully loaded 2-core CI run has taken one
 * past 180 s. A test's bound on the product's speed is never this: it is an assertion of its own.
 */
export const JOURNEY_MS = 300_000;

/** A person driven in the browser: their API client (same session), browser context and page. */
export interface BrowserPerson {
  api: ApiClient;
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors seen so far (a journey should end with none). */
  errors: string[];
}

/**
 * Opens a browser context signed in with `api`'s session: copies its `sid` cookie into a new
 * context (sign-in through the API is faster than through the UI; use it where the journey under
 * test is not the sign-in itself). The page is blank; navigate it yourself. Steps wait up to STEP_MS.
 */
export async function openSignedIn(browser: Browser, server: TestServer, api: ApiClient, viewport = { width: 1280, height: 900 }): Promise<BrowserPerson> {
  const sid = api.cookies.get('sid');
  if (!sid) throw new Error('openSignedIn: the API client has no sid cookie (sign in first)');
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(STEP_MS);
  await context.addCookies([{ name: 'sid', value: sid, url: server.url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { api, context, page, errors };
}

/**
 * Opens an anonymous browser context (a spectator: no session) with a blank page whose uncaught
 * errors are collected; `options` go to newContext (e.g. acceptDownloads). Steps wait up to STEP_MS.
 */
export async function openAnonymous(browser: Browser, viewport = { width: 1280, height: 900 }, options: { acceptDownloads?: boolean } = {}): Promise<Omit<BrowserPerson, 'api'>> {
  const context = await browser.newContext({ viewport, ...options });
  context.setDefaultTimeout(STEP_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/**
 * Signs `username` in through the dev sign-in API, onboards them with `igns` and `clanSetup`
 * (docs/server.md §3) and opens a signed-in browser context for them.
 */
export async function onboardedPerson(
  browser: Browser,
  server: TestServer,
  username: string,
  igns: string[],
  clanSetup: Record<string, unknown> = { role: 'None' },
  viewport?: { width: number; height: number },
): Promise<BrowserPerson & { profile: any }> {
  const api = new ApiClient(server.url);
  const profile = await api.onboard(username, igns, clanSetup);
  return { ...(await openSignedIn(browser, server, api, viewport)), profile };
}
