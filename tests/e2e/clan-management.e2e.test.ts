import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ApiClient } from '../support/api';
import { browserAvailable } from '../support/browser';
import { onboardedPerson, openSignedIn } from '../support/e2e';
import { useBrowserSuite } from '../support/suite';

/**
 * The clan management journey in headless Chromium against the real server (SQLite): the owner creates a clan
 * on the profile page, a second user joins it in onboarding, a third, who shares no clan with the Owner, is found by name in Add Member and added, the
 * owner promotes the second to Admin and transfers ownership to them, the new owner kicks the
 * third, renames the clan and disbands it; each step shows the documented message (docs/client.md §1, §5,
 * §11 success messages) and the old owner ends on /profile without the
 * clan. Sign-in goes through the API (the `sid` cookie is copied into the browser); every step of
 * the journey itself goes through the UI.
 */
const run = browserAvailable() ? describe : describe.skip;

const CLAN = 'Iron Legion';
const RENAMED = 'Steel Legion';

/** The clan screen's action message (clanRole chart), once it reads `text`. */
async function expectActionMessage(page: Page, text: string) {
  await page.getByTestId('clan-action-message').filter({ hasText: text }).waitFor();
}

/** The member row whose username cell is `name`. */
const memberRow = (page: Page, name: string) => page.locator('tr', { has: page.locator('td.members-table__name', { hasText: new RegExp(`^${name}$`) }) });

run('clan management journey in Chromium (sqlite)', () => {
  const suite = useBrowserSuite('sqlite');

  it('creates, joins, adds, promotes, transfers, kicks, renames and disbands', async () => {
    // --- Alice creates the clan from her profile (Profile → Create New Clan).
    const alice = await onboardedPerson(suite.browser, suite.server, 'Alice', ['Zezima']);
    const a = alice.page;
    await a.goto(suite.url + '/profile');
    await a.getByRole('heading', { name: 'Alice' }).waitFor();
    await a.getByText('You are not a member of any clan yet.').waitFor();
    // The IGN's Edit and Delete: with a mouse on a wide screen they show on hover only, and are not
    // clickable while hidden; on a phone they are always there, and a tap on the row opens nothing.
    const ignRow = a.locator('.ign-item', { hasText: 'Zezima' });
    const deleteIgn = ignRow.getByRole('button', { name: 'Delete IGN Zezima' });
    await a.mouse.move(0, 0);
    await deleteIgn.waitFor({ state: 'hidden' });
    await ignRow.hover();
    await deleteIgn.waitFor({ state: 'visible' });
    await a.mouse.move(0, 0);
    await deleteIgn.waitFor({ state: 'hidden' });
    await a.setViewportSize({ width: 375, height: 812 });
    await deleteIgn.waitFor({ state: 'visible' });
    await ignRow.getByRole('button', { name: 'Edit IGN Zezima' }).waitFor({ state: 'visible' });
    await expect.poll(() => ignRow.locator('.ign-item__actions').evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await ignRow.getByText('Zezima', { exact: true }).click();
    const box = (await ignRow.boundingBox())!;
    await a.mouse.click(box.x + box.width * 0.45, box.y + box.height / 2);
    expect(await a.getByRole('dialog').count()).toBe(0);
    await a.setViewportSize({ width: 1280, height: 900 });
    await a.getByRole('button', { name: 'Create New Clan' }).click();
    const createDialog = a.getByRole('dialog', { name: 'Create New Clan' });
    await createDialog.getByLabel('Clan name').fill(CLAN);
    await createDialog.getByRole('button', { name: 'Create Clan' }).click();
    // Done: the modal closes and the fading banner says so.
    await createDialog.page().getByTestId('action-result').getByText(`Clan ${CLAN} was created. You are its Owner.`).waitFor();
    await createDialog.waitFor({ state: 'hidden' });
    const card = a.locator('.clan-card', { hasText: CLAN });
    await card.getByText('Owner').waitFor();
    const manageHref = await card.getByRole('link', { name: 'Manage Clan' }).getAttribute('href');
    const clanId = Number(manageHref?.split('/').pop());
    expect(clanId).toBeGreaterThan(0);

    // --- Bob signs in (API) and joins the clan in the onboarding UI as a Clan Member.
    const bobApi = await new ApiClient(suite.url).devLogin('Bob');
    const bob = await openSignedIn(suite.browser, suite.server, bobApi);
    const b = bob.page;
    await b.goto(suite.url + '/onboarding');
    await b.getByRole('heading', { name: 'Initial Setup' }).waitFor();
    await b.getByLabel(/in-game names/i).fill('B0aty');
    await b.getByRole('button', { name: 'Continue to Clan Setup' }).click();
    await b.getByRole('radio', { name: /Clan Member/ }).check();
    await b.getByLabel('Clan', { exact: true }).selectOption({ label: CLAN });
    await b.getByRole('button', { name: 'Finish Setup & Go to Dashboard' }).click();
    await b.waitForURL('**/dashboard');
    await b.getByText(`${CLAN} (Member)`).waitFor();

    // --- Carol exists (signed up, no clan); Alice adds her with Add Member.
    const carolApi = new ApiClient(suite.url);
    await carolApi.onboard('Carol', ['Lynx Titan']);

    await card.getByRole('link', { name: 'Manage Clan' }).click();
    await a.waitForURL(`**/clans/manage/${clanId}`);
    await a.getByRole('heading', { name: CLAN }).waitFor();
    await a.getByRole('link', { name: 'Profile' }).waitFor(); // breadcrumb back to Profile
    await a.getByTestId('clan-counts').getByText('1 / 2').waitFor();
    await a.getByTestId('members-range').getByText('1-2 of 2 members').waitFor();

    await a.getByRole('button', { name: 'Add Member' }).click();
    const addDialog = a.getByRole('dialog', { name: 'Add Member' });
    await expect(addDialog.getByRole('button', { name: 'Add Member' }).isDisabled()).resolves.toBe(true);
    // The Owner is offered the Admin role.
    await expect(addDialog.getByLabel('Role').locator('option').allTextContents()).resolves.toEqual(['Guest', 'Member', 'Admin']);
    // Carol shares no clan with Alice, so the list does not offer her: Alice finds her by name.
    await expect(addDialog.getByLabel('User').locator('option', { hasText: 'Carol' }).count()).resolves.toBe(0);
    await addDialog.getByLabel('Search by name').fill('car');
    await addDialog.getByTestId('member-search-status').getByText("1 user whose name starts with 'car': choose below.").waitFor();
    await addDialog.getByLabel('User').selectOption({ label: 'Carol' });
    await addDialog.getByRole('button', { name: 'Add Member' }).click();
    // Done: the modal closes and the fading banner says so.
    await addDialog.page().getByTestId('action-result').getByText('User (Username: Carol) added as Member.').waitFor();
    await addDialog.waitFor({ state: 'hidden' });
    await memberRow(a, 'Carol').waitFor();
    await a.getByTestId('clan-counts').getByText('1 / 3').waitFor();

    // --- Alice promotes Bob to Admin, then transfers ownership to him (confirmed).
    await a.getByRole('button', { name: 'Promote Bob' }).click();
    await expectActionMessage(a, 'Bob successfully promoted to Admin.');
    await memberRow(a, 'Bob').getByText('Admin', { exact: true }).waitFor();
    await a.getByTestId('clan-counts').getByText('2 / 3').waitFor();

    await a.getByRole('button', { name: 'Transfer Ownership Bob' }).click();
    const transferDialog = a.getByRole('dialog', { name: 'Transfer Ownership' });
    await transferDialog.getByText(`Make Bob the Owner of ${CLAN}? You will become an Admin.`).waitFor();
    await transferDialog.getByRole('button', { name: 'Transfer Ownership' }).click();
    await expectActionMessage(a, 'Bob successfully promoted to Owner.');
    await memberRow(a, 'Bob').getByText('Owner', { exact: true }).waitFor();
    await memberRow(a, 'Alice').getByText('Admin', { exact: true }).waitFor();
    // The old owner, now Admin, no longer has the Owner-only rename pencil and settings menu.
    await a.getByRole('button', { name: 'Edit clan name' }).waitFor({ state: 'detached' });
    expect(await a.getByRole('button', { name: 'Clan settings' }).count()).toBe(0);
    // Her refreshed profile shows her as Admin of the clan.
    await a.getByRole('link', { name: 'Profile' }).click();
    await a.waitForURL('**/profile');
    await a.locator('.clan-card', { hasText: CLAN }).getByText('Admin', { exact: true }).waitFor();

    // --- Bob, the new Owner, kicks Carol, renames the clan and disbands it.
    await b.goto(suite.url + '/profile');
    await b.locator('.clan-card', { hasText: CLAN }).getByRole('link', { name: 'Manage Clan' }).click();
    await b.getByRole('heading', { name: CLAN }).waitFor();
    await memberRow(b, 'Bob').getByText('Owner', { exact: true }).waitFor();

    await b.getByRole('button', { name: 'Kick Carol' }).click();
    const kickDialog = b.getByRole('dialog', { name: 'Kick Member' });
    await kickDialog.getByRole('button', { name: 'Kick Member' }).click();
    await expectActionMessage(b, 'Carol was successfully kicked.');
    await memberRow(b, 'Carol').waitFor({ state: 'detached' });
    await b.getByTestId('clan-counts').getByText('2 / 2').waitFor();

    await b.getByRole('button', { name: 'Edit clan name' }).click();
    const renameDialog = b.getByRole('dialog', { name: 'Edit Clan Name' });
    await renameDialog.getByLabel('New clan name').fill(RENAMED);
    await renameDialog.getByRole('button', { name: 'Save Name' }).click();
    // Done: the modal closes and the fading banner says so.
    await renameDialog.page().getByTestId('action-result').getByText(`Clan name successfully updated to: ${RENAMED}`).waitFor();
    await renameDialog.waitFor({ state: 'hidden' });
    await b.getByRole('heading', { name: RENAMED }).waitFor();

    // The settings menu that holds Disband Clan says so in words, not only with a gear.
    expect(await b.getByRole('button', { name: 'Clan settings' }).innerText()).toContain('Settings');
    await b.getByRole('button', { name: 'Clan settings' }).click();
    await b.getByRole('menuitem', { name: 'Disband Clan' }).click();
    const disbandDialog = b.getByRole('dialog', { name: 'Disband Clan' });
    await disbandDialog.getByRole('button', { name: 'Disband Clan' }).click();
    await expectActionMessage(b, `Clan ${RENAMED} has been successfully disbanded.`);
    await b.waitForURL('**/profile');
    await b.getByText('You are not a member of any clan yet.').waitFor();

    // --- The old owner ends on /profile without the clan (after a reload fetches her memberships).
    await a.reload();
    await a.getByRole('heading', { name: 'Alice' }).waitFor();
    await a.getByText('You are not a member of any clan yet.').waitFor();
    expect(await a.locator('.clan-card').count()).toBe(0);
    expect(new URL(a.url()).pathname).toBe('/profile');

    expect([...alice.errors, ...bob.errors]).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  }, 120_000);
});
