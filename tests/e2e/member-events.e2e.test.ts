import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { openSignedIn } from '../support/e2e';
import { draftCast } from '../support/draft';
import { directSql, insertGame } from '../support/fixtures';
import { DESKTOP, PHONE, expectNoSidewaysScroll } from '../support/layout';
import { seriousA11yViolations } from '../support/axe';

/**
 * A plain Member's way to the clan's events by clicks only (docs/client.md §1, §3, §6, §13, §14),
 * in headless Chromium against the real server, at 1280x800 and 375x812: from the dashboard's Clan
 * Events widget (desktop) or the profile's 'Clan Events' (phone) to the event list, an event's
 * Sign-ups and its running draft's room ('Draft live now'), with the Draft link among the row's
 * actions, not in the Status cell. An event whose game is READY takes sign-ups ('Sign up' on the
 * dashboard, 'Sign Up' in the view); once its game is in progress, and again once it is finished
 * (the event then listed under past events), the view says 'Sign-ups are closed.' without Sign Up,
 * as the server decides (docs/server.md §16). No screen scrolls sideways on the phone. Screenshots
 * of each screen go to /tmp/shots/member-*-{width}.png. The server paths behind it run on both
 * databases in tests/server/events.api.test.ts and signups.api.test.ts.
 */
const run = browserAvailable() ? describe : describe.skip;
const SHOTS = '/tmp/shots';

run.each(clientOnlyBackends())("a Member's way to the events, sign-ups and draft in Chromium (%s)", (backend) => {
  const suite = useBrowserSuite(backend);
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`at ${viewport.width}x${viewport.height}, from the ${label === 'desktop' ? 'dashboard' : 'profile'}`, { timeout: 120_000 }, async () => {
      mkdirSync(SHOTS, { recursive: true });
      const tag = label === 'desktop' ? 'mD' : 'mP';
      const c = await draftCast(suite.url, tag);
      // A running draft on the cast's event, and a second event that takes sign-ups, with a READY game.
      const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]], pick_seconds: 600 });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const finale = `Finale ${tag}`;
      const made = await c.owner.api.post(`/api/clan/${c.clanId}/events/`, {
        name: finale,
        start_datetime: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        signups_open: true,
        signups_close_at: new Date(Date.now() + 86_400_000).toISOString(),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const finaleId: number = made.body.event.id;
      const gameId = await insertGame(suite.env, finaleId, c.clanId, 'READY');
      const setGame = (status: string) => directSql(suite.env, 'UPDATE games SET status = ? WHERE id = ?', [status, gameId]);

      const person = await openSignedIn(suite.browser, suite.server, c.member.api, viewport);
      contexts.push(person.context);
      const { page, errors } = person;
      const shot = async (name: string) => {
        if (label === 'phone') await expectNoSidewaysScroll(page, `the member's ${name} on a phone`);
        await page.screenshot({ path: `${SHOTS}/member-${name}-${viewport.width}.png`, fullPage: true });
      };
      const clanName = `Draft Clan ${tag}`;
      const draftEvent = `Draft ${tag}`;

      // The dashboard: the clan's coming events, 'Sign up' where sign-ups are taken, 'Draft live now' where a draft runs.
      await page.goto(`${suite.url}/dashboard`);
      const clan = page.getByTestId('clan-events').getByRole('region', { name: clanName });
      await clan.getByRole('link', { name: `Sign up for ${finale}` }).waitFor();
      await clan.getByRole('link', { name: `Draft live now: ${draftEvent}` }).waitFor();
      // The cast's own event: the member has not signed up, and sign-ups are open there too.
      await clan.getByRole('link', { name: `Sign up for ${draftEvent}` }).waitFor();
      await shot('dashboard');
      expect(await seriousA11yViolations(page)).toEqual([]);

      // The profile's clan card: a Member has Clan Events beside Leave Clan.
      await page.goto(`${suite.url}/profile`);
      const card = page.getByTestId(`clan-card-${c.clanId}`);
      await card.getByRole('button', { name: `Leave Clan ${clanName}` }).waitFor();
      expect(await card.getByRole('link', { name: 'Manage Clan' }).count()).toBe(0);
      await shot('profile');

      if (label === 'desktop') {
        // From the dashboard: the event's Sign Up, then its event list.
        await page.getByRole('link', { name: 'Dashboard' }).click();
        await clan.getByRole('link', { name: `Sign up for ${finale}` }).click();
      } else {
        // From the profile: the clan's event list, then the event's Sign-ups.
        await card.getByRole('link', { name: `Clan Events of ${clanName}` }).click();
        await page.getByRole('rowheader', { name: finale }).waitFor();
        await page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: finale }) }).getByRole('button', { name: 'Sign-ups' }).click();
      }
      await page.getByTestId('signups-status').filter({ hasText: /^Sign-ups are open until / }).waitFor();
      await page.getByRole('button', { name: 'Sign Up' }).waitFor();
      await shot('signups-open');

      // The event list: Status reads only the status; Sign-ups and the draft room are the row's actions.
      await page.getByRole('button', { name: 'Back to Events' }).click();
      const draftRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: draftEvent }) });
      await draftRow.waitFor();
      expect((await draftRow.getByRole('cell').nth(1).textContent())?.trim()).toBe('Upcoming');
      await draftRow.getByRole('button', { name: 'Sign-ups' }).waitFor();
      await shot('events');
      await draftRow.getByRole('link', { name: `Draft live now: draft room of ${draftEvent}` }).click();
      await page.getByTestId('draft-status').filter({ hasText: `Round 1: Team ${c.owner.ign} is on the clock` }).waitFor();
      // A member who is no captain has no pick buttons.
      expect(await page.getByRole('button', { name: /^Pick / }).count()).toBe(0);
      await shot('draft');

      // The game starts: the Sign-ups view (the event read again on opening) says closed, without Sign Up.
      await setGame('in-progress');
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Events' }).click();
      const finaleRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: finale }) });
      await finaleRow.getByRole('button', { name: 'Sign-ups' }).click();
      await page.getByTestId('signups-status').filter({ hasText: 'Sign-ups are closed.' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign Up' }).count()).toBe(0);

      // The game is finished: the event is a past one, and its sign-ups stay closed.
      await setGame('finished');
      await page.getByRole('button', { name: 'Back to Events' }).click();
      await draftRow.waitFor();
      // The list is read again on opening: the finished event leaves it once that answer is in.
      await finaleRow.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'View Past Events' }).click();
      await finaleRow.getByRole('button', { name: 'Sign-ups' }).click();
      await page.getByTestId('signups-status').filter({ hasText: 'Sign-ups are closed.' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign Up' }).count()).toBe(0);
      await shot('signups-closed');

      // And the dashboard no longer offers it.
      await page.goto(`${suite.url}/dashboard`);
      await clan.getByRole('link', { name: `Draft live now: ${draftEvent}` }).waitFor();
      expect(await clan.getByRole('link', { name: `Sign up for ${finale}` }).count()).toBe(0);
      expect(errors).toEqual([]);
    });
  }
});
