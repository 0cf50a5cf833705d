import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { createTestDatabase } from '../tests/support/server';
import { percentile, runBench } from './measure';
import { load, machine, many, ms, PG_URL, ratio, run, seed, startRealServer, type RunResult, type Running } from './manyHarness';

/**
 * Web push under the roll load of bench:many (docs/server.md §20), on PostgreSQL.
 *
 * Run: `npm run bench:push` (BENCH_DATABASE_URL or TEST_DATABASE_URL: the
 * PostgreSQL to create databases on). A short proof run: `BENCH_G=20 BENCH_S=2 BENCH_SECONDS=10
 * BENCH_PLAYERS=200 node --import tsx bench/push.bench.ts`.
 *
 * The games, Leader and spectator workers and the bare baseline are bench:many's
 * (bench/manyHarness.ts: BENCH_G games, default 200, BENCH_S spectators each, default 50, every team
 * rolling once every BENCH_PERIOD_MS, default 3000, for BENCH_SECONDS, default 60). Before the real
 * server starts, its copy of the seeded database gets BENCH_PLAYERS players (default 1,000), each a
 * Member of the clan on a team of one game (spread over every game's teams), each with a push
 * subscription pointing at a push service stand-in in this process (allowed by
 * PUSH_ALLOWED_ORIGINS) that answers every send 201 after BENCH_PUSH_DELAY_MS (default 5,000: the
 * most the sender waits), and pending proof on those teams (a square the team has left, so a review
 * moves no team). While the Leaders roll, the clan's owner approves BENCH_APPROVALS proofs a second
 * (default 5) through `PUT /api/clan/{clanId}/submissions/{id}/review`: each approval records the
 * in-page notification and queues 'Proof approved' for every player of that team, which the
 * server's sender delivers to the slow stand-in. The bare baseline has none of it. Four runs on
 * copies of one seed: bare; real with rolls only (bench:many's ratio on this load); real with the
 * same players and approvals but no push subscription; real with the subscriptions. The last two
 * differ only by the pushes, so their ratio is what a slow push service costs the rolls.
 *
 * Printed: roll acknowledgement and roll-to-spectator p50 / p99 of each run and the ratios between
 * them; the approvals made and how long they took (p50 / p99), pushes queued (one per
 * subscription of an approved proof's team), sent (the stand-in's received count) and still
 * waiting unclaimed in push_queue when the rolls stopped. Writes nothing to
 * bench/RESULTS.md.
 */

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 1000);
const DELAY_MS = Number(process.env.BENCH_PUSH_DELAY_MS ?? 5000);
const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 5);

/** A push service stand-in: counts each POST and answers 201 after DELAY_MS. */
function slowPushService(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      setTimeout(() => {
        res.writeHead(201);
        res.end();
      }, DELAY_MS).unref();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ url, received: () => received, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) });
    });
  });
}

/**
 * Adds the players, their subscriptions to `pushUrl` when `subscribe` and `pending` pending proofs (round robin
 * over the teams) to the copy at `databaseUrl`; answers the pending submission ids.
 */
async function preparePlayers(databaseUrl: string, s: Awaited<ReturnType<typeof seed>>, pushUrl: string, pending: number, subscribe: boolean): Promise<number[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const now = new Date().toISOString();
    // One browser key pair for all: each push is still encrypted and signed on its own.
    const ecdh = crypto.createECDH('prime256v1');
    const p256dh = ecdh.generateKeys().toString('base64url');
    const auth = crypto.randomBytes(16).toString('base64url');
    const teams = s.games.flatMap((g) => g.teams.map((t) => ({ gameId: g.gameId, eventId: g.eventId, teamId: t.teamId })));
    const submitter: number[] = new Array(teams.length).fill(0);
    await c.query('BEGIN');
    for (let i = 0; i < PLAYERS; i += 1) {
      const user = (await c.query('INSERT INTO users (username, avatar_url, created_at, last_login) VALUES ($1, NULL, $2, NULL) RETURNING id', [`push-player-${i}`, now])).rows[0].id as number;
      const ign = (await c.query('INSERT INTO igns (user_id, ign, created_at) VALUES ($1, $2, $3) RETURNING id', [user, `PushP${i}`, now])).rows[0].id as number;
      await c.query('INSERT INTO clan_memberships (clan_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)', [s.clanId, user, 'Member', now]);
      const k = i % teams.length;
      await c.query('INSERT INTO team_members (team_id, event_id, ign_id, role, created_at) VALUES ($1, $2, $3, $4, $5)', [teams[k].teamId, teams[k].eventId, ign, 'Member', now]);
      if (subscribe) await c.query('INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES ($1, $2, $3, $4, $5)', [user, `${pushUrl}/p/${i}`, p256dh, auth, now]);
      submitter[k] ||= user;
    }
    const ids: number[] = [];
    for (let j = 0; j < pending; j += 1) {
      const k = j % teams.length;
      const t = teams[k];
      const r = await c.query(
        `INSERT INTO submissions (game_id, clan_id, team_id, square_index, square_since, task_description, task_difficulty, submitted_by, submitted_ign, note,
           image_key, image_type, thumb_key, thumb_type, status, reviewer_id, reason, created_at, reviewed_at)
         VALUES ($1, $2, $3, 5, '2000-01-01T00:00:00.000Z', 'Bench proof', 'EASY', $4, 'PushP', '', 'bench', 'image/webp', 'bench', 'image/webp', 'pending', NULL, NULL, $5, NULL) RETURNING id`,
        [t.gameId, s.clanId, t.teamId, submitter[k] || submitter[0], now],
      );
      ids.push(r.rows[0].id as number);
    }
    await c.query('COMMIT');
    return ids;
  } finally {
    await c.end();
  }
}

/** One value of the copy's database. */
async function count(databaseUrl: string, sql: string): Promise<number> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return Number((await c.query(sql)).rows[0].n);
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  if (!PG_URL) throw new Error('Set BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL).');
  if (!process.env.TEST_DATABASE_URL) process.env.TEST_DATABASE_URL = PG_URL;
  const stand = await slowPushService();
  console.log(`push bench on ${machine()}: ${many.G} games, ${many.S} spectators each, ${PLAYERS} subscribed players, ${APPROVALS} approvals/s, push service answering after ${DELAY_MS} ms; load ${load()}`);
  const seeded = await createTestDatabase('postgres');
  const approvalMs: number[] = [];
  const outcome = { approvals: 0, refusedApprovals: 0, queued: 0, sent: 0, queueLeft: 0, notifications: 0 };
  try {
    console.log(`seeding ${many.G} games ...`);
    const s = await seed(seeded);
    const pending = Math.ceil(APPROVALS * (many.SECONDS + 10) * 1.2);
    let databaseUrl = '';
    let stopApprovals: (() => Promise<void>) | null = null;
    /** A real server whose copy gets the players (subscribed to the slow stand-in when `subscribe`) and whose owner approves APPROVALS proofs a second. */
    const approving = (subscribe: boolean) => async (env: Record<string, string>): Promise<Running> => {
      databaseUrl = env.DATABASE_URL;
      const ids = await preparePlayers(databaseUrl, s, stand.url, pending, subscribe);
      const server = await startRealServer({ ...env, PUSH_ALLOWED_ORIGINS: stand.url });
      let next = 0;
      let inFlight = Promise.resolve();
      const timer = setInterval(() => {
        const id = ids[next++];
        if (id === undefined) return;
        const t0 = performance.now();
        inFlight = fetch(`${server.url}/api/clan/${s.clanId}/submissions/${id}/review`, {
          method: 'PUT',
          headers: { cookie: s.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'approve' }),
        }).then(async (r) => {
          await r.body?.cancel();
          if (r.ok) {
            outcome.approvals += 1;
            approvalMs.push(performance.now() - t0);
          } else outcome.refusedApprovals += 1;
        }, () => void (outcome.refusedApprovals += 1));
      }, 1000 / APPROVALS);
      stopApprovals = async () => {
        clearInterval(timer);
        await inFlight;
      };
      return server;
    };
    const rolled = async () => {
      await stopApprovals?.();
      stopApprovals = null;
      outcome.sent = stand.received();
      outcome.queueLeft = await count(databaseUrl, 'SELECT COUNT(*) AS n FROM push_queue WHERE claimed_at IS NULL');
      // One push per subscription of every player on an approved proof's team (the owner, who approves, has none).
      outcome.queued = await count(databaseUrl, `SELECT COUNT(*) AS n FROM submissions s JOIN team_members tm ON tm.team_id = s.team_id
        JOIN igns i ON i.id = tm.ign_id JOIN push_subscriptions p ON p.user_id = i.user_id WHERE s.status = 'approved'`);
      outcome.notifications = await count(databaseUrl, 'SELECT COUNT(*) AS n FROM notifications');
    };
    const row = (name: string, r: RunResult) =>
      `  ${name}: ack p50/p99 ${ms(percentile(r.ack, 50))}/${ms(percentile(r.ack, 99))} ms, spectator p50/p99 ${ms(percentile(r.spectator, 50))}/${ms(percentile(r.spectator, 99))} ms, ${r.rollsPerSecond.toFixed(1)} rolls/s, refused ${r.refused}, timeouts ${r.timeouts}, missed ${r.missed}, lost ${r.lost}, CPU ${r.cpuCores.toFixed(2)} cores`;
    const ratios = (r: RunResult, base: RunResult) =>
      `ack p50 ${ratio(percentile(r.ack, 50), percentile(base.ack, 50))}, ack p99 ${ratio(percentile(r.ack, 99), percentile(base.ack, 99))}, spectator p50 ${ratio(percentile(r.spectator, 50), percentile(base.spectator, 50))}, spectator p99 ${ratio(percentile(r.spectator, 99), percentile(base.spectator, 99))}`;
    const bare = await run('bare', seeded, s);
    const rollsOnly = await run('real', seeded, s);
    const unsubscribed = await run('real', seeded, s, approving(false), rolled);
    const unsubscribedApprovals = Float64Array.from(approvalMs.splice(0)).sort();
    outcome.approvals = 0;
    outcome.refusedApprovals = 0;
    const sentBefore = stand.received();
    const subscribed = await run('real', seeded, s, approving(true), rolled);
    outcome.sent -= sentBefore;
    const sortedApprovals = Float64Array.from(approvalMs).sort();
    console.log('\nResults');
    console.log(row('bare', bare));
    console.log(row('real, rolls only', rollsOnly));
    console.log(row('real, approvals, no push subscription', unsubscribed));
    console.log(row('real, approvals, 1,000 players subscribed to the slow push service', subscribed));
    console.log(`  rolls only / bare (bench:many's ratio on this load): ${ratios(rollsOnly, bare)}`);
    console.log(`  subscribed / no subscription (what the pushes cost the rolls, same approvals): ${ratios(subscribed, unsubscribed)}`);
    console.log(`  subscribed / bare: ${ratios(subscribed, bare)}`);
    console.log(`  approvals without subscriptions p50/p99 ${ms(percentile(unsubscribedApprovals, 50))}/${ms(percentile(unsubscribedApprovals, 99))} ms; with: ${outcome.approvals} made (${outcome.refusedApprovals} refused), p50/p99 ${ms(percentile(sortedApprovals, 50))}/${ms(percentile(sortedApprovals, 99))} ms`);
    console.log(`  pushes: ${outcome.queued} queued, ${outcome.sent} sends received by the push service (tries included), ${outcome.queueLeft} still waiting unclaimed when the rolls stopped; ${outcome.notifications} in-page notifications kept; load ${load()} (${os.cpus().length} cores)`);
  } finally {
    await seeded.drop();
    await stand.close();
  }
}

runBench(main);
