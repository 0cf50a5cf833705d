import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { ApiClient } from '../support/api';
import { onboardedPerson } from '../support/e2e';
import { DEV_WELCOME_TEXT } from '../../src/features/auth/messages';

/**
 * 'Log out everywhere' in headless Chromium against the real server (docs/server.md §8;
 * docs/client.md §3, Account & Security): the button in the profile ends the
 * browser's session and the same user's other session (an API client), resets to Guest and
 * returns to /.
 */
const run = browserAvailable() ? describe : describe.skip;

run('log out everywhere in Chromium', () => {
  const suite = useBrowserSuite('sqlite');
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  it('ends this and every other session of the user and returns to /', async () => {
    const person = await onboardedPerson(suite.browser, suite.server, 'Roaming Rita', ['RitaMain']);
    contexts.push(person.context);
    const elsewhere = await new ApiClient(suite.url).devLogin('Roaming Rita');
    const bystander = await new ApiClient(suite.url).devLogin('Staying Sam');
    expect((await elsewhere.get('/api/user/me')).status).toBe(200);

    const { page } = person;
    await page.goto(`${suite.url}/profile`);
    const panel = page.getByRole('region', { name: 'Account & Security' });
    await panel.getByRole('button', { name: 'Log out everywhere' }).click();
    await page.getByText(DEV_WELCOME_TEXT).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    expect((await elsewhere.get('/api/user/me')).status).toBe(401);
    expect((await person.api.get('/api/user/me')).status).toBe(401);
    expect((await bystander.get('/api/user/me')).status).toBe(200);
    expect(await person.context.cookies(suite.url)).not.toContainEqual(expect.objectContaining({ name: 'sid' }));
    expect(person.errors).toEqual([]);
  });
});
