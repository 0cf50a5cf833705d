import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useServerSuite, useTwoProcesses } from '../support/suite';
import { backends, createTestDatabase, startServer, type Backend, type TestDatabase, type TestServer } from '../support/server';
import { directSql, PERMISSION_TEXT } from '../support/fixtures';
import { ApiClient } from '../support/api';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';
import { draftCast, draftWatcher, type DraftWatcher } from '../support/draft';
import { DRAFT_MESSAGES } from '../../contract/draft';

/**
 * The captains' draft (docs/server.md §16) over HTTP and the live socket, against the real server
 * on SQLite and PostgreSQL; with TEST_REDIS_URL, two processes sharing PostgreSQL and Redis.
 */

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe.each(backends())('captains draft (%s)', (backend: Backend) => {
  const stand = new DiscordWebhookStandIn();
  // The stand-in's URL is known only once it listens; the server reads it at start.
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await stand.start();
    Object.assign(env, stand.serverEnv({ DISCORD_ROLL_WINDOW_MS: '300' }));
  });
  const suite = useServerSuite(backend, env);
  afterAll(async () => {
    await stand.stop();
  });
  const open: DraftWatcher[] = [];
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });
  const watcher = async (name: string, api?: ApiClient) => {
    const w = await draftWatcher(suite.url, name, api);
    open.push(w);
    return w;
  };
  let n = 0;
  const cast = () => draftCast(suite.url, `${backend.slice(0, 2)}${++n}`);

  it('checks who may start a draft and what', async () => {
    const c = await cast();
    const body = { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]], pick_seconds: 60 };
    expect((await c.outsider.post(c.path, body)).body).toEqual({ error: PERMISSION_TEXT });
    const byMember = await c.member.api.post(c.path, body);
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({ error: PERMISSION_TEXT });
    expect((await new ApiClient(suite.url).post(c.path, body)).status).toBe(401);
    for (const bad of [
      { captain_signup_ids: [c.signup[c.owner.ign]] },
      { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.owner.ign]] },
      { ...body, pick_seconds: 14 },
      { ...body, pick_seconds: 601 },
      { ...body, pick_seconds: 30.5 },
      { captain_signup_ids: 'all' },
    ]) {
      const r = await c.owner.api.post(c.path, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    const unknown = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], 999999] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: DRAFT_MESSAGES.captainNotFound(999999) });
    // Nothing was made by the refused starts.
    expect((await c.owner.api.get(c.path)).body.draft_state).toBeNull();
    expect((await c.owner.api.get(`/api/clan/${c.clanId}/events/${c.eventId}/teams/`)).body.teams).toEqual([]);
    expect((await c.owner.api.post(`${c.path}/pause`)).status).toBe(409);
  });

  it('a member in the room before the draft starts receives it when it starts', async () => {
    const c = await cast();
    const member = await watcher('member', c.member.api);
    member.socket.emit('join_draft', { event_id: c.eventId });
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]] });
    expect(started.status).toBe(200);
    expect(await member.stateWhere(() => true, 5000, 0)).toEqual(started.body.draft_state);
    const room = (await c.member.api.get(c.path)).body;
    // The room names its event (its heading).
    const events = (await c.owner.api.get(`/api/clan/${c.clanId}/events/`)).body.events as { id: number; name: string }[];
    expect(room.event_name).toBe(events.find((e) => e.id === c.eventId)!.name);
    expect(room.draft_state).toEqual(started.body.draft_state);
    expect(room.signups.map((s: { ign: string }) => s.ign)).toEqual([c.owner.ign, c.captain2.ign, ...c.players.map((p) => p.ign)]);
    // Another member's score and note are not a plain Member's to see (docs/server.md §18); a manager's room shows them.
    expect(room.signups[3]).toMatchObject({ score: null, note: null, team_id: null, wants_leader: false, username: expect.any(String) });
    expect((await c.owner.api.get(c.path)).body.signups[3]).toMatchObject({ score: 40, note: '' });
    // A member removed from the clan stops receiving the draft at once.
    const leaver = await watcher('leaver', c.players[3].api);
    expect(await leaver.join(c.eventId)).toEqual(started.body.draft_state);
    expect((await c.owner.api.del(`/api/clan/${c.clanId}/members/${c.players[3].userId}`)).status).toBe(200);
    const since = leaver.got.length;
    expect((await c.owner.api.post(`${c.path}/pause`)).status).toBe(200);
    await member.stateWhere((s) => s.status === 'paused', 5000, 0);
    expect(leaver.got.slice(since)).toEqual([]);
    expect(await leaver.join(c.eventId)).toBe(DRAFT_MESSAGES.eventNotFound);
    const signedOut = await watcher('anon');
    expect(await signedOut.join(c.eventId)).toBe(DRAFT_MESSAGES.signIn);
    const bad = await watcher('bad payload', c.member.api);
    expect(await bad.join('x' as unknown as number)).toMatch(/^Invalid join_draft payload/);
  }, 30_000);

  it('runs a whole draft over the socket: snake order, refusals, pause, undo, end, Discord', async () => {
    const c = await cast();
    const id = String(5000 + n);
    expect((await c.owner.api.put(`/api/clan/${c.clanId}/events/${c.eventId}/discord`, { webhook_url: stand.webhook(id) })).status).toBe(200);
    const [p1, p2, p3, p4] = c.players.map((p) => c.signup[p.ign]);
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]] });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const state = started.body.draft_state;
    const teams = (await c.owner.api.get(`/api/clan/${c.clanId}/events/${c.eventId}/teams/`)).body.teams;
    expect(teams.map((t: { name: string }) => t.name)).toEqual([`Team ${c.owner.ign}`, `Team ${c.captain2.ign}`]);
    const [t1, t2] = teams.map((t: { id: number }) => t.id);
    expect(state).toMatchObject({ event_id: c.eventId, status: 'running', round: 1, order: [t1, t2], on_the_clock: t1, picks: [] });
    expect(state.captains).toEqual([{ team_id: t1, signup_id: c.signup[c.owner.ign] }, { team_id: t2, signup_id: c.signup[c.captain2.ign] }]);
    // Highest score first, the player without a score last.
    expect(state.pool).toEqual([p2, p3, p1, p4]);
    const left = Date.parse(state.deadline) - Date.now();
    expect(left).toBeGreaterThan(50_000);
    expect(left).toBeLessThanOrEqual(60_000);
    const leaders = (await c.owner.api.get(`/api/clan/${c.clanId}/events/${c.eventId}/teams/${t2}/members`)).body.team_members;
    expect(leaders).toMatchObject([{ osrs_ign: c.captain2.ign, role: 'Leader' }]);
    expect((await c.owner.api.post(c.path, { captain_signup_ids: [p1, p2] })).status).toBe(409);

    const outsider = await watcher('outsider', c.outsider);
    expect(await outsider.join(c.eventId)).toBe(DRAFT_MESSAGES.eventNotFound);
    const member = await watcher('member', c.member.api);
    expect(await member.join(c.eventId)).toEqual(state);
    const cap1 = await watcher('cap1', c.owner.api);
    const cap2 = await watcher('cap2', c.captain2.api);
    await cap1.join(c.eventId);
    await cap2.join(c.eventId);

    // Out of turn, a non-captain, an unknown player: refused, nothing changes.
    expect(await cap2.pick(c.eventId, p1)).toBe(DRAFT_MESSAGES.notYourTurn);
    expect(await member.pick(c.eventId, p1)).toBe(DRAFT_MESSAGES.notYourTurn);
    expect(await cap1.pick(c.eventId, c.signup[c.captain2.ign])).toBe(DRAFT_MESSAGES.notInPool);
    expect((await c.owner.api.get(c.path)).body.draft_state.picks).toEqual([]);

    // Both captains pick the same player at the same instant: only the one on the clock lands.
    const [a, b] = await Promise.all([cap1.pick(c.eventId, p2, t1), cap2.pick(c.eventId, p2, t2)]);
    expect(a).toBeNull();
    expect([DRAFT_MESSAGES.notYourTurn, DRAFT_MESSAGES.notInPool]).toContain(b);
    const afterFirst = await member.stateWhere((s) => s.picks.length === 1, 5000, 0);
    expect(afterFirst).toMatchObject({ on_the_clock: t2, round: 1, pool: [p3, p1, p4] });
    expect(afterFirst.picks).toMatchObject([{ team_id: t1, signup_id: p2, auto: false }]);
    // Someone already picked.
    expect(await cap2.pick(c.eventId, p2, t2)).toBe(DRAFT_MESSAGES.notInPool);

    // The snake: team 2 picks twice (end of round 1, start of round 2). Two picks sent at once by that captain both land, in turn.
    const [x, y] = await Promise.all([cap2.pick(c.eventId, p3), cap2.pick(c.eventId, p1)]);
    expect([x, y]).toEqual([null, null]);
    const third = await member.stateWhere((s) => s.picks.length === 3, 5000, 0);
    expect(third).toMatchObject({ on_the_clock: t1, round: 2, pool: [p4] });
    expect(third.picks.map((p) => p.team_id)).toEqual([t1, t2, t2]);
    // Which of the two landed first is the server's order of arrival.
    const [kept, last] = [third.picks[1].signup_id, third.picks[2].signup_id];
    expect(sorted([kept, last])).toEqual(sorted([p1, p3]));
    const ignOf = (id: number) => c.players.find((p) => c.signup[p.ign] === id)!.ign;

    // Pause: no clock, no picks; resume; undo the last pick: it returns to the pool and team 2 is on the clock again.
    const paused = await c.owner.api.post(`${c.path}/pause`);
    expect(paused.body.draft_state).toMatchObject({ status: 'paused', on_the_clock: null, deadline: null });
    expect(await cap1.pick(c.eventId, p4)).toBe(DRAFT_MESSAGES.paused);
    expect((await c.owner.api.post(`${c.path}/pause`)).body).toEqual({ error: DRAFT_MESSAGES.alreadyPaused });
    expect((await c.member.api.post(`${c.path}/resume`)).status).toBe(403);
    const resumed = await c.owner.api.post(`${c.path}/resume`);
    expect(resumed.body.draft_state).toMatchObject({ status: 'running', on_the_clock: t1 });
    const undone = await c.owner.api.post(`${c.path}/undo`);
    expect(undone.status).toBe(200);
    expect(undone.body.draft_state).toMatchObject({ status: 'running', on_the_clock: t2, round: 2 });
    expect(sorted(undone.body.draft_state.pool)).toEqual(sorted([last, p4]));
    await member.stateWhere((s) => s.picks.length === 2 && s.on_the_clock === t2, 5000, 0);

    // End: every pick is placed on its team as Member; the unpicked stay free agents.
    const ended = await c.owner.api.post(`${c.path}/end`);
    expect(ended.body.draft_state).toMatchObject({ status: 'done', on_the_clock: null, deadline: null });
    await member.stateWhere((s) => s.status === 'done', 5000, 0);
    expect((await c.owner.api.post(`${c.path}/undo`)).body).toEqual({ error: DRAFT_MESSAGES.over });
    const m1 = (await c.owner.api.get(`/api/clan/${c.clanId}/events/${c.eventId}/teams/${t1}/members`)).body.team_members;
    expect(m1.map((m: { osrs_ign: string; role: string }) => [m.osrs_ign, m.role]).sort()).toEqual([[c.owner.ign, 'Leader'], [c.players[1].ign, 'Member']]);
    const m2 = (await c.owner.api.get(`/api/clan/${c.clanId}/events/${c.eventId}/teams/${t2}/members`)).body.team_members;
    expect(m2.map((m: { osrs_ign: string; role: string }) => [m.osrs_ign, m.role]).sort()).toEqual([[c.captain2.ign, 'Leader'], [ignOf(kept), 'Member']].sort());
    const placed = await directSql(suite.env, 'SELECT id, team_id FROM signups WHERE event_id = ? ORDER BY id', [c.eventId]);
    expect(placed.map((r) => [Number(r.id), r.team_id === null ? null : Number(r.team_id)])).toEqual([
      [c.signup[c.owner.ign], t1], [c.signup[c.captain2.ign], t2], [p1, p1 === kept ? t2 : null], [p2, t1], [p3, p3 === kept ? t2 : null], [p4, null],
    ]);

    // Discord: the picks, grouped per team like rolls (three picks made, one undone: at least once each).
    await stand.until(() => stand.accepted(id).length > 0 && stand.accepted(id).flatMap((p) => p.body.embeds).some((e: { description: string }) => e.description.includes('Pick 3')), 10_000, 'the pick announcements');
    const embeds = stand.accepted(id).flatMap((p) => p.body.embeds as { title: string; description: string }[]);
    expect(embeds.find((e) => e.title === `Team ${c.owner.ign}`)?.description).toContain(`Pick 1 (round 1): ${c.players[1].ign}`);
    const team2 = embeds.filter((e) => e.title === `Team ${c.captain2.ign}`).map((e) => e.description).join('\n');
    expect(team2).toContain(`Pick 2 (round 1): ${ignOf(kept)}`);
    expect(team2).toContain(`Pick 3 (round 2): ${ignOf(last)}`);
    for (const p of stand.accepted(id)) expect(p.body.allowed_mentions).toEqual({ parse: [] });
  }, 60_000);

  it('finishes by itself when the pool is empty', async () => {
    const c = await cast();
    const [p1, p2, p3, p4] = c.players.map((p) => c.signup[p.ign]);
    expect((await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.captain2.ign], c.signup[c.owner.ign]], pick_seconds: 15 })).status).toBe(200);
    const cap1 = await watcher('cap1', c.owner.api);
    const cap2 = await watcher('cap2', c.captain2.api);
    await cap1.join(c.eventId);
    await cap2.join(c.eventId);
    // Captain two leads the order: 2, 1, 1, 2.
    expect(await cap2.pick(c.eventId, p4)).toBeNull();
    expect(await cap1.pick(c.eventId, p3)).toBeNull();
    expect(await cap1.pick(c.eventId, p2)).toBeNull();
    expect(await cap2.pick(c.eventId, p1)).toBeNull();
    const done = await cap1.stateWhere((s) => s.status === 'done', 5000, 0);
    expect(done).toMatchObject({ pool: [], on_the_clock: null, round: 2 });
    const rows = await directSql(suite.env, 'SELECT COUNT(*) AS n FROM team_members WHERE event_id = ?', [c.eventId]);
    expect(Number(rows[0].n)).toBe(6);
    // A finished draft can be replaced by a new one only when there is someone to draft.
    expect((await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.captain2.ign], c.signup[c.owner.ign]] })).body).toEqual({ error: DRAFT_MESSAGES.poolEmpty });
  }, 30_000);
});

describe.each(backends())('captains draft and deletions (%s)', (backend: Backend) => {
  const suite = useServerSuite(backend);
  const open: DraftWatcher[] = [];
  afterAll(() => {
    for (const w of open) w.close();
  });

  it('a team deleted mid-draft refuses its turn clearly; the draft still ends; deleting the event takes the draft', async () => {
    const c = await draftCast(suite.url, `del${backend.slice(0, 2)}`);
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]] });
    const [t1, t2] = started.body.draft_state.order as number[];
    const cap1 = await draftWatcher(suite.url, 'cap1', c.owner.api);
    const cap2 = await draftWatcher(suite.url, 'cap2', c.captain2.api);
    open.push(cap1, cap2);
    await cap1.join(c.eventId);
    await cap2.join(c.eventId);
    expect(await cap1.pick(c.eventId, c.signup[c.players[0].ign], t1)).toBeNull();
    expect((await c.owner.api.del(`/api/clan/${c.clanId}/events/${c.eventId}/teams/${t2}`)).status).toBe(200);
    expect(await cap2.pick(c.eventId, c.signup[c.players[1].ign], t2)).toBe(DRAFT_MESSAGES.teamGone);
    const ended = await c.owner.api.post(`${c.path}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body.draft_state).toMatchObject({ status: 'done', picks: [{ team_id: t1, signup_id: c.signup[c.players[0].ign] }] });
    expect((await c.owner.api.del(`/api/clan/${c.clanId}/events/${c.eventId}`)).status).toBe(200);
    expect((await c.owner.api.get(c.path)).status).toBe(404);
    expect(Number((await directSql(suite.env, 'SELECT COUNT(*) AS n FROM drafts WHERE event_id = ?', [c.eventId]))[0].n)).toBe(0);
  });
});

describe.each(backends())('captains draft clock across a restart (%s)', (backend: Backend) => {
  let db: TestDatabase;
  let server: TestServer | undefined;
  const open: DraftWatcher[] = [];
  beforeAll(async () => {
    db = await createTestDatabase(backend);
  });
  afterAll(async () => {
    for (const w of open) w.close();
    await server?.stop();
    await db?.drop();
  });

  it('the clock picks the highest-scored free agent, and resumes after a restart', async () => {
    const firstStart = Date.now();
    server = await startServer(db.env);
    const startMs = Date.now() - firstStart;
    const c = await draftCast(server.url, `rs${backend.slice(0, 2)}`);
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]], pick_seconds: 15 });
    expect(started.status).toBe(200);
    expect(Date.parse(started.body.draft_state.deadline) - Date.now()).toBeGreaterThan(10_000);
    await server.stop();
    // While the server is down its first turn's clock is moved to 8 s from now in the database (the
    // shortest turn the API takes is 15 s; 8 s leave room for the start and the join before it), or
    // further on a machine where the first start took longer (twice that start, and 3 s for the
    // join): the started process must take the stored deadline.
    const deadline = new Date(Date.now() + Math.max(8000, 2 * startMs + 3000)).toISOString();
    await directSql(db.env, 'UPDATE drafts SET deadline = ? WHERE event_id = ?', [deadline, c.eventId]);
    server = await startServer(db.env);
    const member = await draftWatcher(server.url, 'member', c.member.api);
    open.push(member);
    const joined = await member.join(c.eventId);
    expect(joined).toMatchObject({ status: 'running', deadline, picks: [] });
    const picked = await member.stateWhere((s) => s.picks.length === 1, 40_000, 0);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(deadline));
    const [team1, team2] = picked.order;
    // The top score (the second player's 40) goes to the team that was on the clock, by the clock.
    expect(picked.picks).toMatchObject([{ team_id: team1, signup_id: c.signup[c.players[1].ign], auto: true }]);
    expect(picked).toMatchObject({ status: 'running', on_the_clock: team2 });
    expect(Date.parse(picked.deadline!) - Date.now()).toBeGreaterThan(10_000);
  }, 90_000);
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)('captains draft on two processes (PostgreSQL + Redis)', () => {
  const site = useTwoProcesses(redisUrl ?? '');
  const open: DraftWatcher[] = [];
  afterAll(() => {
    for (const w of open) w.close();
  });

  it('a pick on one process reaches the room on the other, and the clock picks once', async () => {
    const c = await draftCast(site.a.url, 'two');
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]], pick_seconds: 15 });
    expect(started.status).toBe(200);
    const onB = await draftWatcher(site.b.url, 'member on b', c.member.api);
    const cap1 = await draftWatcher(site.a.url, 'cap1 on a', c.owner.api);
    const cap2 = await draftWatcher(site.b.url, 'cap2 on b', c.captain2.api);
    open.push(onB, cap1, cap2);
    for (const w of [onB, cap1, cap2]) await w.join(c.eventId);
    // Captains on two processes pick at the same instant: one lands.
    const [t1, t2] = started.body.draft_state.order as number[];
    const [a, b] = await Promise.all([cap1.pick(c.eventId, c.signup[c.players[0].ign], t1), cap2.pick(c.eventId, c.signup[c.players[0].ign], t2)]);
    expect(a).toBeNull();
    expect([DRAFT_MESSAGES.notYourTurn, DRAFT_MESSAGES.notInPool]).toContain(b);
    const first = await onB.stateWhere((s) => s.picks.length === 1, 5000, 0);
    expect(first.picks).toMatchObject([{ signup_id: c.signup[c.players[0].ign], auto: false }]);
    // Captain two lets the clock run out; both processes' clocks fire, one pick is written.
    const auto = await onB.stateWhere((s) => s.picks.length === 2, 25_000, 0);
    expect(auto.picks[1]).toMatchObject({ team_id: auto.order[1], signup_id: c.signup[c.players[1].ign], auto: true });
    // Team two picks again (the snake) by hand: had a second clock pick landed, this one would be the fourth.
    expect(await cap2.pick(c.eventId, c.signup[c.players[2].ign])).toBeNull();
    const rows = await directSql(site.db.env, 'SELECT pick_no, auto FROM draft_picks WHERE event_id = ? ORDER BY pick_no', [c.eventId]);
    expect(rows.map((r) => [Number(r.pick_no), Number(r.auto)])).toEqual([[0, 0], [1, 1], [2, 0]]);
    const onA = await draftWatcher(site.a.url, 'member on a', c.member.api);
    open.push(onA);
    expect(await onA.join(c.eventId)).toMatchObject({ picks: [{}, {}, {}], on_the_clock: auto.order[0] });
  }, 60_000);
});
