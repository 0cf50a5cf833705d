import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { DEFAULT_SETTINGS } from '../../contract/game/settings';
import { TIERS } from '../../contract/game/tiers';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { ApiClient } from '../support/api';
import { JOURNEY_MS, openAnonymous, openSignedIn } from '../support/e2e';
import { connect } from '../support/liveSocket';
import { rollUntilOnTask } from '../support/rolls';
import { DESKTOP, PHONE, expectNoSidewaysScroll } from '../support/layout';
import { WomStandIn } from '../support/womStandIn';

/**
 * Team totals in headless Chromium against the real server (docs/server.md §17), at 1280x800 and
 * 375x812. Dink: every task of the clan's pool asks for 500 Zulrah's scales as a team total; the
 * event's Dink link has auto-approve on. Two players of the same team post LOOT with quantities
 * (300, then 200, each with a screenshot): the team's bar fills live, without a reload, on the
 * Leader's game screen and on a spectator's page (have / need and each player's share), the
 * second post reaches the total, the square approves itself and the Leader rolls on; on the
 * Leader's screen the bar shows on the team's task card too, and the board's square where the team
 * stands carries the team's frame with the bar's text. Wise Old
 * Man: every task asks for 500,000 Fishing XP as a team total, against the Wise Old Man stand-in
 * (WOM_API_URL); the baselines are taken on arrival, both players gain experience, the clan's
 * Owner (a manager on no team) sees 'Check now' beside the team's bar in Team Positions, a member
 * (not the Leader) presses it on the team's task card and the square approves from Wise Old Man.
 * Screenshots of the bars and the board go to SHOTS_DIR (default /tmp/team-total-shots/, not kept).
 */
const run = browserAvailable() ? describe : describe.skip;

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/team-total-shots';
const VIEWPORTS = [DESKTOP, PHONE] as const;
const SCALES = { type: 'LOOT', names: ["Zulrah's scales"], min: null, team_total: 500 };
const FISHING = { type: 'XP', names: ['fishing'], min: null, team_total: 500_000 };

/** A Dink LOOT post of `quantity` Zulrah's scales by `player` under that player's own account hash (the shape Dink sends). */
const scalesPost = (player: string, quantity: number) => ({
  content: `%USERNAME% has looted: \n\n%LOOT%\nFrom: %SOURCE% (${player} ${quantity})`,
  type: 'LOOT',
  playerName: player,
  accountType: 'NORMAL',
  dinkAccountHash: `e2eTotals-${player}-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH`,
  embeds: [],
  extra: { items: [{ id: 12934, quantity, priceEach: 150, name: "Zulrah's scales" }, { id: 526, quantity: 1, priceEach: 1, name: 'Bones' }], source: 'Zulrah', category: 'NPC', killCount: 40 },
});

/** Posts `payload` to the Dink link as Dink does: multipart `payload_json` and a screenshot `file`. */
async function postToDink(url: string, payload: object, screenshot: Buffer): Promise<number> {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  form.append('file', new Blob([new Uint8Array(screenshot)], { type: 'image/png' }), 'image.png');
  return (await fetch(url, { method: 'POST', body: form })).status;
}

/** The row of `team` in Team Positions (the members' screen and the spectators' page share it). */
const teamRow = (page: Page, team: string) => page.locator(`[data-testid="team-position"][data-team="${team}"]`);

/** What a bar shows, read from the page: the count's text and each share's text. */
async function barText(row: Locator): Promise<{ count: string | null; shares: string[] }> {
  const bar = row.getByTestId('team-progress');
  if ((await bar.count()) === 0) return { count: null, shares: [] };
  return { count: await bar.locator('.team-progress__count').textContent(), shares: (await bar.getByTestId('team-progress-share').allTextContents()).map((s) => s.trim()) };
}

/** The team's task card on the viewer's screen (the team's own bar and 'Check now'). */
const taskCard = (page: Page) => page.getByTestId('team-task');

/**
 * What the board's square of the team shows: the frame's square, accessible name and filled share,
 * and whether the frame, its stroke included, lies inside that square's cell (SVG geometry in the
 * board's units: Chromium's client boxes of stroked paths are padded by an estimate of the stroke's
 * joins, wider than what is painted); null when no frame.
 */
async function boardMark(page: Page, team: string): Promise<{ square: number; label: string | null; share: number; inside: boolean } | null> {
  const mark = page.locator(`[data-testid="board-progress"][aria-label^="${team}:"]`);
  if ((await mark.count()) === 0) return null;
  const square = Number(await mark.getAttribute('data-progress-square'));
  const inside = await mark.evaluate((el, sq) => {
    const frame = el.querySelector('path') as SVGPathElement;
    const half = parseFloat(getComputedStyle(frame).strokeWidth) / 2;
    const f = frame.getBBox();
    const c = (document.querySelector(`[data-square="${sq}"] rect`) as SVGRectElement).getBBox();
    return f.x - half >= c.x && f.y - half >= c.y && f.x + f.width + half <= c.x + c.width && f.y + f.height + half <= c.y + c.height;
  }, square);
  return { square, label: await mark.getAttribute('aria-label'), share: Number(await mark.getAttribute('data-share')), inside };
}

/** Saves the board around the team's square and the task card, the page not scrolling sideways. */
async function boardShots(page: Page, square: number, name: string): Promise<void> {
  const cell = page.locator(`[data-square="${square}"]`);
  await cell.scrollIntoViewIfNeeded();
  await expectNoSidewaysScroll(page, name);
  const box = (await cell.boundingBox())!;
  const view = page.viewportSize()!;
  // The square with a cell's margin around it (the frame beside its neighbours), clipped to the page.
  const x = Math.max(0, box.x - box.width);
  const y = Math.max(0, box.y - box.height);
  await page.screenshot({ path: `${SHOTS}/${name}-square.png`, clip: { x, y, width: Math.min(view.width - x, box.width * 3), height: Math.min(view.height - y, box.height * 3) } });
  await page.locator('.game-board').screenshot({ path: `${SHOTS}/${name}-board.png` });
  await taskCard(page).scrollIntoViewIfNeeded();
  await taskCard(page).screenshot({ path: `${SHOTS}/${name}-card.png` });
}

/** Saves the row of the team (bar included) and checks the page does not scroll sideways. */
async function shotOf(page: Page, row: Locator, name: string): Promise<void> {
  await row.scrollIntoViewIfNeeded();
  await expectNoSidewaysScroll(page, name);
  const box = await row.boundingBox();
  expect(box, `${name}: the team's row has a box`).not.toBeNull();
  expect(box!.x + box!.width, `${name}: the team's row fits the width`).toBeLessThanOrEqual(page.viewportSize()!.width + 0.5);
  await row.screenshot({ path: `${SHOTS}/${name}.png` });
  await page.screenshot({ path: `${SHOTS}/${name}-page.png` });
}

run.each(clientOnlyBackends())('team totals in Chromium (%s)', (backend) => {
  const wom = new WomStandIn();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await wom.start();
    fs.mkdirSync(SHOTS, { recursive: true });
    // Checks every 15 minutes (the default): after the baseline only 'Check now' brings a round.
    Object.assign(env, { WOM_API_URL: wom.url, BOARD_SEED: '20261128', ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000' });
  });
  const suite = useBrowserSuite(backend, env);
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await wom.stop();
  });

  async function personPage(api: ApiClient, viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
    const person = await openSignedIn(suite.browser, suite.server, api, viewport);
    contexts.push(person.context);
    return person;
  }

  /**
   * Through the API: a clan whose every task has `rule`, an event with one team (a Leader and a
   * Member, IGNs `lead` and `mate`), a proof-required game, started.
   */
  async function totalGame(tag: string, lead: string, mate: string, rule: object) {
    const owner = new ApiClient(suite.url);
    const me = await owner.onboard(`${tag}Boss`, [`${tag}Boss`], { role: 'Owner', clan_name: `${tag} Legion` });
    const clanId: number = me.clan_memberships_list[0].clan_id;
    const leadApi = new ApiClient(suite.url);
    const leadMe = await leadApi.onboard(`${tag}Lead`, [lead], { role: 'Member', clan_id: clanId });
    const mateApi = new ApiClient(suite.url);
    const mateMe = await mateApi.onboard(`${tag}Mate`, [mate], { role: 'Member', clan_id: clanId });
    for (const tier of TIERS)
      for (let i = 1; i <= 8; i += 1) {
        const t = await owner.post(`/api/clan/${clanId}/tasks`, { description: `Team total (${tier} ${i})`, difficulty: tier, auto_rule: rule });
        expect(t.status, JSON.stringify(t.body)).toBe(200);
      }
    const eventId: number = (await owner.post(`/api/clan/${clanId}/events/`, { name: `${tag} Night`, start_datetime: new Date(Date.now() + 3_600_000).toISOString() })).body.event.id;
    const teamId: number = (await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Red Dragons', color: '#cc2222' })).body.team.id;
    const membersPath = `/api/clan/${clanId}/events/${eventId}/teams/${teamId}/members`;
    expect((await owner.post(membersPath, { osrs_ign_id: leadMe.igns[0].id, role: 'Leader' })).status).toBe(200);
    expect((await owner.post(membersPath, { osrs_ign_id: mateMe.igns[0].id, role: 'Member' })).status).toBe(200);
    const created = await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, proof_required: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const gameId: number = created.body.game.id;
    const gamePath = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
    expect((await owner.put(`${gamePath}/status`, { status: 'in-progress' })).status).toBe(200);
    const state = async () => (await owner.get(gamePath)).body.game.team_states[0];
    return { owner, clanId, eventId, teamId, gameId, gamePath, leadApi, leadIgn: leadMe.igns[0].id as number, mateApi, state, playPath: `/games/clan/${clanId}/events/${eventId}/game/${gameId}` };
  }

  it.each(VIEWPORTS.map((v) => [`${v.width}x${v.height}`, v] as const))(
    "at %s: two players' Dink posts fill the bar live on the Leader's screen and the spectators' page; the total approves the square and the Leader rolls",
    { timeout: JOURNEY_MS },
    async (_name, viewport) => {
      const w = viewport.width;
      const lead = `Zul${w}Lead`;
      const mate = `Zul${w}Mate`;
      const g = await totalGame(`Zul${w}`, lead, mate, SCALES);
      const dinkPath = `/api/clan/${g.clanId}/events/${g.eventId}/dink`;
      const made = await g.owner.post(dinkPath, {});
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const dinkUrl = (made.body.dink.url as string).replace(/^https?:\/\/[^/]+/, suite.url);
      expect((await g.owner.put(dinkPath, { auto_approve: true })).body.dink.auto_approve).toBe(true);

      // --- The Leader rolls in the browser until the team stands on a task: 0 of 500 items, no shares yet.
      const leader = await personPage(g.leadApi, viewport);
      await leader.page.goto(suite.url + g.playPath);
      await leader.page.getByTestId('connection-state').getByText('Live').waitFor();
      const roll = leader.page.getByRole('button', { name: 'Roll Dice' });
      await rollUntilOnTask(roll, g.state);
      const leaderRow = teamRow(leader.page, 'Red Dragons');
      await expect.poll(() => barText(leaderRow), { timeout: 10_000 }).toEqual({ count: '0 / 500 items', shares: [] });
      // The same bar on the team's task card, and an empty frame on the board's square where the team stands.
      await expect.poll(() => barText(taskCard(leader.page)), { timeout: 10_000 }).toEqual({ count: '0 / 500 items', shares: [] });
      const on = (await g.state()).current_position as number;
      await expect.poll(() => boardMark(leader.page, 'Red Dragons'), { timeout: 10_000 }).toEqual({ square: on, label: 'Red Dragons: team total 0 / 500 items', share: 0, inside: true });

      // --- A spectator watches the same game.
      const spectator = await openAnonymous(suite.browser, viewport);
      contexts.push(spectator.context);
      await spectator.page.goto(`${suite.url}/games/spectate/${g.gameId}`);
      await spectator.page.getByTestId('connection-state').getByText('Live').waitFor();
      const spectatorRow = teamRow(spectator.page, 'Red Dragons');
      await expect.poll(() => barText(spectatorRow), { timeout: 10_000 }).toEqual({ count: '0 / 500 items', shares: [] });

      // --- The Leader's player loots 300 scales: both pages show 300 / 500 and the share, without a reload.
      const screenshot = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#2f7d4a' } }).png().toBuffer();
      const navigations = { leader: 0, spectator: 0 };
      leader.page.on('framenavigated', (f) => f === leader.page.mainFrame() && (navigations.leader += 1));
      spectator.page.on('framenavigated', (f) => f === spectator.page.mainFrame() && (navigations.spectator += 1));
      expect(await postToDink(dinkUrl, scalesPost(lead, 300), screenshot)).toBe(204);
      const partial = { count: '300 / 500 items', shares: [`${lead} 300`] };
      await expect.poll(() => barText(leaderRow), { timeout: 10_000 }).toEqual(partial);
      await expect.poll(() => barText(spectatorRow), { timeout: 10_000 }).toEqual(partial);
      await expect.poll(() => barText(taskCard(leader.page)), { timeout: 10_000 }).toEqual(partial);
      await expect.poll(() => boardMark(leader.page, 'Red Dragons'), { timeout: 10_000 }).toEqual({ square: on, label: 'Red Dragons: team total 300 / 500 items', share: 60, inside: true });
      await expect.poll(() => boardMark(spectator.page, 'Red Dragons'), { timeout: 10_000 }).toEqual({ square: on, label: 'Red Dragons: team total 300 / 500 items', share: 60, inside: true });
      expect(await leaderRow.locator('progress').evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([300, 500]);
      expect(await taskCard(leader.page).locator('progress').evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([300, 500]);
      await boardShots(leader.page, on, `dink-leader-partial-${w}`);
      expect(await taskState(leaderRow)).toBe('open');
      expect(await roll.isDisabled()).toBe(true);
      await shotOf(leader.page, leaderRow, `dink-leader-partial-${w}`);
      await shotOf(spectator.page, spectatorRow, `dink-spectator-partial-${w}`);

      // --- The other player loots 200: the total is reached, the square approves itself, live on both pages.
      expect(await postToDink(dinkUrl, scalesPost(mate, 200), screenshot)).toBe(204);
      const reached = { count: '500 / 500 items', shares: [`${lead} 300`, `${mate} 200`] };
      await expect.poll(() => barText(leaderRow), { timeout: 10_000 }).toEqual(reached);
      await expect.poll(() => barText(spectatorRow), { timeout: 10_000 }).toEqual(reached);
      await expect.poll(() => taskState(leaderRow), { timeout: 10_000 }).toBe('approved');
      await expect.poll(() => taskState(spectatorRow), { timeout: 10_000 }).toBe('approved');
      await expect.poll(() => barText(taskCard(leader.page)), { timeout: 10_000 }).toEqual(reached);
      await expect.poll(() => boardMark(leader.page, 'Red Dragons'), { timeout: 10_000 }).toEqual({ square: on, label: 'Red Dragons: team total 500 / 500 items', share: 100, inside: true });
      expect(navigations).toEqual({ leader: 0, spectator: 0 });
      const subs = (await g.owner.get(`${g.gamePath}/submissions`)).body.submissions;
      expect(subs).toHaveLength(1);
      expect(subs[0]).toMatchObject({ source: 'dink', auto: true, status: 'approved', reviewer: null, screenshot: true, evidence: { type: 'LOOT', summary: `Zulrah's scales x500 (${lead} 300, ${mate} 200)` } });
      await shotOf(leader.page, leaderRow, `dink-leader-reached-${w}`);
      await shotOf(spectator.page, spectatorRow, `dink-spectator-reached-${w}`);
      await boardShots(leader.page, on, `dink-leader-reached-${w}`);

      // --- The Leader rolls on.
      await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
      const before = (await g.state()).position_history.length;
      await roll.click();
      await expect.poll(async () => (await g.state()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);
      expect(leader.errors).toEqual([]);
      expect(spectator.errors).toEqual([]);
    },
  );

  it.each(VIEWPORTS.map((v) => [`${v.width}x${v.height}`, v] as const))(
    "at %s: a Wise Old Man XP total approves after a member presses 'Check now'",
    { timeout: JOURNEY_MS },
    async (_name, viewport) => {
      const w = viewport.width;
      const lead = `Fish${w}Lead`;
      const mate = `Fish${w}Mate`;
      wom.add(lead, { ehb: 1, ehp: 1, level: 1500, skills: { fishing: 2_000_000 } });
      wom.add(mate, { ehb: 1, ehp: 1, level: 1500, skills: { fishing: 40_000 } });
      const g = await totalGame(`Fish${w}`, lead, mate, FISHING);

      // --- The member's game screen is open; the Leader rolls (over a socket) until the team stands on a task.
      const member = await personPage(g.mateApi, viewport);
      await member.page.goto(suite.url + g.playPath);
      await member.page.getByTestId('connection-state').getByText('Live').waitFor();
      const sock = await connect(suite.url, `fish-leader-${w}`, g.leadApi);
      try {
        await sock.join(g.gameId, true);
        for (let i = 0; i < 10 && (await g.state()).task_state !== 'open'; i += 1) {
          const before = (await g.state()).position_history.length;
          sock.socket.emit('roll_dice', { game_id: g.gameId, team_id: g.teamId, performer_ign_id: g.leadIgn });
          await expect.poll(async () => (await g.state()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);
        }
      } finally {
        sock.close();
      }
      expect((await g.state()).task_state).toBe('open');

      // --- The baselines (Wise Old Man's update of both players) show as 0 / 500,000 xp with a share each.
      const row = teamRow(member.page, 'Red Dragons');
      // Equal shares (both 0) come in either order.
      await expect.poll(async () => { const b = await barText(row); return { ...b, shares: b.shares.sort() }; }, { timeout: 20_000 }).toEqual({ count: '0 / 500,000 xp', shares: [`${lead} 0`, `${mate} 0`].sort() });
      expect(wom.asked({ name: lead, method: 'POST' }).length).toBe(1);
      expect(wom.asked({ name: mate, method: 'POST' }).length).toBe(1);

      // --- The clan's Owner, a manager on no team, has 'Check now' beside the team's bar in Team Positions.
      const owner = await personPage(g.owner, viewport);
      await owner.page.goto(suite.url + g.playPath);
      await owner.page.getByTestId('connection-state').getByText('Live').waitFor();
      const ownerRow = teamRow(owner.page, 'Red Dragons');
      const ownerCheck = ownerRow.getByRole('button', { name: 'Check now (Red Dragons)' });
      await ownerCheck.waitFor();
      expect(await ownerCheck.isEnabled()).toBe(true);
      await expect.poll(async () => (await barText(ownerRow)).count, { timeout: 10_000 }).toBe('0 / 500,000 xp');
      expect(await owner.page.getByTestId('team-task').count()).toBe(0);
      await shotOf(owner.page, ownerRow, `wom-manager-check-now-${w}`);
      const buttonBox = (await ownerCheck.boundingBox())!;
      const rowBox = (await ownerRow.boundingBox())!;
      expect(buttonBox.x + buttonBox.width, "the manager's 'Check now' fits in the team's row").toBeLessThanOrEqual(rowBox.x + rowBox.width + 0.5);

      // --- Both fish; nothing is counted until a check. The member presses 'Check now' on the team's task card.
      wom.gain(lead, 'skills', 320_000, 'fishing');
      wom.gain(mate, 'skills', 210_500, 'fishing');
      // The button sits on the team's task card with the time of the last check (the baseline's).
      const checkNow = taskCard(member.page).getByRole('button', { name: 'Check now' });
      // A member who does not manage the clan has it there only, not in Team Positions.
      expect(await row.getByRole('button', { name: 'Check now' }).count()).toBe(0);
      await expect.poll(async () => (await barText(taskCard(member.page))).count, { timeout: 10_000 }).toBe('0 / 500,000 xp');
      await checkNow.waitFor();
      await member.page.getByTestId('progress-checked-at').getByText('Last checked', { exact: false }).waitFor();
      await checkNow.scrollIntoViewIfNeeded();
      await member.page.screenshot({ path: `${SHOTS}/wom-member-check-now-${w}-page.png` });
      await checkNow.click();
      await expect.poll(() => barText(row), { timeout: 20_000 }).toEqual({ count: '530,500 / 500,000 xp', shares: [`${lead} 320,000`, `${mate} 210,500`] });
      await expect.poll(() => taskState(row), { timeout: 10_000 }).toBe('approved');
      expect(await row.locator('progress').evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([500_000, 500_000]);
      const subs = (await g.owner.get(`${g.gamePath}/submissions`)).body.submissions;
      expect(subs).toHaveLength(1);
      expect(subs[0]).toMatchObject({ source: 'wom', auto: true, status: 'approved', reviewer: null });
      expect(wom.asked({ name: lead, method: 'POST' }).length).toBe(2);
      await shotOf(member.page, row, `wom-member-reached-${w}`);
      await boardShots(member.page, (await g.state()).current_position, `wom-member-reached-${w}`);
      expect(member.errors).toEqual([]);
      expect(owner.errors).toEqual([]);
    },
  );
});

/** The task state a team's row shows (data-task-state). */
const taskState = (row: Locator) => row.getAttribute('data-task-state');
