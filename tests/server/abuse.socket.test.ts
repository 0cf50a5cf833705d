import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { io as connectSocket } from 'socket.io-client';
import { backends, type TestServer } from '../support/server';
import { useServerSuite, useTwoProcesses } from '../support/suite';
import { ApiClient } from '../support/api';
import { autoSplit, countsToSettings } from '../../contract/game';
import { castOf, connect, watchersOf, newGame, sleep, type Cast, type Client, type TestGame, type Watcher } from '../support/liveSocket';

/**
 * A live game under abuse, with the default limits (docs/server.md §8): roll
 * and join floods from outsiders, members and 100 sockets leave the Leader's roll answered
 * within 1 s and another user's HTTP call within 0.5 s, the flooders hear 'Too many requests.
 * Slow down.' at most once a second; the per-user limit; the per-address connection cap with
 * TRUST_PROXY; a kicked, departed, demoted or signed-out user's open sockets leave the members
 * room at once; and, with TEST_DATABASE_URL and TEST_REDIS_URL, the same across two processes
 * (20 s of concurrent rolls over both without one refusal: tests/server/concurrent-rolls.socket.test.ts).
 */

const TOO_MANY = 'Too many requests. Slow down.';

/** ms from `start` to now. */
const since = (start: number) => performance.now() - start;

/** The Leader (OwnerA of team 1) rolls once; resolves with the ms until its own socket holds the next version. */
async function timedRoll(leader: Watcher, cast: Cast, game: TestGame): Promise<number> {
  const v0 = leader.held!.version;
  const start = performance.now();
  leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
  await leader.version(v0 + 1, 15_000);
  return since(start);
}

/** ms one GET /api/user/me of `api` takes (it must answer 200). */
async function timedCall(api: ApiClient): Promise<number> {
  const start = performance.now();
  const r = await api.get('/api/user/me');
  expect(r.status).toBe(200);
  return since(start);
}

/** The TOO_MANY answers a watcher got after mark `from`, with their arrival times in ms. */
function tooManyTimes(w: Watcher, times: Map<Watcher, number[]>): number[] {
  return times.get(w) ?? [];
}

/** Records the arrival time of every TOO_MANY `action_error` of `w` in `times`. */
function recordTooMany(w: Watcher, times: Map<Watcher, number[]>): void {
  times.set(w, []);
  w.socket.on('action_error', ({ message }) => {
    if (message === TOO_MANY) times.get(w)!.push(performance.now());
  });
}

/** True when no two times lie within 1 s of each other (at most one answer a second; 50 ms timer slack). */
function atMostOncePerSecond(times: number[]): boolean {
  return times.every((t, i) => i === 0 || t - times[i - 1] >= 950);
}

/** A raw socket.io client (no Watcher), for floods where recording every message would cost the test process. */
async function rawSocket(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const socket: Client = connectSocket(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: headers });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  return socket;
}

/**
 * The Leader (OwnerA of team 1) rolls once, and `w`, moved out of the members room a moment
 * before, must receive exactly that one update, in the public shape (no revert counts).
 */
async function expectOnlyPublicUpdate(leader: Watcher, w: Watcher, cast: Cast, game: TestGame): Promise<void> {
  const mark = w.got.length;
  const v0 = leader.held!.version;
  leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
  await leader.version(v0 + 1);
  await sleep(300);
  const updates = w.got.slice(mark).filter((g) => g.event === 'game_state_update');
  expect(updates.length).toBe(1);
  for (const g of updates) {
    if (g.event !== 'game_state_update') continue;
    for (const t of g.payload.game_state.team_states) expect(t).not.toHaveProperty('revert_count');
  }
}

/** Where the parties of a flood connect (one process, or two of one site). */
interface FloodSites {
  leader: string;
  flooder: string;
}

/**
 * A signed-in `who` (the outsider floods with the Leader's IGN, the member with their own) sends
 * 30,000 roll_dice/revert_roll at once; meanwhile the Leader's roll must be answered under 1 s
 * and another user's HTTP call under 0.5 s, the flooder hears TOO_MANY at most once a second,
 * and nothing of the flood is applied. Sockets are pushed on `open` for the suite to close.
 */
async function rollFlood(cast: Cast, who: 'outsider' | 'member', sites: FloodSites, open: { close(): void }[]): Promise<void> {
  const game = await newGame(cast);
  const leader = await connect(sites.leader, 'leader', cast.owner);
  const flooder = await connect(sites.flooder, `flooding ${who}`, cast[who]);
  open.push(leader, flooder);
  await leader.join(game.gameId);
  await flooder.join(game.gameId);
  const times = new Map<Watcher, number[]>();
  recordTooMany(flooder, times);
  const mark = flooder.got.length;
  const floodStart = performance.now();
  const performer = who === 'member' ? cast.ign.member : cast.ign.ownerA;
  for (let i = 0; i < 30_000; i += 1) {
    flooder.socket.emit(i % 2 ? 'roll_dice' : 'revert_roll', { game_id: game.gameId, team_id: game.team1, performer_ign_id: performer });
  }
  await sleep(50);
  const [rollMs, callMs] = await Promise.all([timedRoll(leader, cast, game), timedCall(cast.leader2)]);
  expect(rollMs).toBeLessThan(1000);
  expect(callMs).toBeLessThan(500);
  // A second roll after the flood has been read in full is just as quick.
  await sleep(1100);
  expect(await timedRoll(leader, cast, game)).toBeLessThan(1000);
  const tooMany = tooManyTimes(flooder, times);
  expect(tooMany.length).toBeGreaterThanOrEqual(1);
  expect(tooMany.length).toBeLessThanOrEqual(Math.ceil(since(floodStart) / 1000) + 1);
  // (No gap check here: this test process is busy sending the flood, so answers sent a second
  // apart can be read in the same millisecond; the count bounds them.)
  // Only the few that passed the limit were answered, each with its refusal; nothing was applied.
  const refusals = flooder.got.slice(mark).filter((g) => g.event === 'action_error' && g.payload.message !== TOO_MANY);
  expect(refusals.length).toBeLessThanOrEqual(30);
  expect(leader.held!.team_states.find((t) => t.team_id === game.team1)!.position_history).toHaveLength(3);
}

/**
 * 99 anonymous sockets (with the Leader's, 100 from this address), spread over `sites.flooders`,
 * each send 50 join_game at once; the Leader's roll stays under 1 s and another user's call under
 * 0.5 s, each flooder hears TOO_MANY at most once a second and is served again after it.
 */
async function joinFlood(cast: Cast, sites: { leader: string; flooders: string[] }, open: { close(): void }[]): Promise<void> {
  const game = await newGame(cast);
  const leader = await connect(sites.leader, 'leader', cast.owner);
  open.push(leader);
  await leader.join(game.gameId);
  const flooders: Watcher[] = [];
  for (let i = 0; i < 99; i += 1) flooders.push(await connect(sites.flooders[i % sites.flooders.length], `join flooder ${i}`));
  open.push(...flooders);
  const times = new Map<Watcher, number[]>();
  for (const f of flooders) recordTooMany(f, times);
  const floodStart = performance.now();
  for (let round = 0; round < 50; round += 1) {
    for (const f of flooders) f.socket.emit('join_game', { game_id: game.gameId });
  }
  await sleep(50);
  const [rollMs, callMs] = await Promise.all([timedRoll(leader, cast, game), timedCall(cast.leader2)]);
  expect(rollMs).toBeLessThan(1000);
  expect(callMs).toBeLessThan(500);
  await sleep(1000);
  const elapsed = since(floodStart);
  for (const f of flooders) {
    const t = tooManyTimes(f, times);
    expect(t.length).toBeGreaterThanOrEqual(1);
    expect(t.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1000) + 1);
    expect(atMostOncePerSecond(t)).toBe(true);
  }
  // The flooders are served again once the second is over.
  await sleep(1000);
  expect((await flooders[0].join(game.gameId)).id).toBe(game.gameId);
}

describe.each(backends())('a live game under abuse (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED: '9009' });
  let cast: Cast;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, `abuse-${backend}`);
  });

  // Every test closes its sockets: all of them come from 127.0.0.1, which may hold 100.
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });

  for (const who of ['outsider', 'member'] as const) {
    it(`a flood of 30,000 roll_dice from a signed-in ${who} leaves the Leader's roll under 1 s and another user's call under 0.5 s`, async () => {
      await rollFlood(cast, who, { leader: suite.url, flooder: suite.url }, open);
    });
  }

  it("100 sockets flooding join_game leave the Leader's roll under 1 s and another user's call under 0.5 s", async () => {
    await joinFlood(cast, { leader: suite.url, flooders: [suite.url] }, open);
  });

  it('each socket may send 5 rolls a second and each user 10 over all their sockets; the rest are refused, not queued', async () => {
    const game = await newGame(cast);
    const sockets = [await watcher('leader 1', cast.owner), await watcher('leader 2', cast.owner), await watcher('leader 3', cast.owner)];
    for (const s of sockets) await s.join(game.gameId);
    const v0 = sockets[0].held!.version;
    const marks = sockets.map((s) => s.got.length);
    // 8 from one socket: 5 pass, 3 are refused (one TOO_MANY answer for the socket).
    for (let i = 0; i < 8; i += 1) sockets[0].socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    // 5 + 5 more from two other sockets of the same user: only 5 of them fit the user's 10.
    for (const s of sockets.slice(1)) {
      for (let i = 0; i < 5; i += 1) s.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    }
    await sockets[0].version(v0 + 10);
    await sleep(600);
    expect(sockets[0].held!.version).toBe(v0 + 10);
    const told = sockets.map((s, i) => s.got.slice(marks[i]).filter((g) => g.event === 'action_error').map((g) => g.payload.message));
    expect(told[0]).toEqual([TOO_MANY]);
    expect(told[1].length + told[2].length).toBeGreaterThanOrEqual(1);
    for (const t of told) expect(new Set(t)).toEqual(new Set(t.length ? [TOO_MANY] : []));
    // A second later the Leader rolls again.
    await sleep(500);
    const v1 = sockets[0].held!.version;
    sockets[0].socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    await sockets[0].version(v1 + 1);
  });

  it('a refused roll is decided before the queue: refusals during a busy game come back at once', async () => {
    const game = await newGame(cast);
    const leader = await watcher('leader', cast.owner);
    const member = await watcher('member', cast.member);
    await leader.join(game.gameId);
    await member.join(game.gameId);
    const mark = member.got.length;
    const start = performance.now();
    member.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.member });
    expect(await member.errorWithin(2000, mark)).toBe('Only the Leader of your team can roll the dice or revert a turn.');
    expect(since(start)).toBeLessThan(1000);
  });

  it("a kicked member's open socket gets nothing more from the members room within 1 s, and setup cannot bring them back until a manager adds them", async () => {
    const url = suite.url;
    const owner = cast.owner;
    const kicked = new ApiClient(url);
    const me = await kicked.onboard(`kicked-${backend}`, ['KickedOne'], { role: 'Member', clan_id: cast.clanId });
    const game = await newGame(cast);
    const leader = await watcher('leader', owner);
    const victim = await watcher('kicked member', kicked);
    await leader.join(game.gameId);
    const held = await victim.join(game.gameId);
    expect(held).toHaveProperty('user_teams');
    expect((await owner.call('DELETE', `/api/clan/${cast.clanId}/members/${me.id}`)).status).toBe(200);
    await sleep(1000);
    // Still watching as a spectator: the public shape only (no revert counts, no IGNs).
    await expectOnlyPublicUpdate(leader, victim, cast, game);

    // Their IGNs deleted, setup as Member of the clan that kicked them is refused.
    for (const ign of me.igns) expect((await kicked.call('DELETE', `/api/user/igns/${ign.id}`)).status).toBe(200);
    const again = await kicked.post('/api/user/setup', { igns: ['BackAgain'], clan_setup: { role: 'Member', clan_id: cast.clanId } });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ error: 'You were removed from this clan. Ask a manager to add you again.' });
    expect((await kicked.get('/api/user/me')).body.igns).toEqual([]);
    // Setup without that clan still works, and a manager's Add Member lifts the refusal.
    expect((await owner.post(`/api/clan/${cast.clanId}/members`, { user_id: me.id, role: 'Member' })).status).toBe(200);
    expect((await owner.call('DELETE', `/api/clan/${cast.clanId}/members/${me.id}`)).status).toBe(200);
    expect((await owner.post(`/api/clan/${cast.clanId}/members`, { user_id: me.id, role: 'Member' })).status).toBe(200);
    expect((await owner.call('DELETE', `/api/clan/${cast.clanId}/members/${me.id}`)).status).toBe(200);
    // Only a kick is remembered: leaving does not stop a later setup as Member.
    const leaver = new ApiClient(url);
    const lm = await leaver.onboard(`leaver-${backend}`, ['Leaver'], { role: 'Member', clan_id: cast.clanId });
    expect((await leaver.call('DELETE', `/api/clan/${cast.clanId}/members/${lm.id}`)).status).toBe(200);
    for (const ign of lm.igns) expect((await leaver.call('DELETE', `/api/user/igns/${ign.id}`)).status).toBe(200);
    expect((await leaver.post('/api/user/setup', { igns: ['LeaverBack'], clan_setup: { role: 'Member', clan_id: cast.clanId } })).status).toBe(200);
  });

  it('leave and a demotion to Guest move the open socket out of the members room; logout disconnects it', async () => {
    const owner = cast.owner;
    const game = await newGame(cast);
    const leader = await watcher('leader', owner);
    await leader.join(game.gameId);
    // Demotion to Guest.
    const demoted = new ApiClient(suite.url);
    const dm = await demoted.onboard(`demoted-${backend}`, ['Demoted'], { role: 'Member', clan_id: cast.clanId });
    const dw = await watcher('demoted', demoted);
    await dw.join(game.gameId);
    expect((await owner.put(`/api/clan/${cast.clanId}/members/${dm.id}/role`, { role: 'Guest' })).status).toBe(200);
    await sleep(1000);
    await expectOnlyPublicUpdate(leader, dw, cast, game);
    // A Guest joining again is a spectator too.
    expect(await dw.join(game.gameId)).not.toHaveProperty('user_teams');

    // Leave.
    const leaver = new ApiClient(suite.url);
    const lm = await leaver.onboard(`leaving-${backend}`, ['Leaving'], { role: 'Member', clan_id: cast.clanId });
    const lw = await watcher('leaver', leaver);
    await lw.join(game.gameId);
    expect((await leaver.call('DELETE', `/api/clan/${cast.clanId}/members/${lm.id}`)).status).toBe(200);
    await sleep(1000);
    await expectOnlyPublicUpdate(leader, lw, cast, game);

    // Logout disconnects the session's sockets; logout everywhere all of the user's.
    const twice = new ApiClient(suite.url);
    await twice.onboard(`twice-${backend}`, ['Twice'], { role: 'Member', clan_id: cast.clanId });
    const first = await watcher('first session', twice);
    await first.join(game.gameId);
    const disconnected = new Promise<string>((resolve) => first.socket.once('disconnect', (reason) => resolve(reason)));
    expect((await twice.post('/api/logout')).status).toBe(200);
    expect(await Promise.race([disconnected, sleep(1000).then(() => 'still connected')])).toBe('io server disconnect');
  });

  it('disbanding a clan empties the rooms of its games', async () => {
    const boss = new ApiClient(suite.url);
    const me = await boss.onboard(`disband-${backend}`, ['Boss'], { role: 'Owner', clan_name: `Disband ${backend}` });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    const ev = await boss.post(`/api/clan/${clanId}/events/`, { name: 'Short lived', start_datetime: '2031-06-01T18:00Z' });
    const t = await boss.post(`/api/clan/${clanId}/events/${ev.body.event.id}/teams/`, { name: 'Only', color: '#00aa00' });
    expect(t.status).toBe(200);
    const g = await boss.post(`/api/clan/${clanId}/events/${ev.body.event.id}/game/`, {
      board_size: 25, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 1, ...countsToSettings(autoSplit(25)),
    });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const w = await watcher('boss', boss);
    await w.join(g.body.game.id);
    expect((await boss.call('DELETE', `/api/clan/${clanId}`)).status).toBe(200);
    // The socket is still connected but in no room of the game: a leave changes nothing, a join is refused.
    const mark = w.got.length;
    w.socket.emit('join_game', { game_id: g.body.game.id });
    expect(await w.errorWithin(3000, mark)).toBe('Game not found.');
  });
});

describe('connection cap and sign-in limit per client address (TRUST_PROXY=1)', () => {
  const suite = useServerSuite('sqlite', { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '5' });
  const sockets: Client[] = [];

  afterAll(() => {
    for (const s of sockets) s.disconnect();
  });

  it('100 sockets from one address connect, the 101st is refused, another address is not, and a closed one frees a place', async () => {
    for (let i = 0; i < 100; i += 1) sockets.push(await rawSocket(suite.url, { 'x-forwarded-for': '203.0.113.7' }));
    await expect(rawSocket(suite.url, { 'x-forwarded-for': '203.0.113.7' })).rejects.toThrow('Too many connections from your address.');
    sockets.push(await rawSocket(suite.url, { 'x-forwarded-for': '203.0.113.8' }));
    sockets[0].disconnect();
    await sleep(200);
    sockets.push(await rawSocket(suite.url, { 'x-forwarded-for': '203.0.113.7' }));
  });

  it('sign-in attempts are limited per forwarded address', async () => {
    const attempt = (address: string, n: number) =>
      new ApiClient(suite.url).call('POST', '/api/auth/dev', { username: `limited-${n}` }, { 'x-forwarded-for': address });
    for (let i = 0; i < 5; i += 1) expect((await attempt('198.51.100.1', i)).status).toBe(200);
    const refused = await attempt('198.51.100.1', 5);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Too many sign-in attempts. Please wait a minute and try again.' });
    expect((await attempt('198.51.100.2', 6)).status).toBe(200);
  });
});

describe('under abuse across two processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!redisUrl || !databaseUrl) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }

  const site = useTwoProcesses(redisUrl, { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '6' });
  let a: TestServer;
  let b: TestServer;
  let cast: Cast;
  const open: Watcher[] = [];
  const on = async (server: TestServer, name: string, api?: ApiClient) => {
    const w = await connect(server.url, name, api);
    open.push(w);
    return w;
  };

  beforeAll(async () => {
    ({ a, b } = site);
    cast = await castOf(a.url, 'abuse-redis');
  });

  // All sockets come from 127.0.0.1, which may hold 100 over both processes: close them after each test.
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });

  for (const who of ['outsider', 'member'] as const) {
    it(`a roll_dice flood from a ${who} through one process leaves the Leader's roll on the other under 1 s`, async () => {
      await rollFlood(cast, who, { leader: b.url, flooder: a.url }, open);
    });
  }

  it("100 sockets flooding join_game over both processes leave the Leader's roll under 1 s", async () => {
    await joinFlood(cast, { leader: b.url, flooders: [a.url, b.url] }, open);
  });

  it("one user's limit of 10 rolls a second spans both processes", async () => {
    const game = await newGame(cast);
    const leader = await on(b, 'leader@b', cast.owner);
    await leader.join(game.gameId);
    // 5 + 5 + 5 rolls from three sockets of one user over two processes: 10 are applied.
    const s2 = await on(a, 'leader@a', cast.owner);
    const s3 = await on(b, 'leader2@b', cast.owner);
    await s2.join(game.gameId);
    await s3.join(game.gameId);
    const v0 = leader.held!.version;
    for (const s of [leader, s2, s3]) {
      for (let i = 0; i < 5; i += 1) s.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    }
    await leader.version(v0 + 10);
    await sleep(700);
    expect(leader.held!.version).toBe(v0 + 10);
  });

  it("a kick made through one process moves the kicked member's socket on the other out of the members room within 1 s", async () => {
    const kicked = new ApiClient(a.url);
    const me = await kicked.onboard('kicked-redis', ['KickedRedis'], { role: 'Member', clan_id: cast.clanId });
    const game = await newGame(cast);
    const leader = await on(a, 'leader@a', cast.owner);
    const victim = await on(b, 'kicked@b', kicked);
    await leader.join(game.gameId);
    await victim.join(game.gameId);
    expect((await cast.owner.call('DELETE', `/api/clan/${cast.clanId}/members/${me.id}`)).status).toBe(200);
    await sleep(1000);
    await expectOnlyPublicUpdate(leader, victim, cast, game);
    // Logout through process a disconnects a socket of that session on process b.
    const twice = new ApiClient(a.url);
    await twice.onboard('logout-redis', ['LogoutRedis'], { role: 'Member', clan_id: cast.clanId });
    const sock = await on(b, 'session@b', twice);
    const gone = new Promise<string>((resolve) => sock.socket.once('disconnect', (reason) => resolve(reason)));
    expect((await twice.post('/api/logout')).status).toBe(200);
    expect(await Promise.race([gone, sleep(1000).then(() => 'still connected')])).toBe('io server disconnect');
  });

  it('the sign-in limit and the connection cap are shared by both processes', async () => {
    const attempt = (server: TestServer, n: number) =>
      new ApiClient(server.url).call('POST', '/api/auth/dev', { username: `shared-${n}` }, { 'x-forwarded-for': '192.0.2.44' });
    for (let i = 0; i < 6; i += 1) expect((await attempt(i % 2 ? a : b, i)).status).toBe(200);
    expect((await attempt(a, 6)).status).toBe(429);
    expect((await attempt(b, 7)).status).toBe(429);
    const sockets: Client[] = [];
    try {
      for (let i = 0; i < 100; i += 1) sockets.push(await rawSocket((i % 2 ? a : b).url, { 'x-forwarded-for': '192.0.2.55' }));
      await expect(rawSocket(a.url, { 'x-forwarded-for': '192.0.2.55' })).rejects.toThrow('Too many connections from your address.');
      await expect(rawSocket(b.url, { 'x-forwarded-for': '192.0.2.55' })).rejects.toThrow('Too many connections from your address.');
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });
});
