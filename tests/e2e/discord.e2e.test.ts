import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../contract/game/settings';
import { WEBHOOK_STATE_TEXT, WEBHOOK_URL_MESSAGE } from '../../contract/discord';
import { ApiClient } from '../support/api';
import { seriousA11yViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';
import { openSignedIn } from '../support/e2e';
import { freePort } from '../support/server';
import { useBrowserSuite } from '../support/suite';

/**
 * Discord announcements in headless Chromium against the real server (* docs/server.md §10), with a local Discord stand-in as the webhook's host
 * (DISCORD_WEBHOOK_ORIGIN): the owner opens the event's Manage Game view, is refused a URL that
 * is not a webhook (the exact text), saves the stand-in's webhook in the Discord panel (the URL
 * then shows masked), sends a test message, starts the game and rolls three times on the play
 * screen; the stand-in receives 'Game started' and the three rolls (one message: the roll window
 * is 2 s here) with `allowed_mentions: {parse: []}`. Then Discord answers 404: the webhook is
 * disabled and the panel says so after Refresh, with Discord's answer. axe finds no serious or
 * critical violation on the panel with a refused URL and with a disabled webhook.
 */
const run = browserAvailable() ? describe : describe.skip;

const standPort = await freePort();

run('Discord announcements in Chromium (sqlite)', () => {
  const stand = new DiscordWebhookStandIn();
  const suite = useBrowserSuite('sqlite', {
    DISCORD_WEBHOOK_ORIGIN: `http://127.0.0.1:${standPort}`,
    DISCORD_POLL_MS: '100',
    DISCORD_ROLL_WINDOW_MS: '2000',
  });
  beforeAll(() => stand.start(standPort));
  afterAll(() => stand.stop());

  it('sets a webhook in the Discord panel, plays three rolls, and the posts arrive; a 404 shows as disabled', { timeout: 120_000 }, async () => {
    const ownerApi = new ApiClient(suite.url);
    const me = await ownerApi.onboard('Herald', ['HeraldIGN'], { role: 'Owner', clan_name: 'Horn Blowers' });
    const clanId: number = me.clan_memberships_list[0].clan_id;
    const ev = await ownerApi.post(`/api/clan/${clanId}/events/`, { name: 'Announce Night', start_datetime: new Date(Date.now() + 3_600_000).toISOString() });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    const eventId: number = ev.body.event.id;
    const team = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Gold Horns', color: '#d4a017' });
    expect(team.status, JSON.stringify(team.body)).toBe(200);
    const member = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/teams/${team.body.team.id}/members`, { osrs_ign_id: me.igns[0].id, role: 'Leader' });
    expect(member.status, JSON.stringify(member.body)).toBe(200);
    const created = await ownerApi.post(`/api/clan/${clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, num_snakes: 0, num_ladders: 0 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const gameId: number = created.body.game.id;
    const gamePath = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;

    const owner = await openSignedIn(suite.browser, suite.server, ownerApi);
    const page = owner.page;
    await page.goto(`${suite.url}/clans/manage/${clanId}/events/${eventId}/game`);
    await page.getByRole('heading', { name: 'Managing: Game Board' }).waitFor();
    const panel = page.getByTestId('discord-panel');
    await panel.getByText('No webhook is set: nothing is announced on Discord.').waitFor();

    // A URL that only looks like Discord's is refused with the exact text.
    const url = panel.getByLabel('Webhook URL');
    await url.fill('https://discord.com@evil.example/api/webhooks/1/abc');
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByTestId('discord-url-problem').getByText(WEBHOOK_URL_MESSAGE, { exact: true }).waitFor();
    expect(await seriousA11yViolations(page), 'axe: the panel with a refused URL').toEqual([]);

    const token = 'HornToken_abcdefghijklmnop1234';
    await url.fill(stand.webhook('987654321', token));
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByTestId('discord-message').getByText('Discord settings saved.').waitFor();
    await panel.getByTestId('discord-masked-url').getByText(`http://127.0.0.1:${standPort}/api/webhooks/987654321/••••••••1234`).waitFor();
    await panel.getByTestId('discord-state').getByText(WEBHOOK_STATE_TEXT.active).waitFor();
    expect(await panel.textContent()).not.toContain(token);
    expect(await url.inputValue()).toBe('');

    await panel.getByRole('button', { name: 'Send Test Message' }).click();
    await panel.getByTestId('discord-message').getByText('Test message sent. Check the channel.').waitFor();
    expect(stand.accepted('987654321').map((p) => p.body.embeds[0].title)).toEqual(['Test message']);

    // Play: start, then three rolls on the play screen.
    expect((await ownerApi.put(`${gamePath}/status`, { status: 'in-progress' })).status).toBe(200);
    await page.goto(`${suite.url}/games/clan/${clanId}/events/${eventId}/game/${gameId}`);
    await page.getByTestId('connection-state').getByText('Live').waitFor();
    const rollButton = page.getByRole('button', { name: 'Roll Dice' });
    const history = async () => (await ownerApi.get(gamePath)).body.game.team_states[0].position_history.length as number;
    for (let i = 0; i < 3; i += 1) {
      await expect.poll(() => rollButton.isEnabled(), { timeout: 10_000 }).toBe(true);
      const before = await history();
      await rollButton.click();
      await expect.poll(history, { timeout: 10_000 }).toBe(before + 1);
    }

    const rollLines = () => stand.accepted('987654321').slice(2).flatMap((p) => p.body.embeds.flatMap((e: { description: string }) => e.description.split('\n')));
    await stand.until(() => rollLines().length >= 3, 20_000, 'three rolls');
    const posts = stand.accepted('987654321').map((p) => p.body);
    expect(posts[1].embeds[0].title).toBe('Game started');
    expect(posts.slice(2).every((b) => b.embeds.every((e: { title: string; color: number }) => e.title === 'Gold Horns' && e.color === 0xd4a017))).toBe(true);
    expect(rollLines()).toHaveLength(3);
    for (const line of rollLines()) expect(line).toMatch(/^🎲 Rolled a [1-6]: \d+ → \d+$/);
    for (const b of posts) expect(b.allowed_mentions).toEqual({ parse: [] });

    // Discord deletes the webhook: the next post is answered 404, the panel says disabled.
    stand.script.push({ status: 404 });
    expect((await ownerApi.put(`${gamePath}/status`, { status: 'paused' })).status).toBe(200);
    await stand.until(() => stand.requests.some((r) => r.answer === 404), 10_000, 'the 404');
    await page.goto(`${suite.url}/clans/manage/${clanId}/events/${eventId}/game`);
    await expect
      .poll(async () => {
        await panel.getByRole('button', { name: 'Refresh' }).click();
        return panel.getByTestId('discord-state').textContent();
      }, { timeout: 10_000 })
      .toBe(WEBHOOK_STATE_TEXT.disabled);
    await panel.getByTestId('discord-last-error').getByText(/Discord answered 404: .*Unknown Webhook/).waitFor();
    expect(await seriousA11yViolations(page), 'axe: the panel of a disabled webhook').toEqual([]);
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });
});
