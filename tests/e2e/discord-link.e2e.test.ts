import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { ApiClient } from '../support/api';
import { seriousA11yViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { openSignedIn } from '../support/e2e';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { InteractionSigner, snlCommand } from '../support/discordInteractions';
import { SNL_TEXTS } from '../../contract/discordLink';

/**
 * Linking a Discord server to a clan in Chromium against the real server (docs/server.md §19
 * "Slash commands"): `/snl link` (a signed interaction, as Discord sends it) answers the one-time
 * URL; the clan's Owner opens it signed in, picks the clan, presses 'Link to Discord' and
 * confirms; the page says the clan is linked, the API answers the guild, and `/snl status` in that
 * server now speaks for the clan. axe finds no serious violation on the page or its dialog.
 */
const run = browserAvailable() ? describe : describe.skip;

run.each(clientOnlyBackends())('linking a Discord server in Chromium (%s)', (backend) => {
  const signer = new InteractionSigner();
  const suite = useBrowserSuite(backend, { DISCORD_PUBLIC_KEY: signer.publicKeyHex });
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  it('the Owner opens the /snl link URL, picks the clan and links it', async () => {
    const guild = '613425648685547541';
    const ownerApi = new ApiClient(suite.url);
    const me = await ownerApi.onboard('discord-linker', ['LinkerMain'], { role: 'Owner', clan_name: 'Discord Hall' });
    const clanId = me.clan_memberships_list[0].clan_id as number;

    const answer = await signer.post(suite.url, snlCommand('link', guild, '500000000000000001'));
    expect(answer.body.data.flags).toBe(64);
    const url = /(http:\/\/\S+\/discord\/link\/[A-Za-z0-9_-]{22})/.exec(answer.body.data.content)![1];
    expect(url.startsWith(`${suite.url}/discord/link/`)).toBe(true);

    const owner = await openSignedIn(suite.browser, suite.server, ownerApi);
    contexts.push(owner.context);
    const page = owner.page;
    page.setDefaultTimeout(20_000);
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: 'Link a Discord server' }).waitFor();
    await page.getByRole('radio', { name: 'Discord Hall' }).check();
    expect(await seriousA11yViolations(page), 'the link page').toEqual([]);
    await page.getByRole('button', { name: 'Link to Discord' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link this Discord server?' });
    await dialog.getByText('Link the Discord server to Discord Hall? A link it or Discord Hall had before is replaced.').waitFor();
    expect(await seriousA11yViolations(page), 'the confirm dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Link' }).click();
    await page.getByTestId('discord-link-done').getByText('Discord Hall is linked to the Discord server. Try /snl status there.').waitFor();
    expect(await page.getByRole('link', { name: 'Open Discord Hall' }).getAttribute('href')).toBe(`/clans/manage/${clanId}/members`);

    expect((await ownerApi.get(`/api/clan/${clanId}/discord-guild`)).body).toEqual({ guild_id: guild });
    expect((await signer.post(suite.url, snlCommand('status', guild, '500000000000000001'))).body.data.content).toBe(SNL_TEXTS.noLiveGames('Discord Hall'));
  });
});
