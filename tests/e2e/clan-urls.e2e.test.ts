import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { DISCORD_NOT_CONFIGURED } from '../../contract/user';
import { importTasksCsv } from '../support/fixtures';
import { ApiClient } from '../support/api';
import { browserAvailable } from '../support/browser';
import { autoSplit, countsToSettings } from '../../contract/game';

/**
 * Clan management URLs and the return to the asked page after sign-in,
 * in headless Chromium against the real server: signed out, a deep link to the Manage Game view
 * goes to the login page, and the dev sign-in returns to it; a reload of that URL shows the Manage
 * Game view again; Back from the game screen (Open Game Screen) returns to it, and so does the
 * game screen's 'Clan Management' breadcrumb. Then, in the same signed-in context (the second
 * test runs after the first), arrow keys move between the clan tabs and Esc on a dialog returns
 * focus to its opener.
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('clan management URLs in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20261123' });
  const OWNER = 'UrlOwner';
  let clanId: number;
  let eventId: number;
  let gameId: number;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    const api = new ApiClient(suite.url);
    await api.onboard(OWNER, ['UrlBoss']);
    const clan = await api.post('/api/clans', { clan_name: `Url Clan ${backend}` });
    expect(clan.status).toBe(200);
    clanId = clan.body.clan_id;
    await importTasksCsv(api, clanId);
    const ev = await api.post(`/api/clan/${clanId}/events/`, { name: 'Bookmark Race', start_datetime: '2031-06-01T18:00Z' });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    eventId = ev.body.event.id;
    const team = await api.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Red Dragons', color: '#aa2222' });
    expect(team.status, JSON.stringify(team.body)).toBe(200);
    const settings = { board_size: 100, num_snakes: 5, num_ladders: 5, max_reverts_allowed: 3, ...countsToSettings(autoSplit(100)) };
    const game = await api.post(`/api/clan/${clanId}/events/${eventId}/game/`, settings);
    expect(game.status, JSON.stringify(game.body)).toBe(200);
    gameId = game.body.game.id;
  });
  afterAll(async () => {
    await context?.close();
  });

  const manageGamePath = () => `/clans/manage/${clanId}/events/${eventId}/game`;
  /** The Manage Game view of the event, with the Events tab and the sub-navigation on it. */
  async function expectManageGame(page: Page): Promise<void> {
    await page.getByRole('heading', { name: 'Managing: Game Board' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('navigation', { name: 'Event management' }).getByRole('button', { name: 'Manage Game', exact: true }).and(page.locator('[aria-current="page"]')).waitFor();
    await page.getByText('Event: Bookmark Race').waitFor();
  }

  it('a deep link signed out returns there after sign-in; reload and Back from the game screen keep the Manage Game view', async () => {
    context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // Signed out: the deep link goes to the login page, whose dev sign-in returns to it. (With dev
    // sign-in on, Discord is not configured: its button is disabled with the reason; the Discord
    // return path is covered by tests/server/discord-oauth.test.ts.)
    await page.goto(`${suite.url}${manageGamePath()}`);
    await page.waitForURL(`${suite.url}/`);
    const discord = page.getByRole('button', { name: 'Log in with Discord' });
    await discord.waitFor();
    expect(await discord.isDisabled()).toBe(true);
    await page.getByText(DISCORD_NOT_CONFIGURED).waitFor();
    await page.getByLabel('Username').fill(OWNER);
    await page.getByRole('button', { name: 'Dev Sign-in' }).click();
    await page.waitForURL(`${suite.url}${manageGamePath()}`);
    await expectManageGame(page);

    // Reload: the same view, from the URL alone.
    await page.reload();
    await expectManageGame(page);

    // Open Game Screen, then Back: the Manage Game view again.
    await page.getByRole('link', { name: 'Open Game Screen' }).click();
    await page.waitForURL(`**/games/clan/${clanId}/events/${eventId}/game/${gameId}`);
    const crumb = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Clan Management' });
    await crumb.waitFor();
    expect(await crumb.getAttribute('href')).toBe(manageGamePath());
    await page.goBack();
    await page.waitForURL(`${suite.url}${manageGamePath()}`);
    await expectManageGame(page);

    // The breadcrumb leads there too.
    await page.getByRole('link', { name: 'Open Game Screen' }).click();
    await crumb.click();
    await page.waitForURL(`${suite.url}${manageGamePath()}`);
    await expectManageGame(page);

    // Event List is a URL too: Back from it returns to the Manage Game view.
    await page.getByRole('button', { name: 'Event List' }).click();
    await page.waitForURL(`${suite.url}/clans/manage/${clanId}/events`);
    await page.getByRole('row', { name: /Bookmark Race/ }).waitFor();
    await page.goBack();
    await expectManageGame(page);
    expect(errors).toEqual([]);
  });

  it('arrow keys move between the clan tabs; Esc closes a dialog and focus returns to the button that opened it', async () => {
    const page = await context!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${suite.url}/clans/manage/${clanId}/members`);
    const members = page.getByRole('tab', { name: 'Members' });
    await members.waitFor();
    await members.focus();
    await page.keyboard.press('ArrowRight');
    const events = page.getByRole('tab', { name: 'Events' });
    await expect.poll(() => events.getAttribute('aria-selected')).toBe('true');
    expect(await events.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.waitForURL(`${suite.url}/clans/manage/${clanId}/events`);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => members.getAttribute('aria-selected')).toBe('true');
    expect(await members.evaluate((el) => el === document.activeElement)).toBe(true);

    // Create New Event opens its dialog; Esc closes it and focus is back on the opener.
    await events.click();
    const opener = page.getByRole('button', { name: 'Create New Event' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Schedule New Event' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
