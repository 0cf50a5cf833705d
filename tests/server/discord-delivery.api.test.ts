import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { backends, createTestDatabase, freePort, startServer, type Backend, type TestDatabase, type TestServer } from '../support/server';
import { ApiClient } from '../support/api';
import { directSql } from '../support/fixtures';
import { castOf, newGame } from '../support/liveSocket';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';

/**
 * Discord delivery that outlives a process (docs/server.md §10),
 * over real HTTP and a local Discord stand-in: announcements still undelivered when the server is
 * killed with SIGKILL are all posted after a restart, in order (at least once); and on PostgreSQL
 * two processes sharing one webhook's outbox post each announcement exactly once, in order.
 * (Apart from tests/server/discord.api.test.ts so the two files run side by side.)
 */

/** Renames the event so each status announcement carries a distinct description, in order. */
async function rename(api: ApiClient, clanId: number, eventId: number, name: string): Promise<void> {
  const r = await api.put(`/api/clan/${clanId}/events/${eventId}`, { name, start_datetime: '2031-06-01T18:00Z' });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe.each(backends())('Discord delivery across kill -9 (%s)', (backend: Backend) => {
  const stand = new DiscordWebhookStandIn();
  let db: TestDatabase;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    await stand.start();
    db = await createTestDatabase(backend);
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db?.drop();
    await stand.stop();
  });

  it('announcements undelivered when the server is killed are all posted after restart, in order', async () => {
    const port = await freePort();
    const first = await startServer({ ...db.env, ...stand.serverEnv() }, port);
    servers.push(first);
    const cast = await castOf(first.url, `kill-${backend}`);
    const game = await newGame(cast, { start: false });
    const id = '4242';
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/discord`, { webhook_url: stand.webhook(id) })).status).toBe(200);
    // Discord hangs on every post until the kill: the worker holds the first while the rest queue
    // up behind it. Every post, not only the first: the server gives a hanging post up after 5 s
    // and tries again, and on a loaded machine the changes below can take longer than that.
    stand.fault = 'hang';
    const expected: string[] = [];
    const statuses = ['in-progress', 'paused', 'in-progress', 'paused', 'in-progress', 'paused'];
    for (const [i, status] of statuses.entries()) {
      await rename(cast.owner, cast.clanId, game.eventId, `Kill round ${i + 1}`);
      expect((await cast.owner.put(`${game.path}/status`, { status })).status).toBe(200);
      expected.push(`Kill round ${i + 1}`);
    }
    await stand.until(() => stand.requests.length >= 1, 5000, 'the hanging post');
    const exited = new Promise((r) => first.proc.once('exit', r));
    first.proc.kill('SIGKILL');
    await exited;
    servers.splice(servers.indexOf(first), 1);
    expect(stand.accepted(id)).toEqual([]);
    stand.fault = null;

    const second = await startServer({ ...db.env, ...stand.serverEnv() }, port);
    servers.push(second);
    await stand.until(() => stand.accepted(id).length >= expected.length, 30_000, 'every announcement after restart');
    const seen = stand.accepted(id).map((p) => p.body.embeds[0].description as string);
    // At least once, in order: dropping repeats leaves exactly the expected sequence.
    expect(seen.filter((d, i) => d !== seen[i - 1])).toEqual(expected);
    // The row goes once Discord's answer reached the server, a moment after the stand-in took the post.
    await expect.poll(async () => Number((await directSql(db.env, 'select count(*) as n from discord_outbox'))[0].n), { timeout: 10_000 }).toBe(0);
  }, 90_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('Discord delivery from two processes on PostgreSQL', () => {
  const stand = new DiscordWebhookStandIn();
  let db: TestDatabase;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    await stand.start();
    db = await createTestDatabase('postgres');
    const env = { ...db.env, ...stand.serverEnv({ DISCORD_POLL_MS: '20' }) };
    servers.push(await startServer(env));
    servers.push(await startServer(env));
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db?.drop();
    await stand.stop();
  });

  it('with one webhook, each announcement is posted exactly once, in order', async () => {
    const [a, b] = servers;
    const cast = await castOf(a.url, 'two-procs');
    const game = await newGame(cast, { start: false });
    const id = '5151';
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/discord`, { webhook_url: stand.webhook(id) })).status).toBe(200);
    const viaB = new ApiClient(b.url);
    viaB.cookies = cast.owner.cookies;
    const expected: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const api = i % 2 === 0 ? cast.owner : viaB;
      await rename(api, cast.clanId, game.eventId, `Twin ${i + 1}`);
      expect((await api.put(`${game.path}/status`, { status: i % 2 === 0 ? 'in-progress' : 'paused' })).status).toBe(200);
      expected.push(`Twin ${i + 1}`);
    }
    await stand.until(() => stand.accepted(id).length >= 20, 30_000, '20 posts');
    await new Promise((r) => setTimeout(r, 1000));
    expect(stand.accepted(id).map((p) => p.body.embeds[0].description)).toEqual(expected);
  }, 60_000);
});
