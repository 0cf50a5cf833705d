import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { ApiClient } from '../support/api';
import { onboardedPerson } from '../support/e2e';
import { seriousA11yViolations } from '../support/axe';
import { DEV_WELCOME_TEXT } from '../../src/features/auth/messages';
import { DATA_RIGHTS_TEXTS } from '../../contract/dataRights';

/**
 * Data rights in headless Chromium against the real server (docs/server.md §18 "Data rights";
 * docs/client.md §3, Account & Security), at 1280x800 and 375x812: 'Download my data' saves the
 * JSON attachment; 'Delete account' asks for the username typed again (a wrong value shows the
 * server's text, axe finds no serious violation with the dialog open), then deletes the account,
 * ends this and the user's other session and shows the landing page signed out. A sole Owner's
 * deletion is refused with the server's text in the dialog.
 */
const run = browserAvailable() ? describe : describe.skip;

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];

run('data rights in Chromium', () => {
  const suite = useBrowserSuite('sqlite');
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  it.each(VIEWPORTS)('downloads the data, then deletes the account with the typed username and is signed out ($width x $height)', async (viewport) => {
    const username = `Leaving Lena ${viewport.width}`;
    const person = await onboardedPerson(suite.browser, suite.server, username, ['LenaMain'], { role: 'None' }, viewport);
    contexts.push(person.context);
    const elsewhere = await new ApiClient(suite.url).devLogin(username);
    const { page } = person;
    await page.goto(`${suite.url}/profile`);
    const panel = page.getByRole('region', { name: 'Account & Security' });

    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.json$/);
    const saved = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
    expect(saved.profile.username).toBe(username);
    expect(saved.igns.map((i: { ign: string }) => i.ign)).toEqual(['LenaMain']);

    await panel.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    const field = dialog.getByLabel('Type your username to confirm');
    await field.fill(username.toLowerCase());
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(DATA_RIGHTS_TEXTS.confirm);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect((await person.api.get('/api/user/me')).status).toBe(200);

    await field.fill(username);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.getByText(DEV_WELCOME_TEXT).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect((await person.api.get('/api/user/me')).status).toBe(401);
    expect((await elsewhere.get('/api/user/me')).status).toBe(401);
    expect(await person.context.cookies(suite.url)).not.toContainEqual(expect.objectContaining({ name: 'sid' }));
    expect(person.errors).toEqual([]);
  });

  it('shows a sole Owner the server\'s refusal in the dialog and keeps the account', async () => {
    const username = 'Owning Olaf';
    const person = await onboardedPerson(suite.browser, suite.server, username, ['OlafMain'], { role: 'Owner', clan_name: 'Olaf Clan' }, VIEWPORTS[0]);
    contexts.push(person.context);
    const { page } = person;
    await page.goto(`${suite.url}/profile`);
    await page.getByRole('region', { name: 'Account & Security' }).getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    await dialog.getByLabel('Type your username to confirm').fill(username);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(DATA_RIGHTS_TEXTS.soleOwner('Olaf Clan'));
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(new URL(page.url()).pathname).toBe('/profile');
    expect((await person.api.get('/api/user/me')).status).toBe(200);
    expect(person.errors).toEqual([]);
  });
});
