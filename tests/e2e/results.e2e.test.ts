import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { HISTORY_CSV_COLUMNS } from '../../contract/history';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { JOURNEY_MS, openAnonymous, openSignedIn } from '../support/e2e';
import { a11yViolations, seriousA11yViolations } from '../support/axe';
import { DESKTOP, PHONE, expectFullyVisible, expectNoSidewaysScroll } from '../support/layout';
import { castOf, connect, newGame, stored, type Watcher } from '../support/liveSocket';

/**
 * The results page of a finished game in headless Chromium against the real server:
 * a 25-square game with a ladder and a snake is played to the winner over the socket (two Leaders
 * rolling in turn, one revert; BOARD_SEED fixes the dice). Then an anonymous visitor opens the
 * results page from the public spectate list: the final standings (winner first, podium), the race
 * chart drawn by uPlot with one line per team (its legend lists every team), the statistics (rolls
 * and reverts per team), the replay played to its end showing the final positions, and the CSV
 * download (header row and one row per move). The roll, revert and turn counts agree on every
 * page that shows them, read off each: the owner's Manage Game tracker and team rows, the results
 * header and statistics, the Verify dice view (the reverted roll marked 'Verified · reverted') and
 * the CSV rows. The race chart's legend shows the final squares without a hover. The lobby's
 * former game and the finished game screen link to it; on a phone the results and Verify dice
 * pages fit the width (each roll of Verify dice a row that fits, its result whole) and the scrubber works from the
 * keyboard; at 375x812 and 1280x800 the statistics never scroll sideways (one card per team on the
 * phone, every figure whole) and axe finds no serious or critical violation on the results and
 * Verify dice pages; an unknown game says 'Game not found.'. With SHOTS_DIR set, screenshots of the
 * statistics and of Verify dice at both widths go there.
 */
const run = browserAvailable() ? describe : describe.skip;

/** A screenshot of what the window shows, when SHOTS_DIR names a folder for them. */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png` });
}

run.each(clientOnlyBackends())('the results page of a finished game in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20261124', ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000' });
  const contexts: BrowserContext[] = [];
  const sockets: Watcher[] = [];

  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const c of contexts) await c.close().catch(() => {});
  });

  /** A fresh anonymous browser page that records uncaught errors. */
  async function anonymousPage(viewport = { width: 1280, height: 900 }): Promise<{ page: Page; errors: string[] }> {
    const person = await openAnonymous(suite.browser, viewport, { acceptDownloads: true });
    contexts.push(person.context);
    return person;
  }

  it('shows standings, the race chart, statistics, the replay to the end and the CSV of a game played to the winner', { timeout: JOURNEY_MS }, async () => {
    // --- A game played to the winner over the socket: Red Team (Leader OwnerA) and Blue Team (Leader LeaderTwo).
    const cast = await castOf(suite.url, `results-${backend}`);
    const game = await newGame(cast, { size: 25, noWin: false, start: false });
    const board = await cast.owner.put(`${game.path}/board`, { snakes_config: [[22, 8]], ladders_config: [[3, 14]] });
    expect(board.status, JSON.stringify(board.body)).toBe(200);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    const red = await connect(suite.url, 'red leader', cast.owner);
    const blue = await connect(suite.url, 'blue leader', cast.leader2);
    sockets.push(red, blue);
    await red.join(game.gameId);
    await blue.join(game.gameId);
    const rolls = { [game.team1]: 0, [game.team2]: 0 };
    let reverts = 0;
    const act = async (w: Watcher, event: 'roll_dice' | 'revert_roll', teamId: number, ignId: number) => {
      const before = red.held!.version;
      const since = w.got.length;
      w.socket.emit(event, { game_id: game.gameId, team_id: teamId, performer_ign_id: ignId });
      await Promise.race([
        red.version(before + 1),
        w.next((r) => r.event === 'action_error', 10_000, since).then((r) => Promise.reject(new Error(`${event} refused: ${JSON.stringify(r.payload)}`))),
      ]);
    };
    for (let turn = 0; red.held!.status !== 'finished'; turn += 1) {
      expect(turn).toBeLessThan(200);
      const [w, teamId, ignId] = turn % 2 === 0 ? [red, game.team1, cast.ign.ownerA] : [blue, game.team2, cast.ign.leader2];
      await act(w, 'roll_dice', teamId, ignId);
      rolls[teamId] += 1;
      if (reverts === 0 && turn === 2 && red.held!.status === 'in-progress') {
        await act(red, 'revert_roll', game.team1, cast.ign.ownerA);
        reverts += 1;
      }
    }
    expect(reverts).toBe(1);
    const final = await stored(cast, game);
    expect(final.status).toBe('finished');
    const winner = final.winners![0].name;
    const finalPositions = Object.fromEntries(final.team_states.map((t) => [t.team_name, t.current_position]));
    const loser = final.team_states.find((t) => t.team_name !== winner)!.team_name;
    const moves = rolls[game.team1] + rolls[game.team2] + reverts;
    // The counts every page must agree on, tallied here from what the test sent.
    const allRolls = rolls[game.team1] + rolls[game.team2];
    const turns = allRolls - reverts;
    const rollsText = `${allRolls} rolls, ${reverts} reverted`;
    const countsText = `${rollsText} · ${turns} turns processed`;
    const teamCounts = { 'Red Team': { rolls: rolls[game.team1], reverts, turns: rolls[game.team1] - reverts }, 'Blue Team': { rolls: rolls[game.team2], reverts: 0, turns: rolls[game.team2] } };

    // --- An anonymous visitor opens the results from the public spectate list.
    const { page, errors } = await anonymousPage();
    await page.goto(`${suite.url}/games/spectate`);
    const row = page.getByRole('listitem').filter({ hasText: final.event_name });
    await row.getByRole('link', { name: 'Results', exact: true }).click();
    await page.waitForURL(`**/games/${game.gameId}/results`);
    await page.getByRole('heading', { name: `${final.event_name}: Results` }).waitFor();

    // Final standings: the winner first, then the other team; the podium shows both.
    const standings = page.getByTestId('standing');
    expect(await standings.evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-team'), Number(r.getAttribute('data-position'))]))).toEqual([
      [winner, 25],
      [loser, finalPositions[loser]],
    ]);
    expect(await standings.first().textContent()).toContain('Winner');
    const steps = await page.getByTestId('podium').getByRole('listitem').allTextContents();
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatch(new RegExp(`^${winner}1stSquare \\d+$`));
    expect(steps[1]).toMatch(new RegExp(`^${loser}2ndSquare \\d+$`));

    // The race chart: uPlot drew one series per team, each named in its legend.
    const chart = page.getByTestId('race-chart');
    await page.locator('[data-testid="race-chart"][data-series="2"]').waitFor();
    expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
    const legend = await chart.locator('.u-legend .u-series .u-label').allTextContents();
    expect(legend.slice(1).sort()).toEqual(['Blue Team', 'Red Team']);
    // Without a hover the legend shows the last point: every team's final square, and a time.
    const values = await chart.locator('.u-legend .u-series .u-value').allTextContents();
    expect(values[0]).not.toBe('--');
    expect(Object.fromEntries(legend.slice(1).map((name, i) => [name, Number(values[i + 1])]))).toEqual(finalPositions);

    // The counts in the header: every roll, the reverted one, the turns that stand.
    expect(await page.getByTestId('results-counts').textContent()).toBe(countsText);

    // Statistics: the rolls, the reverted roll and the turns of each team.
    const stats = page.getByTestId('stats-table');
    for (const [name, c] of Object.entries(teamCounts)) {
      const cells = await stats.locator(`tbody tr[data-team="${name}"] td`).allTextContents();
      expect(cells.slice(0, 3), `${name} rolls, reverted, turns`).toEqual([String(c.rolls), String(c.reverts), String(c.turns)]);
    }

    // The replay, played at 4x, stops at the end on the final positions (list and pawns).
    const controls = page.getByTestId('replay-controls');
    await controls.getByLabel('Speed').selectOption('4');
    await controls.getByRole('button', { name: 'Play', exact: true }).click();
    await controls.getByRole('button', { name: 'Pause' }).waitFor();
    await controls.getByRole('button', { name: 'Play again' }).waitFor();
    expect(await page.getByTestId('replay-status').textContent()).toMatch(new RegExp(`^Move ${moves} of ${moves}: `));
    expect(
      Object.fromEntries(await page.getByTestId('replay-position').evaluateAll((items) => items.map((li) => [li.getAttribute('data-team'), Number(li.getAttribute('data-position'))]))),
    ).toEqual(finalPositions);
    const pawns = page.getByRole('group', { name: 'Replay board' }).locator('.board__pawn');
    expect((await pawns.evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-position'))))).sort((a, b) => a - b)).toEqual(
      Object.values(finalPositions).sort((a, b) => a - b),
    );

    // No accessibility violations found by axe on the page as played to its end.
    expect(await a11yViolations(page)).toEqual([]);

    // The CSV downloads: the documented header row and one row per move.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
    expect(csv[0]).toBe(HISTORY_CSV_COLUMNS.join(','));
    expect(csv).toHaveLength(moves + 1);
    const kinds = csv.slice(1).map((line) => line.split(',')[HISTORY_CSV_COLUMNS.indexOf('kind')]);
    expect([kinds.filter((k) => k === 'roll').length, kinds.filter((k) => k === 'revert').length]).toEqual([allRolls, reverts]);

    // Verify dice: the same counts, every roll listed (the reverted one too, marked so).
    await page.getByRole('link', { name: 'Verify dice' }).click();
    await page.locator('[data-testid="verify-report"][data-phase="checked"]').waitFor();
    expect(await page.getByTestId('verify-counts').textContent()).toMatch(new RegExp(`^${countsText}\\. `));
    const dice = page.getByTestId('dice-roll');
    expect(await dice.count()).toBe(allRolls);
    const reverted = page.locator('[data-testid="dice-roll"][data-reverted="true"]');
    expect(await reverted.count()).toBe(reverts);
    expect(await reverted.locator('td').last().textContent()).toBe('Verified · reverted');
    expect(errors).toEqual([]);

    // --- The former game in the lobby and the finished game screen link to the results.
    const owner = await openSignedIn(suite.browser, suite.server, cast.owner);
    contexts.push(owner.context);

    // Manage Game: the tracker's turns, the rolls behind them and the reverts used; per team rolls and turns.
    await owner.page.goto(`${suite.url}/clans/manage/${cast.clanId}/events/${game.eventId}/game`);
    await owner.page.getByTestId('turns-processed').waitFor();
    expect(await owner.page.getByTestId('turns-processed').textContent()).toBe(String(turns));
    expect(await owner.page.getByTestId('rolls-count').textContent()).toBe(rollsText);
    expect(await owner.page.getByTestId('reverts-used').textContent()).toMatch(new RegExp(`^${reverts} / `));
    for (const [name, c] of Object.entries(teamCounts)) {
      const row = owner.page.locator(`tr[data-team="${name}"]`);
      expect([await row.getByTestId('team-rolls').textContent(), await row.getByTestId('team-turns').textContent()], name).toEqual([String(c.rolls), String(c.turns)]);
    }

    await owner.page.goto(`${suite.url}/games`);
    const former = owner.page.getByRole('region', { name: 'Former (Finished) Games' });
    await former.getByRole('link', { name: 'View Results' }).click();
    await owner.page.waitForURL(`**/games/${game.gameId}/results`);
    await owner.page.getByRole('heading', { name: `${final.event_name}: Results` }).waitFor();
    await owner.page.goto(`${suite.url}/games/clan/${cast.clanId}/events/${game.eventId}/game/${game.gameId}`);
    await owner.page.getByRole('link', { name: 'View Results' }).click();
    await owner.page.waitForURL(`**/games/${game.gameId}/results`);
    expect(owner.errors).toEqual([]);

    // --- On a phone: the page fits the width, and the scrubber works from the keyboard (End: the last move).
    const phone = await anonymousPage({ width: 375, height: 800 });
    await phone.page.goto(`${suite.url}/games/${game.gameId}/results`);
    await phone.page.getByRole('heading', { name: `${final.event_name}: Results` }).waitFor();
    await phone.page.locator('[data-testid="race-chart"][data-series="2"]').waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await phone.page.getByLabel('Replay position').focus();
    await phone.page.keyboard.press('End');
    await phone.page.getByTestId('replay-controls').getByRole('button', { name: 'Play again' }).waitFor();
    expect(await phone.page.getByTestId('replay-status').textContent()).toMatch(new RegExp(`^Move ${moves} of ${moves}: `));

    // Verify dice on a phone: the page does not scroll sideways; each roll is a row that fits its box, its result whole.
    await phone.page.goto(`${suite.url}/games/${game.gameId}/verify`);
    await phone.page.locator('[data-testid="verify-report"][data-phase="checked"]').waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBe(await phone.page.evaluate(() => window.innerWidth));
    const box = phone.page.locator('.verify-rolls');
    const fits = await box.evaluate((el) => {
      const frame = el.getBoundingClientRect();
      const cut = [...el.querySelectorAll('tbody td')].filter((td) => {
        const r = td.getBoundingClientRect();
        return r.left < frame.left - 1 || r.right > frame.right + 1;
      });
      return { boxInside: frame.left >= 0 && frame.right <= window.innerWidth, scrolls: el.scrollWidth > el.clientWidth, cut: cut.map((td) => td.textContent) };
    });
    expect(fits).toEqual({ boxInside: true, scrolls: false, cut: [] });
    expect(await phone.page.locator('[data-testid="dice-roll"][data-reverted="true"] td').last().textContent()).toBe('Verified · reverted');

    // --- Statistics and Verify dice at 375x812 and 1280x800: the statistics never scroll sideways
    // (one card per team on the phone), and axe finds nothing serious on either page.
    for (const viewport of [PHONE, DESKTOP]) {
      const seen = await anonymousPage(viewport);
      await seen.page.goto(`${suite.url}/games/${game.gameId}/results`);
      await seen.page.getByRole('heading', { name: `${final.event_name}: Results` }).waitFor();
      const box = seen.page.getByTestId('stats-box');
      await box.locator('tbody tr').first().waitFor();
      await seen.page.locator('[data-testid="race-chart"][data-series="2"]').waitFor();
      const widths = await box.evaluate((el) => ({ box: [el.scrollWidth, el.clientWidth], table: [el.querySelector('table')!.scrollWidth, el.clientWidth] }));
      expect(widths.box[0], `the statistics box scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(widths.box[1]);
      expect(widths.table[0], `the statistics table is wider than its box at ${viewport.width} px`).toBeLessThanOrEqual(widths.table[1]);
      await expectNoSidewaysScroll(seen.page, `the results page at ${viewport.width} px`);
      // Every figure is shown whole: Sixes (the cut-off 'Si…') and each team's rolls.
      for (const [name, c] of Object.entries(teamCounts)) {
        const sixes = box.locator(`tbody tr[data-team="${name}"] td[data-label="Sixes"]`);
        await sixes.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await expectFullyVisible(sixes, `${name} Sixes at ${viewport.width} px`);
        expect(await box.locator(`tbody tr[data-team="${name}"] td[data-label="Rolls"]`).textContent()).toBe(String(c.rolls));
      }
      expect(await seriousA11yViolations(seen.page), `axe on the results page at ${viewport.width} px`).toEqual([]);
      await box.scrollIntoViewIfNeeded();
      await shot(seen.page, `results-stats-${viewport.width}`);
      await seen.page.goto(`${suite.url}/games/${game.gameId}/verify`);
      await seen.page.locator('[data-testid="verify-report"][data-phase="checked"]').waitFor();
      await expectNoSidewaysScroll(seen.page, `the Verify dice page at ${viewport.width} px`);
      expect(await seriousA11yViolations(seen.page), `axe on the Verify dice page at ${viewport.width} px`).toEqual([]);
      await seen.page.locator('.verify-rolls').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shot(seen.page, `verify-${viewport.width}`);
      expect(seen.errors).toEqual([]);
    }

    // --- A game that does not exist.
    await phone.page.goto(`${suite.url}/games/999999/results`);
    await phone.page.getByTestId('results-error').getByText('Game not found.').waitFor();
    expect(phone.errors).toEqual([]);
  });
});
