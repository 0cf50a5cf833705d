import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiClient } from './api';
import { takeCspViolations } from './browser';
import { seriousA11yViolations, type AxeFinding } from './axe';
import { SAMPLE_TASKS_CSV, STEP_MS } from './e2e';
import { DESKTOP, PHONE, expectFullyVisible, expectNoSidewaysScroll, expectTabsReachable } from './layout';

/**
 * The whole-event browser journey, written once (tests/e2e/whole-event.e2e.test.ts against one or
 * two server processes, tests/e2e/rolling-restart.e2e.test.ts through nginx in front of three
 * processes restarted one after another while the rolls go on; docs/server.md §14).
 */

const CSV_TASKS = 144;
const MAX_ROLLS = 400;
const TEAMS = [
  { name: 'Red Dragons', color: '#cc2222', leader: 'RedLead', ign: 'RedLeader' },
  { name: 'Blue Moons', color: '#2244cc', leader: 'BlueLead', ign: 'BlueLeader' },
] as const;

type Positions = Record<string, number>;

/** Where the journey runs: a browser (from launchBrowser) and the site's base URLs. */
export interface WholeEventSite {
  browser: Browser;
  /** Base URL of the owner and the first Leader, e.g. http://127.0.0.1:PORT. */
  url: string;
  /** Base URL of the second Leader and the spectator (a second process of the same site, or `url`). */
  urlB: string;
}

/** What a hook of the roll phase may read. */
export interface RollPhase {
  /** Every page on the game screen: the owner's, the Leaders', the spectator's. */
  pages: Page[];
  /** The stored game (REST, through the owner's session): version and Team Positions. */
  truth(): Promise<{ version: number; positions: Positions }>;
}

/** Options of runWholeEvent; all optional (the defaults are whole-event.e2e.test.ts). */
export interface WholeEventOptions {
  /**
   * axe-core on every page of the journey and the sideways-scroll checks, with the second pass at
   * the other viewport size (default true).
   */
  pageChecks?: boolean;
  /**
   * Restarts may happen during the rolls: a click the stored game has not taken within 10 s (it
   * went into a closing connection) is counted as not acknowledged and clicked again once the
   * button is back, and every acknowledged roll moves the stored version by exactly one
   * (default false: a click that is not taken fails the journey).
   */
  restarts?: boolean;
  /**
   * The Leaders and the spectator browse with prefers-reduced-motion (default true). The rolling
   * restart keeps full motion: its restarts are spaced by rolls, and each roll's moment gives a
   * restarted process the seconds it needs before the next one leaves (as in production).
   */
  reducedMotion?: boolean;
  /** Called with every person's page as soon as it exists, before it loads anything (init scripts, listeners). */
  watchPage?(page: Page, who: string): Promise<void>;
  /** Awaited once the game is started, before anyone opens the game screen. */
  beforeGameScreens?(): Promise<void>;
  /** Awaited before each click on Roll Dice with the number of acknowledged rolls so far. */
  beforeRoll?(rolls: number, phase: RollPhase): Promise<void>;
  /** Awaited right after each click on Roll Dice (the roll on its way) with the acknowledged rolls before it. */
  afterClick?(rolls: number, phase: RollPhase): Promise<void>;
  /** Awaited once every page shows the winner, before the Leader leaves the game screen. */
  afterRolls?(phase: RollPhase): Promise<void>;
}

/** What the journey saw. */
export interface WholeEventOutcome {
  rolls: number;
  winner: string;
  /** Clicks on Roll Dice that the stored game never took (only with `restarts`). */
  unacknowledged: number;
  /**
   * Each team's squares after each of its acknowledged rolls as its Leader's screen showed them,
   * the last one removed by the revert: the stored position_history after its first square.
   */
  acknowledged: Record<string, number[]>;
  /** Each team's stored position_history once the game is finished. */
  storedHistory: Record<string, number[]>;
  /** Every page of the journey, owner first, spectator last. */
  pages: Page[];
}

/** Team Positions as a page shows them: team name → square. */
async function positionsOn(page: Page): Promise<Positions> {
  return page.locator('[data-testid="team-position"]').evaluateAll((items) =>
    Object.fromEntries(items.map((li) => [li.getAttribute('data-team') ?? '', Number(li.getAttribute('data-position'))])),
  );
}

/**
 * Waits (up to 10 s) until `page` shows `expected` in Team Positions, the same teams on the same
 * squares in any order (it comes live over the socket), then checks what it shows.
 */
async function expectPositions(page: Page, expected: Positions, who: string): Promise<void> {
  await page
    .waitForFunction((want) => {
      const items = [...document.querySelectorAll('[data-testid="team-position"]')];
      const shown = new Map(items.map((li) => [li.getAttribute('data-team') ?? '', Number(li.getAttribute('data-position'))]));
      return shown.size === Object.keys(want).length && [...shown].every(([team, position]) => want[team] === position);
    }, expected, { timeout: 10_000 })
    .catch(() => undefined);
  expect(await positionsOn(page), `${who}'s Team Positions`).toEqual(expected);
}

/**
 * The main job, in headless Chromium against the real server at `site`: a clan runs a whole event.
 * The owner (signed in through the dev API, cookie copied into the browser) imports the real task
 * pool from examples/osrs-tasks.csv on the Tasks tab, schedules an event, creates two teams with
 * a Leader each, creates a 100-square game and starts it, all through the clan management screens.
 * Two Leaders (their own contexts) open the game from the Game Lobby and roll in turn through the
 * Game Action panel; an anonymous spectator opens it from the public spectate list and follows
 * every move live, without a reload (its Team Positions are checked after every roll); one
 * revert (the third roll's). The Leaders and the spectator browse with prefers-reduced-motion, the
 * owner without. Start the server with BOARD_SEED so the dice and the number of rolls
 * are fixed. The winner banner appears for everyone, the confetti on the owner's full-motion
 * screen and on no reduced-motion one; the game moves to the former
 * games. With `pageChecks`, axe-core checks every page of the journey (no serious or critical
 * violation) and no page scrolls sideways: each is checked where the journey shows it (the owner
 * and Leaders at 1280x800, the spectator at 375x812), then a second pass over the same pages
 * checks each at the other size, with a Discord webhook set on the event (its long URL on Manage
 * Game). Ends with no page error and no CSP violation. Fails through vitest's expect.
 */
export async function runWholeEvent(site: WholeEventSite, options: WholeEventOptions = {}): Promise<WholeEventOutcome> {
  const pageChecks = options.pageChecks ?? true;
  const tolerant = options.restarts ?? false;
  const t0 = Date.now();
  /** Serious and critical axe findings by page of the journey; all must stay empty. */
  const a11y: Record<string, AxeFinding[]> = {};
  /** axe and the sideways-scroll check, once a page of the journey shows what it is there for. */
  const axeCheck = async (p: Page, where: string) => {
    if (!pageChecks) return;
    a11y[where] = await seriousA11yViolations(p);
    await expectNoSidewaysScroll(p, where);
  };
  const step = (what: string) => process.env.E2E_TRACE && console.log(`[whole event ${((Date.now() - t0) / 1000).toFixed(1)}s] ${what}`);

  /**
   * A browser context signed in as the API client's session (the `sid` cookie copied over);
   * `reducedMotion` asks for prefers-reduced-motion (the roll moment then jumps straight to its end).
   */
  async function signedInContext(api: ApiClient | null, who: string, viewport: { width: number; height: number } = DESKTOP, reducedMotion = false): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await site.browser.newContext({ viewport, reducedMotion: reducedMotion ? 'reduce' : 'no-preference' });
    context.setDefaultTimeout(STEP_MS);
    if (api) await context.addCookies([{ name: 'sid', value: api.cookies.get('sid')!, url: site.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await options.watchPage?.(page, who);
    return { context, page, errors };
  }

  // --- People: the owner creates the clan; two Leaders join it (dev sign-in through the API).
  // The Leaders and the spectator ask for reduced motion: each roll's moment (die tumble, pawn walk,
  // about 1.5-2.5 s) would otherwise pace every one of the journey's rolls, and what it shows and
  // when is board.e2e's subject. The owner's screen keeps full motion and follows every roll too,
  // so the winner's confetti is checked there; the reduced screens must draw none.
  const ownerApi = new ApiClient(site.url);
  const ownerMe = await ownerApi.onboard('Owner', ['OwnerIGN'], { role: 'Owner', clan_name: 'Iron Legion' });
  const clanId: number = ownerMe.clan_memberships_list[0].clan_id;
  const leaders = await Promise.all(
    TEAMS.map(async (t) => {
      const api = new ApiClient(site.url);
      await api.onboard(t.leader, [t.ign], { role: 'Member', clan_id: clanId });
      return { team: t, api, ...(await signedInContext(api, t.leader, DESKTOP, options.reducedMotion ?? true)) };
    }),
  );
  const owner = await signedInContext(ownerApi, 'owner');
  const spectator = await signedInContext(null, 'spectator', PHONE, options.reducedMotion ?? true);
  const { page } = owner;

  // --- Tasks tab: import the real task pool.
  step('Tasks tab: import the real task pool.');
  await page.goto(`${site.url}/clans/manage/${clanId}`);
  await page.getByRole('heading', { name: 'Iron Legion' }).waitFor();
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await page.getByText('Task CSV Importer').click();
  await page.getByLabel('CSV file').setInputFiles(SAMPLE_TASKS_CSV);
  await page.getByRole('button', { name: 'Upload and Extract Tasks' }).click();
  await page.getByText(`Tasks extracted successfully! ${CSV_TASKS} tasks imported/updated.`).waitFor();
  await axeCheck(page, 'Manage Clan, Tasks tab');

  // --- Events tab: schedule the event (start in one hour, entered in UTC).
  step('Events tab: schedule the event (start in one hour,');
  await page.getByRole('tab', { name: 'Events' }).click();
  await page.getByRole('button', { name: 'Create New Event' }).click();
  const schedule = page.getByRole('dialog', { name: 'Schedule New Event' });
  await schedule.waitFor();
  await axeCheck(page, 'Schedule New Event dialog');
  await schedule.getByLabel('Event Name').fill('Spring Bash');
  await schedule.getByLabel('Start Date/Time (UTC)').fill(new Date(Date.now() + 3_600_000).toISOString().slice(0, 16));
  await schedule.getByRole('button', { name: 'Schedule Event' }).click();
  // Done: the modal closes and the fading banner says so.
  await schedule.page().getByTestId('action-result').getByText('Event scheduled successfully!').waitFor();
  await schedule.waitFor({ state: 'hidden' });
  await schedule.waitFor({ state: 'detached' });

  // --- Manage Teams: two teams, each with its Leader.
  step('Manage Teams: two teams, each with its Leader.');
  await page.getByRole('row', { name: /Spring Bash/ }).getByRole('button', { name: 'Manage Teams' }).click();
  for (const t of TEAMS) {
    await page.getByRole('button', { name: 'Create New Team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Team' });
    await dialog.getByLabel('Team Name').fill(t.name);
    await dialog.getByLabel('Team Colour (hex)').fill(t.color);
    await dialog.getByRole('button', { name: 'Create Team' }).click();
    // Done: the modal closes and the fading banner says so.
    await dialog.page().getByTestId('action-result').getByText(`Team '${t.name}' created successfully.`).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Members of ${t.name}` }).click();
    const manager = page.getByRole('region', { name: `Members of ${t.name}` });
    await manager.getByRole('combobox', { name: 'In-game account' }).click();
    // The suggestions float above the page, outside the member table: seen whole, then clicked.
    const option = page.getByRole('listbox', { name: 'In-game account' }).getByRole('option', { name: new RegExp(`^${t.ign}`) });
    await option.waitFor();
    await expectFullyVisible(option, `IGN suggestion ${t.ign}`);
    await option.click();
    await manager.getByLabel('Role for the new member').selectOption('Leader');
    await manager.getByRole('button', { name: 'Add' }).click();
    await page.getByText(`${t.ign} added to team ${t.name} as a Leader.`).waitFor();
    await page.getByRole('button', { name: `Members of ${t.name}` }).click();
  }

  await axeCheck(page, 'Manage Teams');
  // --- Manage Game: a 100-square game with the default settings, then Start Game.
  step('Manage Game: a 100-square game with the default se');
  await page.getByRole('button', { name: 'Manage Game' }).click();
  await page.getByRole('heading', { name: 'Setup New Game' }).waitFor();
  expect(await page.getByLabel('Board size').inputValue()).toBe('100');
  // This event runs without proof (the rule is on by default; tests/e2e/proof-review covers it).
  await page.getByLabel('Require approved proof before the next roll').uncheck();
  await page.getByRole('button', { name: 'Create & Deploy Game' }).click();
  await page.getByText('Game created successfully! Snakes and ladders board is ready.').waitFor();
  const control = page.getByTestId('status-control');
  await expect.poll(() => control.textContent()).toBe('Start Game');
  await control.click();
  await expect.poll(() => control.textContent(), { timeout: 10_000 }).toBe('Pause Game');
  await axeCheck(page, 'Manage Game');
  const [event] = (await ownerApi.get(`/api/clan/${clanId}/events/?past=false`)).body.events;
  const eventId: number = event.id;
  const gameId: number = event.game_id;
  await options.beforeGameScreens?.();

  // The owner opens the game screen from clan management: breadcrumb back to Clan Management; no team.
  await page.getByRole('link', { name: 'Open Game Screen' }).click();
  await page.waitForURL(`**/games/clan/${clanId}/events/${eventId}/game/${gameId}`);
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Clan Management' }).waitFor();
  await page.getByRole('heading', { name: 'Join a Team to Roll' }).waitFor();
  await page.getByText('You must be a member of a team participating in this game to see game actions.').waitFor();
  await axeCheck(page, 'game screen (owner, no team)');

  // --- The Leaders open it from the Game Lobby (their team starred); breadcrumb back to the lobby.
  step('The Leaders open it from the Game Lobby (their tea');
  for (const [i, l] of leaders.entries()) {
    await l.page.goto(`${i === 0 ? site.url : site.urlB}/games`);
    await l.page.getByRole('heading', { name: 'Game Lobby' }).waitFor();
    const active = l.page.getByRole('region', { name: 'Active Snakes & Ladders Games' });
    await active.getByText(`Clan: Iron Legion | Playing As: ${l.team.ign}`).waitFor();
    await active.getByText(`★ ${l.team.name}`).waitFor();
    await active.getByRole('link', { name: 'Go To Game' }).click();
    await l.page.getByRole('heading', { name: 'Roll Dice for Your Team' }).waitFor();
    await l.page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Game Lobby' }).waitFor();
    await l.page.getByTestId('connection-state').getByText('Live').waitFor();
  }
  await axeCheck(leaders[0].page, 'play screen (Leader)');

  // --- The spectator finds it on the public spectate list (no sign-in) and watches.
  step('The spectator finds it on the public spectate list');
  await spectator.page.goto(`${site.urlB}/games/spectate`);
  await spectator.page.getByRole('link', { name: /Spring Bash/ }).waitFor();
  await axeCheck(spectator.page, 'spectate list (phone)');
  await spectator.page.getByRole('link', { name: /Spring Bash/ }).click();
  await spectator.page.waitForURL(`**/games/spectate/${gameId}`);
  await spectator.page.getByRole('heading', { name: 'Spring Bash' }).waitFor();
  await spectator.page.getByTestId('connection-state').getByText('Live').waitFor();
  expect(await spectator.page.getByRole('button', { name: 'Roll Dice' }).count()).toBe(0);
  await axeCheck(spectator.page, 'spectator view (phone)');
  expect(await spectator.page.getByText(/Reverts/).count()).toBe(0);
  await spectator.page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  // --- Rolls in turn until someone wins (fixed by BOARD_SEED, bounded), one revert.
  step('Rolls in turn until someone wins (fixed by BOARD_S');
  const truth = async (): Promise<{ version: number; positions: Positions; status: string; winners: { name: string }[] | null }> => {
    const answer = await ownerApi.get(`/api/clan/${clanId}/events/${eventId}/game/${gameId}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const game = answer.body.game;
    return {
      version: game.version,
      positions: Object.fromEntries(game.team_states.map((t: { team_name: string; current_position: number }) => [t.team_name, t.current_position])),
      status: game.status,
      winners: game.winners,
    };
  };
  const phase: RollPhase = { pages: [owner.page, ...leaders.map((l) => l.page), spectator.page], truth };
  const acknowledged: Record<string, number[]> = Object.fromEntries(TEAMS.map((t) => [t.name, []]));
  let unacknowledged = 0;
  let rolls = 0;
  let reverted = false;
  let state = await truth();
  while (state.status === 'in-progress') {
    expect(rolls).toBeLessThan(MAX_ROLLS);
    await options.beforeRoll?.(rolls, phase);
    const l = leaders[rolls % 2];
    const roll = l.page.getByRole('button', { name: 'Roll Dice' });
    await expect.poll(() => roll.isEnabled(), { timeout: tolerant ? 20_000 : 10_000 }).toBe(true);
    state = await truth();
    await roll.click();
    await options.afterClick?.(rolls, phase);
    step(`roll ${rolls + 1} by ${l.team.leader}`);
    // The server applied it (persisted before broadcast); every screen must then show it.
    const taken = expect.poll(async () => (await truth()).version, { timeout: 10_000 }).toBeGreaterThan(state.version);
    if (tolerant) {
      const ok = await taken.then(() => true, () => false);
      if (!ok) {
        // Not taken: the click went into a connection that was closing. Once the button is back
        // (the page rejoined), the stored game says whether it was taken late after all.
        await expect.poll(() => roll.isEnabled(), { timeout: 20_000 }).toBe(true);
        if ((await truth()).version === state.version) {
          unacknowledged += 1;
          step(`roll ${rolls + 1} by ${l.team.leader} not acknowledged`);
          continue;
        }
      }
    } else {
      await taken;
    }
    rolls += 1;
    const before = state;
    state = await truth();
    if (tolerant) expect(state.version, 'one click, one roll').toBe(before.version + 1);
    await expectPositions(spectator.page, state.positions, 'spectator');
    await expectPositions(l.page, state.positions, l.team.leader);
    acknowledged[l.team.name].push(state.positions[l.team.name]);
    if (!reverted && rolls === 3 && state.status === 'in-progress' && state.positions[l.team.name] > 1) {
      const revert = l.page.getByRole('button', { name: 'Revert Last Turn' });
      await expect.poll(() => revert.isEnabled(), { timeout: 10_000 }).toBe(true);
      const rolled = state;
      await revert.click();
      // Revert asks first: confirm in the modal, which then closes while the fading banner says it is done.
      const confirm = l.page.getByRole('dialog', { name: 'Revert Last Turn?' });
      await confirm.getByRole('button', { name: 'Revert Turn' }).click();
      // Done: the modal closes and the fading banner says so.
      await confirm.page().getByTestId('action-result').getByText('The last turn was reverted.').waitFor();
      await confirm.waitFor({ state: 'hidden' });
      await expect.poll(async () => (await truth()).version, { timeout: 10_000 }).toBeGreaterThan(rolled.version);
      state = await truth();
      expect(state.positions[l.team.name]).toBeLessThan(rolled.positions[l.team.name] + 1);
      await expectPositions(spectator.page, state.positions, 'spectator after the revert');
      await expectPositions(l.page, state.positions, `${l.team.leader} after the revert`);
      await l.page.getByText('Reverts left: 2').waitFor();
      acknowledged[l.team.name].pop();
      reverted = true;
    }
  }
  expect(reverted).toBe(true);
  expect(state.status).toBe('finished');
  const winner = state.winners![0].name;

  // --- The winner banner and confetti for everyone; the spectator never reloaded.
  step('The winner banner and confetti for everyone; the s');
  for (const p of [owner.page, ...leaders.map((l) => l.page), spectator.page]) {
    await p.getByTestId('winner-banner').first().waitFor();
    expect(await p.getByTestId('winner-banner').first().textContent()).toBe(`Winner: ${winner}`);
    if (p === owner.page || options.reducedMotion === false) await p.locator('canvas.confetti-canvas').waitFor({ state: 'attached' });
    else expect(await p.locator('canvas.confetti-canvas').count(), 'confetti under reduced motion').toBe(0);
    await expectPositions(p, state.positions, 'final');
  }
  expect(await spectator.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  // The spectator's Live Game Log followed too: newest first, the win at the top (once the last
  // roll's moment has played: the log lines come after the pawn arrives).
  const log = spectator.page.getByTestId('game-log').getByRole('listitem');
  await expect.poll(() => log.first().textContent(), { timeout: 10_000 }).toContain(winner);
  expect(await log.count()).toBeGreaterThanOrEqual(Math.min(rolls, 100));
  // The winner moment: the podium, winner first, in the winner's colour.
  const podium = spectator.page.getByTestId('podium-step');
  expect(await podium.first().getAttribute('data-team')).toBe(winner);
  expect(await podium.count()).toBe(2);
  await options.afterRolls?.(phase);
  await axeCheck(spectator.page, 'finished game (spectator, phone)');
  await axeCheck(leaders[0].page, 'finished game (Leader)');
  const finished = (await ownerApi.get(`/api/clan/${clanId}/events/${eventId}/game/${gameId}`)).body.game;
  const storedHistory: Record<string, number[]> = Object.fromEntries(
    finished.team_states.map((t: { team_name: string; position_history: number[] }) => [t.team_name, t.position_history]),
  );

  // Nothing lost or doubled: each stored history is exactly what the Leaders' screens showed.
  for (const t of TEAMS) expect(storedHistory[t.name], `${t.name}'s stored position history`).toEqual([1, ...acknowledged[t.name]]);

  // --- The game is now among the former games, with View Results.
  step('The game is now among the former games, with View ');
  const l0 = leaders[0];
  await l0.page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Game Lobby' }).click();
  const former = l0.page.getByRole('region', { name: 'Former (Finished) Games' });
  await former.getByText('Spring Bash').waitFor();
  await former.getByRole('link', { name: 'View Results' }).waitFor();
  await axeCheck(l0.page, 'Game Lobby with former games');
  expect(await l0.page.getByRole('region', { name: 'Active Snakes & Ladders Games' }).getByText('Spring Bash').count()).toBe(0);

  if (pageChecks) {
    // --- Second pass: every page again at the other size, with a Discord webhook on the event.
    step('Second pass: every page at the other size');
    const webhook = await ownerApi.put(`/api/clan/${clanId}/events/${eventId}/discord`, {
      webhook_url: 'https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcdefghijklmnopqrstu',
      announce: { status: false, rolls: false, reviews: false, results: false },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(200);
    const manage = `${site.url}/clans/manage/${clanId}`;
    await page.setViewportSize(PHONE);
    await page.goto(`${manage}/tasks`);
    await page.getByText('Task CSV Importer').waitFor();
    await expectNoSidewaysScroll(page, 'Manage Clan, Tasks tab (phone)');
    // Every clan tab can be reached on a phone: the selected one in view, a cue at an end that hides any.
    const clanTabs = page.getByRole('tablist', { name: 'Clan management' });
    await expectTabsReachable(clanTabs, 'Tasks tab (phone)');
    await clanTabs.getByRole('tab').last().click();
    await expect.poll(() => clanTabs.getByRole('tab').last().getAttribute('aria-selected')).toBe('true');
    await expectTabsReachable(clanTabs, 'last clan tab (phone)');
    await expectNoSidewaysScroll(page, 'Manage Clan, last tab (phone)');
    await page.goto(`${manage}/events`);
    await page.locator('.events-table[aria-busy="false"]').waitFor();
    await expectNoSidewaysScroll(page, 'Manage Clan, Events tab (phone)');
    await page.getByRole('button', { name: 'Create New Event' }).click();
    await page.getByRole('dialog', { name: 'Schedule New Event' }).waitFor();
    await expectNoSidewaysScroll(page, 'Schedule New Event dialog (phone)');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Schedule New Event' }).waitFor({ state: 'detached' });
    await page.goto(`${manage}/events/${eventId}/teams`);
    await page.getByRole('button', { name: `Members of ${TEAMS[0].name}` }).click();
    const teamBox = page.getByRole('region', { name: `Members of ${TEAMS[0].name}` }).getByRole('combobox', { name: 'In-game account' });
    await teamBox.click();
    const ownerOption = page.getByRole('listbox', { name: 'In-game account' }).getByRole('option', { name: /^OwnerIGN/ });
    await ownerOption.waitFor();
    await expectFullyVisible(ownerOption, 'IGN suggestion on Manage Teams (phone)');
    await expectNoSidewaysScroll(page, 'Manage Teams with the suggestions open (phone)');
    await teamBox.press('Escape');
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await page.goto(`${manage}/events/${eventId}/game`);
      await page.getByTestId('discord-masked-url').waitFor();
      await expectNoSidewaysScroll(page, `Manage Game with a webhook (${size.width} px)`);
    }
    await page.setViewportSize(PHONE);
    await page.goto(`${site.url}/games/clan/${clanId}/events/${eventId}/game/${gameId}`);
    await page.getByTestId('team-position').first().waitFor();
    await expectNoSidewaysScroll(page, 'game screen (owner, phone)');
    await l0.page.setViewportSize(PHONE);
    await former.getByText('Spring Bash').waitFor();
    await expectNoSidewaysScroll(l0.page, 'Game Lobby with former games (phone)');
    await l0.page.goto(`${site.url}/games/clan/${clanId}/events/${eventId}/game/${gameId}`);
    await l0.page.getByTestId('team-position').first().waitFor();
    await expectNoSidewaysScroll(l0.page, 'finished game (Leader, phone)');
    await spectator.page.setViewportSize(DESKTOP);
    await spectator.page.goto(`${site.urlB}/games/spectate`);
    await spectator.page.getByRole('link', { name: /Spring Bash/ }).waitFor();
    await expectNoSidewaysScroll(spectator.page, 'spectate list (desktop)');
    await spectator.page.goto(`${site.urlB}/games/spectate/${gameId}`);
    await spectator.page.getByTestId('team-position').first().waitFor();
    await expectNoSidewaysScroll(spectator.page, 'spectator view (desktop)');
    // axe-core on every page of the journey: no serious or critical violation.
    expect(Object.keys(a11y)).toHaveLength(11);
    expect(Object.fromEntries(Object.entries(a11y).filter(([, found]) => found.length > 0)), 'serious or critical axe findings').toEqual({});
  }

  for (const p of [owner, ...leaders, spectator]) expect(p.errors).toEqual([]);
  // The whole event ran under the server's CSP without a refused script, style, image or socket.
  expect(takeCspViolations(site.browser), 'CSP violations').toEqual([]);
  return { rolls, winner, unacknowledged, acknowledged, storedHistory, pages: phase.pages };
}
