import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ApiClient } from '../support/api';
import { browserAvailable } from '../support/browser';
import { SAMPLE_TASKS_CSV, onboardedPerson, openSignedIn } from '../support/e2e';
import { DESKTOP, PHONE, expectFullyVisible } from '../support/layout';
import { TEAM_COLOR_PRESETS } from '../../contract/team';
import { useBrowserSuite } from '../support/suite';

/**
 * The events, teams and tasks journey in headless Chromium against the real server (SQLite): a manager schedules an
 * event (the America/Chicago note and the end-before-start error on the way), creates two teams
 * with colours, adds members with one Leader per team, changes roles, imports the shared task CSV
 * (144 tasks) and toggles other clans' tasks; a plain member sees the read-only task list with the
 * spec's note and no manage buttons (docs/client.md §6, §8, §11; docs/game-rules.md
 * §13). Sign-in goes through the API (the `sid` cookie is copied into
 * the browser); every step of the journey itself goes through the UI.
 */
const run = browserAvailable() ? describe : describe.skip;

const CLAN = 'Iron Legion';
const EVENT = 'Winter Ladder Race';
const RED = { name: 'Red Dragons', hex: '#c81e1e', rgb: 'rgb(200, 30, 30)' };
const BLUE = { name: 'Blue Wolves', hex: '#1e50c8', rgb: 'rgb(30, 80, 200)' };
const RIVAL_TASK = 'Defeat the Rival Clan boss 50 times';

/** The open suggestion list of the add row's in-game account search (it floats above the page, outside the table). */
const suggestions = (manager: Locator) => manager.page().getByRole('listbox', { name: 'In-game account' });

/**
 * Picks `ign` in the add row of a member manager with the mouse, once its suggestion is seen whole
 * (inside the viewport, nothing clipping or covering it), and adds it with `role`.
 */
async function addTeamMember(manager: Locator, team: string, ign: string, role: 'Member' | 'Leader') {
  await manager.getByRole('combobox', { name: 'In-game account' }).click();
  const option = suggestions(manager).getByRole('option', { name: new RegExp(`^${ign}\\b`) });
  await option.waitFor();
  await expectFullyVisible(option, `suggestion ${ign} at ${manager.page().viewportSize()?.width} px`);
  await option.click();
  await manager.getByLabel('Role for the new member').selectOption(role);
  await manager.getByRole('button', { name: 'Add', exact: true }).click();
  await manager.getByTestId('member-notice').filter({ hasText: `${ign} added to team ${team} as a ${role}.` }).waitFor();
  await manager.getByRole('rowheader', { name: ign, exact: true }).waitFor();
}

/** The eligible in-game accounts the add row's dropdown offers (opens and closes it). */
async function eligibleIgns(manager: Locator): Promise<string[]> {
  const box = manager.getByRole('combobox', { name: 'In-game account' });
  await box.click();
  await suggestions(manager).waitFor();
  const texts = await suggestions(manager).locator('.combobox__option > span:first-child').allTextContents();
  await box.press('Escape');
  return texts;
}

/** Creates a team in the Create New Team modal with a colour typed into the hex field. */
async function createTeam(page: Page, team: { name: string; hex: string; rgb: string }) {
  await page.getByRole('button', { name: 'Create New Team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Team' });
  await expect(dialog.getByRole('button', { name: 'Create Team' }).isDisabled()).resolves.toBe(true);
  await expect(dialog.getByTestId('team-form-error').count()).resolves.toBe(0);
  // A new team starts on the first preset swatch no team of the event has (these teams' own colours are no presets).
  expect(await dialog.getByLabel('Team Colour (hex)').inputValue()).toBe(TEAM_COLOR_PRESETS[0].hex);
  expect(await dialog.getByRole('button', { name: TEAM_COLOR_PRESETS[0].name, exact: true }).getAttribute('aria-pressed')).toBe('true');
  await dialog.getByLabel('Team Name').fill(team.name);
  await dialog.getByLabel('Team Colour (hex)').fill(team.hex);
  await dialog.getByRole('button', { name: 'Create Team' }).click();
  // Done: the modal closes and the fading banner says so.
  await dialog.page().getByTestId('action-result').getByText(`Team '${team.name}' created successfully.`).waitFor();
  await dialog.waitFor({ state: 'hidden' });
  const row = page.locator('.teams-table tbody tr', { has: page.getByRole('rowheader', { name: team.name }) });
  await row.getByText('0 Members').waitFor();
  const bar = row.locator('.team-name__bar');
  expect(await bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(team.rgb);
}

run('events, teams and tasks journey in Chromium (sqlite)', () => {
  const suite = useBrowserSuite('sqlite');

  it('schedules an event, builds two teams, imports the CSV; a member sees tasks read-only', async () => {
    // Setup through the API: the manager's clan with three members, and a rival clan with one task.
    const manager = await onboardedPerson(suite.browser, suite.server, 'Mgr', ['Zezima'], { role: 'Owner', clan_name: CLAN });
    const clanId: number = manager.profile.clan_memberships_list[0].clan_id;
    const alpha = new ApiClient(suite.url);
    await alpha.onboard('Alpha', ['P1ayer'], { role: 'Member', clan_id: clanId });
    await new ApiClient(suite.url).onboard('Beta', ['Player Two'], { role: 'Member', clan_id: clanId });
    await new ApiClient(suite.url).onboard('Gamma', ['Third Man'], { role: 'Member', clan_id: clanId });
    const rival = new ApiClient(suite.url);
    const rivalProfile = await rival.onboard('Rival', ['R1val'], { role: 'Owner', clan_name: 'Rival Clan' });
    const rivalTask = await rival.post(`/api/clan/${rivalProfile.clan_memberships_list[0].clan_id}/tasks`, { description: RIVAL_TASK, difficulty: 'HARD' });
    expect(rivalTask.status).toBe(200);

    const m = manager.page;
    await m.goto(`${suite.url}/clans/manage/${clanId}`);
    await m.getByRole('heading', { name: CLAN }).waitFor();

    // --- Events tab: schedule an event (Chicago note, end-before-start error).
    await m.getByRole('tab', { name: 'Events' }).click();
    await m.getByText('No upcoming events. Click "Create New Event" to schedule one.').waitFor();
    await m.getByRole('button', { name: 'Create New Event' }).click();
    const schedule = m.getByRole('dialog', { name: 'Schedule New Event' });
    const submit = schedule.getByRole('button', { name: 'Schedule Event' });
    // The rule's message waits until a field was touched; the disabled button is there at once.
    await expect(submit.isDisabled()).resolves.toBe(true);
    await expect(schedule.getByTestId('event-form-error').count()).resolves.toBe(0);

    const year = new Date().getUTCFullYear() + 1;
    await schedule.getByLabel('Event Name').fill(EVENT);
    await schedule.getByText('Please fill out all required fields (Event Name and Start Date/Time).').waitFor();
    await schedule.getByLabel('Start Date/Time (UTC)').fill(`${year}-01-15T18:00`);
    // 18:00 UTC in January is noon Central Standard Time.
    const startNote = await schedule.getByTestId('start-central-note').textContent();
    expect(startNote).toMatch(new RegExp(`^Central Time \\(America/Chicago\\): .*Jan 15, ${year}, 12:00\\sPM CST$`));
    await expect(submit.isDisabled()).resolves.toBe(false);

    const end = schedule.getByLabel('End Date/Time (UTC, optional)');
    await end.fill(`${year}-01-15T17:00`);
    await schedule.getByTestId('event-form-error').getByText('End Date/Time cannot be before or the same as the Start Date/Time.').waitFor();
    await expect(submit.isDisabled()).resolves.toBe(true);
    await end.fill(`${year}-01-15T18:00`);
    await schedule.getByTestId('event-form-error').getByText('End Date/Time cannot be before or the same as the Start Date/Time.').waitFor();
    await end.fill(`${year}-01-15T21:30`);
    await schedule.getByTestId('event-form-error').waitFor({ state: 'detached' });
    expect(await schedule.getByTestId('end-central-note').textContent()).toMatch(/^Central Time \(America\/Chicago\): .*3:30\sPM CST$/);
    await submit.click();
    // Done: the modal closes and the fading banner says so.
    await schedule.page().getByTestId('action-result').getByText('Event scheduled successfully!').waitFor();
    await schedule.waitFor({ state: 'hidden' });

    const eventRow = m.locator('.events-table tbody tr', { has: m.getByRole('rowheader', { name: EVENT }) });
    await eventRow.getByText('Upcoming', { exact: true }).waitFor();
    await eventRow.getByText('Not set up').waitFor();

    // --- Event Teams view: two teams with colours.
    await eventRow.getByRole('button', { name: 'Manage Teams' }).click();
    await m.getByText('Managing: Teams List').waitFor();
    await m.getByText('No teams created for this event. Click "Create New Team" to start!').waitFor();
    await createTeam(m, RED);
    await createTeam(m, BLUE);

    // --- Members: one Leader per team; the eligible list loses each added IGN.
    await m.getByRole('button', { name: `Members of ${RED.name}` }).click();
    const red = m.getByRole('region', { name: `Members of ${RED.name}` });
    await red.getByText('This team currently has no members.').waitFor();
    expect(await eligibleIgns(red)).toEqual(['P1ayer', 'Player Two', 'Third Man', 'Zezima']);
    await addTeamMember(red, RED.name, 'Zezima', 'Leader');
    await addTeamMember(red, RED.name, 'P1ayer', 'Member');
    expect(await eligibleIgns(red)).toEqual(['Player Two', 'Third Man']);
    await m.locator('.teams-table tbody tr', { has: m.getByRole('rowheader', { name: RED.name }) }).getByText('2 Members').waitFor();

    // The second team's members are picked on a phone screen: the suggestions float over the collapsed table there too.
    await m.setViewportSize(PHONE);
    await m.getByRole('button', { name: `Members of ${BLUE.name}` }).click();
    const blue = m.getByRole('region', { name: `Members of ${BLUE.name}` });
    await blue.getByText('This team currently has no members.').waitFor();
    expect(await eligibleIgns(blue)).toEqual(['Player Two', 'Third Man']);
    await addTeamMember(blue, BLUE.name, 'Player Two', 'Leader');
    await addTeamMember(blue, BLUE.name, 'Third Man', 'Member');
    await blue.getByRole('combobox', { name: 'In-game account' }).click();
    await suggestions(blue).getByRole('option', { name: 'No available users found.' }).waitFor();
    await blue.getByRole('combobox', { name: 'In-game account' }).press('Escape');
    await m.setViewportSize(DESKTOP);

    // Change roles: the Leader hands over to the other member (still one Leader in the team).
    await blue.getByLabel('Role of Third Man').selectOption('Leader');
    await blue.getByTestId('member-notice').filter({ hasText: 'Role updated to Leader for Third Man.' }).waitFor();
    await expect(blue.getByLabel('Role of Player Two').isDisabled()).resolves.toBe(false);
    await blue.getByLabel('Role of Player Two').selectOption('Member');
    await blue.getByTestId('member-notice').filter({ hasText: 'Role updated to Member for Player Two.' }).waitFor();
    await m.locator('.teams-table tbody tr', { has: m.getByRole('rowheader', { name: BLUE.name }) }).getByText('2 Members').waitFor();

    // The server kept every membership and role.
    const events = (await manager.api.get(`/api/clan/${clanId}/events/?past=false`)).body;
    const eventId = events.events.find((e: any) => e.name === EVENT).id;
    const teamList = (await manager.api.get(`/api/clan/${clanId}/events/${eventId}/teams/`)).body.teams;
    const rolesOf = async (name: string) => {
      const team = teamList.find((t: any) => t.name === name);
      expect(team.color.toLowerCase()).toBe(name === RED.name ? RED.hex : BLUE.hex);
      const body = (await manager.api.get(`/api/clan/${clanId}/events/${eventId}/teams/${team.id}/members`)).body;
      return Object.fromEntries(body.team_members.map((tm: any) => [tm.osrs_ign, tm.role]));
    };
    expect(await rolesOf(RED.name)).toEqual({ Zezima: 'Leader', P1ayer: 'Member' });
    expect(await rolesOf(BLUE.name)).toEqual({ 'Player Two': 'Member', 'Third Man': 'Leader' });

    await m.getByRole('button', { name: 'Back to Events' }).click();
    await eventRow.getByRole('cell', { name: '2', exact: true }).waitFor();

    // --- Tasks tab: import the real CSV (144 tasks), then show other clans' tasks.
    await m.getByRole('tab', { name: 'Tasks' }).click();
    await m.getByText('No tasks in the pool yet.').waitFor();
    await m.getByText('Task CSV Importer').click();
    await m.getByLabel('CSV file').setInputFiles(SAMPLE_TASKS_CSV);
    await m.getByRole('button', { name: 'Upload and Extract Tasks' }).click();
    await m.getByTestId('csv-message').getByText('Tasks extracted successfully! 144 tasks imported/updated.').waitFor();
    await m.getByTestId('task-range').getByText('1-10 of 144 tasks').waitFor();
    expect(await m.locator('.tasks-table tbody tr').count()).toBe(10);
    expect(await m.getByRole('button', { name: /^Edit task / }).count()).toBe(10);

    await m.getByLabel('Show Other Clan Tasks').check();
    await m.getByTestId('task-range').getByText('1-10 of 145 tasks').waitFor();
    await m.getByLabel('Search tasks').fill('Rival Clan boss');
    await m.getByTestId('task-range').getByText('1-1 of 1 tasks (Filtered from 145)').waitFor();
    const rivalRow = m.locator('.tasks-table tbody tr', { hasText: RIVAL_TASK });
    await rivalRow.getByText('Rival Clan', { exact: true }).waitFor();
    await rivalRow.getByText('Other clan').waitFor();
    expect(await rivalRow.getByRole('button').count()).toBe(0);
    await m.getByLabel('Search tasks').fill('');
    await m.getByLabel('Show Other Clan Tasks').uncheck();
    await m.getByTestId('task-range').getByText('1-10 of 144 tasks').waitFor();

    // --- A plain member: read-only task list with the note, no manage buttons.
    const member = await openSignedIn(suite.browser, suite.server, alpha);
    const p = member.page;
    await p.goto(`${suite.url}/clans/manage/${clanId}`);
    await p.getByRole('heading', { name: CLAN }).waitFor();
    await p.getByRole('tab', { name: 'Tasks' }).click();
    await p.getByText('Only Clan Admins and the Owner can manage and upload tasks.').waitFor();
    await p.getByTestId('task-range').getByText('1-10 of 144 tasks').waitFor();
    expect(await p.locator('.tasks-table tbody tr').count()).toBe(10);
    for (const name of ['Create New Task', 'Delete All Tasks', 'Upload and Extract Tasks', /^Edit task /, /^Delete task /]) {
      expect(await p.getByRole('button', { name }).count(), String(name)).toBe(0);
    }
    expect(await p.getByText('Task CSV Importer').count()).toBe(0);
    expect(await p.getByLabel('Show Other Clan Tasks').count()).toBe(0);
    expect(await p.getByRole('columnheader', { name: 'Action' }).count()).toBe(0);

    expect([...manager.errors, ...member.errors]).toEqual([]);
    await manager.context.close();
    await member.context.close();
  }, 120_000);
});
