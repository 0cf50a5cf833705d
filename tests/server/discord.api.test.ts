import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import sharp from 'sharp';
import { backends, createTestDatabase, startServer, type Backend, type TestDatabase, type TestServer } from '../support/server';
import { ApiClient, type Answer } from '../support/api';
import { directSql } from '../support/fixtures';
import { castOf, connect, newGame, turns, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';
import { WEBHOOK_URL_MESSAGE, maskWebhookUrl, parseWebhookUrl, webhookDraftProblem } from '../../contract/discord';

/**
 * Discord announcements over real HTTP, real sockets and a local Discord stand-in
 * (docs/server.md §10): the settings API (managers only, token masked, the URL
 * rule), the test post, every kind of announcement with its embeds in the team colour and
 * `allowed_mentions: {parse: []}`, each kind switchable, 60 rolls in 10 s as at most 2 messages,
 * a 429 waited out, a 404 disabling the webhook, a hang timed out after 5 s and retried, a
 * redirect never followed. Delivery across kill -9 and from two processes:
 * discord-delivery.api.test.ts.
 */

const TIERS = ['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'];


const expectError = (r: Answer, status: number, error?: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (error !== undefined) expect(r.body).toEqual({ error });
  else expect(typeof r.body.error).toBe('string');
};

/** Sends roll_dice from `w` and answers the action_error text, or null once the game's version moved. */
async function roll(w: Watcher, game: TestGame, teamId: number, ign: number): Promise<string | null> {
  const mark = w.got.length;
  const version = w.held?.version ?? 0;
  w.socket.emit('roll_dice', { game_id: game.gameId, team_id: teamId, performer_ign_id: ign });
  const r = await w.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && x.payload.game_state.version > version), 5000, mark);
  return r.event === 'action_error' ? r.payload.message : null;
}

/** Fills the clan's pool with 60 tasks a tier, so every task square gets one (proof needs a task). */
async function fillPool(owner: ApiClient, clanId: number): Promise<void> {
  const rows = ['description,difficulty', ...TIERS.flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} discord task ${i + 1},${t}`))];
  const form = new FormData();
  form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
  const r = await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

const discordPath = (cast: Cast, game: TestGame) => `/api/clan/${cast.clanId}/events/${game.eventId}/discord`;

let hookSerial = 1000;

describe('the webhook URL rule (contract parseWebhookUrl, WHATWG URL)', () => {
  it('accepts exactly https://{discord hosts}/api/webhooks/{id}/{token}', () => {
    for (const host of ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']) {
      expect(parseWebhookUrl(`https://${host}/api/webhooks/123456789012345678/AbC-dE_f`)).toEqual({
        url: `https://${host}/api/webhooks/123456789012345678/AbC-dE_f`, id: '123456789012345678', token: 'AbC-dE_f', threadId: null,
      });
    }
  });
  it('accepts a forum thread (?thread_id={digits}) and keeps it on the URL it posts to; masks the token only', () => {
    const hook = parseWebhookUrl('https://discord.com/api/webhooks/1234/AbCdEfGhIjKl_9?thread_id=987654321');
    expect(hook).toEqual({ url: 'https://discord.com/api/webhooks/1234/AbCdEfGhIjKl_9?thread_id=987654321', id: '1234', token: 'AbCdEfGhIjKl_9', threadId: '987654321' });
    expect(maskWebhookUrl(hook!)).toBe('https://discord.com/api/webhooks/1234/••••••••Kl_9?thread_id=987654321');
    expect(webhookDraftProblem('https://discord.com/api/webhooks/1234/AbC?thread_id=5', false)).toBeNull();
    expect(webhookDraftProblem('https://discord.com/api/webhooks/1234/AbC?wait=true', false)).toBe(WEBHOOK_URL_MESSAGE);
  });
  it('refuses other hosts, http, userinfo, ports, other paths, queries and look-alikes', () => {
    for (const bad of [
      'http://discord.com/api/webhooks/1/abc',
      'https://discord.com@evil.example/api/webhooks/1/abc',
      'https://user:pw@discord.com/api/webhooks/1/abc',
      'https://evil.example/api/webhooks/1/abc',
      'https://discord.com.evil.example/api/webhooks/1/abc',
      'https://evildiscord.com/api/webhooks/1/abc',
      'https://discord.com:8443/api/webhooks/1/abc',
      'https://discord.com/api/webhooks/1/abc/github',
      'https://discord.com/api/webhooks/1',
      'https://discord.com/api/v10/webhooks/1/abc',
      'https://discord.com/api/webhooks/abc/abc',
      'https://discord.com/api/webhooks/1/abc?wait=true',
      'https://discord.com/api/webhooks/1/abc?thread_id=',
      'https://discord.com/api/webhooks/1/abc?thread_id=12a',
      'https://discord.com/api/webhooks/1/abc?thread_id=1&wait=true',
      'https://discord.com/api/webhooks/1/abc?wait=true&thread_id=1',
      'https://discord.com/api/webhooks/1/abc?thread_id=1#x',
      'https://discord.com/api/webhooks/1/abc#x',
      'https://discord.com/api/webhooks/1/%2e%2e',
      'https://127.0.0.1/api/webhooks/1/abc',
      'javascript:alert(1)',
      'discord.com/api/webhooks/1/abc',
      '',
    ]) {
      expect(parseWebhookUrl(bad), bad).toBeNull();
    }
  });
});

describe.each(backends())('Discord announcements (%s)', (backend: Backend) => {
  const stand = new DiscordWebhookStandIn();
  let db: TestDatabase;
  let server: TestServer;
  let cast: Cast;
  const open: Watcher[] = [];

  beforeAll(async () => {
    await stand.start();
    db = await createTestDatabase(backend);
    // Rolls go out after a 1 s window here; the 10 s window of the contract has a server of its own (the burst below).
    server = await startServer({ ...db.env, ...stand.serverEnv({ DISCORD_ROLL_WINDOW_MS: '1000' }) });
    cast = await castOf(server.url, `discord-${backend}`);
    await fillPool(cast.owner, cast.clanId);
  });
  afterAll(async () => {
    for (const w of open) w.close();
    await server?.stop();
    await db?.drop();
    await stand.stop();
  });

  /** A socket of `api` joined to `game`, on `url` (default the suite's server). */
  const joined = async (api: ApiClient, game: TestGame, url = server.url) => {
    const w = await connect(url, 'discord', api);
    open.push(w);
    await w.join(game.gameId);
    return w;
  };

  /** A new game of `on` (default the suite's cast) whose event posts to a fresh stand-in webhook; answers the game and the webhook id. */
  const hooked = async (opts: Parameters<typeof newGame>[1] = {}, announce: Record<string, boolean> = {}, on: Cast = cast) => {
    const game = await newGame(on, { start: false, ...opts });
    const id = String(++hookSerial);
    const r = await on.owner.put(discordPath(on, game), { webhook_url: stand.webhook(id), announce });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { game, id };
  };

  const bodies = (id: string) => stand.accepted(id).map((p) => p.body);
  const titles = (id: string) => bodies(id).flatMap((b) => b.embeds.map((e: { title: string }) => e.title));

  it('settings: managers only, the URL rule with its exact text, the token masked, defaults all on, GET null when none, DELETE', async () => {
    const game = await newGame(cast, { start: false });
    const path = discordPath(cast, game);
    expectError(await new ApiClient(server.url).get(path), 401);
    expectError(await cast.member.get(path), 403);
    expectError(await cast.member.put(path, { webhook_url: stand.webhook('1') }), 403);
    expectError(await cast.outsider.get(path), 403);
    expectError(await cast.owner.get(`/api/clan/${cast.clanId}/events/999999/discord`), 404);
    expect((await cast.owner.get(path)).body).toEqual({ discord: null });

    for (const bad of [
      'https://discord.com@evil.example/api/webhooks/1/abc',
      `${stand.url.replace('http://', 'https://')}/api/webhooks/1/abc`,
      'https://evil.example/api/webhooks/1/abc',
      `${stand.url}/api/webhooks/1/abc/extra`,
      `${stand.url}/api/webhooks/1`,
      `${stand.url}/redirect/api/webhooks/1/abc`,
      stand.url.replace('127.0.0.1', 'user@127.0.0.1') + '/api/webhooks/1/abc',
      'not a url',
      '',
    ]) {
      expectError(await cast.owner.put(path, { webhook_url: bad }), 400, WEBHOOK_URL_MESSAGE);
    }
    expectError(await cast.owner.put(path, { webhook_url: 5 }), 400);
    expectError(await cast.owner.put(path, { announce: { rolls: true } }), 400, WEBHOOK_URL_MESSAGE);
    expectError(await cast.owner.put(path, { webhook_url: stand.webhook('2'), announce: { rolls: 'yes' } }), 400);
    expect(stand.requests.length).toBe(0);

    const token = 'secretTokenValue_0123456789';
    const saved = await cast.owner.put(path, { webhook_url: stand.webhook('77', token) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({
      discord: {
        webhook_url_masked: `${stand.url}/api/webhooks/77/••••••••6789`,
        announce: { status: true, rolls: true, reviews: true, results: true },
        state: 'active',
        last_error: null,
        ping_teams: false,
      },
    });
    const got = await cast.owner.get(path);
    expect(got.body).toEqual(saved.body);
    expect(JSON.stringify(got.body)).not.toContain(token);
    // The flags change without sending the URL again.
    const flags = await cast.owner.put(path, { announce: { rolls: false } });
    expect(flags.body.discord.announce).toEqual({ status: true, rolls: false, reviews: true, results: true });
    expect(flags.body.discord.webhook_url_masked).toBe(saved.body.discord.webhook_url_masked);
    // An array is not an object: neither as the body nor as announce (it would read as all flags on).
    expectError(await cast.owner.put(path, { announce: [] }), 400, 'announce must be a JSON object with any of status, rolls, reviews and results.');
    expectError(await cast.owner.put(path, { announce: 7 }), 400, 'announce must be a JSON object with any of status, rolls, reviews and results.');
    expectError(await cast.owner.put(path, [{ announce: { rolls: true } }]), 400, 'Request body must be a JSON object with webhook_url and announce.');
    expect((await cast.owner.get(path)).body.discord.announce).toEqual({ status: true, rolls: false, reviews: true, results: true });

    expect((await cast.owner.del(path)).body).toEqual({ discord: null });
    expect((await cast.owner.get(path)).body).toEqual({ discord: null });
    expectError(await cast.owner.post(`${path}/test`), 404, 'No Discord webhook is set for this event.');
  });

  it('a forum thread: a webhook URL with ?thread_id= is saved (masked with its thread) and posted to that thread; other queries are refused', async () => {
    const game = await newGame(cast, { start: false });
    const path = discordPath(cast, game);
    const id = String(++hookSerial);
    const saved = await cast.owner.put(path, { webhook_url: `${stand.webhook(id, 'threadTokenValue_0123456789')}?thread_id=112233445566` });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.discord.webhook_url_masked).toBe(`${stand.url}/api/webhooks/${id}/••••••••6789?thread_id=112233445566`);
    expect((await cast.owner.post(`${path}/test`)).body).toEqual({ ok: true });
    expect(stand.accepted(id).map((p) => p.query)).toEqual(['?thread_id=112233445566']);
    for (const query of ['?wait=true', '?thread_id=abc', '?thread_id=1&wait=true']) {
      expectError(await cast.owner.put(path, { webhook_url: `${stand.webhook(id)}${query}` }), 400, WEBHOOK_URL_MESSAGE);
    }
  });

  it('test post: {ok: true} once Discord took it; 502 with Discord\'s answer; a redirect is never followed', async () => {
    const { game, id } = await hooked();
    const path = discordPath(cast, game);
    const ok = await cast.owner.post(`${path}/test`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    expect(bodies(id)).toEqual([{ embeds: [expect.objectContaining({ title: 'Test message' })], allowed_mentions: { parse: [] } }]);

    stand.script.push({ status: 404 });
    const gone = await cast.owner.post(`${path}/test`);
    expect(gone.status).toBe(502);
    expect(gone.body.error).toContain('Discord answered 404');
    expect(gone.body.error).toContain('Unknown Webhook');

    let followed = 0;
    const elsewhere = http.createServer((_req, res) => {
      followed += 1;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/api/webhooks/1/abc`;
      stand.script.push({ redirect: target });
      const redirected = await cast.owner.post(`${path}/test`);
      expect(redirected.status).toBe(502);
      expect(redirected.body.error).toContain('redirect');
      // And from the outbox: the redirect disables the webhook, the target never sees a request.
      stand.script.push({ redirect: target });
      expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
      await waitFor(async () => (await cast.owner.get(path)).body.discord.state === 'disabled', 5000, 'disabled after a redirect');
      expect(followed).toBe(0);
    } finally {
      elsewhere.close();
    }
  });

  it('every kind arrives with its embeds in the team colour and allowed_mentions {parse: []}: status, rolls, reviews (approved; denied with reason), results', async () => {
    const { game, id } = await hooked({ proof: true });
    const leader = await joined(cast.owner, game);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    expect(await roll(leader, game, game.team1, cast.ign.ownerA)).toBeNull();
    const landed = leader.held!.team_states.find((t) => t.team_id === game.team1)!.current_position;

    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#c83232' } }).png().toBuffer();
    const send = async () => {
      const form = new FormData();
      form.append('team_id', String(game.team1));
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'proof.png');
      const r = await cast.member.call('POST', `${game.path}/submissions`, form);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.submission as { id: number; task_description: string };
    };
    const first = await send();
    const reviewPath = (sid: number) => `/api/clan/${cast.clanId}/submissions/${sid}/review`;
    expect((await cast.owner.put(reviewPath(first.id), { decision: 'deny', reason: 'The screenshot shows @everyone <@123> no drop' })).status).toBe(200);
    const second = await send();
    expect((await cast.owner.put(reviewPath(second.id), { decision: 'approve' })).status).toBe(200);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    expect((await cast.owner.put(`${game.path}/reset`)).status).toBe(200);

    await stand.until(() => stand.accepted(id).length >= 7, 20_000, '7 posts');
    for (const b of bodies(id)) expect(b.allowed_mentions).toEqual({ parse: [] });
    expect(titles(id)).toEqual(['Game started', 'Red Team', 'Proof denied', 'Proof approved', 'Game paused', 'Game resumed', 'Game reset']);
    const [, rolled, denied, approved] = bodies(id).map((b) => b.embeds[0]);
    expect(rolled).toMatchObject({ color: 0xaa0000 });
    expect(rolled.description).toMatch(new RegExp(`^🎲 Rolled a [1-6]: 1 → ${landed}$`));
    expect(denied).toMatchObject({ color: 0xaa0000 });
    expect(denied.description).toContain(`Red Team: square ${landed}`);
    expect(denied.description).toContain(`Denied by sock-owner-discord-${backend}: The screenshot shows @everyone \\<@123\\> no drop`);
    expect(approved).toMatchObject({ color: 0xaa0000 });
    expect(approved.description).toContain(`Approved by sock-owner-discord-${backend}.`);
    expect(bodies(id)[0].embeds[0].description).toMatch(/^Live \d+$/);

    // Results: a board where every first roll takes a ladder, so the game ends within a few rolls.
    const { game: g2, id: id2 } = await hooked({ size: 25, noWin: false });
    expect((await cast.owner.put(`${g2.path}/board`, { snakes_config: [], ladders_config: [[2, 20], [3, 21], [4, 22], [5, 23], [6, 19], [7, 24]] })).status).toBe(200);
    expect((await cast.owner.put(`${g2.path}/status`, { status: 'in-progress' })).status).toBe(200);
    const l1 = await joined(cast.owner, g2);
    const l2 = await joined(cast.leader2, g2);
    for (let i = 0; l1.held!.status !== 'finished' && i < 40; i += 1) {
      const [w, team, ign] = i % 2 === 0 ? [l1, g2.team1, cast.ign.ownerA] : [l2, g2.team2, cast.ign.leader2];
      await w.version(l1.held!.version);
      expect(await roll(w, g2, team, ign)).toBeNull();
      await l1.version(w.held!.version);
    }
    expect(l1.held!.status).toBe('finished');
    const rolls = turns(l1.held!);
    const winner = l1.held!.winners![0];
    await stand.until(() => titles(id2).includes(`Winner: ${winner.name}`), 20_000, 'the result');
    const all = bodies(id2);
    expect(all.map((b) => b.embeds[0].title).slice(-3).slice(1)).toEqual(['Game finished', `Winner: ${winner.name}`]);
    const lines = all.slice(1, -2).flatMap((b) => b.embeds.flatMap((e: { description: string }) => e.description.split('\n')));
    expect(lines.length, JSON.stringify(all)).toBe(rolls);
    expect(lines[0]).toMatch(/^🎲 Rolled a [1-6]: 1 → [2-7], ladder up to (19|2[0-4])$/);
    const result = all.at(-1).embeds[0];
    expect(result.color).toBe(parseInt(winner.color.slice(1), 16));
    const standings = [...l1.held!.team_states].sort((a, b) => b.current_position - a.current_position);
    const names = new Map([[g2.team1, 'Red Team'], [g2.team2, 'Blue Team']]);
    expect(result.description.split('\n').slice(1)).toEqual(standings.map((t, i) => `${i + 1}. ${names.get(t.team_id)}: square ${t.current_position}`));
  }, 90_000);

  it('a substitute task from relief is announced in the team colour (announce.reviews), not at all with reviews off', async () => {
    const relieve = async (announce: Record<string, boolean>) => {
      const { game, id } = await hooked({ proof: true }, announce);
      expect((await cast.owner.put(`${game.path}/rules`, { relief_after_hours: 1 })).status).toBe(200);
      const leader = await joined(cast.owner, game);
      expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
      expect(await roll(leader, game, game.team1, cast.ign.ownerA)).toBeNull();
      const square = leader.held!.team_states.find((t) => t.team_id === game.team1)!.current_position;
      // Two hours on the square, as if the team had waited that long.
      await directSql(db.env, 'UPDATE team_states SET square_since = ? WHERE game_id = ? AND team_id = ?', [new Date(Date.now() - 2 * 3_600_000 - 60_000).toISOString(), game.gameId, game.team1]);
      const mark = leader.got.length;
      const version = leader.held!.version;
      leader.socket.emit('request_relief', { game_id: game.gameId, team_id: game.team1 });
      const r = await leader.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && x.payload.game_state.version > version), 5000, mark);
      expect(r.event, JSON.stringify(r.payload)).toBe('game_state_update');
      const task = leader.held!.team_states.find((t) => t.team_id === game.team1)!.task_override!.description;
      return { id, square, task, game };
    };
    const on = await relieve({});
    await stand.until(() => titles(on.id).includes('New task (relief)'), 20_000, 'the relief');
    const embed = bodies(on.id).flatMap((b) => b.embeds).find((e: { title: string }) => e.title === 'New task (relief)');
    expect(embed).toEqual({ title: 'New task (relief)', description: `Red Team was stuck on square ${on.square} for 2 h: new task ${on.task}`, color: 0xaa0000 });

    const off = await relieve({ reviews: false });
    // A status change after it is posted, so the relief had its turn in the queue before.
    expect((await cast.owner.put(`${off.game.path}/status`, { status: 'paused' })).status).toBe(200);
    await stand.until(() => titles(off.id).includes('Game paused'), 20_000, 'the pause');
    expect(titles(off.id)).not.toContain('New task (relief)');
  });

  it('each kind is switchable: with only results on, a finished game posts only its result', async () => {
    const { game, id } = await hooked({ size: 25, noWin: false }, { status: false, rolls: false, reviews: false, results: true });
    expect((await cast.owner.put(`${game.path}/board`, { snakes_config: [], ladders_config: [[2, 20], [3, 21], [4, 22], [5, 23], [6, 19], [7, 24]] })).status).toBe(200);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    const l1 = await joined(cast.owner, game);
    for (let i = 0; l1.held!.status !== 'finished' && i < 40; i += 1) expect(await roll(l1, game, game.team1, cast.ign.ownerA)).toBeNull();
    await stand.until(() => stand.accepted(id).length >= 1, 10_000, 'the result');
    await new Promise((r) => setTimeout(r, 500));
    expect(titles(id)).toEqual(['Winner: Red Team']);
    const queued = await directSql(db.env, 'select count(*) as n from discord_outbox');
    expect(Number(queued[0].n)).toBe(0);
  }, 60_000);

  it('a burst of 60 rolls arrives coalesced: at most one message per 10 s window it spans and one more (2 within 10 s), at most 10 embeds each, every roll in them', async () => {
    // The contract's 10 s window: a server of its own, on a database of its own (every process's
    // worker posts from its database's outbox, and the suite's server batches over 1 s).
    const ownDb = await createTestDatabase(backend);
    const own = await startServer({ ...ownDb.env, ...stand.serverEnv() });
    try {
      const on = await castOf(own.url, `burst-${backend}`);
      const { game, id } = await hooked({ start: true }, {}, on);
      const l1 = await joined(on.owner, game, own.url);
      const l2 = await joined(on.leader2, game, own.url);
      const started = Date.now();
      for (let i = 0; i < 60; i += 1) {
        const [w, team, ign] = i % 2 === 0 ? [l1, game.team1, on.ign.ownerA] : [l2, game.team2, on.ign.leader2];
        await w.version(Math.max(l1.held!.version, l2.held!.version));
        expect(await roll(w, game, team, ign)).toBeNull();
      }
      // The burst's span: within one 10 s window on a quiet machine, a little more on a loaded one
      // (60 rolls one after another, each waiting for its broadcast). Each window the rolls span
      // may hold a message of its own, and one more may split at a window's edge.
      const windows = Math.ceil((Date.now() - started) / 10_000);
      const lineCount = () => bodies(id).filter((b) => b.embeds[0].title !== 'Game started')
        .flatMap((b) => b.embeds.flatMap((e: { description: string }) => e.description.split('\n'))).length;
      await stand.until(() => lineCount() >= 60, 30_000, '60 roll lines');
      await new Promise((r) => setTimeout(r, 1000));
      const messages = bodies(id).filter((b) => b.embeds[0].title !== 'Game started');
      expect(messages.length).toBeLessThanOrEqual(windows + 1);
      expect(lineCount()).toBe(60);
      for (const m of messages) {
        expect(m.embeds.length).toBeLessThanOrEqual(10);
        expect(m.allowed_mentions).toEqual({ parse: [] });
        for (const e of m.embeds) expect(e.color).toBe(e.title === 'Red Team' ? 0xaa0000 : 0x0000aa);
      }
    } finally {
      await own.stop();
      await ownDb.drop();
    }
  }, 60_000);

  it('a 429 is waited out (retry_after) and nothing is lost or reordered', async () => {
    const { game, id } = await hooked();
    stand.script.push({ status: 429, retry_after: 1.5 });
    for (const status of ['in-progress', 'paused', 'in-progress']) expect((await cast.owner.put(`${game.path}/status`, { status })).status).toBe(200);
    await stand.until(() => stand.accepted(id).length >= 3, 15_000, '3 posts');
    const tries = stand.requests.filter((r) => r.path.startsWith(`/api/webhooks/${id}/`));
    expect(tries[0].answer).toBe(429);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(1400);
    expect(titles(id)).toEqual(['Game started', 'Game paused', 'Game resumed']);
    expect((await cast.owner.get(discordPath(cast, game))).body.discord).toMatchObject({ state: 'active' });
  }, 30_000);

  it('a 404 disables the webhook: GET says disabled with last_error, nothing more is queued; saving the URL again re-enables it', async () => {
    const { game, id } = await hooked();
    const path = discordPath(cast, game);
    stand.script.push({ status: 404 });
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    await waitFor(async () => (await cast.owner.get(path)).body.discord.state === 'disabled', 10_000, 'disabled');
    const d = (await cast.owner.get(path)).body.discord;
    expect(d.last_error).toContain('Discord answered 404');
    expect(d.last_error).toContain('save a new webhook URL');
    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 600));
    expect(stand.requests.filter((r) => r.path.startsWith(`/api/webhooks/${id}/`)).length).toBe(1);
    const again = await cast.owner.put(path, { webhook_url: stand.webhook(id) });
    expect(again.body.discord).toMatchObject({ state: 'active', last_error: null });
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    await stand.until(() => stand.accepted(id).length >= 1, 10_000, 'a post after re-enabling');
    expect(titles(id)).toEqual(['Game resumed']);
  }, 30_000);

  it('a hang times out after 5 s and is retried (state failing meanwhile); a 500 is retried too', async () => {
    const { game, id } = await hooked();
    const path = discordPath(cast, game);
    stand.script.push('hang', { status: 500 });
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    await waitFor(async () => (await cast.owner.get(path)).body.discord.state === 'failing', 10_000, 'failing');
    expect((await cast.owner.get(path)).body.discord.last_error).toBe('Discord did not answer within 5 seconds.');
    await stand.until(() => stand.accepted(id).length >= 1, 15_000, 'the retried post');
    const tries = stand.requests.filter((r) => r.path.startsWith(`/api/webhooks/${id}/`));
    expect(tries.map((t) => t.answer)).toEqual(['hang', 500, 204]);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(4900);
    expect(tries[1].at - tries[0].at).toBeLessThan(8000);
    expect(titles(id)).toEqual(['Game started']);
    await waitFor(async () => (await cast.owner.get(path)).body.discord.state === 'active', 5000, 'active again');
  }, 40_000);

  it('retries of 5xx stop after 1 hour: what is older is dropped, the state says failing with why', async () => {
    const { game, id } = await hooked();
    const path = discordPath(cast, game);
    stand.script.push(...Array.from({ length: 6 }, () => ({ status: 503 })));
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    await waitFor(async () => (await cast.owner.get(path)).body.discord.state === 'failing', 10_000, 'failing');
    // The announcement has been failing for two hours (aged in the database, so nobody waits an hour).
    await directSql(db.env, 'update discord_outbox set created_at = ?', [new Date(Date.now() - 7_200_000).toISOString()]);
    await waitFor(async () => (await cast.owner.get(path)).body.discord.last_error?.startsWith('Announcements older than 1 hour were dropped') ?? false, 10_000, 'given up');
    expect((await cast.owner.get(path)).body.discord).toMatchObject({ state: 'failing', last_error: expect.stringContaining('Discord answered 503') });
    expect(Number((await directSql(db.env, 'select count(*) as n from discord_outbox'))[0].n)).toBe(0);
    expect(stand.accepted(id)).toEqual([]);
    stand.script.length = 0;
    // The next announcement is posted, and the webhook is active again.
    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    await stand.until(() => stand.accepted(id).length >= 1, 10_000, 'the next post');
    expect(titles(id)).toEqual(['Game paused']);
  }, 30_000);
});

/** Polls `test` every 100 ms until it holds; throws `what` after `ms`. */
async function waitFor(test: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

