import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_SETTINGS } from '../../contract/game/settings';
import { PROOF_MESSAGES } from '../../contract/submission';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable, takeCspViolations } from '../support/browser';
import { ApiClient } from '../support/api';
import { importTasksCsv } from '../support/fixtures';
import { JOURNEY_MS, openSignedIn } from '../support/e2e';
import { DESKTOP, PHONE, expectNoSidewaysScroll } from '../support/layout';
import { seriousA11yViolations } from '../support/axe';

/**
 * A whole event as plain Members live it (docs/client.md §1, §13, §14; docs/server.md §9, §16),
 * in headless Chromium against the real server, every page after each person's first reached by
 * clicks only. The owner sets up the clan, the task pool and an event taking sign-ups through the
 * API. Four Members (one on a 375x812 phone) go from the dashboard's Clan Events to the event's
 * Sign-ups and Sign Up, two as would-be Leaders. The owner starts a captains' draft with those two
 * in the draft room (reached from the Events tab); each captain opens it from the dashboard's
 * 'Draft live now' and picks when on the clock, until the pool is empty and the draft is over.
 * The owner makes a game that requires approved proof and starts it (API). The first captain,
 * now Leader, opens it from My Games (Go To Game) and rolls until the team stands on a task; the
 * Roll waits for proof; the team's other member (the phone) opens it from the dashboard's Game
 * Lobby and sends a proof image chosen as a file; the owner follows the pending-proofs badge to
 * Reviews and approves; the Leader rolls again. No page error, no CSP violation.
 */
const run = browserAvailable() ? describe : describe.skip;

const CLAN = 'Journey Legion';
const EVENT = 'Autumn Run';

/** The task state Team Positions shows for `team` on `page`. */
const taskStateOf = (page: Page, team: string) =>
  page.locator(`[data-testid="team-position"][data-team="${team}"]`).getAttribute('data-task-state');

run.each(clientOnlyBackends())("a Member's whole event by clicks in Chromium (%s)", (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20250501' });
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });
  async function pageOf(api: ApiClient, viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
    const person = await openSignedIn(suite.browser, suite.server, api, viewport);
    contexts.push(person.context);
    return person;
  }

  it('sign-up, draft, a roll, proof by a member, approval and the next roll', { timeout: JOURNEY_MS }, async () => {
    // --- The owner's set-up through the API: clan, task pool, an event taking sign-ups.
    const ownerApi = new ApiClient(suite.url);
    const ownerMe = await ownerApi.onboard('Journey Owner', ['JourneyBoss'], { role: 'Owner', clan_name: CLAN });
    const clanId: number = ownerMe.clan_memberships_list[0].clan_id;
    await importTasksCsv(ownerApi, clanId);
    const ev = await ownerApi.post(`/api/clan/${clanId}/events/`, { name: EVENT, start_datetime: new Date(Date.now() + 86_400_000).toISOString(), signups_open: true });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    const eventId: number = ev.body.event.id;

    // Ava and Ben would lead; Cal (on a phone) and Dee would not.
    const cast = [
      { name: 'ava', ign: 'Ava Lead', lead: true, viewport: DESKTOP },
      { name: 'ben', ign: 'Ben Lead', lead: true, viewport: DESKTOP },
      { name: 'cal', ign: 'Cal Runner', lead: false, viewport: PHONE },
      { name: 'dee', ign: 'Dee Runner', lead: false, viewport: DESKTOP },
    ];
    const people: { ign: string; page: Page; errors: string[] }[] = [];
    for (const p of cast) {
      const api = new ApiClient(suite.url);
      await api.onboard(`journey-${p.name}`, [p.ign], { role: 'Member', clan_id: clanId });
      const person = await pageOf(api, p.viewport);
      people.push({ ign: p.ign, ...person });
      const { page } = person;

      // --- Dashboard → Clan Events → the event's Sign-ups → Sign Up.
      await page.goto(`${suite.url}/dashboard`);
      const clan = page.getByTestId('clan-events').getByRole('region', { name: CLAN });
      await clan.getByRole('link', { name: `Sign up for ${EVENT}` }).click();
      await page.getByTestId('signups-status').filter({ hasText: /^Sign-ups are open/ }).waitFor();
      await page.getByRole('button', { name: 'Sign Up' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign Up' });
      expect(await dialog.getByLabel('IGN').inputValue()).not.toBe('');
      if (p.lead) await dialog.getByLabel('I would lead a team').check();
      await dialog.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByTestId('action-result').getByText(`Signed up as ${p.ign}.`).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('table', { name: 'Sign-ups' }).getByRole('rowheader', { name: p.ign }).waitFor();
      if (p.viewport === PHONE) await expectNoSidewaysScroll(page, 'the Sign-ups view on a phone');
    }
    const [ava, ben, cal, dee] = people;
    expect(await seriousA11yViolations(cal.page)).toEqual([]);

    // --- The owner starts the captains' draft in the draft room (reached from the Events tab).
    const owner = await pageOf(ownerApi, DESKTOP);
    await owner.page.goto(`${suite.url}/clans/manage/${clanId}/events`);
    await owner.page.getByRole('link', { name: `Draft room of ${EVENT}` }).click();
    await owner.page.getByText('No draft has been started for this event.').waitFor();
    await owner.page.getByRole('checkbox', { name: new RegExp(`^${ava.ign}`) }).check();
    await owner.page.getByRole('checkbox', { name: new RegExp(`^${ben.ign}`) }).check();
    await owner.page.getByLabel('Seconds per pick').fill('600');
    await owner.page.getByRole('button', { name: 'Start Draft' }).click();
    await owner.page.getByTestId('draft-message').getByText('Draft started.').waitFor();

    // --- Each captain: Dashboard → 'Draft live now'; the room shows who is on the clock.
    const status = (page: Page) => page.getByTestId('draft-status');
    for (const captain of [ava, ben]) {
      await captain.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
      await captain.page.getByTestId('clan-events').getByRole('region', { name: CLAN }).getByRole('link', { name: `Draft live now: ${EVENT}` }).click();
      await status(captain.page).filter({ hasText: `Round 1: Team ${ava.ign} is on the clock` }).waitFor();
    }
    // Ben is not on the clock: no pick buttons for him yet.
    await status(ava.page).filter({ hasText: 'Your pick!' }).waitFor();
    expect(await ben.page.getByRole('button', { name: /^Pick / }).count()).toBe(0);
    await ava.page.getByRole('button', { name: `Pick ${cal.ign}` }).click();
    await ben.page.getByRole('region', { name: `Team ${ava.ign}` }).getByText(cal.ign).waitFor();
    await status(ben.page).filter({ hasText: 'Your pick!' }).waitFor();
    await ben.page.getByRole('button', { name: `Pick ${dee.ign}` }).click();
    // The pool is empty: the draft is over for everyone in the room.
    for (const p of [ava.page, ben.page, owner.page]) await status(p).filter({ hasText: 'The draft is over: 2 picks.' }).waitFor();
    expect(await ava.page.getByRole('region', { name: `Team ${ava.ign}` }).getByRole('listitem').allTextContents()).toEqual([`Captain: ${ava.ign}`, cal.ign]);

    // --- The owner makes a game that requires approved proof and starts it (API).
    const teams = (await ownerApi.get(`/api/clan/${clanId}/events/${eventId}/teams/`)).body.teams as { name: string }[];
    expect(teams.map((t) => t.name).sort()).toEqual([`Team ${ava.ign}`, `Team ${ben.ign}`]);
    const created = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, proof_required: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const gameId: number = created.body.game.id;
    const gamePath = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
    const started = await ownerApi.put(`${gamePath}/status`, { status: 'in-progress' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const avaTeam = `Team ${ava.ign}`;
    const avaState = async () => (await ownerApi.get(gamePath)).body.game.team_states.find((t: { team_name: string }) => t.team_name === avaTeam);

    // --- Ava, now Leader: My Games → Go To Game, and rolls until her team stands on a task.
    await ava.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Games' }).click();
    const active = ava.page.getByRole('region', { name: 'Active Snakes & Ladders Games' });
    await active.getByText(`★ ${avaTeam}`).waitFor();
    await active.getByRole('link', { name: 'Go To Game' }).click();
    await ava.page.getByRole('heading', { name: 'Roll Dice for Your Team' }).waitFor();
    await ava.page.getByTestId('connection-state').getByText('Live').waitFor();
    const roll = ava.page.getByRole('button', { name: 'Roll Dice' });
    let state = await avaState();
    for (let i = 0; i < 10 && state.task_state !== 'open'; i += 1) {
      await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
      const before = state.position_history.length;
      await roll.click();
      await expect.poll(async () => (await avaState()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);
      state = await avaState();
    }
    expect(state.task_state).toBe('open');
    const square: number = state.current_position;
    await ava.page.getByTestId('roll-gate').getByText(PROOF_MESSAGES.rollGate(square, avaTeam)).waitFor();
    expect(await roll.isDisabled()).toBe(true);

    // --- Cal (phone), on Ava's team: brand → dashboard → Open Game Lobby → Go To Game → Submit Proof with a file.
    await cal.page.getByRole('link', { name: 'Clan Snakes & Ladders' }).click();
    await cal.page.getByRole('link', { name: 'Open Game Lobby' }).click();
    await cal.page.getByRole('region', { name: 'Active Snakes & Ladders Games' }).getByRole('link', { name: 'Go To Game' }).click();
    await cal.page.getByTestId('connection-state').getByText('Live').waitFor();
    await cal.page.getByTestId('team-task').getByText(`reached square ${square}, `, { exact: false }).waitFor();
    // Cal is no Leader: no Roll Dice for him.
    expect(await cal.page.getByRole('button', { name: 'Roll Dice' }).count()).toBe(0);
    await cal.page.getByRole('button', { name: 'Submit Proof' }).click();
    const proof = cal.page.getByTestId('proof-dialog');
    await proof.getByText('choose a file', { exact: false }).waitFor();
    const png = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#cc8822' } }).png().toBuffer();
    await proof.getByTestId('proof-file').setInputFiles({ name: 'kill-count.png', mimeType: 'image/png', buffer: png });
    await proof.getByTestId('proof-preview').waitFor();
    await expectNoSidewaysScroll(cal.page, 'the Submit Proof dialog on a phone');
    await cal.page.getByRole('button', { name: 'Send Proof' }).click();
    await cal.page.locator('[data-testid="proof-sent"], [data-testid="proof-error"]').first().waitFor();
    expect(await cal.page.getByTestId('proof-error').count(), (await cal.page.getByTestId('proof-error').textContent().catch(() => '')) ?? '').toBe(0);
    await cal.page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => taskStateOf(ava.page, avaTeam), { timeout: 10_000 }).toBe('submitted');
    expect(await roll.isDisabled()).toBe(true);

    // --- The owner follows the pending-proofs badge to Reviews and approves.
    await owner.page.getByTestId('pending-proofs').click();
    const card = owner.page.getByTestId('review-card').filter({ hasText: avaTeam });
    await card.getByText(`Sent by ${cal.ign}`, { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.waitFor({ state: 'detached' });
    await owner.page.getByTestId('reviews-empty').waitFor();
    await expect.poll(() => taskStateOf(cal.page, avaTeam), { timeout: 10_000 }).toBe('approved');

    // --- The Leader may roll again, and does.
    await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await ava.page.getByTestId('roll-gate').count()).toBe(0);
    const before = (await avaState()).position_history.length;
    await roll.click();
    await expect.poll(async () => (await avaState()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);
    const after = await avaState();
    await expect
      .poll(() => cal.page.locator(`[data-testid="team-position"][data-team="${avaTeam}"]`).getAttribute('data-position'), { timeout: 10_000 })
      .toBe(String(after.current_position));

    for (const p of [...people, owner]) expect(p.errors).toEqual([]);
    expect(takeCspViolations(suite.browser), 'CSP violations').toEqual([]);
  });
});
