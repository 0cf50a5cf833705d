import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import sharp from 'sharp';
import { ApiClient } from '../support/api';
import { browserAvailable } from '../support/browser';
import { openAnonymous, openSignedIn } from '../support/e2e';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { NOTIFICATIONS_TEXTS } from '../../src/features/profile/NotificationsPanel';

/**
 * The installable app and its service worker in Chromium against the real server (docs/server.md
 * §20 "The app"; docs/client.md §3): the manifest is linked, served and names 192 and 512 px PNG
 * icons that are those sizes; the service worker registers after load; a push delivered to it
 * (through the DevTools protocol, as a push service would) is shown as a notification the
 * registration lists, with its title, body, tag and url; the Profile page shows the Notifications
 * panel with its switches. No CSP violation on any page (useBrowserSuite).
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('the installable app and push in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend);
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  it('manifest linked and fetchable with its icons; the worker registers and shows a push', async () => {
    const { context, page } = await openAnonymous(suite.browser);
    contexts.push(context);
    await context.grantPermissions(['notifications'], { origin: suite.url });
    await page.goto(suite.url + '/');
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');

    const answer = await fetch(suite.url + '/manifest.webmanifest');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/manifest+json');
    const manifest = await answer.json();
    expect(manifest).toMatchObject({ name: 'Clan Snakes & Ladders', short_name: expect.any(String), start_url: '/', display: 'standalone' });
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((i: { sizes: string }) => i.sizes === `${size}x${size}`);
      expect(icon, `${size} px icon`).toMatchObject({ type: 'image/png' });
      const png = await fetch(suite.url + icon.src);
      expect(png.status).toBe(200);
      const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', size, size]);
    }

    // Registered after the page's load, controlling nothing it caches: the worker has no fetch handler.
    const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(script).toBe(`${suite.url}/sw.js`);

    // A push reaches the worker as a push service would deliver it.
    const cdp = await context.newCDPSession(page);
    const registered = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
        const mine = registrations.find((r) => r.scopeURL === `${suite.url}/` && !r.isDeleted);
        if (mine) resolve(mine.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registered;
    const payload = { title: 'Proof approved', body: 'Red Team, square 12: approved by referee.', url: '/games/clan/1/events/2/game/3', tag: 'proof-9' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: suite.url, registrationId, data: JSON.stringify(payload) });
    const shown = await page.waitForFunction(async (tag) => {
      const reg = await navigator.serviceWorker.ready;
      const list = await reg.getNotifications({ tag });
      return list.length > 0 ? { title: list[0].title, body: list[0].body, tag: list[0].tag, data: list[0].data } : null;
    }, payload.tag, { timeout: 15_000 });
    expect(await shown.jsonValue()).toEqual({ title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url } });
  });

  it('the Profile page has the Notifications panel with its four switches, all on', async () => {
    const api = new ApiClient(suite.url);
    await api.onboard('push-e2e-user', ['PushE2e']);
    const person = await openSignedIn(suite.browser, suite.server, api);
    contexts.push(person.context);
    const page = person.page;
    page.setDefaultTimeout(20_000);
    await page.goto(suite.url + '/profile');
    await page.getByRole('heading', { level: 2, name: NOTIFICATIONS_TEXTS.title }).waitFor();
    await page.getByTestId('notifications-state').getByText(NOTIFICATIONS_TEXTS.off).waitFor();
    await page.getByRole('button', { name: NOTIFICATIONS_TEXTS.enable }).waitFor();
    for (const label of Object.values(NOTIFICATIONS_TEXTS.switches)) expect(await page.getByRole('checkbox', { name: label }).isChecked()).toBe(true);
    // A switch is saved on the server at once.
    await page.getByRole('checkbox', { name: NOTIFICATIONS_TEXTS.switches.draft_turn }).click();
    await expect.poll(async () => (await api.get('/api/user/me/notifications')).body.draft_turn, { timeout: 10_000 }).toBe(false);
    expect(person.errors).toEqual([]);
  });
});
