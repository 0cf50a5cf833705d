import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTestDatabase, freePort, startServer, type TestDatabase, type TestServer } from '../support/server';
import { browserAvailable, launchBrowser, takeCspViolations } from '../support/browser';
import { CLIENT_ID, CLIENT_SECRET, DiscordStandIn } from '../support/discordStandIn';
import { WELCOME_TEXT, authFailedText } from '../../src/features/auth/messages';

/**
 * The Discord sign-in in Chromium (docs/server.md §2; docs/client.md
 * §2 and Auth callback): the real server points at a local stand-in of
 * Discord; the browser follows the whole redirect chain. Success lands in onboarding; a forged
 * state or a failed token exchange lands on /auth-callback?error=…, shows the documented failure text,
 * then the login page.
 */
const run = browserAvailable() ? describe : describe.skip;

run('Discord sign-in in Chromium against a stand-in', () => {
  const discord = new DiscordStandIn();
  let db: TestDatabase;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    await discord.start();
    db = await createTestDatabase('sqlite');
    const port = await freePort();
    server = await startServer(
      {
        ...db.env,
        DISCORD_CLIENT_ID: CLIENT_ID,
        DISCORD_CLIENT_SECRET: CLIENT_SECRET,
        DISCORD_REDIRECT_URI: `http://127.0.0.1:${port}/api/auth/discord/callback`,
        DISCORD_AUTHORIZE_URL: `${discord.url}/oauth2/authorize`,
        DISCORD_TOKEN_URL: `${discord.url}/api/oauth2/token`,
        DISCORD_USER_URL: `${discord.url}/api/users/@me`,
      },
      port,
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await db?.drop();
    await discord.stop();
  });
  afterEach(() => {
    if (browser) expect(takeCspViolations(browser), 'CSP violations').toEqual([]);
  });

  /** Opens the login page and clicks the Discord button; resolves with the page and every URL visited. */
  async function clickLogin(): Promise<{ page: Page; visited: string[] }> {
    const context = await browser.newContext();
    // Every text the page's body has held, recorded as the DOM changes: the failure text stays up
    // for 1.5 s, which a polling wait on a loaded machine has missed.
    await context.addInitScript(() => {
      const held: string[] = [];
      (window as unknown as { heldTexts: string[] }).heldTexts = held;
      new MutationObserver(() => {
        const text = document.body?.textContent ?? '';
        if (held[held.length - 1] !== text) held.push(text);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const page = await context.newPage();
    const visited: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) visited.push(f.url());
    });
    page.on('request', (r) => {
      if (r.isNavigationRequest()) visited.push(r.url());
    });
    await page.goto(server.url + '/');
    await page.getByText(WELCOME_TEXT).waitFor();
    // Discord is configured, so the development sign-in is not offered.
    expect(await page.getByRole('button', { name: 'Dev Sign-in' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Log in with Discord' }).click();
    return { page, visited };
  }

  it('signs a new Discord user in and sends them to onboarding', async () => {
    discord.forgeState = false;
    discord.failToken = false;
    const { page, visited } = await clickLogin();
    await page.getByRole('heading', { name: 'Initial Setup' }).waitFor();
    expect(visited.some((u) => u.startsWith(discord.url + '/oauth2/authorize'))).toBe(true);
    expect(visited.some((u) => u.includes('/auth-callback?auth=success&path=%2Fdashboard'))).toBe(true);
    const me = await page.evaluate(async () => (await fetch('/api/user/me')).json());
    expect(me.discord_id).toBe(discord.user.id);
    expect(me.username).toBe(discord.user.username);
    await page.context().close();
  });

  it.each([
    ['a forged state', () => (discord.forgeState = true), 'invalid state'],
    ['a failed token exchange', () => (discord.failToken = true), 'token exchange failed'],
  ])('shows the failure text for %s, then the login page', async (_name, arrange, reason) => {
    discord.forgeState = false;
    discord.failToken = false;
    arrange();
    const { page, visited } = await clickLogin();
    await page.getByText(WELCOME_TEXT).waitFor();
    expect(visited.some((u) => u.includes('/auth-callback?error='))).toBe(true);
    // The failure text was shown on the way, before the login page.
    const held = await page.evaluate(() => (window as unknown as { heldTexts: string[] }).heldTexts);
    const failed = held.findIndex((text) => text.includes(authFailedText(reason)));
    expect(failed, 'the failure text was never on the page').toBeGreaterThanOrEqual(0);
    expect(held.slice(0, failed).some((text) => text.includes(WELCOME_TEXT)), 'the login page came before the failure text').toBe(false);
    expect(new URL(page.url()).pathname).toBe('/');
    const status = await page.evaluate(async () => (await fetch('/api/games/auth/status')).json());
    expect(status.authorized).toBe(false);
    await page.context().close();
  });
});
