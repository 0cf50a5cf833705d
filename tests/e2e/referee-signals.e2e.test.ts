import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import sharp from 'sharp';
import { DEFAULT_SETTINGS } from '../../contract/game/settings';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { ApiClient } from '../support/api';
import { importTasksCsv } from '../support/fixtures';
import { openSignedIn } from '../support/e2e';
import { connect, type Watcher } from '../support/liveSocket';
import { seriousA11yViolations } from '../support/axe';

/**
 * The referee's signals outside Manage Clan (docs/server.md §9; docs/game-rules.md §1
 * dashboard), in headless Chromium against the real server: a new Owner's dashboard shows the
 * getting-started steps, none done; once the clan has tasks, an event, teams and a started game
 * with proof required, the steps are gone and Clan Games lists the live game with Watch and Manage
 * (the Owner is on no team: My Games has none). A team member's proof then makes the navbar's
 * count appear on the open dashboard without a reload ('1 proof waiting for review'), at 1280 and
 * at 375 px without sideways scrolling; its approval takes the count away; and the count opens the
 * clan's Reviews tab. axe finds no serious or critical violation on either dashboard. The
 * database cannot change what this checks in the browser; the count's server calls and the
 * live-games route run on both databases in the API suites.
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('the referee sees pending proofs and live games outside Manage Clan (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20250501' });
  const contexts: BrowserContext[] = [];
  const sockets: Watcher[] = [];

  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const c of contexts) await c.close().catch(() => {});
  });

  it('steps for a new clan, then its live game, and the pending count live in the navbar', { timeout: 120_000 }, async () => {
    const owner = new ApiClient(suite.url);
    const me = await owner.onboard('SignalOwner', ['SignalBoss'], { role: 'Owner', clan_name: 'Signal Legion' });
    const clanId: number = me.clan_memberships_list[0].clan_id;
    const referee = await openSignedIn(suite.browser, suite.server, owner, { width: 1280, height: 800 });
    contexts.push(referee.context);
    const { page } = referee;

    // --- A new Owner: the getting-started steps, none done, each linking into Manage Clan.
    await page.goto(`${suite.url}/dashboard`);
    const steps = page.getByTestId('getting-started');
    await steps.getByRole('heading', { name: 'Get Signal Legion ready for its first game' }).waitFor();
    expect(await steps.getByRole('listitem').evaluateAll((items) => items.map((li) => [li.textContent, (li as HTMLElement).dataset.done]))).toEqual([
      ['1Import tasks', 'false'],
      ['2Create an event', 'false'],
      ["3Build the event's teams", 'false'],
      ['4Create the game', 'false'],
    ]);
    expect(await steps.getByRole('link', { name: 'Import tasks' }).getAttribute('href')).toBe(`/clans/manage/${clanId}/tasks`);
    await page.getByTestId('clan-games').getByText('No live games in your clans.').waitFor();
    expect(await seriousA11yViolations(page), 'axe on the new Owner\'s dashboard').toEqual([]);

    // --- Through the API: the task pool, an event, two teams, a proof-required game, started.
    const person = async (name: string, ign: string) => {
      const api = new ApiClient(suite.url);
      const profile = await api.onboard(name, [ign], { role: 'Member', clan_id: clanId });
      return { api, ignId: profile.igns[0].id as number };
    };
    const redLead = await person('SignalRedLead', 'SigRedLead');
    const redMember = await person('SignalRedMember', 'SigRedRun');
    const blueLead = await person('SignalBlueLead', 'SigBlueLead');
    await importTasksCsv(owner, clanId);
    const ok = (r: { status: number; body: any }) => {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    const eventId: number = ok(await owner.post(`/api/clan/${clanId}/events/`, { name: 'Signal Night', start_datetime: new Date(Date.now() + 3_600_000).toISOString() })).event.id;
    const team = async (name: string, color: string, members: [number, string][]) => {
      const id: number = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color })).team.id;
      for (const [ignId, role] of members) ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${id}/members`, { osrs_ign_id: ignId, role }));
      return id;
    };
    const red = await team('Red Dragons', '#cc2222', [[redLead.ignId, 'Leader'], [redMember.ignId, 'Member']]);
    await team('Blue Moons', '#2244cc', [[blueLead.ignId, 'Leader']]);
    const gameId: number = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, proof_required: true })).game.id;
    const gamePath = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
    ok(await owner.put(`${gamePath}/status`, { status: 'in-progress' }));

    // --- The clan has had a game: the steps are gone; Clan Games lists it, My Games has none.
    await page.reload();
    const games = page.getByTestId('clan-games');
    await games.getByRole('listitem').filter({ hasText: 'Signal Night' }).getByText('In progress', { exact: true }).waitFor();
    expect(await games.getByRole('link', { name: 'Watch Signal Night' }).getAttribute('href')).toBe(`/games/clan/${clanId}/events/${eventId}/game/${gameId}`);
    expect(await games.getByRole('link', { name: 'Manage Signal Night' }).getAttribute('href')).toBe(`/clans/manage/${clanId}/events/${eventId}/game`);
    await page.getByText('No current games.').waitFor();
    expect(await steps.count()).toBe(0);
    expect(await page.getByTestId('pending-proofs').count()).toBe(0);
    // Marks this document: a reload or navigation would lose it.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    // --- The Red Leader rolls (socket) until Red stands on a task; a Red member sends proof (API).
    const leader = await connect(suite.url, 'red leader', redLead.api);
    sockets.push(leader);
    await leader.join(gameId);
    const redState = async () => ok(await owner.get(gamePath)).game.team_states.find((t: { team_id: number }) => t.team_id === red);
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83232' } }).png().toBuffer();
    /** Rolls for Red at least once, until it stands on a task; then the member sends proof. */
    const rollAndSendProof = async () => {
      for (let i = 0; i < 10; i += 1) {
        const before = (await redState()).position_history.length;
        leader.socket.emit('roll_dice', { game_id: gameId, team_id: red, performer_ign_id: redLead.ignId });
        await expect.poll(async () => (await redState()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);
        if ((await redState()).task_state === 'open') break;
      }
      expect((await redState()).task_state).toBe('open');
      const form = new FormData();
      form.append('team_id', String(red));
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'proof.png');
      const sent = await redMember.api.call('POST', `${gamePath}/submissions`, form);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      return sent.body.submission.id as number;
    };
    const submissionId = await rollAndSendProof();

    // --- The count appears on the open dashboard, named for screen readers, linking to Reviews.
    const badge = page.getByRole('link', { name: '1 proof waiting for review' });
    await badge.waitFor();
    expect(await badge.textContent()).toBe('1');
    expect(await badge.getAttribute('href')).toBe(`/clans/manage/${clanId}/reviews`);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await seriousA11yViolations(page), 'axe on the dashboard with the count').toEqual([]);

    // At 375 px the count stays in the navbar, inside the viewport, and nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    const box = (await badge.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    // --- The approval (another referee's screen, here the API) takes the count away, live.
    ok(await owner.put(`/api/clan/${clanId}/submissions/${submissionId}/review`, { decision: 'approve', reason: null }));
    await page.getByTestId('pending-proofs').waitFor({ state: 'detached' });

    // --- A second proof brings it back; the count opens the clan's Reviews tab with the proof.
    await rollAndSendProof();
    await badge.waitFor();
    await badge.click();
    await page.waitForURL(`${suite.url}/clans/manage/${clanId}/reviews`);
    await page.getByRole('tab', { name: 'Reviews (1)' }).waitFor();
    await page.getByTestId('review-card').getByText('Red Dragons').waitFor();
    // The navbar's count and the tab's agree.
    expect(await page.getByRole('link', { name: '1 proof waiting for review' }).count()).toBe(1);
    expect(referee.errors).toEqual([]);
  });
});
