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
import { JOURNEY_MS, openAnonymous, openSignedIn } from '../support/e2e';
import { connect } from '../support/liveSocket';
import { rollUntilOnTask } from '../support/rolls';

/**
 * A whole event with proof (docs/server.md §9), in headless Chromium against the
 * real server: the owner sets up a clan with the real task pool, two teams and a game that requires
 * approved proof (through the API), and starts it. The Red Leader rolls; a Red member pastes a
 * screenshot (a PNG drawn on a canvas in the page, delivered by a ClipboardEvent) into the Submit
 * Proof dialog; the Leader's Roll waits with the roll gate's text; the referee (the owner, another
 * context) denies it with a reason on the Reviews tab; the member sees the reason on Red's task
 * panel and in the dialog (which names the task) and sends again; the new proof arrives live on the
 * referee's tab beside Blue's, the referee looks at both in the lightbox (opened from a thumbnail,
 * arrow keys for next and previous, Escape closes) and approves Red's with the A key; the Leader
 * rolls again; the referee then turns the rule off on the game's settings. An anonymous spectator sees Red's task state change live, and never a proof image.
 */
const run = browserAvailable() ? describe : describe.skip;

const REASON = 'The <b>kill count</b> is not visible.';

/** The task state Team Positions shows for `team` on `page`. */
const taskStateOf = (page: Page, team: string) =>
  page.locator(`[data-testid="team-position"][data-team="${team}"]`).getAttribute('data-task-state');

/** Waits for the dialog's success, or fails with the error it shows. */
async function expectSent(page: Page): Promise<void> {
  await page.locator('[data-testid="proof-sent"], [data-testid="proof-error"]').first().waitFor().catch(async (e) => {
    throw new Error(`step ${await page.getByTestId('proof-dialog').getAttribute('data-step')}: ${e}`);
  });
  const error = page.getByTestId('proof-error');
  if (await error.count()) throw new Error(`the proof dialog shows: ${await error.textContent()}`);
}

/** Pastes a 64x64 PNG drawn on a canvas into the proof dialog (what Ctrl+V of a screenshot delivers). */
async function pasteScreenshot(page: Page, colour: string): Promise<void> {
  await page.getByTestId('proof-dialog').evaluate(async (dialog, fill) => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 64;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = fill;
    ctx.fillRect(0, 0, 64, 64);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], 'screenshot.png', { type: 'image/png' }));
    dialog.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, colour);
}

run.each(clientOnlyBackends())('a whole event with proof and a referee in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20250501' });
  const contexts: BrowserContext[] = [];

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  /** A person's browser context (signed in as `api`, or anonymous), closed after the suite. */
  async function personContext(api: ApiClient | null, viewport = { width: 1280, height: 900 }): Promise<{ page: Page; errors: string[] }> {
    const person = api ? await openSignedIn(suite.browser, suite.server, api, viewport) : await openAnonymous(suite.browser, viewport);
    contexts.push(person.context);
    return person;
  }

  it('rolls, sends proof, is denied with a reason, sends again, is approved and rolls again, live for a spectator', { timeout: JOURNEY_MS }, async () => {
    // --- Setup through the API: clan, task pool, event, two teams, a proof-required game, started.
    const ownerApi = new ApiClient(suite.url);
    const ownerMe = await ownerApi.onboard('Referee', ['RefereeIGN'], { role: 'Owner', clan_name: 'Proof Legion' });
    const clanId: number = ownerMe.clan_memberships_list[0].clan_id;
    const person = async (name: string, ign: string) => {
      const api = new ApiClient(suite.url);
      const me = await api.onboard(name, [ign], { role: 'Member', clan_id: clanId });
      return { api, ignId: me.igns[0].id as number };
    };
    const redLead = await person('RedLead', 'RedLeader');
    const redMember = await person('RedMember', 'RedRunner');
    const blueLead = await person('BlueLead', 'BlueLeader');
    await importTasksCsv(ownerApi, clanId);
    const ev = await ownerApi.post(`/api/clan/${clanId}/events/`, { name: 'Proof Night', start_datetime: new Date(Date.now() + 3_600_000).toISOString() });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    const eventId: number = ev.body.event.id;
    const team = async (name: string, color: string, members: { ignId: number; role: string }[]) => {
      const t = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color });
      expect(t.status, JSON.stringify(t.body)).toBe(200);
      for (const m of members) {
        const r = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/teams/${t.body.team.id}/members`, { osrs_ign_id: m.ignId, role: m.role });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      return t.body.team.id as number;
    };
    await team('Red Dragons', '#cc2222', [{ ignId: redLead.ignId, role: 'Leader' }, { ignId: redMember.ignId, role: 'Member' }]);
    await team('Blue Moons', '#2244cc', [{ ignId: blueLead.ignId, role: 'Leader' }]);
    const created = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, proof_required: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const gameId: number = created.body.game.id;
    const gamePath = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
    expect((await ownerApi.put(`${gamePath}/status`, { status: 'in-progress' })).status).toBe(200);
    const redState = async () => (await ownerApi.get(gamePath)).body.game.team_states.find((t: { team_name: string }) => t.team_name === 'Red Dragons');
    /** Blue's Leader rolls (over its own socket) until Blue stands on a task, then sends a proof through the API. */
    const sendBlueProof = async (api: ApiClient, ignId: number) => {
      const blueOf = async () => (await ownerApi.get(gamePath)).body.game.team_states.find((t: { team_name: string }) => t.team_name === 'Blue Moons');
      const socket = await connect(suite.url, 'blue leader', api);
      await socket.join(gameId);
      let blue = await blueOf();
      for (let i = 0; i < 10 && blue.task_state !== 'open'; i += 1) {
        const version = socket.held!.version;
        socket.socket.emit('roll_dice', { game_id: gameId, team_id: blue.team_id, performer_ign_id: ignId });
        await socket.version(version + 1);
        blue = await blueOf();
      }
      socket.close();
      expect(blue.task_state).toBe('open');
      const form = new FormData();
      form.append('team_id', String(blue.team_id));
      const png = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#2244cc' } }).png().toBuffer();
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'blue.png');
      const sent = await api.call('POST', `${gamePath}/submissions`, form);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    };

    // --- Screens: the Leader and the member on the play screen, the spectator on the public view.
    const gameUrl = `${suite.url}/games/clan/${clanId}/events/${eventId}/game/${gameId}`;
    const leader = await personContext(redLead.api);
    const member = await personContext(redMember.api, { width: 390, height: 844 });
    const referee = await personContext(ownerApi);
    const spectator = await personContext(null, { width: 375, height: 800 });
    for (const p of [leader.page, member.page]) {
      await p.goto(gameUrl);
      await p.getByTestId('connection-state').getByText('Live').waitFor();
    }
    await spectator.page.goto(`${suite.url}/games/spectate/${gameId}`);
    await spectator.page.getByTestId('connection-state').getByText('Live').waitFor();

    // --- The Leader rolls until Red stands on a task (a square without one lets it roll on).
    const roll = leader.page.getByRole('button', { name: 'Roll Dice' });
    const red = await rollUntilOnTask(roll, redState);
    const square: number = red.current_position;

    // The Leader's Roll waits for the proof, saying why; everyone sees the task open.
    await leader.page.getByTestId('roll-gate').getByText(PROOF_MESSAGES.rollGate(square, 'Red Dragons')).waitFor();
    expect(await roll.isDisabled()).toBe(true);
    await expect.poll(() => taskStateOf(spectator.page, 'Red Dragons'), { timeout: 10_000 }).toBe('open');
    await member.page.getByTestId('team-task').getByText(`reached square ${square}, `, { exact: false }).waitFor();

    // --- The member pastes a screenshot into Submit Proof, adds a note and sends it.
    await member.page.getByRole('button', { name: 'Submit Proof' }).click();
    await member.page.getByTestId('proof-dialog').getByText('Paste a screenshot (Ctrl+V)', { exact: false }).waitFor();
    const task = (await ownerApi.get(gamePath)).body.game.board_squares[square - 1].task_description as string;
    expect(await member.page.getByTestId('proof-task').textContent()).toMatch(new RegExp(`^For square ${square} \\(\\w+\\): `));
    expect((await member.page.getByTestId('proof-task').textContent())!.endsWith(task)).toBe(true);
    await pasteScreenshot(member.page, '#ff8800');
    await member.page.getByTestId('proof-preview').waitFor();
    await member.page.getByLabel('Note (optional)').fill('10 kc <i>done</i>');
    await member.page.getByRole('button', { name: 'Send Proof' }).click();
    await expectSent(member.page);
    await member.page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => taskStateOf(spectator.page, 'Red Dragons'), { timeout: 10_000 }).toBe('submitted');
    await expect.poll(() => taskStateOf(leader.page, 'Red Dragons'), { timeout: 10_000 }).toBe('submitted');
    expect(await roll.isDisabled()).toBe(true);

    // --- The referee denies it with a reason on the Reviews tab (count on the tab and in the title).
    await referee.page.goto(`${suite.url}/clans/manage/${clanId}`);
    await referee.page.getByRole('tab', { name: 'Reviews (1)' }).click();
    await expect.poll(() => referee.page.title()).toMatch(/^\(1\) /);
    const card = referee.page.getByTestId('review-card');
    await card.getByText('Red Dragons').waitFor();
    expect(await card.getByText('Note: 10 kc <i>done</i>').count()).toBe(1);
    expect(await card.locator('img').getAttribute('src')).toMatch(/\/thumb$/);
    await card.getByRole('button', { name: 'Deny' }).click();
    const dialog = referee.page.getByRole('dialog', { name: 'Deny Proof' });
    await dialog.getByLabel('Reason').fill(REASON);
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await referee.page.getByTestId('reviews-empty').waitFor();
    await referee.page.getByTestId('review-recent').getByText('Denied', { exact: false }).waitFor();
    await expect.poll(() => taskStateOf(spectator.page, 'Red Dragons'), { timeout: 10_000 }).toBe('denied');

    // --- The member sees the reason on Red's task panel (as text: its markup is not parsed), then in the dialog, and sends again.
    const denial = member.page.getByTestId('team-task').getByTestId('proof-denial');
    await denial.getByText(REASON, { exact: false }).waitFor();
    expect(await denial.getByRole('alert').textContent()).toMatch(/^Denied by Referee (just now|\d+ min ago): /);
    expect((await denial.getByRole('alert').textContent())!.endsWith(`: ${REASON}`)).toBe(true);
    expect(await denial.locator('b').count()).toBe(0);
    await member.page.getByRole('button', { name: 'Send Proof Again' }).click();
    await member.page.getByTestId('proof-denied').getByText(REASON, { exact: false }).waitFor();
    await member.page.getByRole('button', { name: 'Send Again' }).click();
    await pasteScreenshot(member.page, '#00aa44');
    await member.page.getByTestId('proof-preview').waitFor();
    await member.page.getByRole('button', { name: 'Send Proof' }).click();
    await expectSent(member.page);
    await member.page.getByRole('button', { name: 'Close' }).click();

    // --- The new proof arrives live on the referee's tab; Blue's follows (its Leader rolls onto a task).
    await referee.page.getByTestId('review-card').waitFor();
    await referee.page.getByRole('tab', { name: 'Reviews (1)' }).waitFor();
    await sendBlueProof(blueLead.api, blueLead.ignId);
    await referee.page.getByRole('tab', { name: 'Reviews (2)' }).waitFor();
    const cards = referee.page.getByTestId('review-card');
    const redCard = cards.filter({ hasText: 'Red Dragons' });
    expect(await cards.count()).toBe(2);

    // --- The lightbox: opened from Red's thumbnail, → shows Blue's, ← back to Red's, A does not
    // review from inside it, Escape closes it with both proofs still waiting.
    const imageOf = async (card: typeof redCard) => (await card.locator('img').getAttribute('src'))!.replace(/\/thumb$/, '/image');
    const redImage = await imageOf(redCard);
    const blueImage = await imageOf(cards.filter({ hasText: 'Blue Moons' }));
    await redCard.getByRole('button', { name: /^View full size/ }).click();
    const lightbox = referee.page.getByTestId('lightbox');
    const shows = (src: string, caption: string | RegExp) =>
      Promise.all([lightbox.locator(`img[src="${src}"]`).waitFor(), lightbox.getByRole('heading', { name: caption }).waitFor()]);
    await shows(redImage, `Red Dragons · Square ${square}: ${task} (1 of 2)`);
    await referee.page.keyboard.press('ArrowRight');
    await shows(blueImage, /^Blue Moons · Square \d+: .+ \(2 of 2\)$/);
    await referee.page.keyboard.press('ArrowLeft');
    await shows(redImage, `Red Dragons · Square ${square}: ${task} (1 of 2)`);
    await referee.page.keyboard.press('+');
    await lightbox.getByTestId('lightbox-zoom').getByText('150%').waitFor();
    await referee.page.keyboard.press('a');
    await referee.page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
    expect(await cards.count()).toBe(2);

    // --- A approves the selected one (Red's).
    await redCard.getByText('Sent by', { exact: false }).click();
    await expect.poll(() => redCard.getAttribute('aria-current')).toBe('true');
    await referee.page.keyboard.press('a');
    await redCard.waitFor({ state: 'detached' });
    await referee.page.getByRole('tab', { name: 'Reviews (1)' }).waitFor();
    await referee.page.getByRole('button', { name: 'Undo' }).first().waitFor();
    await expect.poll(() => taskStateOf(spectator.page, 'Red Dragons'), { timeout: 10_000 }).toBe('approved');

    // --- The Leader may roll again, and does.
    await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await leader.page.getByTestId('roll-gate').count()).toBe(0);
    const before = (await redState()).position_history.length;
    await roll.click();
    await expect.poll(async () => (await redState()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);
    const after = await redState();
    await expect
      .poll(() => spectator.page.locator('[data-testid="team-position"][data-team="Red Dragons"]').getAttribute('data-position'), { timeout: 10_000 })
      .toBe(String(after.current_position));

    // --- The referee turns the proof rule off on the existing game (PUT .../rules): saved at once.
    await referee.page.getByRole('tab', { name: 'Events' }).click();
    await referee.page.getByRole('row', { name: /Proof Night/ }).getByRole('button', { name: 'Manage Game' }).click();
    const box = referee.page.getByLabel('Require approved proof before the next roll');
    await expect.poll(() => box.isChecked(), { timeout: 10_000 }).toBe(true);
    await box.uncheck();
    await referee.page.getByText('Rolls no longer wait for proof.').waitFor();
    await expect.poll(async () => (await ownerApi.get(gamePath)).body.game.proof_required, { timeout: 10_000 }).toBe(false);
    expect(await box.isChecked()).toBe(false);

    // Spectators never see proof images; no page error, no CSP violation.
    expect(await spectator.page.locator('img[src*="/api/submissions/"]').count()).toBe(0);
    for (const p of [leader, member, referee, spectator]) expect(p.errors).toEqual([]);
    expect(takeCspViolations(suite.browser), 'CSP violations').toEqual([]);
  });
});
