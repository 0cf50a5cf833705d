import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { ApiClient } from '../support/api';
import { JOURNEY_MS, openSignedIn } from '../support/e2e';
import { PHONE, expectNoSidewaysScroll } from '../support/layout';
import { seriousA11yViolations } from '../support/axe';

/**
 * Sign-ups to balanced teams (docs/client.md §13; docs/server.md §16) in headless Chromium
 * against the real server: three members open the event from the event list and sign up (one
 * would lead a team, one leaves a note); the manager imports their scores from a CSV file, asks
 * for two balanced teams, sees the proposal with each team's total and the spread, applies it,
 * and finds 'Team 1' and 'Team 2' with their members in Manage Teams. One member uses a phone: the
 * view does not scroll sideways; the manager's view with the proposal has no serious axe finding.
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('sign-ups to balanced teams in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend);
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });
  async function pageOf(api: ApiClient, viewport?: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
    const person = await openSignedIn(suite.browser, suite.server, api, viewport);
    contexts.push(person.context);
    return person;
  }

  it('three members sign up, the manager imports scores, balances into two teams and applies', { timeout: JOURNEY_MS }, async () => {
    const ownerApi = new ApiClient(suite.url);
    const ownerMe = await ownerApi.onboard('Organiser', ['OrganiserIGN'], { role: 'Owner', clan_name: 'Signup Legion' });
    const clanId: number = ownerMe.clan_memberships_list[0].clan_id;
    const ev = await ownerApi.post(`/api/clan/${clanId}/events/`, { name: 'Winter League', start_datetime: new Date(Date.now() + 86_400_000).toISOString(), signups_open: true });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    const eventId: number = ev.body.event.id;

    const people = [
      { name: 'alice', ign: 'Alice Ranger', lead: true, note: '' },
      { name: 'bob', ign: 'Bob Mage', lead: false, note: 'Weekends only' },
      { name: 'cara', ign: 'Cara Tank', lead: false, note: '', phone: true },
    ] as { name: string; ign: string; lead: boolean; note: string; phone?: boolean }[];
    for (const p of people) {
      const api = new ApiClient(suite.url);
      await api.onboard(p.name, [p.ign], { role: 'Member', clan_id: clanId });
      const { page, errors } = await pageOf(api, p.phone ? PHONE : undefined);
      await page.goto(`${suite.url}/clans/manage/${clanId}/events`);
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Winter League' }) });
      await row.getByRole('button', { name: 'Sign-ups' }).click();
      await page.getByTestId('signups-status').filter({ hasText: 'Sign-ups are open.' }).waitFor();
      await page.getByRole('button', { name: 'Sign Up' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign Up' });
      expect(await dialog.getByLabel('IGN').inputValue()).not.toBe('');
      if (p.lead) await dialog.getByLabel('I would lead a team').check();
      if (p.note) await dialog.getByLabel('Note').fill(p.note);
      await dialog.getByRole('button', { name: 'Sign Up' }).click();
      // Done: the modal closes and the fading banner says so.
      await dialog.page().getByTestId('action-result').getByText(`Signed up as ${p.ign}.`).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('table', { name: 'Sign-ups' }).getByRole('rowheader', { name: p.ign }).waitFor();
      if (p.phone) await expectNoSidewaysScroll(page, 'the Sign-ups view on a phone');
      expect(errors).toEqual([]);
    }

    const { page, errors } = await pageOf(ownerApi);
    await page.goto(`${suite.url}/clans/manage/${clanId}/events/${eventId}/signups`);
    const table = page.getByRole('table', { name: 'Sign-ups' });
    await table.getByRole('rowheader', { name: 'Cara Tank' }).waitFor();
    expect(await table.getByRole('row').filter({ hasText: 'Bob Mage' }).textContent()).toContain('Weekends only');

    await page.getByRole('button', { name: 'Import Scores (CSV)' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import Scores (CSV)' });
    await importDialog.getByLabel('CSV file').setInputFiles({ name: 'scores.csv', mimeType: 'text/csv', buffer: Buffer.from('ign,score\nAlice Ranger,900\nBob Mage,500\nCara Tank,450\n') });
    await importDialog.getByRole('button', { name: 'Import Scores' }).click();
    // Done: the modal closes and the fading banner says so.
    await importDialog.page().getByTestId('action-result').getByText('Scores updated: 3.').waitFor();
    await importDialog.waitFor({ state: 'hidden' });
    await table.getByRole('row').filter({ hasText: 'Alice Ranger' }).getByText('900 (CSV)').waitFor();

    await page.getByLabel('Teams (0 fills the existing teams)').fill('2');
    await page.getByRole('button', { name: 'Balance Teams' }).click();
    const proposal = page.getByRole('table', { name: 'Proposed teams' });
    await proposal.getByRole('rowheader', { name: 'Team 1 (new)' }).waitFor();
    // 900 alone against 500 + 450: the spread is 50 and nothing is applied yet.
    await page.getByText('Spread: 50').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await proposal.getByRole('row').filter({ hasText: 'Team 1' }).textContent()).toContain('Alice Ranger');
    expect((await ownerApi.get(`/api/clan/${clanId}/events/${eventId}/teams/`)).body.teams).toEqual([]);

    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('signups-message').filter({ hasText: 'Teams applied: 3 sign-ups placed, 2 new teams.' }).waitFor();
    await page.getByTestId('free-agents').filter({ hasText: 'No free agents' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'Alice Ranger' }).getByText('Team 1', { exact: true }).waitFor();

    // The same view on a manager's phone: cards, no sideways scroll.
    const phone = await pageOf(ownerApi, PHONE);
    await phone.page.goto(`${suite.url}/clans/manage/${clanId}/events/${eventId}/signups`);
    await phone.page.getByRole('table', { name: 'Sign-ups' }).getByRole('rowheader', { name: 'Cara Tank' }).waitFor();
    await phone.page.getByRole('button', { name: 'Balance Teams' }).waitFor();
    await expectNoSidewaysScroll(phone.page, "the manager's Sign-ups view on a phone");

    await page.getByRole('navigation', { name: 'Event management' }).getByRole('button', { name: 'Manage Teams' }).click();
    await page.getByText('Managing: Teams List').waitFor();
    const teamRow = (name: string) => page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
    await teamRow('Team 1').getByText('1 Member').waitFor();
    await teamRow('Team 2').getByText('2 Members').waitFor();
    const teams = (await ownerApi.get(`/api/clan/${clanId}/events/${eventId}/teams/`)).body.teams;
    const members = (await ownerApi.get(`/api/clan/${clanId}/events/${eventId}/teams/${teams[0].id}/members`)).body.team_members;
    expect(members).toMatchObject([{ osrs_ign: 'Alice Ranger', role: 'Leader' }]);
    expect(new Set(teams.map((t: { color: string }) => t.color)).size).toBe(2);
    expect(errors).toEqual([]);
  });

  for (const viewport of [{ name: 'desktop', width: 1280, height: 800 }, { name: 'phone', ...PHONE }]) {
    it(`a proposal with a team nobody would lead says so; the manager picks its Leader and Apply makes them Leader (${viewport.width}x${viewport.height})`, { timeout: 120_000 }, async () => {
      const ownerApi = new ApiClient(suite.url);
      const ownerMe = await ownerApi.onboard(`Lead Organiser ${viewport.name}`, [`Boss${viewport.width}`], { role: 'Owner', clan_name: `No Leader Legion ${viewport.name}` });
      const clanId: number = ownerMe.clan_memberships_list[0].clan_id;
      const ev = await ownerApi.post(`/api/clan/${clanId}/events/`, { name: 'Leaderless League', start_datetime: new Date(Date.now() + 86_400_000).toISOString(), signups_open: true });
      expect(ev.status, JSON.stringify(ev.body)).toBe(200);
      const base = `/api/clan/${clanId}/events/${ev.body.event.id}`;
      // Four sign-ups, none would lead.
      for (const [i, score] of [900, 500, 450, 300].entries()) {
        const api = new ApiClient(suite.url);
        const me = await api.onboard(`follower-${i}-${viewport.name}`, [`Follower ${i}${viewport.name[0]}`], { role: 'Member', clan_id: clanId });
        const signed = await api.post(`${base}/signups`, { osrs_ign_id: me.igns[0].id });
        expect(signed.status, JSON.stringify(signed.body)).toBe(201);
        expect((await ownerApi.put(`${base}/signups/${signed.body.signup.id}`, { score })).status).toBe(200);
      }

      const { page, errors } = await pageOf(ownerApi, { width: viewport.width, height: viewport.height });
      await page.goto(`${suite.url}/clans/manage/${clanId}/events/${ev.body.event.id}/signups`);
      await page.getByRole('table', { name: 'Sign-ups' }).getByRole('rowheader', { name: `Follower 3${viewport.name[0]}` }).waitFor();
      await page.getByLabel('Teams (0 fills the existing teams)').fill('2');
      await page.getByRole('button', { name: 'Balance Teams' }).click();
      const warnings = page.getByTestId('leader-warnings');
      await warnings.getByText('Team 1 has no Leader', { exact: false }).waitFor();
      await warnings.getByText('Team 2 has no Leader', { exact: false }).waitFor();
      const pick = page.getByLabel('Leader of Team 1');
      expect(await pick.inputValue()).toBe('');
      await page.getByTestId('proposal').screenshot({ path: `/tmp/shots/signups-leaderless-${viewport.width}.png` });
      // The manager picks the first of Team 1's members as its Leader: its warning goes, Team 2's stays.
      const chosen = (await pick.locator('option').nth(1).textContent())!;
      await pick.selectOption({ label: chosen });
      await warnings.getByText('Team 1 has no Leader', { exact: false }).waitFor({ state: 'detached' });
      await warnings.getByText('Team 2 has no Leader', { exact: false }).waitFor();
      await page.getByTestId('proposal').screenshot({ path: `/tmp/shots/signups-leader-picked-${viewport.width}.png` });
      if (viewport.width === PHONE.width) await expectNoSidewaysScroll(page, 'the proposal with Leader pickers on a phone');
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByTestId('signups-message').filter({ hasText: 'Teams applied: 4 sign-ups placed, 2 new teams.' }).waitFor();
      const teams = (await ownerApi.get(`${base}/teams/`)).body.teams as { id: number; name: string }[];
      const leadersOf = async (name: string) =>
        ((await ownerApi.get(`${base}/teams/${teams.find((t) => t.name === name)!.id}/members`)).body.team_members as { osrs_ign: string; role: string }[])
          .filter((m) => m.role === 'Leader')
          .map((m) => m.osrs_ign);
      expect(await leadersOf('Team 1')).toEqual([chosen]);
      expect(await leadersOf('Team 2')).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});
