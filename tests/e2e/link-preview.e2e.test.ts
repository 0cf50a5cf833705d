/**
 * Link previews of a spectator page (docs/server.md §19) in headless Chromium against the real
 * server and its built client: the page a browser (or a previewer) loads carries og:title,
 * og:description, og:image, og:url and twitter:card, its absolute URLs on the request's own origin
 * (no PUBLIC_ORIGIN set), and the og:image URL answers the board picture of the page's version.
 * For the lead's eye, the app's board and the picture at the same version are saved side by side
 * to BOARD_PICTURE_SHOT (default /work/notes/board-picture.png; outside the repository) when its
 * folder exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { BrowserContext } from 'playwright-core';
import { browserAvailable } from '../support/browser';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { act, castOf, connect, newGame, type Cast, type TestGame } from '../support/liveSocket';

const SHOT = process.env.BOARD_PICTURE_SHOT ?? '/work/notes/board-picture.png';
const run = browserAvailable() ? describe.each(clientOnlyBackends()) : describe.skip.each(clientOnlyBackends());

run('link previews of a spectator page in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend);
  const contexts: BrowserContext[] = [];
  let cast: Cast;
  let game: TestGame;

  beforeAll(async () => {
    cast = await castOf(suite.url, `preview-${backend}`);
    game = await newGame(cast);
    const leader = await connect(suite.url, 'leader', cast.owner);
    try {
      await leader.join(game.gameId);
      expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    } finally {
      leader.close();
    }
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  it('the page carries the preview tags on its own origin; og:image is the board picture of its version', { timeout: 60_000 }, async () => {
    const { game: g } = (await (await fetch(`${suite.url}/api/public/game/${game.gameId}`)).json()) as {
      game: { version: number; event_name: string; team_states: { team_name: string; current_position: number }[] };
    };
    const red = g.team_states.find((t) => t.team_name === 'Red Team')!.current_position;
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${suite.url}/games/spectate/${game.gameId}`);
    await page.getByTestId('connection-state').getByText('Live').waitFor();

    const meta = (selector: string) => page.locator(`head meta[${selector}]`).getAttribute('content');
    expect(await meta('property="og:title"')).toBe(`${g.event_name}: live snakes and ladders`);
    expect(await meta('property="og:description"')).toBe(`Red Team on ${red} · Blue Team on 1 · in-progress`);
    const image = await meta('property="og:image"');
    expect(image).toBe(`${suite.url}/api/public/game/${game.gameId}/board.png?v=${g.version}`);
    expect(await meta('property="og:url"')).toBe(`${suite.url}/games/spectate/${game.gameId}`);
    expect(await meta('name="twitter:card"')).toBe('summary_large_image');

    // The picture as a previewer fetches it, through the browser.
    const picture = await context.request.get(image!);
    expect(picture.status()).toBe(200);
    expect(picture.headers()['content-type']).toBe('image/png');
    const png = await picture.body();
    expect((await sharp(png).metadata()).width).toBe(800);

    if (fs.existsSync(path.dirname(SHOT))) {
      const board = page.locator('#root svg.board__svg');
      await board.waitFor();
      const shot = await sharp(await board.screenshot()).resize({ width: 800, height: 800, fit: 'contain', background: '#15120e' }).png().toBuffer();
      await sharp({ create: { width: 1640, height: 840, channels: 3, background: '#15120e' } })
        .composite([{ input: shot, left: 20, top: 20 }, { input: png, left: 820, top: 20 }])
        .png()
        .toFile(SHOT);
    }
    expect(errors).toEqual([]);
  });

  it('a missing game answers the page without the tags', async () => {
    const context = await suite.browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${suite.url}/games/spectate/999999`);
    await page.locator('#root').waitFor({ state: 'attached' });
    expect(await page.locator('meta[property^="og:"], meta[name="twitter:card"]').count()).toBe(0);
  });
});
