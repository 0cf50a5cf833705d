import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import path from 'node:path';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { setUpLiveGame, type LiveGame, type LiveTeam } from '../support/liveGame';
import { directSql } from '../support/fixtures';
import { REPO_ROOT } from '../support/e2e';
import { connect, type Watcher } from '../support/liveSocket';
import { DEFAULT_SETTINGS } from '../../contract/game/settings';

/**
 * Relief, win chances and the board simulator in headless Chromium against the real server
 * (docs/game-rules.md §14, §15), at 1280x800 and 375x812: a spectator sees each team's chance to
 * win beside its square and the chart of the chances gain a point when a team rolls; a manager's
 * simulator on a game not started draws its histogram of rolls to finish and draws another once the
 * snakes change; a team stuck on its square (its arrival moved back in the test database) has its
 * Leader ask for a new task, which shows as the team's task. Screenshots go to .shots/ (not kept).
 */
const run = browserAvailable() ? describe : describe.skip;

const VIEWPORTS = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '375x812', width: 375, height: 812 },
] as const;

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(REPO_ROOT, '.shots', `${name}.png`), fullPage: false });

run.each(clientOnlyBackends())('relief, win chances and the simulator in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20261127', ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000' });
  let game: LiveGame;
  const contexts: BrowserContext[] = [];
  const sockets: Watcher[] = [];

  beforeAll(async () => {
    game = await setUpLiveGame(suite.url, 'Rlf');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const c of contexts) await c.close().catch(() => {});
  });

  const open = async (viewport: { width: number; height: number }, team?: LiveTeam, api = team?.leader) => {
    const context = await suite.browser.newContext({ viewport });
    contexts.push(context);
    context.setDefaultTimeout(20_000);
    if (api) await context.addCookies([{ name: 'sid', value: api.cookies.get('sid')!, url: suite.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors };
  };

  /** Rolls for `team` over a socket of its Leader; resolves once the game's version moved. */
  const rollFor = async (team: LiveTeam) => {
    const w = await connect(suite.url, 'leader', team.leader);
    sockets.push(w);
    const held = await w.join(game.gameId, true);
    const ign = (await team.leader.get(game.apiPath)).body.game.user_teams[0].osrs_ign_id as number;
    const since = w.got.length;
    w.socket.emit('roll_dice', { game_id: game.gameId, team_id: team.id, performer_ign_id: ign });
    const r = await w.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && x.payload.game_state.version > held.version), 5000, since);
    expect(r.event, JSON.stringify(r.payload)).toBe('game_state_update');
    w.close();
  };

  it.each(VIEWPORTS.map((v) => [v.name, v] as const))('at %s: the spectator sees the win chances change after a roll', { timeout: 90_000 }, async (name, viewport) => {
    const { page, errors } = await open(viewport);
    await page.goto(suite.url + game.spectatePath);
    await page.getByTestId('connection-state').getByText('Live').waitFor();
    const chances = page.getByTestId('win-chance');
    await expect.poll(() => chances.count(), { timeout: 15_000 }).toBe(2);
    const before = await chances.evaluateAll((els) => els.map((e) => `${e.closest('[data-team]')!.getAttribute('data-team')}=${e.getAttribute('data-chance')}`).sort());
    // The shares add up to 1, and each reads as a whole percentage.
    expect(before.map((b) => Number(b.split('=')[1])).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    for (const text of await chances.allTextContents()) expect(text).toMatch(/^Win (<1|>99|\d{1,3})%$/);
    const panel = page.getByTestId('win-chances');
    // The chart is drawn once its panel comes near the screen (below the board on a phone).
    await panel.scrollIntoViewIfNeeded();
    await panel.locator('canvas').first().waitFor();
    const points = Number(await panel.getAttribute('data-points'));

    await rollFor(game.teams[name === '1280x800' ? 0 : 1]);
    // After the pawn arrives, the forecast of the new version: one more point, and the chances moved.
    await expect.poll(async () => Number(await panel.getAttribute('data-points')), { timeout: 20_000 }).toBe(points + 1);
    const after = await chances.evaluateAll((els) => els.map((e) => `${e.closest('[data-team]')!.getAttribute('data-team')}=${e.getAttribute('data-chance')}`).sort());
    expect(after).not.toEqual(before);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, `win-chances-${name}`);

    // The results page works the chances out for every move of the game so far (a point per move and the start).
    const moves = (await game.owner.get(`/api/public/game/${game.gameId}/history`)).body.moves.length as number;
    await page.goto(`${suite.url}/games/${game.gameId}/results`);
    const overGame = page.getByTestId('chances-over-game');
    await overGame.locator('canvas').first().waitFor();
    await expect.poll(async () => Number(await overGame.getAttribute('data-points'))).toBe(moves + 1);
    await overGame.scrollIntoViewIfNeeded();
    await shot(page, `results-chances-${name}`);
    expect(errors).toEqual([]);
  });

  it.each(VIEWPORTS.map((v) => [v.name, v] as const))('at %s: the simulator draws the rolls to finish, and draws them again when the snakes change', { timeout: 90_000 }, async (name, viewport) => {
    // Another event with a game not started (PENDING): the simulator shows in Manage Game.
    const eventName = `Sim ${name}`;
    const eventId: number = (await game.owner.post(`/api/clan/${game.clanId}/events/`, { name: eventName, start_datetime: new Date(Date.now() + 3_600_000).toISOString(), end_datetime: new Date(Date.now() + 49 * 3_600_000).toISOString() })).body.event.id;
    const created = await game.owner.post(`/api/clan/${game.clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, proof_required: false });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { page, errors } = await open(viewport, undefined, game.owner);
    await page.goto(`${suite.url}/clans/manage/${game.clanId}`);
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('row', { name: new RegExp(eventName) }).getByRole('button', { name: 'Manage Game' }).click();
    const sim = page.getByTestId('board-simulator');
    const histogram = sim.getByTestId('sim-histogram');
    await histogram.locator('canvas').first().waitFor();
    const first = await histogram.getAttribute('data-rolls');
    expect(first).toMatch(/^\d+(,\d+)+$/);
    expect((first ?? '').split(',').map(Number).reduce((a, b) => a + b, 0)).toBe(10_000);
    await expect.poll(() => sim.getByTestId('sim-finish-chance').textContent()).toMatch(/^(<1|>99|\d{1,3})%$/);
    await sim.getByTestId('sim-heat-map').waitFor();
    await sim.scrollIntoViewIfNeeded();
    await shot(page, `simulator-${name}`);
    // The relief fields of the settings form, and the hours table, clear of the sticky navigation bar.
    await page.locator('.game-settings__relief').first().evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
    await shot(page, `relief-settings-${name}`);
    await sim.locator('table').evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
    await shot(page, `simulator-hours-${name}`);

    // Hours out of range are refused in the form.
    const easy = sim.getByLabel('Hours per task, tier 1');
    await easy.fill('1001');
    await expect.poll(() => sim.getByTestId('simulator-error').textContent()).toBe('Hours for a easy task must be a number from 0 to 1,000.');
    await easy.fill('0.5');
    await expect.poll(() => sim.getByTestId('simulator-error').count()).toBe(0);

    // Long snakes from near the end to the start (and no ladders): the board takes more rolls.
    await page.getByLabel('Snakes config (JSON)').fill('[[98, 2], [95, 3], [88, 5]]');
    await page.getByLabel('Ladders config (JSON)').fill('[]');
    await page.getByRole('button', { name: 'Save Board Configuration' }).click();
    await expect.poll(() => histogram.getAttribute('data-rolls'), { timeout: 20_000 }).not.toBe(first);
    expect(Number(await sim.getByTestId('simulation').getAttribute('data-mean-rolls'))).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it.each(VIEWPORTS.map((v, i) => [v.name, v, i] as const))('at %s: a stuck team\'s Leader asks for a new task and sees it', { timeout: 90_000 }, async (name, viewport, i) => {
    const team = game.teams[i];
    expect((await game.owner.put(`${game.apiPath}/rules`, { relief_after_hours: 1, relief_max_per_team: 2 })).status).toBe(200);
    // The team stands on a task square (a roll lands it there; its task is open).
    const onTask = async () => {
      const g = (await game.owner.get(game.apiPath)).body.game;
      const t = g.team_states.find((s: { team_id: number }) => s.team_id === team.id);
      return t.task_state === 'open' && !t.task_override;
    };
    for (let k = 0; k < 10 && !(await onTask()); k += 1) await rollFor(team);
    expect(await onTask()).toBe(true);
    const { page, errors } = await open(viewport, team);
    await page.goto(suite.url + game.playPath);
    await page.getByTestId('connection-state').getByText('Live').waitFor();
    const ask = page.getByTestId('relief-button');
    // Just arrived: the wait is shown and the button is off.
    await expect.poll(() => ask.textContent()).toMatch(/^Ask for a new task in (1 h|\d+ min)$/);
    expect(await ask.isDisabled()).toBe(true);

    // Two hours on the square (the arrival moved back in the database); a pause and resume sends the team state again.
    await directSql(suite.env, 'UPDATE team_states SET square_since = ? WHERE game_id = ? AND team_id = ?', [new Date(Date.now() - 2 * 3_600_000).toISOString(), game.gameId, team.id]);
    expect((await game.owner.put(`${game.apiPath}/status`, { status: 'paused' })).status).toBe(200);
    expect((await game.owner.put(`${game.apiPath}/status`, { status: 'in-progress' })).status).toBe(200);
    await expect.poll(() => ask.textContent(), { timeout: 15_000 }).toBe('Ask for a new task');
    await expect.poll(() => ask.isDisabled()).toBe(false);
    const oldTask = await page.getByTestId('team-task').getByTestId('team-task-text').textContent();
    expect(await page.getByTestId('reliefs-left').textContent()).toBe('New tasks left: 2 of 2');
    // One click asks first: the modal names the team; confirming sends the request.
    await ask.click();
    const confirm = page.getByRole('dialog', { name: 'Ask for a New Task?' });
    await confirm.getByText(`${team.name}'s task on this square is replaced`, { exact: false }).waitFor();
    await page.screenshot({ path: `/tmp/shots/relief-confirm-${viewport.width}.png` });
    await confirm.getByRole('button', { name: 'Ask for a New Task' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByTestId('task-substitute').waitFor();
    await expect.poll(() => page.getByTestId('reliefs-left').textContent()).toBe('New tasks left: 1 of 2');
    await page.screenshot({ path: `/tmp/shots/relief-asked-${viewport.width}.png` });
    const newTask = await page.getByTestId('team-task').getByTestId('team-task-text').textContent();
    expect(newTask).not.toBe(oldTask);
    await expect.poll(() => page.getByTestId('game-log').locator('li').first().textContent()).toContain(`${team.name} was stuck on square`);
    // The new task's clock starts now: the button waits again.
    await expect.poll(() => ask.textContent()).toMatch(/^Ask for a new task in (1 h|\d+ min)$/);
    await page.getByTestId('team-task').scrollIntoViewIfNeeded();
    await shot(page, `relief-${name}`);

    // 'Verify dice' lists the draw, to be checked once the seed is revealed.
    await page.goto(`${suite.url}/games/${game.gameId}/verify`);
    const draws = page.getByTestId('relief-draw');
    await expect.poll(() => draws.count()).toBe(i + 1);
    expect(await draws.last().getAttribute('data-result')).toBe('pending');
    await expect.poll(() => draws.last().locator('td').nth(3).textContent()).toBe(newTask);
    expect(errors).toEqual([]);
  });
});
