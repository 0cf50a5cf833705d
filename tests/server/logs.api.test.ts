import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { CLIENT_ID, CLIENT_SECRET, DiscordStandIn, type DiscordUser } from '../support/discordStandIn';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';
import { connect, newGame, type Cast, type Watcher } from '../support/liveSocket';

/**
 * The server's log over real HTTP and sockets (docs/server.md §14): every answer carries an
 * X-Request-Id (the caller's when valid, else a new one) and its stdout line holds that id with
 * method, route pattern, status and duration; rolls and reverts log game, team and version; and
 * after a whole event — Discord sign-ins (sessions), a Discord webhook with its token, rolls, a
 * revert, a metrics scrape with its token, logouts — every stdout line is one JSON object and
 * none holds a session id or cookie, the webhook token, the OAuth client secret, an OAuth code or
 * state, or the metrics token.
 */

const METRICS_TOKEN = 'metrics-token-for-the-log-test-91c4e2';
const HOOK_TOKEN = 'tok_log_secret_6d1f0b3a9e8c7d5f4a2b';

/** One parsed stdout line. */
type Line = Record<string, unknown> & { level: string; time: string; msg: string };

describe.each(backends())('logs (%s)', (backend) => {
  const discord = new DiscordStandIn();
  const hooks = new DiscordWebhookStandIn();
  const env: Record<string, string> = {};
  // Before the suite's server starts (hooks run in order): it needs the stand-ins' addresses. The
  // OAuth redirect URI is the server's own callback (the default, from the request's origin).
  beforeAll(async () => {
    await Promise.all([discord.start(), hooks.start()]);
    Object.assign(env, hooks.serverEnv({ DISCORD_ROLL_WINDOW_MS: '200' }), {
      LOG_LEVEL: 'trace',
      METRICS_TOKEN,
      // A public game stays fresh in the cache, so its second read is answered before the app.
      GAME_CACHE_CHECK_MS: '60000',
      DISCORD_CLIENT_ID: CLIENT_ID,
      DISCORD_CLIENT_SECRET: CLIENT_SECRET,
      DISCORD_AUTHORIZE_URL: `${discord.url}/oauth2/authorize`,
      DISCORD_TOKEN_URL: `${discord.url}/api/oauth2/token`,
      DISCORD_USER_URL: `${discord.url}/api/users/@me`,
    });
  });
  const suite = useServerSuite(backend, env);
  const sockets: Watcher[] = [];
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([discord.stop(), hooks.stop()]);
  });

  /** Every stdout line so far, each parsed (a line that is not JSON fails the test). */
  function lines(): Line[] {
    return suite.server
      .stdout()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        try {
          return JSON.parse(l) as Line;
        } catch {
          throw new Error(`a stdout line is not JSON: ${l}`);
        }
      });
  }

  /** The first line passing `test`, waiting for it (the pipe delivers lines a moment after the answer). */
  async function lineWhere(test: (l: Line) => boolean, what: string): Promise<Line> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = lines().find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no log line ${what} within 5 s`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** GET `path` with X-Request-Id `id` (none when undefined); the answer's id and its log line. */
  async function traced(path: string, id?: string) {
    const r = await suite.client().call('GET', path, undefined, id === undefined ? {} : { 'x-request-id': id });
    const answered = r.headers.get('x-request-id') ?? '';
    const line = await lineWhere((l) => l.request_id === answered, `with request_id ${answered}`);
    return { status: r.status, id: answered, line };
  }

  it("a valid caller's request id is kept, anything else replaced; the answer and its one log line carry the same id", async () => {
    const kept = await traced('/api/games/spectate', 'trace-1.2:3_x');
    expect(kept.id).toBe('trace-1.2:3_x');
    expect(kept.line).toMatchObject({ level: 'info', method: 'GET', route: '/api/games/spectate', status: 200 });
    expect(typeof kept.line.duration_ms).toBe('number');
    expect(Date.parse(kept.line.time)).toBeGreaterThan(0);
    expect(kept.line.msg).toBeTruthy();
    expect(lines().filter((l) => l.request_id === 'trace-1.2:3_x')).toHaveLength(1);

    const longest = await traced('/api/games/spectate', 'L'.repeat(128));
    expect(longest.id).toBe('L'.repeat(128));
    for (const bad of ['x'.repeat(200), 'has a space', 'a=b']) {
      const replaced = await traced('/api/games/spectate', bad);
      expect(replaced.id).not.toBe(bad);
      expect(replaced.id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(suite.server.stdout()).not.toContain(bad);
    }
    const none = await traced('/api/games/spectate');
    expect(none.id).toMatch(/^[0-9a-f-]{36}$/);

    // Route patterns, never paths: an unknown API path, the OAuth callback with its code and state.
    const unknown = await traced('/api/no-such-thing/98765-unlogged-path', 'unknown-path');
    expect(unknown.status).toBe(404);
    expect(unknown.line.route).toBe('/api/*');
    const callback = await traced('/api/auth/discord/callback?code=SEKRITCODE123&state=SEKRITSTATE456', 'callback');
    expect(callback.line.route).toBe('/api/auth/discord/callback');
    expect(suite.server.stdout()).not.toMatch(/SEKRIT|no-such-thing|unlogged-path/);

    // Socket.IO's own HTTP answers (the polling handshake) carry one too.
    const polling = await suite.client().call('GET', '/socket.io/?EIO=4&transport=polling', undefined, { 'x-request-id': 'socket-handshake-1' });
    expect(polling.status).toBe(200);
    expect(polling.headers.get('x-request-id')).toBe('socket-handshake-1');
  });

  it('a whole event leaves only JSON lines, rolls and reverts with game, team and version, and no secret in any line', async () => {
    const secrets = new Set<string>([CLIENT_SECRET, METRICS_TOKEN, HOOK_TOKEN]);
    /** Cookie values are secrets (session ids, the sign-in flow's cookie); short flags are not. */
    const noteCookies = (c: ApiClient) => c.cookies.forEach((value) => value.length >= 16 && secrets.add(value));

    /** Discord sign-in through the stand-in, as a browser follows it; notes every cookie, code and state. */
    async function signIn(user: DiscordUser): Promise<ApiClient> {
      const client = suite.client();
      discord.user = user;
      const start = await client.get('/api/auth/discord?path=/games');
      expect(start.status).toBe(302);
      noteCookies(client);
      const authorize = new URL(start.headers.get('location')!);
      secrets.add(authorize.searchParams.get('state')!);
      const back = await fetch(authorize, { redirect: 'manual' });
      const callback = new URL(back.headers.get('location')!);
      secrets.add(callback.searchParams.get('code')!);
      const done = await client.get(callback.pathname + callback.search);
      expect(done.headers.get('location')).toContain('auth=success');
      noteCookies(client);
      return client;
    }
    /** Signs in and sets up with `igns` and `clan_setup`; answers the profile's IGN ids. */
    async function person(n: number, igns: string[], clan_setup: Record<string, unknown>) {
      const client = await signIn({ id: `9100000000000${n}`, username: `logger${n}-${backend}`, global_name: null, avatar: null });
      expect((await client.post('/api/user/setup', { igns, clan_setup })).status).toBe(200);
      const me = (await client.get('/api/user/me')).body;
      const ign = (name: string) => me.igns.find((i: { ign: string }) => i.ign === name).id as number;
      return { client, me, ign };
    }

    const owner = await person(1, ['LogOwnerA', 'LogOwnerB'], { role: 'Owner', clan_name: `Log Clan ${backend}` });
    const clanId = owner.me.clan_memberships_list[0].clan_id as number;
    const leader2 = await person(2, ['LogLeaderTwo'], { role: 'Member', clan_id: clanId });
    const member = await person(3, ['LogMember'], { role: 'Member', clan_id: clanId });
    const outsider = await person(4, ['LogOutsider'], { role: 'None' });
    const cast: Cast = {
      clanId,
      owner: owner.client,
      leader2: leader2.client,
      member: member.client,
      outsider: outsider.client,
      ign: { ownerA: owner.ign('LogOwnerA'), ownerB: owner.ign('LogOwnerB'), leader2: leader2.ign('LogLeaderTwo'), member: member.ign('LogMember') },
    };
    const game = await newGame(cast, { start: false });

    // The event's webhook (its URL holds its token); Discord fails the first post, then takes them.
    const hook = hooks.webhook('8802', HOOK_TOKEN);
    secrets.add(hook);
    expect((await cast.owner.put(`/api/clan/${clanId}/events/${game.eventId}/discord`, { webhook_url: hook })).status).toBe(200);
    hooks.script.push({ status: 500 });
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);

    // Live play: both Leaders roll, one reverts, a spectator and a member watch.
    const leaderOne = await connect(suite.url, 'leader one', cast.owner);
    const leaderTwo = await connect(suite.url, 'leader two', cast.leader2);
    const watcher = await connect(suite.url, 'member', cast.member);
    const spectator = await connect(suite.url, 'spectator');
    sockets.push(leaderOne, leaderTwo, watcher, spectator);
    let version = (await leaderOne.join(game.gameId)).version;
    await leaderTwo.join(game.gameId);
    await watcher.join(game.gameId);
    await spectator.join(game.gameId);
    const act = async (who: Watcher, event: 'roll_dice' | 'revert_roll', team: number, ign: number) => {
      who.socket.emit(event, { game_id: game.gameId, team_id: team, performer_ign_id: ign });
      version += 1;
      await spectator.version(version);
    };
    await act(leaderOne, 'roll_dice', game.team1, cast.ign.ownerA);
    await act(leaderTwo, 'roll_dice', game.team2, cast.ign.leader2);
    await act(leaderOne, 'roll_dice', game.team1, cast.ign.ownerA);
    await act(leaderOne, 'revert_roll', game.team1, cast.ign.ownerA);
    const revertVersion = version;
    // A refused roll (not the Leader) is logged with what the sender was told.
    watcher.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.member });
    await watcher.next((r) => r.event === 'action_error');
    for (const status of ['paused', 'in-progress']) expect((await cast.owner.put(`${game.path}/status`, { status })).status).toBe(200);

    // Reads: members' REST calls, the public game (the second read answered before the app), metrics with its token.
    expect((await cast.member.get(game.path)).status).toBe(200);
    for (const id of ['public-read-1', 'public-read-2']) {
      const r = await suite.client().call('GET', `/api/public/game/${game.gameId}`, undefined, { 'x-request-id': id });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-request-id')).toBe(id);
      expect(await lineWhere((l) => l.request_id === id, id)).toMatchObject({ method: 'GET', route: '/api/public/game/:gameId', status: 200 });
    }
    const scrape = await suite.client().call('GET', '/metrics', undefined, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(scrape.status).toBe(200);
    const stranger = await suite.client().call('GET', '/api/user/me', undefined, { cookie: 'sid=forged-session-id-0123456789abcdef' });
    expect(stranger.status).toBe(401);
    secrets.add('forged-session-id-0123456789abcdef');

    // Discord took the announcements after its failure; then people sign out.
    await hooks.until(() => hooks.accepted('8802').length >= 2, 20_000, 'announcements after the failed post');
    expect((await cast.leader2.post('/api/logout', {})).status).toBe(200);
    const lastLogout = await cast.owner.post('/api/logout', { everywhere: true });
    expect(lastLogout.status).toBe(200);

    // Rolls and reverts: game, team and version in their lines.
    const rolls = lines().filter((l) => l.msg === 'roll applied');
    expect(rolls.map((l) => [l.game_id, l.team_id])).toEqual([
      [game.gameId, game.team1],
      [game.gameId, game.team2],
      [game.gameId, game.team1],
    ]);
    for (const l of rolls) expect(typeof l.version).toBe('number');
    expect(new Set(rolls.map((l) => l.version)).size).toBe(3);
    expect(lines().find((l) => l.msg === 'revert applied')).toMatchObject({ game_id: game.gameId, team_id: game.team1, version: revertVersion });
    expect(lines().find((l) => l.msg === 'roll_dice refused')).toMatchObject({ game_id: game.gameId, team_id: game.team1 });
    expect(lines().some((l) => l.msg === 'discord post failed' && l.reason === 'retry')).toBe(true);

    // Every line is one JSON object with level, time and msg; none holds a secret.
    const lastId = lastLogout.headers.get('x-request-id');
    await lineWhere((l) => l.request_id === lastId, 'of the last logout');
    const all = lines();
    expect(all.length).toBeGreaterThan(40);
    for (const l of all) {
      expect(typeof l.level).toBe('string');
      expect(typeof l.time).toBe('string');
      expect(typeof l.msg).toBe('string');
    }
    const text = suite.server.stdout();
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) expect(text.includes(secret), `a log line holds ${secret}`).toBe(false);
  }, 120_000);
});
