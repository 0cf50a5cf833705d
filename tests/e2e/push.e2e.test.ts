import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import sharp from 'sharp';
import { ApiClient } from '../support/api';
import { directSql } from '../support/fixtures';
import { browserAvailable, launchProfileContext } from '../support/browser';
import { openAnonymous, openSignedIn } from '../support/e2e';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { NOTIFICATIONS_TEXTS } from '../../src/features/profile/NotificationsPanel';

/**
 * The installable app and its service worker in Chromium against the real server (docs/server.md
 * §20 "The app"; docs/client.md §3): the manifest is linked, served and names 192 and 512 px PNG
 * icons that are those sizes; the service worker registers after load; Chromium's installability
 * check (DevTools protocol `Page.getInstallabilityErrors`, in a browser profile of its own since
 * Chromium calls nothing installable in incognito) finds no error; a push delivered to it
 * (through the DevTools protocol, as a push service would) is shown as a notification the
 * registration lists, with its title, body, tag and url; the Profile page shows the Notifications
 * panel with its switches; on a 375 px phone the dashboard's Notifications widget lists a kept
 * 'Proof approved' (docs/server.md §20 "In the page") linking to its game, without sideways
 * scrolling. No CSP violation on any page (useBrowserSuite).
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
    // The maskable icon is full-bleed (no transparent corner a launcher's crop would show) at 512 px.
    const maskable = manifest.icons.find((i: { purpose?: string }) => i.purpose === 'maskable');
    expect(maskable, 'maskable icon').toMatchObject({ sizes: '512x512', type: 'image/png' });
    const pixels = await sharp(Buffer.from(await (await fetch(suite.url + maskable.src)).arrayBuffer())).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([pixels.info.width, pixels.info.height]).toEqual([512, 512]);
    expect(pixels.data[3], 'top-left corner opaque').toBe(255);

    // Registered after the page's load, controlling nothing it caches: the worker has no fetch handler.
    const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(script).toBe(`${suite.url}/sw.js`);

    // A push reaches the worker as a push service would deliver it, once the registration's worker
    // version is activated: a push delivered to a version still activating was dropped in a loaded
    // clean-clone run (no notification in 15 s).
    const cdp = await context.newCDPSession(page);
    type Version = { registrationId: string; status: string };
    const registrationIds = new Set<string>();
    const activated = new Set<string>();
    let onChange = () => {};
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      for (const r of registrations) if (r.scopeURL === `${suite.url}/` && !r.isDeleted) registrationIds.add(r.registrationId);
      onChange();
    });
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }: { versions: Version[] }) => {
      for (const v of versions) if (v.status === 'activated') activated.add(v.registrationId);
      onChange();
    });
    const registrationId = await new Promise<string>((resolve, reject) => {
      onChange = () => {
        const id = [...registrationIds].find((r) => activated.has(r));
        if (id) resolve(id);
      };
      cdp.send('ServiceWorker.enable').catch(reject);
    });
    const payload = { title: 'Proof approved', body: 'Red Team, square 12: approved by referee.', url: '/games/clan/1/events/2/game/3', tag: 'proof-9' };
    const deliver = () => cdp.send('ServiceWorker.deliverPushMessage', { origin: suite.url, registrationId, data: JSON.stringify(payload) });
    await deliver();
    let deliveredAt = Date.now();
    // Polled from the test: page.waitForFunction with this async predicate resolved after 6 s with
    // a value of null (the notification not shown yet) in a loaded clean-clone run, instead of
    // waiting for one. A push service delivers again what was not taken; so does this, every 5 s
    // (the same tag: a second delivery replaces the first notification, never adds one).
    const shown = async () => {
      const seen = await page.evaluate(async (tag) => {
        const reg = await navigator.serviceWorker.ready;
        const list = await reg.getNotifications({ tag });
        return list.length > 0 ? { title: list[0].title, body: list[0].body, tag: list[0].tag, data: list[0].data } : null;
      }, payload.tag);
      if (!seen && Date.now() - deliveredAt > 5_000) {
        await deliver();
        deliveredAt = Date.now();
      }
      return seen;
    };
    await expect.poll(shown, { timeout: 15_000 }).toEqual({ title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url } });
  });

  it("Chromium's installability check of the landing page finds no error once the worker is registered", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-install-'));
    const context = await launchProfileContext(dir);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(suite.url + '/');
      const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
      expect(script).toBe(`${suite.url}/sw.js`);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a phone's dashboard lists a kept 'Proof approved' in the Notifications widget, linked, no sideways scroll", async () => {
    const api = new ApiClient(suite.url);
    const me = await api.onboard('push-e2e-phone', ['PushPhone']);
    const url = '/games/clan/1/events/2/game/3';
    const body = 'A very long team name without any break at all AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA, square 12: approved by <b>referee</b>.';
    await directSql(suite.env, 'INSERT INTO notifications (user_id, title, body, url, tag, created_at) VALUES (?, ?, ?, ?, ?, ?)', [me.id, 'Proof approved', body, url, 'proof-1', new Date().toISOString()]);
    const person = await openSignedIn(suite.browser, suite.server, api, { width: 375, height: 800 });
    contexts.push(person.context);
    const page = person.page;
    page.setDefaultTimeout(20_000);
    await page.goto(suite.url + '/dashboard');
    const widget = page.getByTestId('recent-notifications');
    await widget.getByRole('heading', { name: 'Notifications' }).waitFor();
    const link = widget.getByRole('link', { name: 'Proof approved' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(url);
    expect(await widget.getByText(body).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(person.errors).toEqual([]);
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
