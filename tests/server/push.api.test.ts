import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import sharp from 'sharp';
import { backends } from '../support/server';
import { useServerSuite, useTwoProcesses } from '../support/suite';
import { ApiClient, type Answer } from '../support/api';
import { directSql } from '../support/fixtures';
import { act, castOf, newGame, watchersOf, type Cast, type TestGame } from '../support/liveSocket';
import { draftCast, type DraftCast } from '../support/draft';
import { PushStandIn, type ReceivedPush } from '../support/pushStandIn';
import { PUSH_MESSAGES } from '../../contract/push';

/**
 * Web push (docs/server.md §20) over real HTTP against a push service stand-in that checks each
 * push's VAPID JWT and decrypts its aes128gcm body: the key, subscription checks, the switches,
 * who gets each notification with its exact title, body and url, never the acting user, a switch
 * off, 'Proof waiting' coalescing (the 5 minutes are shortened in the database, never waited),
 * 410 removing a subscription, 503 tried again, and one send per push with two processes.
 */

const TIERS = ['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'];
const FAST = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000', PUSH_POLL_MS: '200' };

/** Polls `check` every 50 ms until it answers true; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const expectError = (r: Answer, status: number, error?: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (error !== undefined) expect(r.body).toEqual({ error });
};

/** The push of `name` with `title`, once it came. */
async function pushOf(stand: PushStandIn, name: string, title: string): Promise<ReceivedPush> {
  await until(() => stand.of(name).some((p) => p.payload.title === title), `${title} to ${name}`);
  return stand.of(name).find((p) => p.payload.title === title)!;
}

/** The queue is empty (everything sent or given up). */
const queueEmpty = async (env: Record<string, string>) => Number((await directSql(env, 'SELECT COUNT(*) AS n FROM push_queue'))[0].n) === 0;

const png = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83232' } }).png().toBuffer();

function submit(api: ApiClient, game: TestGame, teamId: number, bytes: Buffer): Promise<Answer> {
  const form = new FormData();
  form.append('team_id', String(teamId));
  form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'proof.png');
  return api.call('POST', `${game.path}/submissions`, form);
}

describe.each(backends())('web push (%s)', (backend) => {
  const stand = new PushStandIn();
  const env: Record<string, string> = { ...FAST };
  beforeAll(async () => {
    await stand.start();
    env.PUSH_ALLOWED_ORIGINS = `https://push.example.org, ${stand.url}`;
  });
  const suite = useServerSuite(backend, env);
  let cast: Cast;
  let admin: ApiClient;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, `push-${backend}`);
    const rows = ['description,difficulty', ...TIERS.flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} push task ${i + 1},${t}`))];
    const form = new FormData();
    form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
    expect((await cast.owner.call('POST', `/api/clan/${cast.clanId}/tasks/upload_csv`, form)).status).toBe(200);
    admin = new ApiClient(suite.url);
    const adminId = (await admin.onboard(`push-admin-${backend}`, ['PushReferee'], { role: 'Member', clan_id: cast.clanId })).id;
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/members/${adminId}/role`, { role: 'Admin' })).status).toBe(200);
  });

  afterAll(async () => {
    for (const w of open) w.close();
    await stand.stop();
  });

  it('GET /api/push/key: the same uncompressed P-256 key to everyone, no sign-in', async () => {
    const a = await new ApiClient(suite.url).get('/api/push/key');
    expect(a.status).toBe(200);
    const key = Buffer.from(a.body.public_key, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect((await cast.owner.get('/api/push/key')).body).toEqual(a.body);
    expect((await directSql(suite.env, 'SELECT public_key FROM push_vapid'))).toEqual([{ public_key: a.body.public_key }]);
  });

  it('subscriptions: https only (or an allowed origin), 2,048 characters, key lengths, 10 a user, delete', async () => {
    const good = stand.subscription('checks');
    const anon = new ApiClient(suite.url);
    expectError(await anon.post('/api/push/subscriptions', good), 401);
    const api = cast.outsider;
    const post = (body: unknown) => api.post('/api/push/subscriptions', body);
    expectError(await post({ ...good, endpoint: 'http://push.elsewhere.org/x' }), 400, PUSH_MESSAGES.endpoint);
    expectError(await post({ ...good, endpoint: 'not a url' }), 400, PUSH_MESSAGES.endpoint);
    expectError(await post({ ...good, endpoint: `https://push.elsewhere.org/${'x'.repeat(2048)}` }), 400, PUSH_MESSAGES.endpoint);
    expectError(await post({ ...good, endpoint: 'ftp://push.elsewhere.org/x' }), 400, PUSH_MESSAGES.endpoint);
    expectError(await post({ ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(0, 40) } }), 400, PUSH_MESSAGES.keys);
    expectError(await post({ ...good, keys: { ...good.keys, auth: Buffer.alloc(15).toString('base64url') } }), 400, PUSH_MESSAGES.keys);
    expectError(await post({ ...good, keys: { ...good.keys, auth: '!!!!' } }), 400, PUSH_MESSAGES.keys);
    expectError(await post({ endpoint: good.endpoint }), 400);
    // An http endpoint on an allowed origin, and any https one of at most 2,048 characters.
    expect((await post(good)).status).toBe(201);
    const https = (n: number) => ({ ...good, endpoint: `https://push.elsewhere.org/${n}` });
    const long = `https://push.elsewhere.org/${'y'.repeat(2048 - 'https://push.elsewhere.org/'.length)}`;
    expect((await post({ ...good, endpoint: long })).status).toBe(201);
    for (let n = 1; n <= 9; n++) expect((await post(https(n))).status).toBe(201);
    // Eleven sent: the oldest (the stand-in's) is gone, ten are kept.
    const kept = await directSql(suite.env, 'SELECT s.endpoint FROM push_subscriptions s JOIN users u ON u.id = s.user_id WHERE u.username = ?', [`sock-outsider-push-${backend}`]);
    expect(kept).toHaveLength(10);
    expect(kept.map((r: { endpoint: string }) => r.endpoint)).not.toContain(good.endpoint);
    expect((await api.call('DELETE', '/api/push/subscriptions', { endpoint: https(3).endpoint })).status).toBe(200);
    const after = await directSql(suite.env, 'SELECT endpoint FROM push_subscriptions WHERE endpoint = ?', [https(3).endpoint]);
    expect(after).toEqual([]);
  });

  it('switches: all on by default, PUT takes any subset, 400 for a non-boolean, 401 signed out', async () => {
    const api = new ApiClient(suite.url);
    await api.onboard(`push-switches-${backend}`, ['SwitchIgn']);
    expect((await api.get('/api/user/me/notifications')).body).toEqual({ proof_decided: true, may_roll: true, proof_waiting: true, draft_turn: true });
    const put = await api.put('/api/user/me/notifications', { may_roll: false, draft_turn: false });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ proof_decided: true, may_roll: false, proof_waiting: true, draft_turn: false });
    expect((await api.put('/api/user/me/notifications', { draft_turn: true })).body).toEqual({ proof_decided: true, may_roll: false, proof_waiting: true, draft_turn: true });
    expectError(await api.put('/api/user/me/notifications', { may_roll: 'yes' }), 400);
    expectError(await new ApiClient(suite.url).get('/api/user/me/notifications'), 401);
  });

  it('proof: waiting (coalesced) to managers, decided to the team, your roll to its Leader; never the actor; switch off; 410; 503', async () => {
    const subscribe = async (api: ApiClient, name: string) => {
      const sub = stand.subscription(name);
      expect((await api.post('/api/push/subscriptions', sub)).status).toBe(201);
      return sub;
    };
    await subscribe(cast.owner, 'owner');
    await subscribe(cast.member, 'member');
    const gone = await subscribe(cast.member, 'member-gone');
    await subscribe(cast.leader2, 'leader2');
    const adminSub = await subscribe(admin, 'admin');
    // The owner (a manager and team 1's Leader) does not want 'Proof waiting'.
    expect((await cast.owner.put('/api/user/me/notifications', { proof_waiting: false })).status).toBe(200);

    const game = await newGame(cast, { proof: true });
    const event = (await directSql(suite.env, 'SELECT name FROM events WHERE id = ?', [game.eventId]))[0].name as string;
    const clan = (await directSql(suite.env, 'SELECT name FROM clans WHERE id = ?', [cast.clanId]))[0].name as string;
    const leader = await watcher('push-leader', cast.owner);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();

    // The push service is down for the admin's first push: tried again after a 503.
    stand.answerNext(adminSub.endpoint, 503);
    const sent = await submit(cast.member, game, game.team1, await png());
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const square = sent.body.submission.square_index as number;
    const waiting = await pushOf(stand, 'admin', 'Proof waiting');
    expect(waiting.payload).toEqual({ title: 'Proof waiting', body: `1 waiting for review in ${clan}.`, url: `/clans/manage/${cast.clanId}/reviews`, tag: `reviews-${cast.clanId}` });
    expect(waiting.ttl).toBe('3600');
    expect(waiting.encoding).toBe('aes128gcm');
    expect(stand.hits.filter((h) => h === 'admin').length).toBeGreaterThanOrEqual(2);

    const gamePath = `/games/clan/${cast.clanId}/events/${game.eventId}/game/${game.gameId}`;
    expect((await admin.put(`/api/clan/${cast.clanId}/submissions/${sent.body.submission.id}/review`, { decision: 'approve' })).status).toBe(200);
    const approved = { title: 'Proof approved', body: `Red Team, square ${square}: approved by push-admin-${backend}.`, url: gamePath };
    expect((await pushOf(stand, 'member', 'Proof approved')).payload).toMatchObject(approved);
    expect((await pushOf(stand, 'owner', 'Proof approved')).payload).toMatchObject(approved);
    expect((await pushOf(stand, 'owner', 'Your roll')).payload).toMatchObject({ title: 'Your roll', body: `Red Team may roll in ${event}.`, url: gamePath });
    await until(() => queueEmpty(suite.env), 'the queue to empty');
    // Only the Leader may roll; team 2 and the referee hear nothing of it.
    expect(stand.of('member').map((p) => p.payload.title)).toEqual(['Proof approved']);
    expect(stand.of('leader2')).toEqual([]);
    expect(stand.of('admin').map((p) => p.payload.title)).toEqual(['Proof waiting']);

    // Second proof within 5 minutes: no second 'Proof waiting' yet (coalesced).
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const again = await submit(cast.member, game, game.team1, await png());
    expect(again.status).toBe(201);
    const due = await directSql(suite.env, 'SELECT due_at, last_sent_at FROM push_waiting WHERE clan_id = ?', [cast.clanId]);
    expect(due).toHaveLength(1);
    expect(Date.parse(due[0].due_at) - Date.parse(due[0].last_sent_at)).toBe(5 * 60 * 1000);
    // Five minutes pass (in the database): the next one counts what still waits.
    await directSql(suite.env, 'UPDATE push_waiting SET due_at = ? WHERE clan_id = ?', [new Date(Date.now() - 1000).toISOString(), cast.clanId]);
    await until(() => stand.of('admin').length === 2, 'the second Proof waiting');
    expect(stand.of('admin')[1].payload.body).toBe(`1 waiting for review in ${clan}.`);

    // The owner denies: the member hears it, the owner (the referee) does not; the 410 subscription goes.
    stand.answerNext(gone.endpoint, 410);
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/submissions/${again.body.submission.id}/review`, { decision: 'deny', reason: 'Blurry screenshot' })).status).toBe(200);
    const denied = await pushOf(stand, 'member', 'Proof denied');
    expect(denied.payload).toMatchObject({ body: `Red Team, square ${again.body.submission.square_index}: Blurry screenshot`, url: gamePath });
    await until(async () => (await directSql(suite.env, 'SELECT id FROM push_subscriptions WHERE endpoint = ?', [gone.endpoint])).length === 0, 'the 410 subscription to go');
    await until(() => queueEmpty(suite.env), 'the queue to empty');
    expect(stand.of('owner').map((p) => p.payload.title)).toEqual(['Proof approved', 'Your roll']);
    expect(stand.of('member-gone').map((p) => p.payload.title)).toEqual(['Proof approved']);
    expect(stand.refused).toEqual([]);
  });

  it('in the page: the same notifications kept for their recipients with or without a subscription, never the actor; 401 signed out', async () => {
    type Entry = { id: number; title: string; body: string; url: string; created_at: string };
    const recent = async (api: ApiClient): Promise<Entry[]> => {
      const r = await api.get('/api/user/me/notifications/recent');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.notifications;
    };
    const titles = (list: Entry[]) => list.map((n) => n.title);
    expectError(await new ApiClient(suite.url).get('/api/user/me/notifications/recent'), 401);
    // The previous test's: the member heard both reviews, newest first; the owner (the referee of
    // the denial) not their own, the second waiting proof having replaced the first (one tag); the
    // admin (the referee of the approval) only the waiting proof.
    expect(titles(await recent(cast.member))).toEqual(['Proof denied', 'Proof approved']);
    expect((await recent(cast.member))[0].body).toMatch(/: Blurry screenshot$/);
    expect(titles(await recent(cast.owner))).toEqual(['Proof waiting', 'Your roll', 'Proof approved']);
    expect(titles(await recent(admin))).toEqual(['Proof waiting']);
    expect(await recent(cast.leader2)).toEqual([]);

    // Nobody has a push subscription now: the list is kept all the same, and nothing is queued.
    await directSql(suite.env, 'DELETE FROM push_queue');
    await directSql(suite.env, 'DELETE FROM push_subscriptions');
    const game = await newGame(cast, { proof: true });
    const clan = (await directSql(suite.env, 'SELECT name FROM clans WHERE id = ?', [cast.clanId]))[0].name as string;
    const event = (await directSql(suite.env, 'SELECT name FROM events WHERE id = ?', [game.eventId]))[0].name as string;
    const leader = await watcher('push-page-leader', cast.owner);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const sent = await submit(cast.member, game, game.team1, await png());
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const square = sent.body.submission.square_index as number;
    // Every manager at once (the owner's push switch is off, the page shows it all the same),
    // replacing the clan's earlier one; never the member who sent it.
    const waiting = { title: 'Proof waiting', body: `1 waiting for review in ${clan}.`, url: `/clans/manage/${cast.clanId}/reviews` };
    expect((await recent(admin)).filter((n) => n.title === 'Proof waiting')).toEqual([expect.objectContaining(waiting)]);
    expect((await recent(cast.owner))[0]).toMatchObject(waiting);
    expect(titles(await recent(cast.member))).not.toContain('Proof waiting');

    expect((await admin.put(`/api/clan/${cast.clanId}/submissions/${sent.body.submission.id}/review`, { decision: 'approve' })).status).toBe(200);
    const gamePath = `/games/clan/${cast.clanId}/events/${game.eventId}/game/${game.gameId}`;
    const approved = { title: 'Proof approved', body: `Red Team, square ${square}: approved by push-admin-${backend}.`, url: gamePath };
    expect((await recent(cast.member))[0]).toMatchObject(approved);
    const owner = await recent(cast.owner);
    expect(owner.slice(0, 2)).toEqual([expect.objectContaining({ title: 'Your roll', body: `Red Team may roll in ${event}.`, url: gamePath }), expect.objectContaining(approved)]);
    // The referee and the other team hear nothing of it.
    expect(titles(await recent(admin))).toEqual(['Proof waiting']);
    expect(await recent(cast.leader2)).toEqual([]);
    expect(await queueEmpty(suite.env)).toBe(true);

    // A user keeps the latest 20: with 25 older ones stored, a denial (its reason as typed) is the newest of 20.
    const memberId = (await directSql(suite.env, 'SELECT id FROM users WHERE username = ?', [`sock-member-push-${backend}`]))[0].id as number;
    for (let i = 0; i < 25; i++) {
      await directSql(suite.env, 'INSERT INTO notifications (user_id, title, body, url, tag, created_at) VALUES (?, ?, ?, ?, ?, ?)', [memberId, 'Old', `old ${i}`, '/dashboard', `old-${i}`, new Date(Date.now() - 60_000).toISOString()]);
    }
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const third = await submit(cast.member, game, game.team1, await png());
    expect(third.status, JSON.stringify(third.body)).toBe(201);
    expect((await admin.put(`/api/clan/${cast.clanId}/submissions/${third.body.submission.id}/review`, { decision: 'deny', reason: 'Crop <b>the</b> chat' })).status).toBe(200);
    const kept = await recent(cast.member);
    expect(kept).toHaveLength(20);
    expect(kept[0]).toMatchObject({ title: 'Proof denied', body: `Red Team, square ${third.body.submission.square_index}: Crop <b>the</b> chat`, url: gamePath });
    expect(Number((await directSql(suite.env, 'SELECT COUNT(*) AS n FROM notifications WHERE user_id = ?', [memberId]))[0].n)).toBe(20);
  });

  it("draft: 'Your pick' to the captain on the clock, not to the manager who started it; none with the switch off", async () => {
    const d: DraftCast = await draftCast(suite.url, `pu${backend.slice(0, 2)}`);
    const cap2 = stand.subscription('cap2');
    expect((await d.captain2.api.post('/api/push/subscriptions', cap2)).status).toBe(201);
    expect((await d.owner.api.post('/api/push/subscriptions', stand.subscription('draft-owner'))).status).toBe(201);
    const started = await d.owner.api.post(d.path, { captain_signup_ids: [d.signup[d.captain2.ign], d.signup[d.owner.ign]], pick_seconds: 600 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const pick = await pushOf(stand, 'cap2', 'Your pick');
    expect(pick.payload).toEqual({ title: 'Your pick', body: `You are on the clock in Draft pu${backend.slice(0, 2)}.`, url: `/clans/${d.clanId}/events/${d.eventId}/draft`, tag: `draft-${d.eventId}` });
    // Paused and resumed by the owner with captain 2's switch off: nothing more.
    expect((await d.captain2.api.put('/api/user/me/notifications', { draft_turn: false })).status).toBe(200);
    expect((await d.owner.api.post(`${d.path}/pause`)).status).toBe(200);
    expect((await d.owner.api.post(`${d.path}/resume`)).status).toBe(200);
    await until(() => queueEmpty(suite.env), 'the queue to empty');
    expect(stand.of('cap2')).toHaveLength(1);
    expect(stand.of('draft-owner')).toEqual([]);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)('web push on two processes (PostgreSQL + Redis)', () => {
  const stand = new PushStandIn();
  const env: Record<string, string> = { PUSH_POLL_MS: '50' };
  beforeAll(async () => {
    await stand.start();
    env.PUSH_ALLOWED_ORIGINS = stand.url;
  });
  const site = useTwoProcesses(redisUrl ?? '', env);
  afterAll(() => stand.stop());

  it('each push is sent once though both processes send from the queue', async () => {
    const d = await draftCast(site.a.url, 'two');
    for (let i = 0; i < 6; i++) expect((await d.captain2.api.post('/api/push/subscriptions', stand.subscription(`c${i}`))).status).toBe(201);
    // Both processes made the key: the one stored first is the one they both sign with.
    const keys = await Promise.all([new ApiClient(site.a.url).get('/api/push/key'), new ApiClient(site.b.url).get('/api/push/key')]);
    expect(keys[0].body).toEqual(keys[1].body);
    expect((await d.owner.api.post(d.path, { captain_signup_ids: [d.signup[d.captain2.ign], d.signup[d.owner.ign]], pick_seconds: 600 })).status).toBe(200);
    await until(() => stand.received.length >= 6, 'six pushes');
    await until(() => queueEmpty(site.db.env), 'the queue to empty');
    for (let i = 0; i < 6; i++) expect(stand.hits.filter((h) => h === `c${i}`)).toHaveLength(1);
    expect(stand.refused).toEqual([]);
  }, 60_000);
});
