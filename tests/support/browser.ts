import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Debian's Chromium, the one browser these tests drive. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Flags Chromium needs here: root, no GPU, no network of its own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

/**
 * Whether browser tests can run. Without a Chromium they are skipped with a loud notice, except
 * with CI=true where a missing browser is an error.
 */
export function browserAvailable(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but no Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium).`);
  console.warn(`\n!!! BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium) !!!\n`);
  return false;
}

/**
 * A Chromium with a profile of its own in `dir` (not the incognito-like contexts of launchBrowser):
 * Chromium refuses to call a page installable in incognito, so the installability check needs one.
 * The caller closes it and removes `dir`.
 */
export function launchProfileContext(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** One Content-Security-Policy violation seen in a page (docs/server.md §8). */
export interface CspViolation {
  /** 'event': a securitypolicyviolation event; 'console': Chromium's console message about it. */
  via: 'event' | 'console';
  /** URL of the page it happened in. */
  page: string;
  /** The directive that refused it and what was refused (event), or Chromium's message (console). */
  detail: string;
}

/** Reports every securitypolicyviolation of a document to the binding installed by watchCsp. */
const CSP_WATCH_SCRIPT = `document.addEventListener('securitypolicyviolation', (e) => {
  const report = window.__reportCspViolation;
  if (typeof report === 'function') {
    report([e.effectiveDirective || e.violatedDirective, e.blockedURI || '(inline)', e.sample || '', e.sourceFile ? e.sourceFile + ':' + e.lineNumber : ''].filter(Boolean).join(' | '));
  }
}, true);`;

/**
 * Watches every page of `context` for CSP violations and appends them to `into`: the
 * securitypolicyviolation events of each document (an init script reporting through an exposed
 * binding, both outside the page's CSP) and Chromium's console messages about refused loads and
 * inline code (those naming 'Content Security Policy' or starting 'Refused to'). Call before the
 * context opens pages.
 */
async function watchCsp(context: BrowserContext, into: CspViolation[]): Promise<void> {
  await context.exposeBinding('__reportCspViolation', ({ page }, detail: string) => {
    into.push({ via: 'event', page: page?.url() ?? '', detail });
  });
  await context.addInitScript({ content: CSP_WATCH_SCRIPT });
  context.on('console', (msg) => {
    const text = msg.text();
    if (text.includes('Content Security Policy') || text.startsWith('Refused to')) into.push({ via: 'console', page: msg.page()?.url() ?? '', detail: text });
  });
}

/** The CSP violations seen by each browser of launchBrowser, over all its contexts. */
const cspSeen = new WeakMap<Browser, CspViolation[]>();

/**
 * Launches headless Chromium through playwright-core. Every context it opens (browser.newContext
 * or browser.newPage) is watched for CSP violations (watchCsp); read them with takeCspViolations.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const seen: CspViolation[] = [];
  cspSeen.set(browser, seen);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCsp(context, seen);
    return context;
  };
  return browser;
}

/**
 * The CSP violations seen in every context of `browser` (from launchBrowser) since the last call,
 * and forgets them. A journey should end with none: the built client runs under the server's CSP
 * without a single refused script, style, image or connection.
 */
export function takeCspViolations(browser: Browser): CspViolation[] {
  const seen = cspSeen.get(browser);
  if (!seen) throw new Error('takeCspViolations: this browser was not launched by launchBrowser');
  return seen.splice(0, seen.length);
}

/** This worker process's browser (sharedBrowser), launched on first use; forgotten when it disconnects. */
let shared: Promise<Browser> | undefined;

/**
 * One headless Chromium per test worker process, shared by the browser suites the worker runs one
 * after another (the `rest` project's files share their process: vite.config.ts). Each suite opens
 * contexts of its own and closes them (closeContexts) instead of the browser: a launch and its
 * first page cost about 2 s and 2.5 s of CPU here against 0.5-0.7 s for a new context's first page
 * (measured). Playwright ends the browser when the worker process exits; a browser that crashed or
 * was closed is launched again on the next call.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!shared) {
    const launching = launchBrowser();
    shared = launching;
    launching.then(
      (browser) => browser.on('disconnected', () => {
        if (shared === launching) shared = undefined;
      }),
      () => {
        if (shared === launching) shared = undefined;
      },
    );
  }
  return shared;
}

/**
 * Closes every context `browser` has open (the pages of a suite that is done with it) and forgets
 * CSP violations not yet taken, so the next suite on a shared browser (sharedBrowser) starts with
 * none of its predecessor's pages, sockets or reports.
 */
export async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()));
  takeCspViolations(browser);
}
