import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { setUpLiveGame, type LiveGame } from '../support/liveGame';
import { directSql } from '../support/fixtures';
import { openSignedIn } from '../support/e2e';
import { DESKTOP, PHONE, expectNoSidewaysScroll } from '../support/layout';

/**
 * The Leader's game screen keeps the die, the START square and the team's own pawn in sight
 * together (docs/client.md §9), in headless Chromium against the real server at 375x812 and
 * 1280x800: a started 100-square game with proof required and relief on, so that after a roll the
 * Game Action panel grows (the proof rule's refusal under Roll Dice, the 'Ask for a new task' line).
 * Before the roll (the page as it opens) and after it (once the die has settled and the pawn has
 * arrived, the page where the roll moment left it), the point at the centre of the START square
 * and of the team's pawn shows the board, not the sticky action panel or the navigation bar; the
 * die and Roll Dice are on screen and uncovered too; the page never scrolls sideways. The same
 * holds when a refusal without a roll grows the panel (relief asked for with none left).
 * With SHOTS_DIR set, screenshots of each moment go there (game-before-375.png, ...).
 */
const run = browserAvailable() ? describe : describe.skip;

const VIEWPORTS = [
  { name: '1280x800', ...DESKTOP },
  { name: '375x812', ...PHONE },
] as const;

/**
 * What the page shows at the centre of the first element matching `selector`: whether that
 * centre is inside the window, and which element is hit there (its closest classed ancestor's
 * class, and whether it lies inside the board's SVG or the roll strip).
 */
async function centreOf(page: Page, selector: string): Promise<{ inWindow: boolean; inBoard: boolean; inStrip: boolean; hit: string; at: string }> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return { inWindow: false, inBoard: false, inStrip: false, hit: 'no element', at: '' };
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const inWindow = x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight;
    const hit = inWindow ? document.elementFromPoint(x, y) : null;
    return {
      inWindow,
      inBoard: !!hit?.closest('.board__svg'),
      inStrip: !!hit?.closest('.roll-strip'),
      hit: hit ? String(hit.closest('[class]')?.getAttribute('class') ?? hit.tagName) : 'nothing',
      at: `${Math.round(x)},${Math.round(y)} in ${innerWidth}x${innerHeight}`,
    };
  }, selector);
}

/** Fails unless START, the team's pawn, the die and Roll Dice are all on screen and uncovered on `page`. */
async function expectPawnStartAndDieInSight(page: Page, teamId: number, when: string): Promise<void> {
  const start = await centreOf(page, '.board__cell--start');
  expect(start.inWindow && start.inBoard, `${when}: START at ${start.at} shows ${start.hit}, not the board`).toBe(true);
  const pawn = await centreOf(page, `.board__pawn[data-team="${teamId}"]`);
  expect(pawn.inWindow && pawn.inBoard, `${when}: the team's pawn at ${pawn.at} shows ${pawn.hit}, not the board`).toBe(true);
  const die = await centreOf(page, '[data-testid="die"]');
  expect(die.inWindow && die.inStrip, `${when}: the die at ${die.at} shows ${die.hit}, not the roll strip`).toBe(true);
  const roll = page.getByRole('button', { name: /^(Roll Dice|Rolling\.\.\.)$/ });
  const hitsRoll = await roll.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.top >= 0 && r.bottom <= innerHeight && hit !== null && el.contains(hit);
  });
  expect(hitsRoll, `${when}: Roll Dice is off screen or covered`).toBe(true);
}

/** Waits until the window stops scrolling (a smooth scroll ends within a few frames): two frames without a change. */
async function waitForStillPage(page: Page): Promise<void> {
  await expect
    .poll(async () => {
      const before = await page.evaluate(() => window.scrollY);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return before === (await page.evaluate(() => window.scrollY));
    })
    .toBe(true);
}

/** A screenshot of what the window shows, when SHOTS_DIR names a folder for them. */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png` });
}

run.each(clientOnlyBackends())("the Leader's game screen keeps pawn, START and die in sight (%s)", (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20261128', ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000' });
  let game: LiveGame;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    game = await setUpLiveGame(suite.url, 'Lay');
    // Proof required and relief on (none left to give): after a roll the panel shows the proof rule's refusal and the relief line.
    const rules = await game.owner.put(`${game.apiPath}/rules`, { proof_required: true, relief_after_hours: 24, relief_max_per_team: 0 });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  it.each(VIEWPORTS.map((v, i) => [v.name, v, i] as const))('at %s: before and after a roll', { timeout: 90_000 }, async (_name, viewport, i) => {
    const team = game.teams[i];
    const { context, page, errors } = await openSignedIn(suite.browser, suite.server, team.leader, { width: viewport.width, height: viewport.height });
    contexts.push(context);
    await page.goto(suite.url + game.playPath);
    await page.getByTestId('connection-state').getByText('Live').waitFor();
    const roll = page.getByRole('button', { name: 'Roll Dice' });
    await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
    await page.locator(`.board__pawn[data-team="${team.id}"]`).waitFor();
    await shot(page, `game-before-${viewport.width}`);
    await expectPawnStartAndDieInSight(page, team.id, `${viewport.name} before the roll`);
    await expectNoSidewaysScroll(page, `the game screen at ${viewport.name}`);

    await roll.click({ noWaitAfter: true });
    // The moment has played: the die settled, no pawn moves, and the panel grew (refusal and relief line).
    await page.getByTestId('roll-gate').waitFor();
    await page.getByTestId('relief-button').waitFor();
    const pawn = page.locator(`.board__pawn[data-team="${team.id}"]`);
    const truth = (await game.owner.get(game.apiPath)).body.game.team_states.find((t: { team_id: number }) => t.team_id === team.id).current_position;
    await expect.poll(async () => [await pawn.getAttribute('data-position'), await pawn.getAttribute('data-moving'), await page.getByTestId('die').getAttribute('data-state')], { timeout: 15_000 }).toEqual([String(truth), null, 'settled']);
    await waitForStillPage(page);
    await shot(page, `game-after-${viewport.width}`);
    await expectPawnStartAndDieInSight(page, team.id, `${viewport.name} after the roll (pawn on ${truth})`);
    await expectNoSidewaysScroll(page, `the game screen after a roll at ${viewport.name}`);

    // A refusal without a roll moment grows the panel too: the team has waited long enough (its
    // arrival moved back in the database; a pause and resume sends the team state again), but no
    // relief is left, so 'Ask for a new task' is refused and the message shows in the panel.
    await directSql(suite.env, 'UPDATE team_states SET square_since = ? WHERE game_id = ? AND team_id = ?', [new Date(Date.now() - 25 * 3_600_000).toISOString(), game.gameId, team.id]);
    expect((await game.owner.put(`${game.apiPath}/status`, { status: 'paused' })).status).toBe(200);
    await page.getByTestId('action-note').waitFor();
    expect((await game.owner.put(`${game.apiPath}/status`, { status: 'in-progress' })).status).toBe(200);
    const ask = page.getByTestId('relief-button');
    await expect.poll(() => ask.textContent(), { timeout: 15_000 }).toBe('Ask for a new task');
    await expect.poll(() => ask.isDisabled()).toBe(false);
    await waitForStillPage(page);
    await ask.click();
    // Relief asks first (a confirm modal); confirming sends the request the server refuses.
    const confirm = page.getByRole('dialog', { name: 'Ask for a New Task?' });
    await confirm.getByRole('button', { name: 'Ask for a New Task' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByTestId('action-error').getByText(`No relief left for ${team.name}.`).waitFor();
    await waitForStillPage(page);
    await shot(page, `game-refused-${viewport.width}`);
    await expectPawnStartAndDieInSight(page, team.id, `${viewport.name} with the refusal shown`);
    expect(errors).toEqual([]);
  });
});
