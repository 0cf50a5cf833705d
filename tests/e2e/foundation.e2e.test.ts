import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { clientOnlyBackends, createTestDatabase, startServer, type TestDatabase, type TestServer } from '../support/server';
import { browserAvailable, launchBrowser, takeCspViolations } from '../support/browser';
import { DEV_WELCOME_TEXT, WELCOME_TEXT } from '../../src/features/auth/messages';

/**
 * The foundation journey in headless Chromium against the real server: dev sign-in, onboarding with two
 * IGNs creating a clan, the dashboard, a reload that keeps the session, and logout.
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('first journey in Chromium (%s)', (backend) => {
  let db: TestDatabase;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    server = await startServer(db.env);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await db?.drop();
  });
  afterEach(() => {
    if (browser) expect(takeCspViolations(browser), 'CSP violations').toEqual([]);
  });

  it('signs in, onboards, keeps the session across a reload and logs out', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(server.url + '/');
    // No Discord client on this server: the status text points to the development sign-in, not to the disabled Discord button.
    await page.getByText(DEV_WELCOME_TEXT).waitFor();
    expect(await page.getByText(WELCOME_TEXT).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Log in with Discord' }).isDisabled()).toBe(true);
    await page.getByLabel('Username').fill('Alice');
    await page.getByRole('button', { name: 'Dev Sign-in' }).click();

    await page.getByRole('heading', { name: 'Initial Setup' }).waitFor();
    await page.getByLabel(/in-game names/i).fill('Zezima, Lynx Titan');
    await page.getByRole('button', { name: 'Continue to Clan Setup' }).click();
    await page.getByRole('radio', { name: /Clan Owner/ }).check();
    await page.getByLabel('Clan name').fill('Iron Legion');
    await page.getByRole('button', { name: 'Finish Setup & Go to Dashboard' }).click();

    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome, Alice!' }).waitFor();
    await page.getByText('Zezima, Lynx Titan').waitFor();
    await page.getByText('Iron Legion (Owner)').waitFor();
    for (const widget of ['My Profile', 'My Games', 'Spectate Live Games']) {
      await page.getByRole('heading', { name: widget }).waitFor();
    }

    await page.reload();
    await page.getByRole('heading', { name: 'Welcome, Alice!' }).waitFor();
    expect(page.url()).toMatch(/\/dashboard$/);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByText(DEV_WELCOME_TEXT).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // Signed out: protected pages send you back to /.
    await page.goto(server.url + '/dashboard');
    await page.getByText(DEV_WELCOME_TEXT).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // Deep links load through the history fallback; unknown paths redirect to /.
    await page.goto(server.url + '/games/spectate/12');
    await page.getByRole('link', { name: 'Spectate', exact: true }).waitFor();
    await page.goto(server.url + '/no/such/page');
    await page.getByText(DEV_WELCOME_TEXT).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the session and data after a server restart', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await page.getByLabel('Username').fill('Bob');
    await page.getByRole('button', { name: 'Dev Sign-in' }).click();
    await page.getByLabel(/in-game names/i).fill('B0b');
    await page.getByRole('button', { name: 'Continue to Clan Setup' }).click();
    await page.getByRole('radio', { name: /Clan Member/ }).check();
    await page.getByLabel('Clan', { exact: true }).selectOption({ label: 'Iron Legion' });
    await page.getByRole('button', { name: 'Finish Setup & Go to Dashboard' }).click();
    await page.getByRole('heading', { name: 'Welcome, Bob!' }).waitFor();

    const port = server.port;
    await server.stop();
    server = await startServer(db.env, port);
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome, Bob!' }).waitFor();
    await page.getByText('Iron Legion (Member)').waitFor();
    await context.close();
  });
});
