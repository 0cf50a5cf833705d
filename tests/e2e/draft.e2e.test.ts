import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { openSignedIn } from '../support/e2e';
import { draftCast } from '../support/draft';
import type { ApiClient } from '../support/api';
import { seriousA11yViolations } from '../support/axe';
import { DESKTOP, PHONE, expectNoSidewaysScroll } from '../support/layout';

/**
 * The captains' draft in headless Chromium against the real server (docs/client.md §14;
 * docs/server.md §16): two captains in two browser contexts. The manager (captain one) opens the
 * draft room from the Events tab, ticks both captains and 15 s per pick, and starts; captain one
 * picks the top free agent; captain two lets the clock run out and the clock picks for them
 * (shown on both screens); the captains pick the rest in snake order until the draft is over; the
 * teams then show their members in Manage Teams. After a draft ended early, the room (named after
 * its event) lets its message fade, offers only the sign-ups still free as captains, and says so
 * again after a reload, at 1280x800 and 375x812. The server paths run on both databases in
 * tests/server/draft.api.test.ts.
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('captains draft in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend);
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });
  async function personPage(api: ApiClient, viewport?: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
    const person = await openSignedIn(suite.browser, suite.server, api, viewport);
    contexts.push(person.context);
    return person;
  }

  it('two captains draft to the end, one pick by the clock; the teams appear in Manage Teams', { timeout: 120_000 }, async () => {
    const c = await draftCast(suite.url, 'e2e');
    const [p1, p2, p3, p4] = c.players.map((p) => p.ign);
    const one = await personPage(c.owner.api);
    // Captain two on a phone-sized screen.
    const two = await personPage(c.captain2.api, { width: 390, height: 844 });

    // The manager reaches the room from the Events tab.
    await one.page.goto(`${suite.url}/clans/manage/${c.clanId}/events`);
    await one.page.getByRole('link', { name: `Draft room of Draft e2e` }).click();
    await one.page.getByText('No draft has been started for this event.').waitFor();
    await two.page.goto(`${suite.url}/clans/${c.clanId}/events/${c.eventId}/draft`);
    await two.page.getByText('No draft has been started for this event.').waitFor();
    // Captain two is no manager: no start form.
    expect(await two.page.getByRole('button', { name: 'Start Draft' }).count()).toBe(0);

    await one.page.getByRole('checkbox', { name: new RegExp(`^${c.owner.ign}`) }).check();
    await one.page.getByRole('checkbox', { name: new RegExp(`^${c.captain2.ign}`) }).check();
    await one.page.getByLabel('Seconds per pick').fill('15');
    await one.page.getByRole('button', { name: 'Start Draft' }).click();
    await one.page.getByText('Draft started.').waitFor();
    const status = (page: Page) => page.getByTestId('draft-status');
    await status(one.page).filter({ hasText: `Round 1: Team ${c.owner.ign} is on the clock` }).waitFor();
    await status(one.page).filter({ hasText: 'Your pick!' }).waitFor();
    await status(two.page).filter({ hasText: `Round 1: Team ${c.owner.ign} is on the clock` }).waitFor();
    // Captain two has no pick buttons while it is not their turn.
    expect(await two.page.getByRole('button', { name: /^Pick / }).count()).toBe(0);
    // The running room, on a desktop and a phone, with no serious accessibility violation (axe-core).
    expect(await seriousA11yViolations(one.page)).toEqual([]);
    expect(await seriousA11yViolations(two.page)).toEqual([]);

    // Captain one picks the top score (p2, 40).
    await one.page.getByRole('button', { name: `Pick ${p2}` }).click();
    const team = (page: Page, captain: string) => page.getByRole('region', { name: `Team ${captain}` });
    await team(two.page, c.owner.ign).getByText(p2).waitFor();
    await status(two.page).filter({ hasText: 'Your pick!' }).waitFor();

    // Captain two waits: the clock picks the highest-scored free agent (p3, 30) for them.
    await team(one.page, c.captain2.ign).getByText(`${p3} (picked by the clock)`).waitFor();
    await team(two.page, c.captain2.ign).getByText(`${p3} (picked by the clock)`).waitFor();

    // The snake: team two picks again, then team one picks the last.
    await status(two.page).filter({ hasText: 'Round 2' }).filter({ hasText: 'Your pick!' }).waitFor();
    await two.page.getByRole('button', { name: `Pick ${p1}` }).click();
    await one.page.getByRole('button', { name: `Pick ${p4}` }).click();
    await status(one.page).filter({ hasText: 'The draft is over: 4 picks.' }).waitFor();
    await status(two.page).filter({ hasText: 'The draft is over: 4 picks.' }).waitFor();
    expect(await team(two.page, c.captain2.ign).getByRole('listitem').allTextContents()).toEqual([`Captain: ${c.captain2.ign}`, `${p3} (picked by the clock)`, p1]);

    // Manage Teams lists both teams with their captain and two picks each.
    await one.page.goto(`${suite.url}/clans/manage/${c.clanId}/events/${c.eventId}/teams`);
    for (const captain of [c.owner.ign, c.captain2.ign]) {
      const row = one.page.getByRole('row').filter({ hasText: `Team ${captain}` });
      await row.getByText('3 Members').waitFor();
    }
    expect(one.errors).toEqual([]);
    expect(two.errors).toEqual([]);
  });
  it.each([['1280x800', DESKTOP, 'end1280'], ['375x812', PHONE, 'end375']] as const)('at %s: after End Draft the message fades and placed sign-ups are no captain choices, also after a reload', { timeout: 120_000 }, async (_name, viewport, tag) => {
    const c = await draftCast(suite.url, tag);
    const [p1, p2, p3, p4] = c.players.map((p) => p.ign);
    const one = await personPage(c.owner.api, viewport);
    await one.page.goto(`${suite.url}/clans/${c.clanId}/events/${c.eventId}/draft`);
    // The room names its event.
    await one.page.getByRole('heading', { name: `Captains' Draft: Draft ${tag}` }).waitFor();
    await one.page.getByRole('checkbox', { name: new RegExp(`^${c.owner.ign}`) }).check();
    await one.page.getByRole('checkbox', { name: new RegExp(`^${c.captain2.ign}`) }).check();
    await one.page.getByLabel('Seconds per pick').fill('600');
    await one.page.getByRole('button', { name: 'Start Draft' }).click();
    await one.page.getByTestId('draft-message').getByText('Draft started.').waitFor();
    await one.page.getByRole('button', { name: `Pick ${p2}` }).click();
    await one.page.getByRole('region', { name: `Team ${c.owner.ign}` }).getByText(p2).waitFor();
    await one.page.getByRole('button', { name: 'End Draft' }).click();
    await one.page.getByTestId('draft-status').filter({ hasText: 'The draft is over: 1 pick.' }).waitFor();
    await one.page.getByTestId('draft-message').getByText('Draft ended: every pick is on its team.').waitFor();
    // The message fades and goes (the banner chart: 5 s).
    await one.page.getByTestId('draft-message').waitFor({ state: 'detached', timeout: 10_000 });

    const captainChoices = async () => (await one.page.getByRole('group', { name: /^Captains/ }).getByRole('checkbox').all()).length;
    const checkRoom = async () => {
      // The captains and the pick are on their teams: no captain choice; the players still free are.
      for (const placed of [c.owner.ign, c.captain2.ign, p2]) expect(await one.page.getByRole('checkbox', { name: new RegExp(`^${placed}`) }).count(), placed).toBe(0);
      for (const free of [p1, p3, p4]) await one.page.getByRole('checkbox', { name: new RegExp(`^${free}`) }).waitFor();
      expect(await captainChoices()).toBe(3);
      expect(await one.page.getByText('No free agents have signed up', { exact: false }).count()).toBe(0);
      expect(await one.page.getByText('Draft started.').count()).toBe(0);
      await one.page.getByRole('heading', { name: `Captains' Draft: Draft ${tag}` }).waitFor();
      expect(await one.page.getByRole('region', { name: `Team ${c.owner.ign}` }).getByRole('listitem').allTextContents()).toEqual([`Captain: ${c.owner.ign}`, p2]);
      await expectNoSidewaysScroll(one.page, `draft room at ${viewport.width}`);
    };
    await checkRoom();
    await one.page.screenshot({ path: `/tmp/shots/draft-after-end-${viewport.width}.png`, fullPage: true });
    await one.page.reload();
    await one.page.getByTestId('draft-status').filter({ hasText: 'The draft is over: 1 pick.' }).waitFor();
    await checkRoom();
    expect(one.errors).toEqual([]);
  });
});
