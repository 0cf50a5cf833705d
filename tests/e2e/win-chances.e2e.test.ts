import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { setUpLiveGame, type LiveGame } from '../support/liveGame';
import { DESKTOP, PHONE } from '../support/layout';

/**
 * Equal chances for equal squares (docs/server.md §15; docs/game-rules.md §14), in headless
 * Chromium at 1280x800 and 375x812: on a started game both teams stand on square 1, and the
 * spectator sees the same chance beside each (the same number, not only the same rounded label),
 * since the forecast is seeded from the board and the squares and teams on one square get the
 * mean of their figures.
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('equal chances for equal squares in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '4242' });
  let game: LiveGame;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    game = await setUpLiveGame(suite.url, 'Eq');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  it.each([['1280x800', DESKTOP], ['375x812', PHONE]] as const)('at %s: two teams on square 1 show the same chance', { timeout: 60_000 }, async (_name, viewport) => {
    const context = await suite.browser.newContext({ viewport });
    contexts.push(context);
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(suite.url + game.spectatePath);
    await page.getByTestId('connection-state').getByText('Live').waitFor();
    const chances = page.getByTestId('win-chance');
    await expect.poll(() => chances.count(), { timeout: 15_000 }).toBe(2);
    const squares = await page.getByTestId('team-position').allTextContents();
    expect(squares.every((t) => t.includes('Square 1'))).toBe(true);
    const values = await chances.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-chance'))));
    expect(values[0]).toBe(values[1]);
    expect(values[0]).toBe(0.5);
    expect(await chances.allTextContents()).toEqual(['Win 50%', 'Win 50%']);
    await page.getByTestId('team-position').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/shots/win-chances-${viewport.width}.png` });
    const panel = page.getByTestId('win-chances');
    await panel.scrollIntoViewIfNeeded();
    await panel.locator('canvas').first().waitFor();
    await panel.screenshot({ path: `/tmp/shots/win-chances-chart-${viewport.width}.png` });
    expect(errors).toEqual([]);
  });
});
