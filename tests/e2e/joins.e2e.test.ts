import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ApiClient } from '../support/api';
import { seriousA11yViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { JOURNEY_MS, openSignedIn } from '../support/e2e';
import { useBrowserSuite } from '../support/suite';

/**
 * Joining a clan by request in headless Chromium against the real server (SQLite), at 1280x800 and
 * 375x812 (docs/client.md §2, §3, §5; docs/server.md §18): the Owner sets the clan to 'By request'
 * in Joining Settings; a newcomer picks the clan in onboarding, is told what finishing does under
 * each policy, finishes and sees the request on the dashboard; the Owner's clan page counts it live (no reload)
 * and lists it; the Owner approves it; the newcomer refreshes and sees the clan and the request
 * approved. axe (WCAG A/AA) finds no serious or critical violation on the new screens.
 */
const run = browserAvailable() ? describe : describe.skip;

/** Fails with the findings when axe reports a serious or critical violation on `page`. */
async function expectAccessible(page: Page, where: string) {
  expect(await seriousA11yViolations(page), where).toEqual([]);
}

run('joining a clan by request in Chromium (sqlite)', () => {
  const suite = useBrowserSuite('sqlite');
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  it.each([
    { label: 'desktop', viewport: { width: 1280, height: 800 }, tag: 'D' },
    { label: 'phone', viewport: { width: 375, height: 812 }, tag: 'P' },
  ])('asks in onboarding, is approved from the live count, then sees the clan ($label)', async ({ viewport, tag }) => {
    const clanName = `Request Keep ${tag}`;
    // --- The Owner makes the clan (API) and sets it to 'By request' on the clan page.
    const ownerApi = new ApiClient(suite.url);
    const me = await ownerApi.onboard(`keeper-${tag}`, [`Keeper${tag}`], { role: 'Owner', clan_name: clanName });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    const owner = await openSignedIn(suite.browser, suite.server, ownerApi, viewport);
    contexts.push(owner.context);
    const o = owner.page;
    o.setDefaultTimeout(20_000);
    await o.goto(`${suite.url}/clans/manage/${clanId}`);
    await o.getByRole('heading', { name: clanName }).waitFor();
    await o.getByTestId('join-request-count').filter({ hasText: '0 requests to join' }).waitFor();
    await o.getByText('No requests to join.').waitFor();
    await o.getByTestId('join-settings').click();
    const settings = o.getByRole('dialog', { name: 'Joining Settings' });
    await settings.waitFor();
    await expectAccessible(o, 'Joining Settings dialog');
    await settings.getByLabel('Who may join').selectOption('request');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await o.getByTestId('action-result').getByText('Clan settings saved.').waitFor();
    await o.getByTestId('join-settings').filter({ hasText: 'Joining: By request' }).waitFor();
    await expectAccessible(o, 'clan page with the requests to join');

    // --- The newcomer signs in (API) and asks in the onboarding UI.
    const newcomerName = `hopeful-${tag}`;
    const newApi = await new ApiClient(suite.url).devLogin(newcomerName);
    const newcomer = await openSignedIn(suite.browser, suite.server, newApi, viewport);
    contexts.push(newcomer.context);
    const n = newcomer.page;
    n.setDefaultTimeout(20_000);
    await n.goto(`${suite.url}/onboarding`);
    await n.getByRole('heading', { name: 'Initial Setup' }).waitFor();
    await n.getByLabel(/in-game names/i).fill(`Hope${tag}`);
    await n.getByRole('button', { name: 'Continue to Clan Setup' }).click();
    await n.getByRole('radio', { name: /Clan Member/ }).check();
    await n.getByLabel('Clan', { exact: true }).selectOption({ label: clanName });
    await n.getByTestId('join-policy-hint').filter({ hasText: 'A clan that approves new members: finishing sends your request to join, shown on your dashboard until a manager decides.' }).waitFor();
    await expectAccessible(n, 'onboarding clan step with the policy hint');
    await n.getByRole('button', { name: 'Finish Setup & Go to Dashboard' }).click();
    await n.waitForURL(/\/dashboard$/);
    const mine = n.getByTestId('own-join-requests');
    await mine.getByText(clanName).waitFor();
    await mine.getByText('Request sent: waiting for a manager').waitFor();
    await expectAccessible(n, 'dashboard with the request');

    // --- The Owner's page counts it live, lists it, and the Owner approves it.
    await o.getByTestId('join-request-count').filter({ hasText: '1 request to join' }).waitFor();
    const row = o.getByTestId('join-requests').locator('li', { hasText: newcomerName });
    await row.getByText(`IGNs: Hope${tag}`, { exact: false }).waitFor();
    await row.getByRole('button', { name: `Approve ${newcomerName}` }).click();
    const approve = o.getByRole('dialog', { name: 'Approve Request' });
    await approve.getByText(`Make ${newcomerName} a Member of the clan?`).waitFor();
    await expectAccessible(o, 'Approve Request dialog');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await o.getByTestId('action-result').getByText(`${newcomerName} is now a Member of the clan.`).waitFor();
    await o.getByTestId('join-request-count').filter({ hasText: '0 requests to join' }).waitFor();
    await o.getByText('No requests to join.').waitFor();

    // --- The newcomer refreshes and sees the clan; the request reads approved.
    await n.getByRole('button', { name: 'Refresh stats' }).click();
    await n.getByText(`${clanName} (Member)`, { exact: false }).waitFor();
    await mine.getByText('Approved: you are a member').waitFor();
    await n.goto(`${suite.url}/profile`);
    await n.locator('.clan-card', { hasText: clanName }).getByText('Member').waitFor();
    await expectAccessible(n, 'profile with the approved request');
    expect(owner.errors).toEqual([]);
    expect(newcomer.errors).toEqual([]);
  }, JOURNEY_MS);
});
