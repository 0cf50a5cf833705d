import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { importTasksCsv } from '../support/fixtures';
import { ApiClient } from '../support/api';
import { browserAvailable } from '../support/browser';
import type { Game } from '../../contract/gameApi';

/**
 * The game setup journey in headless Chromium against the real server (BOARD_SEED fixes the boards):
 * with the real 144-task pool imported, a manager creates a 100-square game in the Event Game view
 * (the settings rules on the way), sees the live tracker (two rolls by a Leader over the socket
 * show up without a reload), edits the board by hand (a bad JSON and a rule violation refused with
 * the documented texts, the preview following the boxes), starts; in progress Board Settings offers
 * neither Randomize Board nor Delete Game and says why; paused, it randomizes through the Confirm
 * Board Randomization dialog (positions kept), then resumes; on the Game Tasks
 * screen swaps two Easy squares by mouse drag and by keyboard and is refused across columns and
 * with a Start square; resets and deletes the game; then on a 225-square game, which the pool
 * cannot fill, assigns a task to an Unassigned square through the swap-task modal.
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('game setup journey in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20260501' });
  let api: ApiClient;
  let clanId: number;
  let ignId: number;
  const sockets: Socket[] = [];

  const gamePath = (eventId: number, gameId: number) => `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
  async function eventOf(eventId: number): Promise<{ game_id: number | null }> {
    const r = await api.get(`/api/clan/${clanId}/events/`);
    return r.body.events.find((e: { id: number }) => e.id === eventId);
  }
  async function gameOf(eventId: number): Promise<Game> {
    const { game_id } = await eventOf(eventId);
    const r = await api.get(gamePath(eventId, game_id!));
    expect(r.status).toBe(200);
    return r.body.game;
  }
  async function newEvent(name: string, teams: [string, string][]): Promise<{ eventId: number; teamIds: number[] }> {
    const ev = await api.post(`/api/clan/${clanId}/events/`, { name, start_datetime: '2031-06-01T18:00Z' });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    const teamIds: number[] = [];
    for (const [team, color] of teams) {
      const t = await api.post(`/api/clan/${clanId}/events/${ev.body.event.id}/teams/`, { name: team, color });
      expect(t.status).toBe(200);
      teamIds.push(t.body.team.id);
    }
    return { eventId: ev.body.event.id, teamIds };
  }

  beforeAll(async () => {
    api = new ApiClient(suite.url);
    const me = await api.onboard('BoardManager', ['BoardBoss']);
    ignId = me.igns[0].id;
    const clan = await api.post('/api/clans', { clan_name: `Board Clan ${backend}` });
    expect(clan.status).toBe(200);
    clanId = clan.body.clan_id;
    await importTasksCsv(api, clanId);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
  });

  async function openManager(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'sid', value: api.cookies.get('sid')!, url: suite.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page, errors };
  }

  /** The Events tab of clan management, then the row button 'Manage Game' of `eventName`. */
  async function openEventGame(page: Page, eventName: string): Promise<void> {
    await page.goto(`${suite.url}/clans/manage/${clanId}`);
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('row', { name: new RegExp(eventName) }).getByRole('button', { name: 'Manage Game' }).click();
    await page.getByRole('heading', { name: 'Managing: Game Board' }).waitFor();
  }

  const banner = (page: Page) => page.getByTestId('game-banner');
  /** Waits for the global banner to show `text` (naming what it shows instead on failure). */
  async function expectBanner(page: Page, text: string): Promise<void> {
    try {
      await banner(page).filter({ hasText: text }).waitFor({ timeout: 10_000 });
    } catch {
      const shown = (await banner(page).allInnerTexts()).join(' | ') || '(no banner)';
      throw new Error(`banner never showed '${text}'; it shows: ${shown}`);
    }
  }

  /** The squares of a column of the Game Tasks screen. */
  const column = (page: Page, key: string) => page.locator(`section[data-column="${key}"] li[data-square]`);
  const taskText = (square: Locator) => square.locator('.task-square__task').innerText();

  /** `square` while it carries the modifier class `task-square--{state}` (dnd-kit's drag state, rendered). */
  const inState = (page: Page, square: Locator, state: 'dragging' | 'over') => square.and(page.locator(`.task-square--${state}`));

  /**
   * A mouse drag from the centre of one square's handle to another's, in small steps, released
   * once the target shows that the dragged square is over it. dnd-kit scrolls the page while a
   * drag nears the window's edge, so the pointer is aimed at the target again until it shows that.
   */
  async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
    const centre = async (square: Locator) => {
      const box = (await square.locator('.task-square__handle').boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    // What can cover either square: the last drag's overlay while its drop animation runs, and the
    // global banner, fixed over the top of the page. The overlay is waited out and the last answer's
    // banner dismissed (it may also be fading out on its own) before the pointer goes down.
    await page.locator('.task-square__body--overlay').waitFor({ state: 'detached' });
    while ((await banner(page).count()) > 0) {
      await banner(page).getByRole('button', { name: 'Dismiss message' }).click({ timeout: 1_000 }).catch(() => undefined);
    }
    // To the middle of the window, not just into it: 'if needed' leaves a square at the top edge,
    // under the sticky navbar, when the last drag or key swap scrolled the page there.
    await from.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const a = await centre(from);
    const hit = await page.evaluate(({ x, y }) => { const e = document.elementFromPoint(x, y); return e?.closest('.task-square__handle') ? '' : `${e?.outerHTML.slice(0, 300)} at ${x},${y} of ${innerWidth}x${innerHeight}`; }, a);
    if (hit) throw new Error(`Something covers the handle of the square to drag: ${hit}`);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(a.x + 8, a.y + 8, { steps: 4 });
    const over = inState(page, to, 'over');
    for (let aim = 1; ; aim += 1) {
      const b = await centre(to);
      await page.mouse.move(b.x, b.y, { steps: aim === 1 ? 12 : 2 });
      const shown = await over.waitFor({ timeout: 1_000 }).then(() => true, () => false);
      if (shown) break;
      if (aim === 10) throw new Error('The dragged square never showed over its target.');
    }
    await page.mouse.up();
  }

  it('creates, watches, edits, runs, re-arranges, resets and deletes a 100-square game', async () => {
    const { eventId, teamIds } = await newEvent('Spring Race', [
      ['Red Dragons', '#c0392b'],
      ['Blue Moons', '#2e86de'],
    ]);
    // The manager leads the first team, so rolls can be made over the socket.
    const lead = await api.post(`/api/clan/${clanId}/events/${eventId}/teams/${teamIds[0]}/members`, { osrs_ign_id: ignId, role: 'Leader' });
    expect(lead.status, JSON.stringify(lead.body)).toBe(200);
    const { context, page, errors } = await openManager();
    await openEventGame(page, 'Spring Race');

    // Setup mode: the settings form with its defaults and rules.
    await page.getByRole('heading', { name: 'Setup New Game' }).waitFor();
    await page.getByText('The game board for this event has not been created yet.', { exact: false }).waitFor();
    const create = page.getByRole('button', { name: 'Create & Deploy Game' });
    expect(await page.getByLabel('Board size').inputValue()).toBe('100');
    expect(await page.getByLabel('Board size').locator('option:checked').innerText()).toBe('100 (10x10)');
    // The proof rule is on by default; this game's Leader rolls freely (docs/server.md §9).
    const proofBox = page.getByLabel('Require approved proof before the next roll');
    expect(await proofBox.isChecked()).toBe(true);
    await proofBox.uncheck();
    await page.getByLabel('Number of snakes').fill('13');
    await page.getByRole('alert').filter({ hasText: 'Number of snakes must be between 0 and 12.' }).waitFor();
    expect(await create.isDisabled()).toBe(true);
    await page.getByLabel('Number of snakes').fill('5');
    await page.getByLabel('Easy').fill('20');
    await page.getByRole('alert').filter({ hasText: 'Total tasks (99) exceeds available task tiles (98). Please reduce task numbers.' }).waitFor();
    expect(await page.locator('.game-settings__note--error').count()).toBe(1);
    expect(await create.isDisabled()).toBe(true);
    await page.getByLabel('Easy').fill('');
    await page.getByRole('alert').filter({ hasText: 'All fields are required.' }).waitFor();
    await page.getByLabel('Easy').fill('19');
    expect(await create.isEnabled()).toBe(true);
    // The note says how many of the 98 tasks the board holds: the 10 snake and ladder starts hold none.
    expect(await page.locator('.game-settings__note').innerText()).toBe(
      'Task tiles to fill: 98 (board size minus the Start and Finish squares). Tasks set: 98 (88 on the board: squares where a snake or ladder starts hold no task).',
    );
    await create.click();
    await expectBanner(page, 'Game created successfully! Snakes and ladders board is ready.');

    // Existing-game mode: status, tracker, board.
    await page.getByRole('heading', { name: 'Game Status & Results' }).waitFor();
    expect(await page.getByTestId('game-status').innerText()).toBe('Ready');
    expect(await page.getByTestId('game-status').getAttribute('data-status')).toBe('READY');
    expect(await page.getByTestId('turns-processed').innerText()).toBe('0');
    expect(await page.getByTestId('reverts-used').innerText()).toBe('0 / 6');
    const preview = page.locator('.board').first();
    // The board draws its squares, connections and pawns in one deferred render after its frame.
    await preview.locator('[data-square]').nth(99).waitFor();
    expect(await preview.locator('[data-square]').count()).toBe(100);
    expect(await preview.locator('.board__snake').count()).toBe(5);
    expect(await preview.locator('.board__ladder').count()).toBe(5);
    expect(await preview.locator('.board__ladder').first().locator('.board__ladder-rung').count()).toBe(7);
    expect(await preview.locator('.board__pawn').count()).toBe(2);
    await preview.getByRole('button', { name: /^Square 1:/ }).click();
    await page.locator('.board-info__text').filter({ hasText: 'Square 1.' }).waitFor();

    // Randomize before the game runs: no confirmation, new board.
    const before = await gameOf(eventId);
    await page.getByRole('button', { name: 'Randomize Board' }).click();
    await expectBanner(page, 'Board re-randomized successfully using the current settings.');
    const randomized = await gameOf(eventId);
    expect(randomized.board_connections).not.toEqual(before.board_connections);
    expect(randomized.team_states.map((t) => t.current_position)).toEqual(before.team_states.map((t) => t.current_position));

    // The manual board editor: a bad JSON, a rule violation, then a board that passes.
    const snakes = page.getByLabel('Snakes config (JSON)');
    const ladders = page.getByLabel('Ladders config (JSON)');
    const save = page.getByRole('button', { name: 'Save Board Configuration' });
    await snakes.fill('[[45, 12]');
    await save.click();
    await page.getByRole('alert').filter({ hasText: /^Invalid JSON format in Snakes config: / }).waitFor();
    await snakes.fill('[[12, 30]]');
    await save.click();
    await page.getByRole('alert').filter({ hasText: 'Snake [12, 30] must go down: start must be greater than end.' }).waitFor();
    await snakes.fill('[[45, 12], [98, 61]]');
    await ladders.fill('[[3, 27], [14, 86], [33, 52]]');
    // The preview follows the boxes before saving.
    await page.waitForFunction(() => document.querySelectorAll('.board .board__snake').length === 2);
    expect(await preview.locator('.board__ladder').count()).toBe(3);
    await save.click();
    await expectBanner(page, 'Board configurations updated successfully.');
    const edited = await gameOf(eventId);
    expect(edited.board_connections).toEqual([
      { type: 'snake', start: 45, end: 12 },
      { type: 'snake', start: 98, end: 61 },
      { type: 'ladder', start: 3, end: 27 },
      { type: 'ladder', start: 14, end: 86 },
      { type: 'ladder', start: 33, end: 52 },
    ]);

    // Start (sends resume), then two rolls by the Leader over the socket reach the tracker live.
    await page.getByRole('button', { name: 'Start Game' }).click();
    await expectBanner(page, 'Game started. Turns can now be processed.');
    await page.locator('[data-testid=game-status][data-status=in-progress]').waitFor();
    expect(await page.getByRole('button', { name: 'Pause Game' }).isEnabled()).toBe(true);
    const socket = io(suite.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: `sid=${api.cookies.get('sid')}` }, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.emit('roll_dice', { game_id: edited.id, team_id: teamIds[0], performer_ign_id: ignId });
    await page.getByTestId('turns-processed').filter({ hasText: /^1$/ }).waitFor();
    socket.emit('roll_dice', { game_id: edited.id, team_id: teamIds[0], performer_ign_id: ignId });
    await page.getByTestId('turns-processed').filter({ hasText: /^2$/ }).waitFor();
    const rolled = await gameOf(eventId);
    expect(rolled.team_states[0].position_history).toHaveLength(3);
    const redPosition = String(rolled.team_states[0].current_position);
    await page.locator('tr[data-team="Red Dragons"] [data-testid="team-position"]').filter({ hasText: new RegExp(`^${redPosition}$`) }).waitFor();

    // In progress the board stays as it is: no Randomize Board, no Delete Game, and a note says why.
    await page.locator('[data-testid="board-lock"][data-lock="inProgress"]').waitFor();
    expect(await page.getByTestId('board-lock').innerText()).toContain('Pause the game to randomize the board; reset the game to delete it.');
    expect(await page.getByRole('button', { name: 'Randomize Board' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete Game (Wipe Board)' }).count()).toBe(0);
    expect(await page.getByLabel('Number of snakes').isDisabled()).toBe(true);

    // Paused, Randomize Board asks first, shows the status in capitals, and keeps positions; Delete Game still waits for a reset.
    await page.getByRole('button', { name: 'Pause Game' }).click();
    await expectBanner(page, 'Game paused successfully. No turns can be processed.');
    await page.locator('[data-testid="board-lock"][data-lock="paused"]').waitFor();
    expect(await page.getByRole('button', { name: 'Delete Game (Wipe Board)' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Randomize Board' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Confirm Board Randomization' }).waitFor();
    await dialog.getByText('The game is currently PAUSED.', { exact: false }).waitFor();
    await dialog.getByText('This is not a reset.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'No, Keep Current Board' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await gameOf(eventId)).board_connections).toEqual(edited.board_connections);
    await page.getByRole('button', { name: 'Randomize Board' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, Randomize Board' }).click();
    await expectBanner(page, 'Board re-randomized successfully using the current settings.');
    const rerandomized = await gameOf(eventId);
    expect(rerandomized.board_connections).not.toEqual(edited.board_connections);
    expect(rerandomized.team_states).toEqual(rolled.team_states);
    expect(rerandomized.status).toBe('paused');
    expect(await page.getByTestId('turns-processed').innerText()).toBe('2');
    expect(await page.getByTestId('rolls-count').innerText()).toBe('2 rolls');

    // Resume.
    await page.getByRole('button', { name: 'Resume Game' }).click();
    await expectBanner(page, 'Game resumed. Turns can now be processed.');
    await page.locator('[data-testid=game-status][data-status=in-progress]').waitFor();

    // The Game Tasks screen (the sub-navigation offers it once the event list knows the game).
    await page.getByRole('button', { name: 'Event List' }).click();
    await page.getByRole('row', { name: /Spring Race/ }).getByRole('button', { name: 'Manage Game' }).click();
    await page.getByRole('button', { name: 'Manage Game Tasks' }).click();
    await page.getByRole('heading', { name: 'Managing: Game Tasks' }).waitFor();
    for (const title of ['Start Square', 'Easy', 'Medium', 'Hard', 'Elite', 'Master', 'Unassigned/Blank', 'Finish Square']) {
      await page.getByRole('heading', { name: new RegExp(`^${title.replace('/', '\\/')} \\(\\d+\\)$`) }).waitFor();
    }
    const easy = column(page, 'EASY');
    expect(await easy.count()).toBeGreaterThan(3);
    expect(await column(page, 'blank').count()).toBe(10);

    // Mouse: drag the first Easy square onto the second.
    const [first, second] = [easy.nth(0), easy.nth(1)];
    const [t1, t2] = [await taskText(first), await taskText(second)];
    await drag(page, first, second);
    await expectBanner(page, 'Tasks swapped successfully!');
    expect(await taskText(easy.nth(0))).toBe(t2);
    expect(await taskText(easy.nth(1))).toBe(t1);

    // Keyboard: focus the third Easy square, Space, arrow down onto the fourth, Space.
    const [t3, t4] = [await taskText(easy.nth(2)), await taskText(easy.nth(3))];
    await banner(page).getByRole('button', { name: 'Dismiss message' }).click();
    await easy.nth(2).locator('.task-square__handle').focus();
    await page.keyboard.press('Space');
    await inState(page, easy.nth(2), 'dragging').waitFor();
    // dnd-kit's keyboard sensor starts listening for arrow keys in a zero-delay timer queued when
    // the drag starts (before the class above is rendered); a zero-delay timer queued now runs
    // after it, so the arrow key is not lost.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
    await page.keyboard.press('ArrowDown');
    await inState(page, easy.nth(3), 'over').waitFor();
    await page.keyboard.press('Space');
    await expectBanner(page, 'Tasks swapped successfully!');
    expect(await taskText(easy.nth(2))).toBe(t4);
    expect(await taskText(easy.nth(3))).toBe(t3);
    const squares = (await api.get(`${gamePath(eventId, rerandomized.id)}/tasks`)).body.squares as { square_index: number; task_description: string }[];
    const easyNumbers = await easy.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-square'))));
    const serverText = (n: number) => squares.find((s) => s.square_index === n)!.task_description;
    expect([serverText(easyNumbers[0]), serverText(easyNumbers[1]), serverText(easyNumbers[2]), serverText(easyNumbers[3])]).toEqual([t2, t1, t4, t3]);

    // Refusals: across columns, and onto the Start square.
    await drag(page, easy.nth(0), column(page, 'MEDIUM').nth(0));
    await expectBanner(page, 'You can only re-order squares within their own Difficulty Tier column. Drag-and-swap is not supported across columns.');
    await drag(page, easy.nth(0), column(page, 'start').nth(0));
    await expectBanner(page, 'Cannot swap tasks with Start, Finish, Ladder, or Snake squares.');
    expect(await taskText(easy.nth(0))).toBe(t2);
    // A Snake or Ladder square cannot be given a task. dnd-kit swallows every click for 50 ms
    // after a drag ends, so the click waits until the drag is over on screen: no square marked
    // dragging, and the drag overlay gone (its drop animation outlasts those 50 ms).
    await page.locator('.task-square--dragging').waitFor({ state: 'detached' });
    await page.locator('.task-square__body--overlay').waitFor({ state: 'detached' });
    await column(page, 'blank').nth(0).getByRole('button', { name: /^Change task on square/ }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Cannot Assign Task' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Reset: back to the game, confirm, positions cleared, status READY.
    await page.getByRole('button', { name: 'Manage Game', exact: true }).click();
    await page.getByRole('heading', { name: 'Game Status & Results' }).waitFor();
    await page.getByRole('button', { name: 'Reset Game' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Confirm Game Reset' }).waitFor();
    await dialog.getByText('clears all team positions, move history and revert counts', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Reset Game' }).click();
    // Done: the modal closes and the fading banner says so.
    await dialog.page().getByTestId('action-result').getByText('Game reset successfully. All team positions and histories have been cleared.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('[data-testid=game-status][data-status=READY]').waitFor();
    await page.getByTestId('turns-processed').filter({ hasText: /^0$/ }).waitFor();
    const reset = await gameOf(eventId);
    expect(reset.team_states.map((t) => t.current_position)).toEqual([1, 1]);
    expect(reset.board_connections).toEqual(rerandomized.board_connections);

    // Delete: confirm, back to setup mode; the event has no game.
    await page.getByRole('button', { name: 'Delete Game (Wipe Board)' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Confirm Game Deletion' }).waitFor();
    await dialog.getByText('cannot be undone', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Delete Game' }).click();
    // Done: the modal closes and the fading banner says so.
    await dialog.page().getByTestId('action-result').getByText('Game deleted. The event is now awaiting a new game setup.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Setup New Game' }).waitFor();
    expect((await eventOf(eventId)).game_id).toBeNull();

    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('assigns a task to an Unassigned square of a 225-square game', async () => {
    await newEvent('Big Board', [['Green Goblins', '#27ae60']]);
    const { context, page, errors } = await openManager();
    await openEventGame(page, 'Big Board');
    await page.getByLabel('Board size').selectOption('225');
    // The counts follow the board size: 223 task tiles, 44/45/45/45/44.
    expect(await page.getByLabel('Easy').inputValue()).toBe('44');
    expect(await page.getByLabel('Medium').inputValue()).toBe('45');
    expect(await page.getByLabel('Master').inputValue()).toBe('44');
    await page.getByRole('button', { name: 'Create & Deploy Game' }).click();
    await expectBanner(page, 'Game created successfully! Snakes and ladders board is ready.');
    await page.getByRole('heading', { name: 'Game Status & Results' }).waitFor();
    await page.locator('.board').first().locator('[data-square]').nth(224).waitFor();
    expect(await page.locator('.board').first().locator('[data-square]').count()).toBe(225);

    // The sub-navigation offers the Game Tasks screen at once, without going back to the list.
    await page.getByRole('button', { name: 'Manage Game Tasks' }).click();
    // The pool has 24 Master tasks for 44 Master squares: the rest are Unassigned.
    const master = column(page, 'MASTER');
    await master.first().waitFor();
    const unassigned = master.filter({ hasText: 'Unassigned' });
    expect(await unassigned.count()).toBeGreaterThan(0);
    const target = unassigned.first();
    const squareNumber = Number(await target.getAttribute('data-square'));

    // Every Master pool task is on the board: nothing to choose yet.
    await target.getByRole('button', { name: `Change task on square ${squareNumber}` }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Swap Task on Square ${squareNumber}` }).waitFor();
    await dialog.getByText("No unassigned tasks of difficulty 'MASTER' are available.").waitFor();
    expect(await dialog.getByRole('button', { name: 'Assign Task' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A new Master task in the clan pool can be put on the square.
    const added = await api.post(`/api/clan/${clanId}/tasks`, { description: 'Defeat the Inferno without a cape', difficulty: 'MASTER' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await page.locator(`li[data-square="${squareNumber}"]`).getByRole('button', { name: `Change task on square ${squareNumber}` }).click();
    dialog = page.getByRole('dialog');
    const select = dialog.getByLabel('New task');
    await select.waitFor();
    expect(await dialog.getByRole('button', { name: 'Assign Task' }).isDisabled()).toBe(true);
    await select.selectOption({ label: 'Defeat the Inferno without a cape' });
    await dialog.getByRole('button', { name: 'Assign Task' }).click();
    await expectBanner(page, `Task on Square ${squareNumber} assigned successfully!`);
    await dialog.waitFor({ state: 'detached' });
    await page.locator(`li[data-square="${squareNumber}"]`).filter({ hasText: 'Defeat the Inferno without a cape' }).waitFor();

    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
