import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ApiClient, type Answer } from '../support/api';
import { seriousA11yViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { openSignedIn } from '../support/e2e';
import { DESKTOP, PHONE, expectNoSidewaysScroll } from '../support/layout';
import { clientOnlyBackends } from '../support/server';
import { directSql } from '../support/sql';
import { useBrowserSuite } from '../support/suite';

/**
 * The clan page's History tab in headless Chromium against the real server (docs/client.md §5
 * History; docs/server.md §18 "History"): the Owner makes an event and a team, promotes a member
 * and changes the joining settings (API); the History tab lists those four newest first, each with
 * who, the action, its target and the detail as text; with more than a page of entries 'Load more'
 * brings the older ones (actor-less ones read 'Deleted user') and then goes away. A plain Member
 * has no History tab, and its URL shows them the Members tab. axe finds no serious or critical
 * violation on the tab at 1280x800 or 375x812, and the phone does not scroll sideways.
 */
const run = browserAvailable() ? describe : describe.skip;

/** Fails with the findings when axe reports a serious or critical violation on `page`. */
async function expectAccessible(page: Page, where: string) {
  expect(await seriousA11yViolations(page), where).toEqual([]);
}

/** The answer's body, after checking its status. */
const ok = (r: Answer, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

/** Older entries put straight into the table so the History runs past one page of 100. */
const FILLER = 100;

run.each(clientOnlyBackends())('the clan History tab in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend);
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  it('a manager sees the clan changes newest first and loads older ones; a Member has no History tab', async () => {
    // --- The Owner's clan, a member to promote and a plain Member.
    const ownerApi = new ApiClient(suite.url);
    const me = await ownerApi.onboard('history-keeper', ['KeeperMain'], { role: 'Owner', clan_name: 'Ledger Hall' });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    const riser = await new ApiClient(suite.url).onboard('history-riser', ['RiserMain'], { role: 'Member', clan_id: clanId });
    const plainApi = new ApiClient(suite.url);
    await plainApi.onboard('history-plain', ['PlainMain'], { role: 'Member', clan_id: clanId });

    // --- Older entries (a day back, no actor), then four manager actions through the API.
    const dayAgo = Date.now() - 86_400_000;
    const rows = Array.from({ length: FILLER }, (_, i) => [clanId, new Date(dayAgo - i * 60_000).toISOString(), 'task.create', `Old task ${i + 1}`, 'Tier: EASY']);
    await directSql(suite.env, `INSERT INTO audit_entries (clan_id, at, actor_user_id, action, target, detail) VALUES ${rows.map(() => '(?, ?, NULL, ?, ?, ?)').join(', ')}`, rows.flat());
    const event = ok(await ownerApi.post(`/api/clan/${clanId}/events/`, { name: 'Winter Ladder', start_datetime: '2031-06-01T18:00Z' })).event;
    ok(await ownerApi.post(`/api/clan/${clanId}/events/${event.id}/teams/`, { name: 'Team Axe', color: '#123456' }));
    ok(await ownerApi.put(`/api/clan/${clanId}/members/${riser.id}/role`, { role: 'Admin' }));
    ok(await ownerApi.put(`/api/clan/${clanId}/settings`, { join_policy: 'request' }));

    // --- The Owner opens the History tab at 1280x800.
    const owner = await openSignedIn(suite.browser, suite.server, ownerApi, DESKTOP);
    contexts.push(owner.context);
    const o = owner.page;
    await o.goto(`${suite.url}/clans/manage/${clanId}/history`);
    await o.getByRole('heading', { name: 'Ledger Hall' }).waitFor();
    expect(await o.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe('true');
    const log = o.getByTestId('audit-log');
    const entries = log.locator('[data-testid^="audit-entry-"]');
    await entries.first().getByText('clan.settings').waitFor();
    const texts = async () => (await entries.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    const firstPage = await texts();
    expect(firstPage).toHaveLength(100);
    // Newest first: action and target, the detail, then when and who.
    const expected = [
      ['clan.settings Ledger Hall', 'Join policy: request; listed: yes'],
      ['member.role history-riser', 'Member → Admin'],
      ['team.create Team Axe', 'In Winter Ladder'],
      ['event.create Winter Ladder', 'Scheduled'],
    ];
    expected.forEach(([what, detail], i) => {
      expect(firstPage[i]).toMatch(new RegExp(`^${what} ${detail} .+ · history-keeper$`));
    });
    expect(firstPage[4]).toMatch(/^task\.create Old task 1 Tier: EASY .+ · Deleted user$/);
    expect(firstPage[99]).toMatch(/^task\.create Old task 96 /);
    await expectAccessible(o, 'History tab at 1280x800');

    // --- 'Load more' brings the last four older entries; a short page ends the list.
    await log.getByRole('button', { name: 'Load more' }).click();
    await entries.nth(FILLER + 3).getByText(`Old task ${FILLER}`, { exact: true }).waitFor();
    await log.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    const all = await texts();
    expect(all).toHaveLength(FILLER + 4);
    expect(all[100]).toMatch(/^task\.create Old task 97 /);

    // --- The filters narrow what is loaded to one action, then to one person; back to all.
    await log.getByLabel('Action').selectOption('member.role');
    await entries.first().getByText('history-riser', { exact: true }).waitFor();
    await entries.nth(1).waitFor({ state: 'detached' });
    expect(await texts()).toEqual([expect.stringMatching(/^member\.role history-riser Member → Admin .+ · history-keeper$/)]);
    await log.getByLabel('Action').selectOption('task.create');
    await log.getByLabel('Person').selectOption('history-keeper');
    await log.getByText('No entries match these filters.').waitFor();
    expect(await entries.count()).toBe(0);
    await log.getByLabel('Person').selectOption('Deleted user');
    await entries.nth(FILLER - 1).waitFor();
    expect(await entries.count()).toBe(FILLER);
    await log.getByLabel('Action').selectOption('');
    await log.getByLabel('Person').selectOption('');
    await entries.nth(FILLER + 3).waitFor();
    expect(await entries.count()).toBe(FILLER + 4);

    // --- The same tab on a 375x812 phone: readable, no sideways scroll, no axe finding.
    await o.setViewportSize(PHONE);
    await o.reload();
    await entries.first().getByText('clan.settings').waitFor();
    await expectNoSidewaysScroll(o, 'History tab at 375x812');
    await expectAccessible(o, 'History tab at 375x812');

    // --- A plain Member: no History tab; its URL shows the Members tab.
    const plain = await openSignedIn(suite.browser, suite.server, plainApi, PHONE);
    contexts.push(plain.context);
    const p = plain.page;
    await p.goto(`${suite.url}/clans/manage/${clanId}/history`);
    const members = p.getByRole('tab', { name: 'Members' });
    await members.waitFor();
    expect(await members.getAttribute('aria-selected')).toBe('true');
    await p.getByRole('tab', { name: 'Events' }).waitFor();
    expect(await p.getByRole('tab', { name: 'History' }).count()).toBe(0);
    expect(await p.getByTestId('audit-log').count()).toBe(0);
    expect(owner.errors).toEqual([]);
    expect(plain.errors).toEqual([]);
  }, 120_000);
});
