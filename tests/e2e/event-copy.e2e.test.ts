import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { ApiClient } from '../support/api';
import { onboardedPerson } from '../support/e2e';
import { importTasksCsv, okBody } from '../support/fixtures';
import { seriousA11yViolations } from '../support/axe';
import { DESKTOP, PHONE } from '../support/layout';
import { eventCopiedMessage } from '../../contract/event';
import { EVENT_FORM_TEXTS } from '../../src/features/events/eventForm';

/**
 * Copy event in headless Chromium against the real server (docs/client.md §6 'Copy event';
 * docs/server.md §18 "The next event"), at 1280x800 and 375x812: a manager copies last event
 * from the row's actions menu (the 'Copy Event' modal: new name and start, 'Copy teams too'
 * ticked; axe finds no serious violation with it open); the banner says so, the new row shows two
 * teams and a game, and through the API the copy's game is READY with the source's squares and
 * connections. At 1280x800 'Download board.json' on the copy's Manage Game saves the same board file
 * the API answers.
 */
const run = browserAvailable() ? describe : describe.skip;

run('copy event in Chromium', () => {
  const suite = useBrowserSuite('sqlite');
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  it.each([DESKTOP, PHONE])('copies an event with its board and teams into a ready game ($width x $height)', async (viewport) => {
    const clanName = `Copy Clan ${viewport.width}`;
    const owner = await onboardedPerson(suite.browser, suite.server, `Copy Owner ${viewport.width}`, [`Own${viewport.width}`], { role: 'Owner', clan_name: clanName }, viewport);
    contexts.push(owner.context);
    const api = owner.api;
    const clanId: number = owner.profile.clan_memberships_list[0].clan_id;
    const member = new ApiClient(suite.url);
    const memberProfile = await member.onboard(`Copy Member ${viewport.width}`, [`Mem${viewport.width}`], { role: 'Member', clan_id: clanId });
    await importTasksCsv(api, clanId);

    // Last event, through the API: two teams with a Leader each and a game on them.
    const events = `/api/clan/${clanId}/events`;
    const year = new Date().getUTCFullYear() + 1;
    const source = (await okBody(api.post(`${events}/`, { name: 'Winter Ladder', start_datetime: `${year}-01-10T18:00Z`, end_datetime: `${year}-01-12T18:00Z` }))).event.id;
    const red = (await okBody(api.post(`${events}/${source}/teams/`, { name: 'Red Dragons', color: '#aa0000' }))).team.id;
    const blue = (await okBody(api.post(`${events}/${source}/teams/`, { name: 'Blue Moons', color: '#0000bb' }))).team.id;
    await okBody(api.post(`${events}/${source}/teams/${red}/members`, { osrs_ign_id: owner.profile.igns[0].id, role: 'Leader' }));
    await okBody(api.post(`${events}/${source}/teams/${blue}/members`, { osrs_ign_id: memberProfile.igns[0].id, role: 'Leader' }));
    const sourceGame = (await okBody(api.post(`${events}/${source}/game/`, { board_size: 64, num_snakes: 4, num_ladders: 4, max_reverts_allowed: 2, num_easy_tasks: 13, num_medium_tasks: 13, num_hard_tasks: 12, num_elite_tasks: 12, num_master_tasks: 12 }))).game.id;

    const page = owner.page;
    await page.goto(`${suite.url}/clans/manage/${clanId}`);
    await page.getByRole('heading', { name: clanName }).waitFor();
    await page.getByRole('tab', { name: 'Events' }).click();
    const sourceRow = page.locator('.events-table tbody tr', { has: page.getByRole('rowheader', { name: 'Winter Ladder', exact: true }) });
    await sourceRow.getByRole('button', { name: 'More actions for Winter Ladder' }).click();
    await page.getByRole('menuitem', { name: 'Copy event' }).click();

    const dialog = page.getByRole('dialog', { name: 'Copy Event' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Event Name').inputValue()).toBe('Winter Ladder');
    expect(await dialog.getByRole('checkbox', { name: EVENT_FORM_TEXTS.copyTeams }).isChecked()).toBe(true);
    await dialog.getByLabel('Event Name').fill('Winter Ladder II');
    await dialog.getByLabel('Start Date/Time (UTC)').fill(`${year}-02-10T18:00`);
    await dialog.getByLabel('End Date/Time (UTC, optional)').fill(`${year}-02-12T18:00`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Copy Event' }).click();
    await page.getByTestId('action-result').getByText(eventCopiedMessage('Winter Ladder II')).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const copyRow = page.locator('.events-table tbody tr', { has: page.getByRole('rowheader', { name: 'Winter Ladder II' }) });
    await copyRow.getByText('Created').waitFor();
    expect((await copyRow.locator('td[data-label="Teams"]').textContent())?.trim()).toBe('2');

    // Through the API: a ready game on the same board, the same task on every square, nobody moved.
    const copy = (await okBody(api.get(`${events}/`))).events.find((e: { name: string }) => e.name === 'Winter Ladder II');
    expect(copy).toMatchObject({ start_datetime: `${year}-02-10T18:00:00.000Z`, end_datetime: `${year}-02-12T18:00:00.000Z`, team_count: 2, game_status: 'READY' });
    const [from, to] = await Promise.all([
      okBody(api.get(`${events}/${source}/game/${sourceGame}`)).then((b) => b.game),
      okBody(api.get(`${events}/${copy.id}/game/${copy.game_id}`)).then((b) => b.game),
    ]);
    const board = (g: { board_connections: unknown[]; board_squares: { square_index: number; task_id: number | null; task_description: string; task_difficulty: string | null }[] }) => ({
      connections: g.board_connections,
      squares: g.board_squares.map((s) => [s.square_index, s.task_id, s.task_description, s.task_difficulty]),
    });
    expect(board(to)).toEqual(board(from));
    expect(to.status).toBe('READY');
    expect(to.team_states.map((t: { team_name: string; current_position: number }) => [t.team_name, t.current_position])).toEqual([['Red Dragons', 1], ['Blue Moons', 1]]);
    expect(to.dice_commitment).not.toBe(from.dice_commitment);

    if (viewport === DESKTOP) {
      // Manage Game of the copy: 'Download board.json' saves what the API answers.
      await copyRow.getByRole('button', { name: 'Manage Game' }).click();
      await page.getByTestId('game-status').waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download board.json' }).click()]);
      expect(download.suggestedFilename()).toBe('winter-ladder-ii-board.json');
      const saved = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
      expect(saved).toEqual(await okBody(api.get(`${events}/${copy.id}/game/${copy.game_id}/board.json`)));
      expect(saved.squares).toHaveLength(64);
    }
    expect(owner.errors).toEqual([]);
  });
});
