import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_SETTINGS } from '../../contract/game/settings';
import { TIERS } from '../../contract/game/tiers';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { ApiClient } from '../support/api';
import { JOURNEY_MS, openSignedIn } from '../support/e2e';
import { connect } from '../support/liveSocket';
import { rollUntilOnTask } from '../support/rolls';
import { DESKTOP, PHONE, expectNoSidewaysScroll } from '../support/layout';

/**
 * Proof from Dink (docs/server.md §13, docs/client.md §7), in headless Chromium against the real
 * server: every task of the clan's pool carries the rule LOOT 'Dragon warhammer'. The manager
 * opens Manage Game, makes the event's Dink link in the Dink panel and turns Auto-approve on. The
 * Leader rolls onto a task (the game requires approved proof). A LOOT post of another item is
 * listed in the panel as 'no_match' and changes nothing; a LOOT post of a Dragon warhammer with a
 * PNG screenshot, sent to the link as Dink sends it (multipart `payload_json` + `file`), makes
 * the team's task approved on the Leader's screen without a referee, and the Leader rolls. The
 * panel's 'Pinned accounts' then lists the Leader's account, and the manager clears the pin.
 * A matching post without a screenshot (application/json, no file) waits in the Reviews tab as
 * 'No screenshot was sent' with its evidence, never a blank stand-in image, and after a denial the
 * Leader's task shows the same, at 1280x800 and 375x812.
 */
const run = browserAvailable() ? describe : describe.skip;

const RULE = { type: 'LOOT', names: ['Dragon warhammer'], min: 1 };

/** A Dink LOOT post of `item` by `player` (the shape Dink sends, as in tests/fixtures/dink/loot.json). */
const lootPost = (player: string, item: string) => ({
  content: '%USERNAME% has looted: \n\n%LOOT%\nFrom: %SOURCE%',
  type: 'LOOT',
  playerName: player,
  accountType: 'NORMAL',
  dinkAccountHash: 'e2eAccountHash0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN',
  embeds: [],
  extra: { items: [{ id: 13576, quantity: 1, priceEach: 21000000, name: item }], source: 'Lizardman shaman', category: 'NPC', killCount: 412 },
});

/** Posts `payload` to the Dink link as Dink does: multipart with `payload_json` and, when given, a screenshot `file`. */
async function postToDink(url: string, payload: object, screenshot?: Buffer): Promise<number> {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  if (screenshot) form.append('file', new Blob([new Uint8Array(screenshot)], { type: 'image/png' }), 'image.png');
  const res = await fetch(url, { method: 'POST', body: form });
  return res.status;
}

const taskStateOf = (page: Page, team: string) => page.locator(`[data-testid="team-position"][data-team="${team}"]`).getAttribute('data-task-state');

run.each(clientOnlyBackends())('proof from Dink approves a task in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20250501' });
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });
  async function personContext(api: ApiClient): Promise<{ page: Page; errors: string[] }> {
    const person = await openSignedIn(suite.browser, suite.server, api);
    contexts.push(person.context);
    return person;
  }

  it('a manager makes the link with auto-approve; a matching LOOT post with a screenshot approves the task and the Leader rolls; another post is no_match', { timeout: JOURNEY_MS }, async () => {
    // --- Setup through the API: clan, a pool whose every task has the LOOT rule, an event, one team, a proof-required game, started.
    const ownerApi = new ApiClient(suite.url);
    const ownerMe = await ownerApi.onboard('Manager', ['ManagerIGN'], { role: 'Owner', clan_name: 'Dink Legion' });
    const clanId: number = ownerMe.clan_memberships_list[0].clan_id;
    const leadApi = new ApiClient(suite.url);
    const leadMe = await leadApi.onboard('RedLead', ['RedLeader'], { role: 'Member', clan_id: clanId });
    for (const tier of TIERS)
      for (let i = 1; i <= 8; i += 1) {
        const t = await ownerApi.post(`/api/clan/${clanId}/tasks`, { description: `Get a Dragon warhammer (${tier} ${i})`, difficulty: tier, auto_rule: RULE });
        expect(t.status, JSON.stringify(t.body)).toBe(200);
        expect(t.body.task.auto_rule).toEqual({ ...RULE, team_total: null, distinct: false });
      }
    const ev = await ownerApi.post(`/api/clan/${clanId}/events/`, { name: 'Dink Night', start_datetime: new Date(Date.now() + 3_600_000).toISOString() });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    const eventId: number = ev.body.event.id;
    const team = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Red Dragons', color: '#cc2222' });
    expect(team.status, JSON.stringify(team.body)).toBe(200);
    const member = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/teams/${team.body.team.id}/members`, { osrs_ign_id: leadMe.igns[0].id, role: 'Leader' });
    expect(member.status, JSON.stringify(member.body)).toBe(200);
    const created = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, proof_required: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const gameId: number = created.body.game.id;
    const gamePath = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
    expect((await ownerApi.put(`${gamePath}/status`, { status: 'in-progress' })).status).toBe(200);
    const redState = async () => (await ownerApi.get(gamePath)).body.game.team_states[0];

    // --- The manager makes the Dink link in Manage Game and turns Auto-approve on.
    const manager = await personContext(ownerApi);
    await manager.page.goto(`${suite.url}/clans/manage/${clanId}`);
    await manager.page.getByRole('tab', { name: 'Events' }).click();
    await manager.page.getByRole('row', { name: /Dink Night/ }).getByRole('button', { name: 'Manage Game' }).click();
    const panel = manager.page.getByTestId('dink-panel');
    await panel.getByTestId('dink-none').waitFor();
    await panel.getByRole('button', { name: 'Make Dink Link' }).click();
    // The one-link set-up leads; the raw webhook URL is under Advanced.
    const configField = panel.getByTestId('dink-config-url');
    await configField.waitFor();
    await panel.getByText('Advanced: the webhook URL').click();
    const urlField = panel.getByTestId('dink-url');
    await urlField.waitFor();
    const dinkUrl = await urlField.inputValue();
    expect(dinkUrl).toMatch(new RegExp(`^${suite.url}/api/dink/[A-Za-z0-9_-]{43,}$`));
    expect(await configField.inputValue()).toBe(`${dinkUrl}/config`);
    // What Dink imports from it: the webhook and the loot notifier the board's rule uses, with screenshots.
    const config = (await (await fetch(`${dinkUrl}/config`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ discordWebhook: dinkUrl, lootEnabled: true, lootSendImage: true, lootItemAllowlist: 'Dragon warhammer' });
    const autoApprove = panel.getByRole('checkbox', { name: 'Auto-approve matching posts with a screenshot' });
    expect(await autoApprove.isChecked()).toBe(false);
    await autoApprove.click();
    await panel.getByTestId('dink-message').getByText('Auto-approve is on', { exact: false }).waitFor();
    expect(await autoApprove.isChecked()).toBe(true);
    expect((await ownerApi.get(`/api/clan/${clanId}/events/${eventId}/dink`)).body.dink.auto_approve).toBe(true);

    // --- The Leader rolls until Red stands on a task.
    const leader = await personContext(leadApi);
    await leader.page.goto(`${suite.url}/games/clan/${clanId}/events/${eventId}/game/${gameId}`);
    await leader.page.getByTestId('connection-state').getByText('Live').waitFor();
    const roll = leader.page.getByRole('button', { name: 'Roll Dice' });
    await rollUntilOnTask(roll, redState);
    await expect.poll(() => taskStateOf(leader.page, 'Red Dragons'), { timeout: 10_000 }).toBe('open');
    expect(await roll.isDisabled()).toBe(true);

    // --- A post that does not satisfy the rule: taken (204), listed in the panel as no_match, nothing changes.
    const screenshot = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#884400' } }).png().toBuffer();
    expect(await postToDink(dinkUrl, lootPost('RedLeader', 'Bronze dagger'), screenshot)).toBe(204);
    const posts = panel.getByTestId('dink-posts');
    const noMatch = posts.locator('[data-testid="dink-post"][data-outcome="no_match"]');
    await expect.poll(async () => {
      if ((await noMatch.count()) === 0) await posts.getByRole('button', { name: 'Refresh' }).click().catch(() => {});
      return noMatch.count();
    }, { timeout: 20_000, interval: 1000 }).toBe(1);
    expect(await noMatch.getByText('RedLeader').count()).toBe(1);
    expect(await noMatch.getByTestId('dink-post-outcome').textContent()).toBe('no_match');
    expect((await redState()).task_state).toBe('open');

    // --- A LOOT of a Dragon warhammer with a screenshot: approved at once, live on the Leader's screen; the Leader rolls.
    expect(await postToDink(dinkUrl, lootPost('RedLeader', 'Dragon warhammer'), screenshot)).toBe(204);
    await expect.poll(() => taskStateOf(leader.page, 'Red Dragons'), { timeout: 10_000 }).toBe('approved');
    const subs = (await ownerApi.get(`${gamePath}/submissions`)).body.submissions;
    expect(subs[0]).toMatchObject({ source: 'dink', auto: true, status: 'approved', reviewer: null, evidence: { type: 'LOOT' } });
    await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
    const before = (await redState()).position_history.length;
    await roll.click();
    await expect.poll(async () => (await redState()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);

    // The panel lists the approval too.
    const approved = posts.locator('[data-testid="dink-post"][data-outcome="approved"]');
    await expect.poll(async () => {
      if ((await approved.count()) === 0) await posts.getByRole('button', { name: 'Refresh' }).click().catch(() => {});
      return approved.count();
    }, { timeout: 20_000, interval: 1000 }).toBe(1);

    // --- The Leader's account is pinned (both posts came with its hash); the manager sees the pin and clears it.
    const pins = panel.getByTestId('dink-accounts');
    const pin = pins.getByTestId('dink-account');
    await expect.poll(async () => {
      if ((await pin.count()) === 0) await pins.getByRole('button', { name: 'Refresh pinned accounts' }).click().catch(() => {});
      return pin.count();
    }, { timeout: 20_000, interval: 1000 }).toBe(1);
    expect(await pin.getByRole('rowheader').textContent()).toBe('RedLeader');
    expect(await pin.getByText('e2eAccou').count()).toBe(1);
    expect(await pin.locator('td[data-label="Posts"]').textContent()).toBe('2');
    await pin.getByRole('button', { name: 'Clear the pin of RedLeader' }).click();
    const clearDialog = manager.page.getByRole('dialog', { name: 'Clear Pinned Account' });
    await clearDialog.getByRole('button', { name: 'Clear', exact: true }).click();
    // Done: the modal closes and the fading banner says so.
    await clearDialog.page().getByTestId('action-result').getByText('The pinned account of RedLeader is cleared', { exact: false }).waitFor();
    await clearDialog.waitFor({ state: 'hidden' });
    await pins.getByTestId('dink-accounts-empty').waitFor();
    expect((await ownerApi.get(`/api/clan/${clanId}/events/${eventId}/dink/accounts`)).body).toEqual({ accounts: [] });
    expect(manager.errors).toEqual([]);
    expect(leader.errors).toEqual([]);
  });
  it('a matching post without a screenshot reads "No screenshot was sent" with its evidence in Reviews and, once denied, on the team\'s task (1280x800 and 375x812)', { timeout: JOURNEY_MS }, async () => {
    // --- Setup through the API: a pool whose every task has the LOOT rule, one team, a proof-required game, a Dink link without auto-approve.
    const ownerApi = new ApiClient(suite.url);
    const ownerMe = await ownerApi.onboard('ShotlessBoss', ['ShotlessBoss'], { role: 'Owner', clan_name: 'Shotless Legion' });
    const clanId: number = ownerMe.clan_memberships_list[0].clan_id;
    const leadApi = new ApiClient(suite.url);
    const leadMe = await leadApi.onboard('GreenLead', ['GreenLeader'], { role: 'Member', clan_id: clanId });
    for (const tier of TIERS)
      for (let i = 1; i <= 8; i += 1) expect((await ownerApi.post(`/api/clan/${clanId}/tasks`, { description: `Get a Dragon warhammer (${tier} ${i})`, difficulty: tier, auto_rule: RULE })).status).toBe(200);
    const eventId: number = (await ownerApi.post(`/api/clan/${clanId}/events/`, { name: 'Shotless Night', start_datetime: new Date(Date.now() + 3_600_000).toISOString() })).body.event.id;
    const teamId: number = (await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Green Goblins', color: '#228833' })).body.team.id;
    expect((await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/teams/${teamId}/members`, { osrs_ign_id: leadMe.igns[0].id, role: 'Leader' })).status).toBe(200);
    const created = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, proof_required: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const gameId: number = created.body.game.id;
    const gamePath = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
    expect((await ownerApi.put(`${gamePath}/status`, { status: 'in-progress' })).status).toBe(200);
    const link = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/dink`, {});
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const dinkUrl: string = link.body.dink.url;
    const greenState = async () => (await ownerApi.get(gamePath)).body.game.team_states[0];

    // --- The Leader rolls (over a socket) until Green stands on a task.
    const w = await connect(suite.url, 'green-leader', leadApi);
    try {
      await w.join(gameId, true);
      const ign = leadMe.igns[0].id as number;
      for (let i = 0; i < 10 && (await greenState()).task_state !== 'open'; i += 1) {
        const before = (await greenState()).position_history.length;
        w.socket.emit('roll_dice', { game_id: gameId, team_id: teamId, performer_ign_id: ign });
        await expect.poll(async () => (await greenState()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);
      }
    } finally {
      w.close();
    }
    const square: number = (await greenState()).current_position;
    expect((await greenState()).task_state).toBe('open');

    // --- Dink posts a matching LOOT as plain JSON, without a file: a pending submission that says no screenshot came.
    const res = await fetch(dinkUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(lootPost('GreenLeader', 'Dragon warhammer')) });
    expect(res.status).toBe(204);
    await expect.poll(async () => (await ownerApi.get(`${gamePath}/submissions`)).body.submissions.length, { timeout: 10_000 }).toBe(1);
    const [sub] = (await ownerApi.get(`${gamePath}/submissions`)).body.submissions;
    expect(sub).toMatchObject({ source: 'dink', status: 'pending', screenshot: false, evidence: { type: 'LOOT' } });
    const evidence = `Loot: ${sub.evidence.summary}`;

    // --- The manager's Reviews tab: the card says so and shows the evidence; no thumbnail to open.
    for (const viewport of [DESKTOP, PHONE]) {
      const manager = await personContext(ownerApi);
      await manager.page.setViewportSize(viewport);
      await manager.page.goto(`${suite.url}/clans/manage/${clanId}`);
      await manager.page.getByRole('tab', { name: /^Reviews/ }).click();
      const card = manager.page.getByTestId('review-card');
      await card.waitFor();
      const none = card.getByTestId('review-no-screenshot');
      await none.getByText('No screenshot was sent', { exact: true }).waitFor();
      expect(await none.getByTestId('proof-none-evidence').textContent()).toBe(evidence);
      expect(await card.getByRole('button', { name: /View full size/ }).count()).toBe(0);
      expect(await card.locator('img').count()).toBe(0);
      await expectNoSidewaysScroll(manager.page, `Reviews at ${viewport.width}`);
      await card.scrollIntoViewIfNeeded();
      await manager.page.screenshot({ path: `/tmp/shots/reviews-no-screenshot-${viewport.width}.png` });
      expect(manager.errors).toEqual([]);
    }

    // --- Denied: the Leader's task shows the reason and, instead of an image, the same words and evidence.
    expect((await ownerApi.put(`/api/clan/${clanId}/submissions/${sub.id}/review`, { decision: 'deny', reason: 'Send a screenshot' })).status).toBe(200);
    for (const viewport of [DESKTOP, PHONE]) {
      const leader = await personContext(leadApi);
      await leader.page.setViewportSize(viewport);
      await leader.page.goto(`${suite.url}/games/clan/${clanId}/events/${eventId}/game/${gameId}`);
      const denial = leader.page.getByTestId('proof-denial');
      await denial.getByText('Send a screenshot', { exact: false }).waitFor();
      const none = denial.getByTestId('proof-no-screenshot');
      await none.getByText('No screenshot was sent', { exact: true }).waitFor();
      expect(await none.getByTestId('proof-none-evidence').textContent()).toBe(evidence);
      expect(await denial.locator('img').count()).toBe(0);
      await denial.scrollIntoViewIfNeeded();
      await leader.page.screenshot({ path: `/tmp/shots/proof-no-screenshot-${viewport.width}.png` });
      expect(leader.errors).toEqual([]);
    }
    expect(square).toBeGreaterThan(1);
  });
});
