import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { setUpLiveGame, type LiveGame, type LiveTeam } from '../support/liveGame';
import { seriousA11yViolations } from '../support/axe';
import { JOURNEY_MS, openSignedIn } from '../support/e2e';
import { castOf, connect, newGame, type Watcher } from '../support/liveSocket';

/**
 * The board and the roll moment in headless Chromium against the real server, at 1280x800 and
 * 375x812: a started two-team game (set up through the API, BOARD_SEED fixed); each team's Leader
 * rolls on their own screen. After every roll: the die shows the value the Live Game Log names, the
 * pawn stands on the square the server says, and no square number or START/FINISH is covered by a
 * snake, ladder or pawn (rendered geometry: the topmost element at each label's centre is that
 * label, and no pawn's box meets a number's box). While the pawn walks and when it lands it is on
 * screen, clear of the navigation bar and the sticky action panel (sampled every frame); no new
 * log line or task shows before the die has settled and the pawn arrived. The whole board is in
 * view beside Roll Dice on the wide screen; on the phone, Roll Dice is visible without scrolling.
 * A page opened after rolls shows the last roll, settled. Revert Last Turn asks first (Cancel
 * spends nothing). A game played to its winner: the winner banner, podium and confetti show only
 * after the winning roll's die settled and its pawn reached the last square, and 'Winner: ' is
 * written once. axe finds no serious or critical violation on the play screen. The owner's
 * Game Tasks screen: columns at least 220 px wide (300 on a phone), no task word
 * broken across lines, no text cut short, a phone page under 3,500 px; team names on the Manage
 * Game status table never broken inside a word.
 */
const run = browserAvailable() ? describe : describe.skip;

const VIEWPORTS = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '375x812', width: 375, height: 812 },
] as const;

/** What covers square labels on `page`: labels whose centre is not topmost, and pawns meeting a number. */
async function coveredLabels(page: Page): Promise<{ hidden: string[]; underPawns: string[]; labels: number }> {
  return page.evaluate(() => {
    const layers = [...document.querySelectorAll<SVGGElement>('.board__links, .board__labels, .board__pawns')];
    // Hit-testing skips pointer-events: none layers; let them be hit for the measurement only.
    for (const g of layers) g.style.pointerEvents = 'auto';
    try {
      const hidden: string[] = [];
      const underPawns: string[] = [];
      const texts = [...document.querySelectorAll<SVGTextElement>('.board__label .board__num, .board__label .board__mark')];
      const pawns = [...document.querySelectorAll<SVGGElement>('.board__pawn')].map((p) => p.getBoundingClientRect());
      for (const t of texts) {
        const label = t.closest('[data-label]')!.getAttribute('data-label')!;
        const box = t.getBoundingClientRect();
        if (box.width === 0) continue;
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
        const hit = document.elementFromPoint(x, y);
        // Page chrome (the sticky navbar or action bar) over this part of the board: measured at another scroll.
        if (hit && !hit.closest('.board__svg')) continue;
        if (!hit || hit.closest('[data-label]')?.getAttribute('data-label') !== label) {
          hidden.push(`${t.textContent} under ${hit ? hit.closest('[class]')?.getAttribute('class') : 'nothing'}`);
        }
        const meets = pawns.some((p) => p.left < box.right && p.right > box.left && p.top < box.bottom && p.bottom > box.top);
        if (meets) underPawns.push(t.textContent ?? '');
      }
      return { hidden, underPawns, labels: texts.length };
    } finally {
      for (const g of layers) g.style.pointerEvents = '';
    }
  });
}

/**
 * Starts recording the roll moment in `page`, every animation frame: when the die's state and
 * value, the Live Game Log's length, the first team task's square, the winner (banner, podium or
 * confetti) and the moving pawn change (`events`, with times), and every frame where the moving
 * pawn, or a pawn that just landed, is off screen or under page chrome (`hidden`).
 */
async function recordRollMoments(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Sample = Record<string, string | number | boolean | null>;
    const rec = { events: [] as { t: number; k: string; v: unknown }[], hidden: [] as string[], frames: 0, sample: () => {} };
    (window as unknown as { __roll: typeof rec }).__roll = rec;
    let last: Sample = {};
    let movingTeam: string | null = null;
    const visible = (el: Element | null): string | null => {
      if (!el) return 'no pawn';
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return `outside the window at ${Math.round(x)},${Math.round(y)}`;
      const hit = document.elementFromPoint(x, y);
      return hit && hit.closest('.board__svg') ? null : `under ${hit?.closest('[class]')?.getAttribute('class') ?? 'nothing'}`;
    };
    const tick = () => {
      const die = document.querySelector('[data-testid=die]');
      const pawn = document.querySelector('.board__pawn[data-moving]');
      const now: Sample = {
        die: die?.getAttribute('data-state') ?? null,
        value: die?.getAttribute('data-value') ?? null,
        log: document.querySelectorAll('[data-testid=game-log] li').length,
        task: document.querySelector('[data-testid=team-task] .team-task__where')?.textContent ?? null,
        winner: !!document.querySelector('[data-testid=winner-banner], [data-testid=podium], [data-testid=confetti]'),
        moving: pawn?.getAttribute('data-moving') ?? null,
      };
      const t = performance.now();
      for (const k of Object.keys(now)) if (now[k] !== last[k]) rec.events.push({ t, k, v: now[k] });
      if (pawn) {
        movingTeam = pawn.getAttribute('data-team');
        // While the die tumbles the board may still be scrolling to the pawn; from the walk on it is in view.
        if (now.moving === 'walking' && now.die === 'settled') {
          const why = visible(pawn);
          if (why) rec.hidden.push(`walking: ${why}`);
        }
      } else if (last.moving && movingTeam) {
        const why = visible(document.querySelector(`.board__pawn[data-team="${movingTeam}"]`));
        if (why) rec.hidden.push(`landed: ${why}`);
      }
      last = now;
    };
    // Sampled every frame, and also when the test reads the record (rollMoments), so what the test
    // saw on the page is in the record before it counts a roll's `since` (a frame may lag behind).
    rec.sample = tick;
    const frame = () => {
      tick();
      rec.frames += 1;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  // The first frame records the page as it stands (every value is new then): wait for it, so a
  // roll's `since` counts from after it and the standing values never pass for the roll's changes.
  await expect.poll(async () => (await rollMoments(page)).frames).toBeGreaterThan(0);
}

/** What recordRollMoments saw since event `since`. */
async function rollMoments(page: Page, since = 0): Promise<{ events: { t: number; k: string; v: unknown }[]; hidden: string[]; frames: number }> {
  return page.evaluate((from) => {
    const rec = (window as unknown as { __roll: { events: { t: number; k: string; v: unknown }[]; hidden: string[]; frames: number; sample: () => void } }).__roll;
    rec.sample();
    return { events: rec.events.slice(from), hidden: [...rec.hidden], frames: rec.frames };
  }, since);
}

/**
 * The order of one roll moment in recorded `events`: when the die started tumbling, settled and the
 * pawn stopped moving, and the log, task and winner changes that came before the pawn arrived.
 */
function momentOrder(events: { t: number; k: string; v: unknown }[]): { tumbled: boolean; settledAt: number; arrivedAt: number; early: string[] } {
  const tumbling = events.find((e) => e.k === 'die' && e.v === 'tumbling');
  const settled = events.find((e) => e.k === 'die' && e.v === 'settled' && (!tumbling || e.t >= tumbling.t));
  const started = events.find((e) => e.k === 'moving' && e.v !== null);
  const arrived = events.find((e) => e.k === 'moving' && e.v === null && (!started || e.t >= started.t));
  const arrivedAt = Math.max(arrived?.t ?? Infinity, settled?.t ?? Infinity);
  const early = events.filter((e) => ['log', 'task', 'winner'].includes(e.k) && e.t < arrivedAt).map((e) => `${e.k}=${String(e.v)}`);
  return { tumbled: !!tumbling, settledAt: settled?.t ?? Infinity, arrivedAt, early };
}

/** Words of the elements matching `selector` that the browser broke across lines (a word with more than one line box). */
async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => {
    const broken: string[] = [];
    for (const el of els) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index!);
          range.setEnd(node, m.index! + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  });
}

run.each(clientOnlyBackends())('the board and the roll moment in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20261124' });
  let game: LiveGame;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    game = await setUpLiveGame(suite.url, 'Brd');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  const serverTeam = async (team: LiveTeam) =>
    (await game.owner.get(game.apiPath)).body.game.team_states.find((t: { team_id: number }) => t.team_id === team.id) as { current_position: number };
  const version = async () => (await game.owner.get(game.apiPath)).body.game.version as number;

  it.each(VIEWPORTS.map((v, i) => [v.name, v, i] as const))('at %s: die, log, pawn and labels agree after each roll; Roll Dice in reach', { timeout: 120_000 }, async (_name, viewport, i) => {
    const team = game.teams[i];
    const { context, page, errors } = await openSignedIn(suite.browser, suite.server, team.leader, { width: viewport.width, height: viewport.height });
    contexts.push(context);
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(m.text()));
    await page.goto(suite.url + game.playPath);
    await page.getByTestId('connection-state').getByText('Live').waitFor();
    const roll = page.getByRole('button', { name: 'Roll Dice' });
    await roll.waitFor();
    await page.locator('.board__pawn').first().waitFor();
    // A game without a roll says so; one opened after rolls names the last one (the journeys share the game).
    const rolledBefore = (await game.owner.get(game.apiPath)).body.game.log_entries.find((e: { die?: number }) => e.die) as { team_name: string; die: number } | undefined;
    expect(await page.getByTestId('die-announcement').textContent()).toBe(rolledBefore ? `${rolledBefore.team_name} rolled a ${rolledBefore.die}` : 'No roll yet.');
    if (viewport.width > 900) {
      // The whole board, squares 1-10 included, is in view below the navigation bar beside Roll Dice.
      const board = (await page.locator('.board__svg').boundingBox())!;
      const navbar = (await page.locator('.navbar').boundingBox())!;
      expect(board.y, 'board top').toBeGreaterThanOrEqual(navbar.y + navbar.height);
      expect(board.y + board.height, 'board bottom').toBeLessThanOrEqual(viewport.height);
    }
    await page.getByTestId('team-task').first().waitFor();
    await recordRollMoments(page);

    for (let n = 1; n <= 3; n += 1) {
      // Roll Dice is on screen without scrolling (the sticky action bar on a phone).
      await page.evaluate(() => window.scrollTo(0, 0));
      const rb = (await roll.boundingBox())!;
      expect(rb.y, 'Roll Dice top').toBeGreaterThanOrEqual(0);
      expect(rb.y + rb.height, 'Roll Dice bottom').toBeLessThanOrEqual(viewport.height);
      await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
      const since = (await rollMoments(page)).events.length;
      const before = await version();
      await roll.click({ noWaitAfter: true });
      await expect.poll(version, { timeout: 10_000 }).toBeGreaterThan(before);
      const truth = await serverTeam(team);
      // This roll's log line shows once its moment has played (the log holds it until the pawn
      // arrives): this team's n-th roll line, newest first. Waiting on it, not on the announcement,
      // keeps the previous roll's settled die from passing for this one.
      const rolledLines = page.getByTestId('game-log').getByRole('listitem').filter({ hasText: `${team.name} rolled a ` });
      await expect.poll(() => rolledLines.count(), { timeout: 10_000 }).toBe(n);
      // The die has settled on a value and says it; the log names the same roll.
      const announcement = page.getByTestId('die-announcement');
      const die = page.getByTestId('die');
      await expect.poll(() => die.getAttribute('data-state')).toBe('settled');
      const face = Number(await die.getAttribute('data-value'));
      expect(face).toBeGreaterThanOrEqual(1);
      expect(await announcement.textContent()).toBe(`${team.name} rolled a ${face}`);
      expect(await rolledLines.first().textContent()).toContain(`${team.name} rolled a ${face} and moved from`);
      // The pawn arrives where the server says, and stops moving.
      const pawn = page.locator(`.board__pawn[data-team="${team.id}"]`);
      await expect.poll(async () => [await pawn.getAttribute('data-position'), await pawn.getAttribute('data-moving')], { timeout: 10_000 }).toEqual([String(truth.current_position), null]);
      expect(await page.locator(`[data-testid="team-position"][data-team="${team.name}"]`).getAttribute('data-position')).toBe(String(truth.current_position));
      // The die tumbled, then settled; the log line and the new task came only once the pawn arrived.
      const order = momentOrder((await rollMoments(page, since)).events);
      expect(order.tumbled, `roll ${n} tumbled`).toBe(true);
      expect(order.early, `roll ${n}: shown before the die settled and the pawn arrived`).toEqual([]);
      expect(await page.getByTestId('team-task').first().locator('.team-task__where').textContent()).toContain(`Square ${truth.current_position}`);
    }
    const seen = await rollMoments(page);
    expect(seen.hidden, `the moving pawn off screen at ${viewport.name}`).toEqual([]);
    expect(seen.events.filter((e) => e.k === 'moving' && e.v === 'walking').length).toBeGreaterThanOrEqual(3);

    // A page opened after the rolls shows the last roll, settled, without playing it again.
    const lastFace = await page.getByTestId('die').getAttribute('data-value');
    await page.reload();
    await page.locator('.board__pawn').first().waitFor();
    await recordRollMoments(page);
    await expect.poll(() => page.getByTestId('die-announcement').textContent()).toBe(`${team.name} rolled a ${lastFace}`);
    expect(await page.getByTestId('die').getAttribute('data-value')).toBe(lastFace);
    await expect.poll(async () => (await rollMoments(page)).frames).toBeGreaterThan(5);
    expect((await rollMoments(page)).events.filter((e) => e.k === 'die' && e.v !== null).map((e) => e.v)).toEqual(['settled']);

    // Revert Last Turn asks first: Cancel spends nothing; Revert Turn reverts, and says so.
    const revert = page.getByRole('button', { name: 'Revert Last Turn' });
    await expect.poll(() => revert.isEnabled(), { timeout: 10_000 }).toBe(true);
    const unreverted = await version();
    await revert.click();
    const dialog = page.getByRole('dialog', { name: 'Revert Last Turn?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await version()).toBe(unreverted);
    await revert.click();
    await dialog.getByRole('button', { name: 'Revert Turn' }).click();
    // Done: the modal closes and the fading banner says so.
    await dialog.page().getByTestId('action-result').getByText('The last turn was reverted.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await version()).toBe(unreverted + 1);
    await dialog.waitFor({ state: 'detached' });

    // No label covered, measured on screen row by row.
    const boardBox = (await page.locator('.board__svg').boundingBox())!;
    const scrollTop = await page.evaluate(() => window.scrollY);
    let measured = 0;
    for (let y = boardBox.y + scrollTop - 80; y < boardBox.y + scrollTop + boardBox.height; y += Math.floor(viewport.height / 2)) {
      await page.evaluate((to) => window.scrollTo(0, to), Math.max(0, y));
      const found = await coveredLabels(page);
      expect(found.hidden, `labels under a snake, ladder or pawn at ${viewport.name}`).toEqual([]);
      expect(found.underPawns, `numbers under a pawn at ${viewport.name}`).toEqual([]);
      measured += found.labels;
    }
    expect(measured).toBeGreaterThan(0);

    // Zoom in makes the board wider than its frame; zoom out fits it again.
    const svg = page.locator('.board__svg');
    const fitted = (await svg.boundingBox())!.width;
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await svg.boundingBox())!.width).toBeGreaterThan(fitted * 1.4);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(async () => Math.round((await svg.boundingBox())!.width)).toBe(Math.round(fitted));

    expect(await seriousA11yViolations(page), `axe on the play screen at ${viewport.name}`).toEqual([]);
    expect(consoleLines.filter((l) => l.includes('HydrateFallback'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each(VIEWPORTS.map((v) => [v.name, v] as const))('at %s: the winner shows only after the winning pawn arrived, named once', { timeout: JOURNEY_MS }, async (name, viewport) => {
    // A 36-square race with no snakes or ladders: the browser is Red Team's Leader, Blue Team rolls over the socket.
    const cast = await castOf(suite.url, `win-${name}`);
    const race = await newGame(cast, { size: 36, noWin: false });
    const blue: Watcher = await connect(suite.url, 'blue leader', cast.leader2);
    const red: Watcher = await connect(suite.url, 'red leader (before the page opens)', cast.owner);
    try {
      await blue.join(race.gameId);
      await red.join(race.gameId);
      // The race's opening over the sockets, a Red and a Blue roll at a time, until a team stands
      // on square 24 or past it: still under 30, so no one can win yet (a move is at most 6) and
      // the page sees at least the last three rolls, the winning one among them, play out. Each
      // socket rolls at most 4 times a second (the limit is 5 a second per socket).
      let opening = 0;
      while (Math.max(...blue.held!.team_states.map((t) => t.current_position)) < 24) {
        const pair = performance.now();
        for (const [w, team, ign] of [[red, race.team1, cast.ign.ownerA], [blue, race.team2, cast.ign.leader2]] as const) {
          const before = blue.held!.version;
          w.socket.emit('roll_dice', { game_id: race.gameId, team_id: team, performer_ign_id: ign });
          await blue.version(before + 1);
          opening += 1;
        }
        await new Promise((r) => setTimeout(r, Math.max(0, 250 - (performance.now() - pair))));
      }
      expect(blue.held!.status).toBe('in-progress');
      const { context, page, errors } = await openSignedIn(suite.browser, suite.server, cast.owner, { width: viewport.width, height: viewport.height });
      contexts.push(context);
      await page.goto(`${suite.url}/games/clan/${cast.clanId}/events/${race.eventId}/game/${race.gameId}`);
      await page.getByTestId('connection-state').getByText('Live').waitFor();
      await page.locator('.board__pawn').first().waitFor();
      await recordRollMoments(page);
      const roll = page.getByRole('button', { name: 'Roll Dice' });
      let last = { since: 0, by: '' };
      for (let turn = opening; blue.held!.status !== 'finished'; turn += 1) {
        expect(turn, 'rolls to the winner').toBeLessThan(60);
        last = { since: (await rollMoments(page)).events.length, by: turn % 2 === 0 ? 'Red Team' : 'Blue Team' };
        const before = blue.held!.version;
        if (turn % 2 === 0) {
          await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
          await roll.click({ noWaitAfter: true });
        } else {
          blue.socket.emit('roll_dice', { game_id: race.gameId, team_id: race.team2, performer_ign_id: cast.ign.leader2 });
        }
        await blue.version(before + 1);
        // This roll's moment has played: the die settled, no pawn moves, and its log line shows.
        const rolled = page.getByTestId('game-log').getByRole('listitem').filter({ hasText: ' rolled a ' });
        await expect.poll(() => rolled.count(), { timeout: 10_000 }).toBe(turn + 1);
        await expect.poll(async () => [await page.getByTestId('die').getAttribute('data-state'), await page.locator('.board__pawn[data-moving]').count()], { timeout: 10_000 }).toEqual(['settled', 0]);
      }
      const winner = blue.held!.winners![0].name;
      await page.getByTestId('winner-banner').waitFor();
      await page.getByTestId('podium').waitFor();
      const moment = (await rollMoments(page, last.since)).events;
      const order = momentOrder(moment);
      const trace = moment.map((e) => `${Math.round(e.t)} ${e.k}=${String(e.v)}`).join(', ');
      expect(order.tumbled, 'the winning roll tumbled').toBe(true);
      expect(order.early, `shown before the winning die settled and the pawn arrived (${trace})`).toEqual([]);
      const seen = await rollMoments(page);
      expect(seen.hidden, `the moving pawn off screen at ${name}`).toEqual([]);
      // The winner's pawn stands on the last square; the winner is named once on the screen.
      const winnerId = winner === 'Red Team' ? race.team1 : race.team2;
      expect(await page.locator(`.board__pawn[data-team="${winnerId}"]`).getAttribute('data-position')).toBe('36');
      expect(await page.getByTestId('winner-banner').textContent()).toBe(`Winner: ${winner}`);
      expect((await page.locator('main, body').first().innerText()).split('Winner:').length - 1, 'times Winner: is written').toBe(1);
      expect(errors).toEqual([]);
    } finally {
      blue.close();
      red.close();
    }
  });

  it.each(VIEWPORTS.map((v) => [v.name, v] as const))('at %s: Game Tasks shows whole words in wide columns, a phone page much shorter; team names whole on the game status table', async (_name, viewport) => {
    const { context, page } = await openSignedIn(suite.browser, suite.server, game.owner, { width: viewport.width, height: viewport.height });
    contexts.push(context);
    await page.goto(`${suite.url}/clans/manage/${game.clanId}/events/${game.eventId}/tasks`);
    await page.locator('.task-square__task').first().waitFor();
    const widths = await page.locator('.task-column').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    expect(Math.min(...widths), 'narrowest Game Tasks column').toBeGreaterThanOrEqual(viewport.width > 640 ? 220 : 300);
    expect(await brokenWords(page, '.task-square__task'), 'task words broken across lines').toEqual([]);
    const cut = await page.locator('.task-square__task').evaluateAll((els) => els.filter((e) => e.scrollHeight > e.clientHeight + 1).map((e) => e.textContent));
    expect(cut, 'task texts cut short').toEqual([]);
    if (viewport.width < 640) expect(await page.evaluate(() => document.documentElement.scrollHeight), 'phone page height').toBeLessThan(3500);
    await page.goto(`${suite.url}/clans/manage/${game.clanId}/events/${game.eventId}/game`);
    await page.locator('table.team-positions .team-name').first().waitFor();
    expect(await brokenWords(page, 'table.team-positions .team-name'), 'team names broken inside a word').toEqual([]);
    expect(await seriousA11yViolations(page), `axe on Manage Game at ${viewport.name}`).toEqual([]);
  });
});
