import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ApiClient } from '../support/api';
import { seriousA11yViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { JOURNEY_MS, openAnonymous, openSignedIn } from '../support/e2e';
import { directSql } from '../support/sql';
import { DESKTOP, PHONE, expectNoSidewaysScroll } from '../support/layout';
import { useBrowserSuite } from '../support/suite';

/**
 * Invites in headless Chromium against the real server (SQLite), at 1280x800 and 375x812
 * (docs/client.md §15; docs/server.md §18): the Owner makes an invite link on the
 * clan page and copies it; a visitor who is signed out opens it, sees the clan, presses 'Join
 * {clan}', signs in (development sign-in), links an IGN in onboarding, comes back to the invite
 * page and joins, then opens the clan. An expired, a used-up and an unknown invite show their
 * texts; the Owner revokes an invite from the list. axe (WCAG A/AA) finds no serious or critical
 * violation on the invite page or the clan page's invites, and no page scrolls sideways.
 */
const run = browserAvailable() ? describe : describe.skip;

/** Fails with the findings when axe reports a serious or critical violation on `page`. */
async function expectAccessible(page: Page, where: string) {
  expect(await seriousA11yViolations(page), where).toEqual([]);
}

run('invites in Chromium (sqlite)', () => {
  const suite = useBrowserSuite('sqlite');
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  it.each([
    { label: 'desktop', viewport: DESKTOP, tag: 'D' },
    { label: 'phone', viewport: PHONE, tag: 'P' },
  ])('an invite link opened signed out leads through sign-in and onboarding to membership ($label)', async ({ viewport, tag }) => {
    const clanName = `Invite Hall ${tag}`;
    // --- The Owner makes an invite link on the clan page and copies it.
    const ownerApi = new ApiClient(suite.url);
    const me = await ownerApi.onboard(`host-${tag}`, [`Host${tag}`], { role: 'Owner', clan_name: clanName });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    const owner = await openSignedIn(suite.browser, suite.server, ownerApi, viewport);
    contexts.push(owner.context);
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.url });
    const o = owner.page;
    o.setDefaultTimeout(20_000);
    await o.goto(`${suite.url}/clans/manage/${clanId}`);
    await o.getByRole('heading', { name: clanName }).waitFor();
    const invites = o.getByTestId('invites');
    await invites.getByTestId('invites-empty').waitFor();
    await invites.getByRole('button', { name: 'Make Invite Link' }).click();
    const make = o.getByRole('dialog', { name: 'Make Invite Link' });
    await make.waitFor();
    expect(await make.getByLabel('Uses').inputValue()).toBe('25');
    expect(await make.getByLabel('Expires after (hours)').inputValue()).toBe('168');
    await expectAccessible(o, 'Make Invite Link dialog');
    await make.getByLabel('Uses').fill('5');
    await make.getByRole('button', { name: 'Make Link' }).click();
    await o.getByTestId('action-result').getByText(/^Invite link made: 5 uses until/).waitFor();
    const row = invites.getByTestId('invite-row');
    await row.waitFor();
    const url = (await row.getByTestId('invite-url').textContent()) ?? '';
    const code = url.split('/invite/')[1];
    expect(url).toBe(`${suite.url}/invite/${code}`);
    await row.getByText('0 / 5').waitFor();
    await row.getByRole('button', { name: `Copy link of invite ${code}` }).click();
    await invites.getByTestId('invites-message').getByText('Invite link copied.').waitFor();
    expect(await o.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expectAccessible(o, 'clan page with its invite links');
    await expectNoSidewaysScroll(o, 'clan page with its invite links');

    // --- A signed-out visitor opens the link: the clan and 'Join {clan}'.
    const visitor = await openAnonymous(suite.browser, viewport);
    contexts.push(visitor.context);
    const v = visitor.page;
    v.setDefaultTimeout(20_000);
    await v.goto(url);
    await v.getByRole('heading', { level: 1, name: clanName }).waitFor();
    await v.getByTestId('invite-facts').getByText(/^1 member · this invite works until/).waitFor();
    await v.getByText('You sign in with Discord first; this page then opens again to join.').waitFor();
    await expectAccessible(v, 'invite page, signed out');
    await expectNoSidewaysScroll(v, 'invite page, signed out');
    await v.getByRole('button', { name: `Join ${clanName}` }).click();

    // --- Sign-in (development sign-in here), then onboarding, then back to the invite.
    await v.waitForURL(`${suite.url}/`);
    await v.getByPlaceholder('Any username').fill(`guest-${tag}`);
    await v.getByRole('button', { name: 'Dev Sign-in' }).click();
    await v.getByRole('heading', { name: 'Initial Setup' }).waitFor();
    await v.getByLabel(/in-game names/i).fill(`Guest${tag}`);
    await v.getByRole('button', { name: 'Continue to Clan Setup' }).click();
    await v.getByRole('radio', { name: /None/ }).check();
    await v.getByRole('button', { name: 'Finish Setup & Go to Dashboard' }).click();
    // The address first (the app navigates in the page; no load event is owed; this wait passed
    // 20 s once at a load of 15 on 2 cores), then what it shows.
    await v.waitForURL(url, { waitUntil: 'commit', timeout: 60_000 }).catch(async (e: Error) => {
      // Where the page went instead, for the log: the address and the page's heading.
      const h1 = await v.locator('h1').first().textContent({ timeout: 1_000 }).catch(() => '(no h1)');
      throw new Error(`${e.message}\nthe page is at ${v.url()}, heading ${JSON.stringify(h1)}`);
    });
    await v.getByRole('heading', { level: 1, name: clanName }).waitFor();
    expect(await v.getByTestId('invite-before').count()).toBe(0);
    await expectAccessible(v, 'invite page, signed in');
    await v.getByRole('button', { name: `Join ${clanName}` }).click();
    await v.getByTestId('invite-joined').getByText(`You joined ${clanName}.`).waitFor();
    await expectAccessible(v, 'invite page, joined');
    await expectNoSidewaysScroll(v, 'invite page, joined');
    await v.getByRole('link', { name: `Open ${clanName}` }).click();
    await v.getByRole('heading', { name: clanName }).waitFor();
    await v.getByTestId('clan-counts').getByText('1 / 2').waitFor();

    // --- The Owner's list counts the use.
    await invites.getByRole('button', { name: 'Refresh invites' }).click();
    await row.getByText('1 / 5').waitFor();
    expect(owner.errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
  }, JOURNEY_MS);

  it('expired, used-up and unknown invites show their texts; the Owner revokes one from the list', async () => {
    const ownerApi = new ApiClient(suite.url);
    const me = await ownerApi.onboard('host-gone', ['HostGone'], { role: 'Owner', clan_name: 'Gone Hall' });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    const made = async (body: object) => (await ownerApi.post(`/api/clan/${clanId}/invites`, body)).body.invite as { code: string; url: string };
    const expired = await made({});
    await directSql(suite.env, 'UPDATE invites SET expires_at = ? WHERE code = ?', [new Date(Date.now() - 1000).toISOString(), expired.code]);
    const single = await made({ max_uses: 1 });
    const taker = new ApiClient(suite.url);
    await taker.onboard('taker-gone', ['TakerGone']);
    expect((await taker.post(`/api/invites/${single.code}/accept`)).status).toBe(201);
    const doomed = await made({ max_uses: 3 });

    const visitor = await openAnonymous(suite.browser, PHONE);
    contexts.push(visitor.context);
    const v = visitor.page;
    v.setDefaultTimeout(20_000);
    for (const [code, text] of [
      [expired.code, 'This invite has expired.'],
      [single.code, 'This invite has been used up.'],
      ['AAAAAAAAAAAAAAAAAAAAAAAA', 'This invite does not exist or has been revoked.'],
    ]) {
      await v.goto(`${suite.url}/invite/${code}`);
      await v.getByTestId('invite-unavailable').getByText(text).waitFor();
      expect(await v.getByRole('button', { name: /^Join / }).count()).toBe(0);
    }
    await expectAccessible(v, 'invite page of an unknown invite');

    const owner = await openSignedIn(suite.browser, suite.server, ownerApi, DESKTOP);
    contexts.push(owner.context);
    const o = owner.page;
    o.setDefaultTimeout(20_000);
    await o.goto(`${suite.url}/clans/manage/${clanId}`);
    const invites = o.getByTestId('invites');
    // Only the live one is listed.
    await invites.getByRole('button', { name: `Revoke invite ${doomed.code}` }).click();
    expect(await invites.getByTestId('invite-row').count()).toBe(1);
    const revoke = o.getByRole('dialog', { name: 'Revoke Invite' });
    await revoke.getByText(`Revoke the invite ${doomed.code}?`).waitFor();
    await expectAccessible(o, 'Revoke Invite dialog');
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await o.getByTestId('action-result').getByText('Invite revoked.').waitFor();
    await invites.getByTestId('invites-empty').waitFor();
    await v.goto(doomed.url);
    await v.getByTestId('invite-unavailable').getByText('This invite does not exist or has been revoked.').waitFor();
    expect(owner.errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
  }, 120_000);
});
