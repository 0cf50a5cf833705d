import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Response } from 'playwright-core';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { STEP_MS } from '../support/e2e';
import { setUpLiveGame, type LiveGame } from '../support/liveGame';

/**
 * The spectator page's JavaScript on the wire (bench/RESULTS.md "JavaScript on the wire of the
 * spectator page"): a fresh load of a started game's /games/spectate/{gameId} in headless Chromium
 * against the built client, at the viewport Lighthouse's mobile run emulates (412x823), where the
 * Win chances chart starts below the screen. What Chromium transfers for the page's script
 * resources (each answer's headers and its compressed body, as Lighthouse's transfer size counts
 * them) stays at most 150 KiB; every script comes pre-compressed (brotli); the chart library
 * (uPlot) is not among them and loads once the chart is scrolled near the screen (useNearScreen).
 * The figures are deterministic for a build: a change that adds to what a spectator downloads
 * fails here, with the list of files.
 */
const run = browserAvailable() ? describe : describe.skip;

/** The most JavaScript a spectator's first load may transfer (bytes: headers and brotli bodies). */
const MAX_SCRIPT_BYTES = 150 * 1024;
/** Lighthouse's mobile viewport (its emulated phone). */
const LIGHTHOUSE_MOBILE = { width: 412, height: 823 } as const;

/** One script answer: its path, encoding, body bytes as sent and transferred bytes (headers + body). */
interface ScriptTransfer {
  path: string;
  encoding: string | null;
  body: number;
  bytes: number;
}

/** Collects every script answer `context`'s pages receive, with Chromium's own byte counts. */
function watchScripts(context: BrowserContext, origin: string): () => Promise<ScriptTransfer[]> {
  const seen: Promise<ScriptTransfer>[] = [];
  const take = (response: Response) => {
    const request = response.request();
    if (request.resourceType() !== 'script') return;
    seen.push(
      request.sizes().then(async (sizes) => ({
        path: response.url().replace(origin, ''),
        encoding: await response.headerValue('content-encoding'),
        body: sizes.responseBodySize,
        bytes: sizes.responseHeadersSize + sizes.responseBodySize,
      })),
    );
  };
  context.on('response', take);
  return () => Promise.all(seen);
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const listed = (scripts: ScriptTransfer[]) => scripts.map((s) => `${s.path} ${kib(s.bytes)} KiB${s.encoding ? ` (${s.encoding})` : ''}`).join('\n');

run('the spectator page\'s JavaScript on the wire in Chromium', () => {
  const suite = useBrowserSuite('sqlite');
  let game: LiveGame;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    game = await setUpLiveGame(suite.url, 'Weight');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  it('a fresh load at 412x823 transfers at most 150 KiB of scripts, brotli-compressed; the chart library loads once the chart is near the screen', { timeout: 90_000 }, async () => {
    const context = await suite.browser.newContext({ viewport: LIGHTHOUSE_MOBILE });
    contexts.push(context);
    context.setDefaultTimeout(STEP_MS);
    const scripts = watchScripts(context, suite.url);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(suite.url + game.spectatePath);
    await page.getByTestId('connection-state').getByText('Live').waitFor();
    await page.getByTestId('team-position').first().waitFor();
    await page.waitForLoadState('networkidle');

    const first = await scripts();
    const total = first.reduce((sum, s) => sum + s.bytes, 0);
    const files = listed(first);
    expect(total, `scripts of a fresh load, ${kib(total)} KiB:\n${files}`).toBeLessThanOrEqual(MAX_SCRIPT_BYTES);
    // Every script over 1 KiB comes as brotli (vite.config.ts precompress writes a .br beside each).
    expect(first.filter((s) => s.encoding !== 'br' && s.body > 1024), files).toEqual([]);
    expect(first.some((s) => /\/uPlot\b/.test(s.path)), files).toBe(false);

    const chart = page.getByTestId('win-chances');
    await chart.scrollIntoViewIfNeeded();
    await chart.locator('canvas').first().waitFor();
    expect((await scripts()).some((s) => /\/uPlot\b/.test(s.path))).toBe(true);
    expect(errors).toEqual([]);
  });
});
