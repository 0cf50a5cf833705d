import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite, type ServerSuite } from '../support/suite';
import { ApiClient, type Answer } from '../support/api';
import { castOf, newGame, type Cast } from '../support/liveSocket';
import { WomStandIn } from '../support/womStandIn';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';
import { SignupSchema } from '../../contract/signup';
import { BalanceAnswerSchema, SIGNUP_MESSAGES, SignupListSchema, WomProgressSchema } from '../../contract/signupApi';
import { DRAFT_MESSAGES } from '../../contract/draft';
import { EventListAnswerSchema } from '../../contract/event';

/**
 * Sign-ups, scores and balanced teams over real HTTP (docs/server.md §16), on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: the event fields; signing up (open, closed by flag, close time or
 * a game in progress, one per user, own IGNs only, not an IGN already on a team); the list;
 * withdrawing; scores by hand, by CSV (row errors by line; 100,000 rows or a NUL byte refused
 * with nothing applied) and from a local Wise Old Man stand-in (progress, unknown players as
 * errors, the 20-a-minute budget; with TEST_REDIS_URL, one budget over two processes); the
 * balance proposal (changing nothing) and its apply (teams made with distinct colours, leaders,
 * 409 when stale or in play); Discord announcing sign-ups opening and closing.
 */

const expectError = (r: Answer, status: number, error?: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(typeof r.body.error).toBe('string');
  if (error !== undefined) expect(r.body.error).toBe(error);
};

/** Waits until `test` holds, checking every 50 ms; fails with `what` after `ms`. */
async function until(test: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A CSV upload form with `text` as the file `name`. */
function csvForm(text: string, name = 'scores.csv'): FormData {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), name);
  return form;
}

let serial = 0;

/** People who sign up: each a clan member with one IGN. */
interface Signer {
  client: ApiClient;
  ignId: number;
  ign: string;
}

describe.each(backends())('sign-ups and balanced teams (%s)', (backend) => {
  const wom = new WomStandIn();
  const hooks = new DiscordWebhookStandIn();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await wom.start();
    await hooks.start();
    Object.assign(env, { WOM_API_URL: wom.url, ...hooks.serverEnv() });
  });
  const suite = useServerSuite(backend, env);
  let cast: Cast;
  const signers: Signer[] = [];

  beforeAll(async () => {
    cast = await castOf(suite.url, `signup-${backend}`);
    for (let i = 0; i < 6; i++) {
      const client = new ApiClient(suite.url);
      const ign = `Signer ${i}${backend[0]}`;
      const me = await client.onboard(`signer-${i}-${backend}`, [ign], { role: 'Member', clan_id: cast.clanId });
      signers.push({ client, ignId: me.igns[0].id, ign });
    }
  });
  afterAll(async () => {
    await wom.stop();
    await hooks.stop();
  });

  const base = (eventId: number) => `/api/clan/${cast.clanId}/events/${eventId}`;

  /** A new event, sign-ups open unless said. */
  async function newEvent(fields: Record<string, unknown> = { signups_open: true }): Promise<number> {
    const r = await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: `Signup event ${++serial}`, start_datetime: '2031-06-01T18:00Z', ...fields });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.event.id;
  }

  async function signUp(eventId: number, s: Signer, body: Record<string, unknown> = {}): Promise<any> {
    const r = await s.client.post(`${base(eventId)}/signups`, { osrs_ign_id: s.ignId, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.signup;
  }

  it('events carry signups_open and signups_close_at in create, edit and the list; an edit leaving them out keeps them', async () => {
    const created = await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'Fields', start_datetime: '2031-06-01T18:00Z', signups_open: true, signups_close_at: '2031-05-30T18:00Z' });
    expect(created.status).toBe(200);
    expect(created.body.event).toMatchObject({ signups_open: true, signups_close_at: '2031-05-30T18:00:00.000Z' });
    const id = created.body.event.id;
    const edited = await cast.owner.put(`/api/clan/${cast.clanId}/events/${id}`, { name: 'Fields 2', start_datetime: '2031-06-01T18:00Z' });
    expect(edited.body.event).toMatchObject({ name: 'Fields 2', signups_open: true, signups_close_at: '2031-05-30T18:00:00.000Z' });
    const closed = await cast.owner.put(`/api/clan/${cast.clanId}/events/${id}`, { name: 'Fields 2', start_datetime: '2031-06-01T18:00Z', signups_open: false, signups_close_at: null });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.event).toMatchObject({ signups_open: false, signups_close_at: null });
    const plain = await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'Plain', start_datetime: '2031-06-01T18:00Z' });
    expect(plain.body.event).toMatchObject({ signups_open: false, signups_close_at: null });
    const list = v.parse(EventListAnswerSchema, (await cast.member.get(`/api/clan/${cast.clanId}/events/`)).body);
    expect(list.events.every((e) => typeof e.signups_open === 'boolean' && 'signups_close_at' in e)).toBe(true);
    expectError(await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'Bad', start_datetime: '2031-06-01T18:00Z', signups_open: 'yes' }), 400);
    expectError(await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'Bad', start_datetime: '2031-06-01T18:00Z', signups_close_at: 'soon' }), 400);
  });

  it('a member signs up with their own IGN (201, the shape); once per event; closed, foreign IGNs and IGNs on a team refused', async () => {
    const eventId = await newEvent();
    const [a, b] = signers;
    const r = await a.client.post(`${base(eventId)}/signups`, { osrs_ign_id: a.ignId, wants_leader: true, note: 'Can do raids' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const signup = v.parse(SignupSchema, r.body.signup);
    expect(signup).toMatchObject({ event_id: eventId, osrs_ign_id: a.ignId, ign: a.ign, username: `signer-0-${backend}`, wants_leader: true, note: 'Can do raids', score: null, score_source: null, team_id: null });
    expectError(await a.client.post(`${base(eventId)}/signups`, { osrs_ign_id: a.ignId }), 409, SIGNUP_MESSAGES.already);
    expectError(await b.client.post(`${base(eventId)}/signups`, { osrs_ign_id: a.ignId }), 403, SIGNUP_MESSAGES.notYourIgn);
    expectError(await b.client.post(`${base(eventId)}/signups`, { osrs_ign_id: 999999 }), 404);
    expectError(await b.client.post(`${base(eventId)}/signups`, { osrs_ign_id: 'x' }), 400);
    expectError(await b.client.post(`${base(eventId)}/signups`, { osrs_ign_id: b.ignId, wants_leader: 'yes' }), 400);
    expectError(await b.client.post(`${base(eventId)}/signups`, { osrs_ign_id: b.ignId, note: 'a\u0000b' }), 400);
    expectError(await b.client.post(`${base(eventId)}/signups`, { osrs_ign_id: b.ignId, note: 'x'.repeat(301) }), 400);
    expectError(await cast.outsider.post(`${base(eventId)}/signups`, { osrs_ign_id: 1 }), 403);
    expectError(await new ApiClient(suite.url).post(`${base(eventId)}/signups`, { osrs_ign_id: 1 }), 401);

    // An IGN already on a team of the event.
    const team = await cast.owner.post(`${base(eventId)}/teams/`, { name: 'Early', color: '#123456' });
    await cast.owner.post(`${base(eventId)}/teams/${team.body.team.id}/members`, { osrs_ign_id: b.ignId, role: 'Member' });
    expectError(await b.client.post(`${base(eventId)}/signups`, { osrs_ign_id: b.ignId }), 409, SIGNUP_MESSAGES.onTeam);

    // Closed: by the flag, by the close time, by a game in progress.
    const shut = await newEvent({ signups_open: false });
    expectError(await b.client.post(`${base(shut)}/signups`, { osrs_ign_id: b.ignId }), 409, SIGNUP_MESSAGES.closed);
    const past = await newEvent({ signups_open: true, signups_close_at: '2020-01-01T00:00Z' });
    expectError(await b.client.post(`${base(past)}/signups`, { osrs_ign_id: b.ignId }), 409, SIGNUP_MESSAGES.closed);
    const game = await newGame(cast, { start: true });
    await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}`, { name: 'Running', start_datetime: '2031-06-01T18:00Z', signups_open: true });
    expectError(await b.client.post(`${base(game.eventId)}/signups`, { osrs_ign_id: b.ignId }), 409, SIGNUP_MESSAGES.closed);
  });

  it('lists sign-ups oldest first to members only; withdrawing: the owner while open, a manager always; a placed sign-up leaves its team', async () => {
    const eventId = await newEvent();
    const [a, b, c] = signers;
    const sa = await signUp(eventId, a);
    const sb = await signUp(eventId, b);
    const sc = await signUp(eventId, c);
    const list = v.parse(SignupListSchema, (await cast.member.get(`${base(eventId)}/signups`)).body);
    expect(list.signups.map((s) => s.id)).toEqual([sa.id, sb.id, sc.id]);
    // A non-member is told so, not that they may not manage the clan.
    expectError(await cast.outsider.get(`${base(eventId)}/signups`), 403, DRAFT_MESSAGES.notMember);
    expectError(await b.client.del(`${base(eventId)}/signups/${sa.id}`), 403);
    expect((await a.client.del(`${base(eventId)}/signups/${sa.id}`)).status).toBe(200);
    expectError(await a.client.del(`${base(eventId)}/signups/${sa.id}`), 404);
    await cast.owner.put(`/api/clan/${cast.clanId}/events/${eventId}`, { name: 'Shut', start_datetime: '2031-06-01T18:00Z', signups_open: false });
    expectError(await b.client.del(`${base(eventId)}/signups/${sb.id}`), 409, SIGNUP_MESSAGES.closed);
    // Placed on a team by a balance, then withdrawn by a manager: off the team too.
    const proposal = (await cast.owner.post(`${base(eventId)}/teams/balance`, { team_count: 2 })).body.proposal;
    expect((await cast.owner.post(`${base(eventId)}/teams/balance/apply`, { proposal })).status).toBe(200);
    const placed = v.parse(SignupListSchema, (await cast.member.get(`${base(eventId)}/signups`)).body).signups.find((s) => s.id === sc.id)!;
    expect(placed.team_id).not.toBeNull();
    expect((await cast.owner.del(`${base(eventId)}/signups/${sc.id}`)).status).toBe(200);
    const members = await cast.owner.get(`${base(eventId)}/teams/${placed.team_id}/members`);
    expect(members.body.team_members.map((m: { osrs_ign_id: number }) => m.osrs_ign_id)).not.toContain(c.ignId);
  });

  it('managers set a score by hand: a finite number 0..1,000,000 or null; anything else 400', async () => {
    const eventId = await newEvent();
    const s = await signUp(eventId, signers[0]);
    const path = `${base(eventId)}/signups/${s.id}`;
    const set = await cast.owner.put(path, { score: 1234.5 });
    expect(set.status).toBe(200);
    expect(set.body.signup).toMatchObject({ score: 1234.5, score_source: 'manual' });
    expectError(await signers[0].client.put(path, { score: 5 }), 403);
    for (const bad of ['{"score": 1e999}', '{"score": -1}', '{"score": 1000001}', '{"score": "12"}', '{}', '{"score": true}']) {
      expectError(await cast.owner.call('PUT', path, bad, { 'content-type': 'application/json' }), 400);
    }
    const after = v.parse(SignupListSchema, (await cast.owner.get(`${base(eventId)}/signups`)).body).signups[0];
    expect(after.score).toBe(1234.5);
    const cleared = await cast.owner.put(path, { score: null });
    expect(cleared.body.signup).toMatchObject({ score: null, score_source: null });
    expectError(await cast.owner.put(`${base(eventId)}/signups/999999`, { score: 1 }), 404);
  });

  it('imports scores from a CSV: rows by line, unknown IGNs and bad scores as row errors; 100,000 rows or a NUL byte refused with nothing applied', async () => {
    const eventId = await newEvent();
    const [a, b, c] = signers;
    await signUp(eventId, a);
    await signUp(eventId, b);
    await signUp(eventId, c);
    const csv = `score,IGN\r\n100,${a.ign}\r\n\r\n"250.5","${b.ign.toUpperCase()}"\r\n7,Nobody Here\r\nabc,${c.ign}\r\n`;
    const r = await cast.owner.call('POST', `${base(eventId)}/signups/scores`, csvForm(csv));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.updated_count).toBe(2);
    expect(r.body.errors).toEqual([
      { row: 5, ign: 'Nobody Here', message: SIGNUP_MESSAGES.csvUnknownIgn },
      { row: 6, ign: c.ign, message: SIGNUP_MESSAGES.csvBadScore },
    ]);
    const scores = () => cast.owner.get(`${base(eventId)}/signups`).then((x) => v.parse(SignupListSchema, x.body).signups.map((s) => [s.ign, s.score, s.score_source]));
    expect(await scores()).toEqual([[a.ign, 100, 'csv'], [b.ign, 250.5, 'csv'], [c.ign, null, null]]);

    const huge = ['ign,score', ...Array.from({ length: 100_000 }, (_, i) => (i === 0 ? `${c.ign},5` : `p${i},1`))].join('\n');
    expectError(await cast.owner.call('POST', `${base(eventId)}/signups/scores`, csvForm(huge)), 400, SIGNUP_MESSAGES.csvTooManyRows);
    expectError(await cast.owner.call('POST', `${base(eventId)}/signups/scores`, csvForm(`ign,score\n${c.ign},5\n${a.ign},1\u0000\n`)), 400, SIGNUP_MESSAGES.csvNul);
    expectError(await cast.owner.call('POST', `${base(eventId)}/signups/scores`, csvForm(`name,points\n${c.ign},5\n`)), 400, SIGNUP_MESSAGES.csvHeader);
    expectError(await cast.owner.call('POST', `${base(eventId)}/signups/scores`, csvForm('x'.repeat(1024 * 1024 + 10))), 413);
    expectError(await a.client.call('POST', `${base(eventId)}/signups/scores`, csvForm(`ign,score\n${c.ign},5\n`)), 403);
    expect(await scores()).toEqual([[a.ign, 100, 'csv'], [b.ign, 250.5, 'csv'], [c.ign, null, null]]);
  });

  it('takes only plain decimal CSV scores 0..1,000,000: hex, binary, exponents, signs and bare points are row errors', async () => {
    const eventId = await newEvent();
    const [a, b, c] = signers;
    for (const s of [a, b, c]) await signUp(eventId, s);
    const bad = ['0x10', '0b101', '0o7', '1e3', '.5', '5.', '+5', '-1', 'Infinity', 'NaN', '1000000.5', '"1,000"', '12 34', '1_000', '١٢', '00000000001'];
    const good: [Signer, string, number][] = [[a, '1000000', 1_000_000], [b, '0.25', 0.25], [c, '007', 7]];
    const lines = ['ign,score', ...bad.map((score, i) => `${[a, b, c][i % 3].ign},${score}`), ...good.map(([s, score]) => `${s.ign}, ${score} `)];
    const r = await cast.owner.call('POST', `${base(eventId)}/signups/scores`, csvForm(lines.join('\n')));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.errors).toEqual(bad.map((_, i) => ({ row: i + 2, ign: [a, b, c][i % 3].ign, message: SIGNUP_MESSAGES.csvBadScore })));
    expect(r.body.updated_count).toBe(3);
    const list = v.parse(SignupListSchema, (await cast.owner.get(`${base(eventId)}/signups`)).body).signups;
    expect(list.map((s) => [s.ign, s.score])).toEqual(good.map(([s, , score]) => [s.ign, score]));
  });

  it('fetches scores from Wise Old Man in the background: 202, progress {total, done, errors}, unknown players an error that changes nothing', async () => {
    const eventId = await newEvent();
    const [a, b, c] = signers;
    wom.add(a.ign, { ehb: 100.25, ehp: 50, level: 2100 });
    wom.add(b.ign, { ehb: 10, ehp: 5, level: 1500 });
    await signUp(eventId, a);
    await signUp(eventId, b);
    const sc = await signUp(eventId, c);
    await cast.owner.put(`${base(eventId)}/signups/${sc.id}`, { score: 42 });
    expectError(await cast.owner.post(`${base(eventId)}/signups/scores/wom`, { metric: 'kills' }), 400, SIGNUP_MESSAGES.badMetric);
    expectError(await a.client.post(`${base(eventId)}/signups/scores/wom`, { metric: 'ehb' }), 403);
    expectError(await a.client.get(`${base(eventId)}/signups/scores/wom`), 403);
    const before = wom.requests.length;
    const started = await cast.owner.post(`${base(eventId)}/signups/scores/wom`, { metric: 'ehb+ehp' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(v.parse(WomProgressSchema, started.body).total).toBe(3);
    let progress: any;
    await until(async () => {
      progress = (await cast.owner.get(`${base(eventId)}/signups/scores/wom`)).body;
      return progress.done === 3;
    }, 10_000, 'three look-ups');
    expect(progress).toEqual({ total: 3, done: 3, errors: [{ ign: c.ign, error: SIGNUP_MESSAGES.womUnknown }] });
    const list = v.parse(SignupListSchema, (await cast.owner.get(`${base(eventId)}/signups`)).body).signups;
    expect(list.map((s) => [s.score, s.score_source])).toEqual([[150.25, 'wom'], [15, 'wom'], [42, 'manual']]);
    const asked = wom.requests.slice(before);
    expect(asked.map((q) => decodeURIComponent(q.path))).toEqual([`/players/${a.ign}`, `/players/${b.ign}`, `/players/${c.ign}`]);
    expect(asked.every((q) => q.apiKey === null)).toBe(true);
  });

  it("never puts an IGN that is not an OSRS name into Wise Old Man's URL: '.' and '..' are errors at once, nobody asked for '/' or '/players/'", async () => {
    const eventId = await newEvent();
    const odd = ['.', '..', '../x', 'a/b', '%2e%2e'];
    for (const [i, ign] of odd.entries()) {
      const client = new ApiClient(suite.url);
      // Linking such an IGN is allowed (docs/game-rules.md §13 limits only its length).
      const me = await client.onboard(`odd-${i}-${backend}`, [ign], { role: 'Member', clan_id: cast.clanId });
      expect(me.igns[0].ign).toBe(ign);
      await signUp(eventId, { client, ignId: me.igns[0].id, ign });
    }
    const fine = signers[3];
    wom.add(fine.ign, { ehb: 3, ehp: 4, level: 99 });
    await signUp(eventId, fine);
    const before = wom.requests.length;
    const started = await cast.owner.post(`${base(eventId)}/signups/scores/wom`, { metric: 'ehb' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    // The refused names are counted before the answer: Wise Old Man is not asked for them.
    expect(started.body).toMatchObject({ total: odd.length + 1, errors: odd.map((ign) => ({ ign, error: SIGNUP_MESSAGES.womBadName })) });
    await until(async () => (await cast.owner.get(`${base(eventId)}/signups/scores/wom`)).body.done === odd.length + 1, 10_000, 'the look-ups');
    const asked = wom.requests.slice(before).map((q) => q.path);
    expect(asked).toEqual([`/players/${encodeURIComponent(fine.ign)}`]);
    expect(wom.requests.some((q) => q.path === '/' || q.path === '/players/' || q.path === '/players')).toBe(false);
    const list = v.parse(SignupListSchema, (await cast.owner.get(`${base(eventId)}/signups`)).body).signups;
    expect(list.map((s) => [s.ign, s.score])).toEqual([...odd.map((ign) => [ign, null]), [fine.ign, 3]]);
  });

  it('balances free agents into a proposal that changes nothing, then applies it: teams made with distinct colours, leaders as Leader', async () => {
    const eventId = await newEvent();
    const scores = [900, 100, 500, 400, null, 300];
    const ids: number[] = [];
    for (const [i, s] of signers.entries()) {
      const row = await signUp(eventId, s, { wants_leader: i === 1 || i === 3 });
      ids.push(row.id);
      if (scores[i] !== null) await cast.owner.put(`${base(eventId)}/signups/${row.id}`, { score: scores[i] });
    }
    expectError(await cast.owner.post(`${base(eventId)}/teams/balance`, { team_count: 1 }), 400);
    expectError(await cast.owner.post(`${base(eventId)}/teams/balance`, { team_count: 21 }), 400);
    expectError(await cast.owner.post(`${base(eventId)}/teams/balance`, { team_count: 0 }), 400, SIGNUP_MESSAGES.noTeams);
    expectError(await signers[0].client.post(`${base(eventId)}/teams/balance`, { team_count: 2 }), 403);
    const r = await cast.owner.post(`${base(eventId)}/teams/balance`, { team_count: 2 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { proposal } = v.parse(BalanceAnswerSchema, r.body);
    expect(proposal.teams.map((t) => t.name)).toEqual(['Team 1', 'Team 2']);
    expect(proposal.teams.every((t) => t.team_id === null && t.signup_ids.length === 3)).toBe(true);
    expect(proposal.teams.flatMap((t) => t.signup_ids).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    // The null score counts as the median (400): totals 1300 + 1300 at best.
    expect(proposal.spread).toBe(Math.abs(proposal.teams[0].total_score - proposal.teams[1].total_score));
    expect(proposal.teams[0].total_score + proposal.teams[1].total_score).toBe(2600);
    for (const t of proposal.teams) {
      if (t.leader_signup_id !== null) expect([ids[1], ids[3]]).toContain(t.leader_signup_id);
    }
    expect((await cast.owner.post(`${base(eventId)}/teams/balance`, { team_count: 2 })).body).toEqual(r.body);
    expect((await cast.owner.get(`${base(eventId)}/teams/`)).body.teams).toEqual([]);

    // A score changed since: 409, nothing made.
    await cast.owner.put(`${base(eventId)}/signups/${ids[0]}`, { score: 950 });
    expectError(await cast.owner.post(`${base(eventId)}/teams/balance/apply`, { proposal }), 409, SIGNUP_MESSAGES.stale);
    expect((await cast.owner.get(`${base(eventId)}/teams/`)).body.teams).toEqual([]);
    expectError(await cast.owner.post(`${base(eventId)}/teams/balance/apply`, { proposal: { teams: 'x' } }), 400);

    const fresh = (await cast.owner.post(`${base(eventId)}/teams/balance`, { team_count: 2 })).body.proposal;
    const applied = await cast.owner.post(`${base(eventId)}/teams/balance/apply`, { proposal: fresh });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ placed_count: 6 });
    const teams = (await cast.owner.get(`${base(eventId)}/teams/`)).body.teams;
    expect(teams.map((t: { name: string; member_count: number }) => [t.name, t.member_count])).toEqual([['Team 1', 3], ['Team 2', 3]]);
    expect(new Set(teams.map((t: { color: string }) => t.color)).size).toBe(2);
    for (const [i, t] of teams.entries()) {
      const members = (await cast.owner.get(`${base(eventId)}/teams/${t.id}/members`)).body.team_members;
      const leaderSignup = fresh.teams[i].leader_signup_id;
      const leaders = members.filter((m: { role: string }) => m.role === 'Leader').map((m: { osrs_ign_id: number }) => m.osrs_ign_id);
      const leaderIgn = leaderSignup === null ? [] : [signers[ids.indexOf(leaderSignup)].ignId];
      expect(leaders).toEqual(leaderIgn);
    }
    const listed = v.parse(SignupListSchema, (await cast.owner.get(`${base(eventId)}/signups`)).body).signups;
    expect(listed.every((s) => teams.some((t: { id: number }) => t.id === s.team_id))).toBe(true);
    // Applying again: nothing is free any more.
    expectError(await cast.owner.post(`${base(eventId)}/teams/balance/apply`, { proposal: fresh }), 409);
  });

  it('applies a leaderless proposal with a leader the manager chose among that team\'s members; a leader from another team is refused', async () => {
    const eventId = await newEvent();
    const ids: number[] = [];
    for (const s of signers.slice(0, 4)) ids.push((await signUp(eventId, s)).id);
    const { proposal } = v.parse(BalanceAnswerSchema, (await cast.owner.post(`${base(eventId)}/teams/balance`, { team_count: 2 })).body);
    // Nobody would lead: no team has a leader.
    expect(proposal.teams.map((t) => t.leader_signup_id)).toEqual([null, null]);
    const [first, second] = proposal.teams;
    const foreign = { ...proposal, teams: [{ ...first, leader_signup_id: second.signup_ids[0] }, second] };
    expectError(await cast.owner.post(`${base(eventId)}/teams/balance/apply`, { proposal: foreign }), 400, SIGNUP_MESSAGES.leaderNotOnTeam);
    const chosen = first.signup_ids[1];
    const withLeader = { ...proposal, teams: [{ ...first, leader_signup_id: chosen }, second] };
    const applied = await cast.owner.post(`${base(eventId)}/teams/balance/apply`, { proposal: withLeader });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const teams = (await cast.owner.get(`${base(eventId)}/teams/`)).body.teams as { id: number; name: string }[];
    const roles = async (name: string) =>
      ((await cast.owner.get(`${base(eventId)}/teams/${teams.find((t) => t.name === name)?.id}/members`)).body.team_members as { osrs_ign_id: number; role: string }[])
        .filter((m) => m.role === 'Leader')
        .map((m) => m.osrs_ign_id);
    expect(await roles(first.name)).toEqual([signers[ids.indexOf(chosen)].ignId]);
    expect(await roles(second.name)).toEqual([]);
  });

  it('refuses a Guest (sign-ups are for Members and above) and a manager-only call from a Member', async () => {
    const eventId = await newEvent();
    const guest = new ApiClient(suite.url);
    const me = await guest.onboard(`guest-${backend}`, [`Guest ${backend[0]}`]);
    expect((await cast.owner.post(`/api/clan/${cast.clanId}/members`, { user_id: me.id, role: 'Guest' })).status).toBe(200);
    expectError(await guest.post(`${base(eventId)}/signups`, { osrs_ign_id: me.igns[0].id }), 403);
    expect((await guest.get(`${base(eventId)}/signups`)).status).toBe(200);
    expectError(await signers[0].client.post(`${base(eventId)}/teams/balance/apply`, { proposal: { teams: [], spread: 0 } }), 403);
  });

  it('applies into a game that has not started: new teams get their place on the board', async () => {
    const game = await newGame(cast, { start: false });
    await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}`, { name: 'Ready', start_datetime: '2031-06-01T18:00Z', signups_open: true });
    for (const s of signers.slice(0, 3)) await signUp(game.eventId, s);
    const { proposal } = (await cast.owner.post(`${base(game.eventId)}/teams/balance`, { team_count: 3 })).body;
    expect(proposal.teams.map((t: { team_id: number | null; name: string }) => [t.team_id, t.name])).toEqual([[game.team1, 'Red Team'], [game.team2, 'Blue Team'], [null, 'Team 1']]);
    const applied = await cast.owner.post(`${base(game.eventId)}/teams/balance/apply`, { proposal });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.created_team_ids).toHaveLength(1);
    const g = await cast.owner.get(`${base(game.eventId)}/game/${game.gameId}`);
    expect(g.status).toBe(200);
    const states = g.body.game?.team_states ?? g.body.team_states;
    expect(states.map((t: { team_id: number }) => t.team_id)).toContain(applied.body.created_team_ids[0]);
  });

  it('refuses to apply while the game is in progress', async () => {
    const game = await newGame(cast, { start: false });
    await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}`, { name: 'Soon', start_datetime: '2031-06-01T18:00Z', signups_open: true });
    const s = await signUp(game.eventId, signers[5]);
    expect(s.team_id).toBeNull();
    const proposal = (await cast.owner.post(`${base(game.eventId)}/teams/balance`, { team_count: 0 })).body.proposal;
    expect(proposal.teams.map((t: { team_id: number | null }) => t.team_id)).toEqual([game.team1, game.team2]);
    const start = await cast.owner.put(`${base(game.eventId)}/game/${game.gameId}/status`, { status: 'in-progress' });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expectError(await cast.owner.post(`${base(game.eventId)}/teams/balance/apply`, { proposal }), 409, SIGNUP_MESSAGES.gameRunning);
  });

  it('announces sign-ups opening and closing on the event webhook', async () => {
    const eventId = await newEvent({ signups_open: false });
    const id = `9${++serial}`;
    expect((await cast.owner.put(`${base(eventId)}/discord`, { webhook_url: hooks.webhook(id) })).status).toBe(200);
    const edit = (open: boolean) => cast.owner.put(`/api/clan/${cast.clanId}/events/${eventId}`, { name: 'Announced', start_datetime: '2031-06-01T18:00Z', signups_open: open, signups_close_at: '2031-05-31T12:00Z' });
    expect((await edit(true)).status).toBe(200);
    expect((await edit(true)).status).toBe(200);
    expect((await edit(false)).status).toBe(200);
    await hooks.until(() => hooks.accepted(id).length >= 2, 10_000, 'two announcements');
    const titles = hooks.accepted(id).map((p) => p.body.embeds[0].title);
    expect(titles).toEqual(['Sign-ups open', 'Sign-ups closed']);
    expect(hooks.accepted(id)[0].body.embeds[0].description).toContain('2031-05-31 12:00 UTC');
    expect(hooks.accepted(id).every((p) => JSON.stringify(p.body.allowed_mentions) === '{"parse":[]}')).toBe(true);
  });

  it('announces sign-ups closing once when their close time passes', async () => {
    const eventId = await newEvent({ signups_open: false });
    const id = `8${++serial}`;
    expect((await cast.owner.put(`${base(eventId)}/discord`, { webhook_url: hooks.webhook(id) })).status).toBe(200);
    const closeAt = new Date(Date.now() + 1500).toISOString();
    const open = await cast.owner.put(`/api/clan/${cast.clanId}/events/${eventId}`, { name: 'Timed', start_datetime: '2031-06-01T18:00Z', signups_open: true, signups_close_at: closeAt });
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    await hooks.until(() => hooks.accepted(id).length >= 2, 10_000, 'open and closed');
    expect(hooks.accepted(id).map((p) => p.body.embeds[0].title)).toEqual(['Sign-ups open', 'Sign-ups closed']);
    expectError(await signers[4].client.post(`${base(eventId)}/signups`, { osrs_ign_id: signers[4].ignId }), 409, SIGNUP_MESSAGES.closed);
    // Closing by hand afterwards is not announced again.
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/events/${eventId}`, { name: 'Timed', start_datetime: '2031-06-01T18:00Z', signups_open: false })).status).toBe(200);
    const settle = Date.now() + 1000;
    await hooks.until(() => Date.now() > settle || hooks.requests.filter((r) => r.path.includes(`/${id}/`)).length > 2, 3000, 'a quiet second');
    expect(hooks.accepted(id)).toHaveLength(2);
  });
});

describe.each(backends())("Wise Old Man's budget (%s)", (backend) => {
  const wom = new WomStandIn();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await wom.start();
    Object.assign(env, { WOM_API_URL: wom.url });
  });
  const suite = useServerSuite(backend, env);
  afterAll(() => wom.stop());

  it('asks at most 20 times a minute without an API key', async () => {
    const cast = await castOf(suite.url, `wb-${backend[0]}`);
    const eventId = (await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'Budget', start_datetime: '2031-06-01T18:00Z', signups_open: true })).body.event.id;
    const path = `/api/clan/${cast.clanId}/events/${eventId}/signups`;
    for (let i = 0; i < 8; i++) {
      const client = new ApiClient(suite.url);
      const me = await client.onboard(`budget-${i}-${backend}`, [`Budget ${i}`], { role: 'Member', clan_id: cast.clanId });
      wom.add(`Budget ${i}`, { ehb: i, ehp: i, level: 100 + i });
      expect((await client.post(path, { osrs_ign_id: me.igns[0].id })).status).toBe(201);
    }
    // Three fetches of 8 look-ups: 24 asked, 20 granted this minute.
    for (let run = 0; run < 3; run++) {
      expect((await cast.owner.post(`${path}/scores/wom`, { metric: 'ehb' })).status).toBe(202);
      const want = run < 2 ? 8 : 4;
      await until(async () => (await cast.owner.get(`${path}/scores/wom`)).body.done === want, 10_000, `run ${run + 1}`);
    }
    expect(wom.requests.length).toBe(20);
    const settle = Date.now() + 1500;
    await until(() => Date.now() > settle || wom.requests.length > 20, 3000, 'a quiet second and a half');
    expect(wom.requests.length).toBe(20);
    expect((await cast.owner.get(`${path}/scores/wom`)).body).toMatchObject({ total: 8, done: 4 });
  });
});

describe.runIf(process.env.TEST_REDIS_URL).each(backends())("Wise Old Man's budget over two processes with an API key (%s)", (backend) => {
  const wom = new WomStandIn();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await wom.start();
    Object.assign(env, { WOM_API_URL: wom.url, WOM_API_KEY: 'test-key-123' });
  });
  const suite = useServerSuite(backend, env, process.env.TEST_REDIS_URL);
  afterAll(() => wom.stop());

  it('shares one budget of 100 a minute between the processes and sends the key as x-api-key', async () => {
    const cast = await castOf(suite.url, `w2-${backend[0]}`);
    const events: number[] = [];
    for (const n of [1, 2]) {
      events.push((await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: `Two ${n}`, start_datetime: '2031-06-01T18:00Z', signups_open: true })).body.event.id);
    }
    for (let i = 0; i < 30; i++) {
      const client = new ApiClient(suite.url);
      const me = await client.onboard(`two-${i}-${backend}`, [`Two ${i}`], { role: 'Member', clan_id: cast.clanId });
      for (const e of events) expect((await client.post(`/api/clan/${cast.clanId}/events/${e}/signups`, { osrs_ign_id: me.igns[0].id })).status).toBe(201);
    }
    const owner2 = new ApiClient(suite.urlB);
    owner2.cookies = cast.owner.cookies;
    // Two processes, two events, two fetches each: 120 look-ups asked, 100 granted this minute.
    const clients = [cast.owner, owner2];
    for (const round of [0, 1]) {
      await Promise.all(events.map((e, i) => clients[i].post(`/api/clan/${cast.clanId}/events/${e}/signups/scores/wom`, { metric: 'overall_level' })));
      if (round === 0) await until(async () => (await Promise.all(events.map((e) => cast.owner.get(`/api/clan/${cast.clanId}/events/${e}/signups/scores/wom`)))).every((r) => r.body.done === 30), 20_000, 'first round');
    }
    await until(() => wom.requests.length >= 100, 20_000, '100 look-ups');
    const settle = Date.now() + 1500;
    await until(() => Date.now() > settle || wom.requests.length > 100, 3000, 'a quiet second and a half');
    expect(wom.requests.length).toBe(100);
    expect(wom.requests.every((q) => q.apiKey === 'test-key-123')).toBe(true);
  });
});

/**
 * Clan A asks for 40 look-ups over four events (four fetches at once), then clan B for 3 in one
 * event, through `urlOfB`: the clans take turns (docs/server.md §16), so B is done long before A
 * and every look-up is asked once. The turns put exactly two of A's between B's first and last;
 * Wise Old Man sees them in that order with one process, whose one worker makes one call at a
 * time. With `processes` 2 each process's worker has a call in flight, and the order in which
 * calls reach Wise Old Man is the order of the turns give or take what is in flight: a call of A
 * whose turn came before B's first may arrive after it, and one whose turn came after B's last
 * (the other worker's, while B's last is on its way) before it. So at most 2 + 2 of A's
 * between B's first and last arrive there.
 */
async function clansTakeTurns(suite: ServerSuite, wom: WomStandIn, tag: string, urlOfB: string, processes: 1 | 2): Promise<void> {
  const a = await castOf(suite.url, `ta-${tag}`);
  const b = await castOf(suite.url, `tb-${tag}`);
  const newEvent = async (c: Cast, n: number) =>
    (await c.owner.post(`/api/clan/${c.clanId}/events/`, { name: `Turns ${n}`, start_datetime: '2031-06-01T18:00Z', signups_open: true })).body.event.id as number;
  const aEvents = [await newEvent(a, 1), await newEvent(a, 2), await newEvent(a, 3), await newEvent(a, 4)];
  const bEvent = await newEvent(b, 5);
  const join = async (c: Cast, ign: string, events: number[]) => {
    const client = new ApiClient(suite.url);
    const me = await client.onboard(`turns-${ign}-${tag}`, [ign], { role: 'Member', clan_id: c.clanId });
    wom.add(ign, { ehb: 1, ehp: 1, level: 50 });
    for (const e of events) expect((await client.post(`/api/clan/${c.clanId}/events/${e}/signups`, { osrs_ign_id: me.igns[0].id })).status).toBe(201);
  };
  for (let i = 0; i < 10; i++) await join(a, `Ta ${i}`, aEvents);
  for (let i = 0; i < 3; i++) await join(b, `Tb ${i}`, [bEvent]);
  const progress = async (c: Cast, e: number) => (await c.owner.get(`/api/clan/${c.clanId}/events/${e}/signups/scores/wom`)).body as { done: number };

  const before = wom.requests.length;
  const since = Date.now();
  for (const e of aEvents) expect((await a.owner.post(`/api/clan/${a.clanId}/events/${e}/signups/scores/wom`, { metric: 'ehb' })).status).toBe(202);
  const ownerB = new ApiClient(urlOfB);
  ownerB.cookies = b.owner.cookies;
  expect((await ownerB.post(`/api/clan/${b.clanId}/events/${bEvent}/signups/scores/wom`, { metric: 'ehb' })).status).toBe(202);
  await until(async () => (await progress(b, bEvent)).done === 3, 20_000, "clan B's three look-ups");
  const aDoneThen = (await Promise.all(aEvents.map((e) => progress(a, e)))).reduce((sum, p) => sum + p.done, 0);
  expect(aDoneThen).toBeLessThan(40);

  await until(async () => (await Promise.all(aEvents.map((e) => progress(a, e)))).every((p) => p.done === 10), 30_000, "clan A's forty look-ups");
  const asked = wom.requests.slice(before).map((q) => decodeURIComponent(q.path).replace('/players/', ''));
  expect(asked).toHaveLength(43);
  const bAt = asked.flatMap((name, i) => (name.startsWith('Tb') ? [i] : []));
  expect(bAt).toHaveLength(3);
  const aBetween = asked.slice(bAt[0], bAt[2]).filter((name) => name.startsWith('Ta')).length;
  expect(aBetween, asked.join(', ')).toBeLessThanOrEqual(2 + 2 * (processes - 1));
  // The budget is a sliding window (docs/server.md §17): no second at Wise Old Man holds more than 20, wherever it starts.
  expect(wom.maxInWindow(1000, since)).toBeLessThanOrEqual(20);
}

describe.each(backends())("Wise Old Man's look-ups, clans in turn (%s)", (backend) => {
  const wom = new WomStandIn();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await wom.start();
    // 20 look-ups a second instead of a minute, so a batch outlasts a window within the test.
    Object.assign(env, { WOM_API_URL: wom.url, WOM_BUDGET_SECONDS: '1' });
  });
  const suite = useServerSuite(backend, env);
  afterAll(() => wom.stop());

  it("takes a second clan's look-ups in turns with a first clan's big batch", async () => {
    await clansTakeTurns(suite, wom, backend[0], suite.url, 1);
  }, 60_000);
});

describe.runIf(process.env.TEST_REDIS_URL).each(backends())("Wise Old Man's look-ups, clans in turn over two processes (%s)", (backend) => {
  const wom = new WomStandIn();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await wom.start();
    Object.assign(env, { WOM_API_URL: wom.url, WOM_BUDGET_SECONDS: '1' });
  });
  const suite = useServerSuite(backend, env, process.env.TEST_REDIS_URL);
  afterAll(() => wom.stop());

  it("takes turns between a clan whose batch runs in one process and a clan asking through the other", async () => {
    await clansTakeTurns(suite, wom, `r${backend[0]}`, suite.urlB, 2);
  }, 60_000);
});
