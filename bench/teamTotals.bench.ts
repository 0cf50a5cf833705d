import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { createTestDatabase, type TestDatabase } from '../tests/support/server';
import { ApiClient } from '../tests/support/api';
import { WomStandIn } from '../tests/support/womStandIn';
import { startProgress } from '../contract/progress';
import type { AutoRule } from '../contract/dink';
import { ok, percentile, runBench, sleep, wallNow, writeResults } from './measure';
import {
  copyOf, load, machine, many, ms, PG_URL, ratio, run, seed, startBareServer, startCluster, type RunResult, type Running,
} from './manyHarness';

/**
 * Team totals under load (docs/server.md §17), on PostgreSQL with two real processes behind nginx
 * and the Redis adapter (bench/manyHarness.ts startCluster), in two parts (BENCH_PART=wom, dink or
 * both; default both):
 *
 * wom — BENCH_G (default 200) live games of 4 teams each, every team standing on a square whose
 * task is a Wise Old Man team total (XP fishing, a total never reached), against the Wise Old Man
 * stand-in (tests/support/womStandIn.ts) in this process. Time is shortened consistently: the
 * budget window WOM_BUDGET_SECONDS is BENCH_WOM_BUDGET_SECONDS (default 1: 20 calls a second stand
 * for 20 a minute) and WOM_CHECK_MINUTES is BENCH_WOM_CHECK_MINUTES (default 0.25: 15 s stand for
 * the default 15 minutes, the same factor 60). First the teams sit (BENCH_WOM_SIT_SECONDS, default
 * 100) while the checks run: the stand-in's requests per budget window (the most in any sliding
 * window, over both processes) and each team's completed check rounds (wom_team_checks, read every
 * second): the delay of its first round and the gaps between rounds, in check cycles. Then the
 * roll load of bench/many.bench.ts (bench/manyHarness.ts run: one Leader socket per game, each
 * team rolling once every BENCH_PERIOD_MS, default 3000, BENCH_S compact spectators per game,
 * default 5) in the same games, alternating runs without team totals (the same copy with every
 * task's rule removed) and with them (every arrival then starts a team's baseline round), BENCH_PAIRS
 * pairs (default 2), and once on the bare baseline (bench/manyBareServer.ts): roll acknowledgement
 * and roll-to-spectator p50 / p99 and the ratios real / bare and with / without.
 *
 * dink — BENCH_DINK_G (default 50) events, each with its game's first team on a square whose task is
 * a Dink team total (KILL_COUNT Zulrah, a total never reached) and a Dink link; every event's link
 * gets 60 posts a minute for BENCH_DINK_SECONDS (default 60), like Dink (multipart payload_json,
 * the kill-count fixture as the Leader), alternating between the two processes; every tenth post is
 * the same post sent to both processes at once (one of the two must count, the other is a
 * duplicate), so 54 different posts a minute. One spectator socket per game (through nginx) times
 * each post's progress update (the first update whose `have` reaches that post's count) against
 * the post's 204 answer; afterwards each event's `have` is compared with the different posts sent.
 *
 * Run: `node --import tsx bench/teamTotals.bench.ts` (BENCH_DATABASE_URL or TEST_DATABASE_URL:
 * PostgreSQL to create databases on; env as above, BENCH_OUT default bench/teamTotals.md).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PART = process.env.BENCH_PART ?? 'both';
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? 'bench/teamTotals.md');
many.S = Number(process.env.BENCH_S ?? 5);
many.SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WOM_G = Number(process.env.BENCH_G ?? 200);
const BUDGET_SECONDS = Number(process.env.BENCH_WOM_BUDGET_SECONDS ?? 1);
const CHECK_MINUTES = Number(process.env.BENCH_WOM_CHECK_MINUTES ?? 0.25);
const SIT_SECONDS = Number(process.env.BENCH_WOM_SIT_SECONDS ?? 100);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
const DINK_G = Number(process.env.BENCH_DINK_G ?? 50);
const DINK_SECONDS = Number(process.env.BENCH_DINK_SECONDS ?? 60);
/** Wise Old Man's budget without a key (docs/server.md §17): calls per budget window, over every process. */
const WOM_LIMIT = 20;
const LEADERS = ['LeaderA', 'LeaderB', 'LeaderC', 'LeaderD'];
const XP_RULE: AutoRule = { type: 'XP', names: ['fishing'], min: null, team_total: 1_000_000_000, distinct: false };
const KC_RULE: AutoRule = { type: 'KILL_COUNT', names: ['Zulrah'], min: null, team_total: 1_000_000_000, distinct: false };
const KC_FIXTURE = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/dink/kill_count.json'), 'utf8')) as Record<string, unknown>;

type Seed = Awaited<ReturnType<typeof seed>>;

/**
 * Sets the copy's board up for a run before its server starts: every task's rule `rule` (null:
 * none), and every team on its own task square (the k-th task square from 2 of its game), task
 * `open`, arrived now, its progress started (startProgress: null without a team total).
 */
async function prepare(databaseUrl: string, rule: AutoRule | null): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query('UPDATE tasks SET auto_rule = $1', [rule ? JSON.stringify(rule) : null]);
    const at = new Date().toISOString();
    const progress = startProgress(rule, at);
    const squares = new Map<number, number[]>();
    for (const r of (await c.query('SELECT game_id, square_index FROM board_squares WHERE task_id IS NOT NULL AND square_index BETWEEN 2 AND 60 ORDER BY game_id, square_index')).rows) {
      const list = squares.get(Number(r.game_id)) ?? [];
      list.push(Number(r.square_index));
      squares.set(Number(r.game_id), list);
    }
    const ids: number[] = [];
    const positions: number[] = [];
    const seen = new Map<number, number>();
    for (const r of (await c.query('SELECT id, game_id FROM team_states ORDER BY game_id, team_id')).rows) {
      const k = seen.get(Number(r.game_id)) ?? 0;
      seen.set(Number(r.game_id), k + 1);
      ids.push(Number(r.id));
      positions.push((squares.get(Number(r.game_id)) ?? [])[k] ?? 2);
    }
    await c.query(
      `UPDATE team_states t SET current_position = v.pos, position_history = '[1,' || v.pos || ']', task_state = 'open', task_override = NULL, square_since = $3, progress = $4
       FROM unnest($1::int[], $2::int[]) AS v(id, pos) WHERE t.id = v.id`,
      [ids, positions, at, progress === null ? null : JSON.stringify(progress)],
    );
  } finally {
    await c.end();
  }
}

/** What the Wise Old Man stand-in was asked since `from` (ms; until now): count, per second, the most in any budget window and in any minute. */
function womLoad(stand: WomStandIn, from: number): { count: number; perSecond: number; maxPerWindow: number; maxPerMinute: number } {
  const to = Date.now();
  const count = stand.requests.filter((r) => r.at >= from).length;
  return { count, perSecond: count / Math.max(0.001, (to - from) / 1000), maxPerWindow: stand.maxInWindow(BUDGET_SECONDS * 1000, from), maxPerMinute: stand.maxInWindow(60_000, from) };
}

/** The sitting phase's findings: the stand-in's load and each team's completed rounds. */
interface SitResult {
  seconds: number;
  load: ReturnType<typeof womLoad>;
  teams: number;
  /** Teams with at least one, and at least two, completed rounds. */
  checkedOnce: number;
  checkedTwice: number;
  /** Delay of each team's first completed round (the baseline) from the servers' start, s (sorted). */
  first: Float64Array;
  /** Gaps between a team's consecutive completed rounds, s (sorted). */
  gaps: Float64Array;
  /** Per team the longest it went without a completed round (from the start, between rounds, and to the end), s (sorted). */
  longest: Float64Array;
}

/**
 * Watches the teams sit on their Wise Old Man squares from `from` (ms; call it before the servers
 * start: their sweep at start begins the checks) while the checks run: reads wom_team_checks
 * every second (a round's end moves `round` and sets `checked_at`) until `stop()`, which answers
 * the findings.
 */
async function watchChecks(databaseUrl: string, stand: WomStandIn, teams: number): Promise<{ stop(): Promise<SitResult> }> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const from = Date.now();
  const rounds = new Map<string, { round: number; times: number[] }>();
  let stopped = false;
  const polling = (async () => {
    while (!stopped) {
      for (const r of (await c.query('SELECT game_id, team_id, round, checked_at FROM wom_team_checks')).rows) {
        const key = `${r.game_id}:${r.team_id}`;
        const held = rounds.get(key) ?? { round: 0, times: [] };
        if (Number(r.round) > held.round && r.checked_at) {
          held.round = Number(r.round);
          held.times.push(Date.parse(r.checked_at));
        }
        rounds.set(key, held);
      }
      await sleep(1000);
    }
    if (process.env.BENCH_DEBUG) {
      for (const q of ['SELECT kind, count(*)::int n, min(due_at) d, max(attempts) a FROM wom_queue GROUP BY kind', 'SELECT count(*)::int n, count(error)::int e, max(error) m FROM wom_baselines', 'SELECT round, count(*)::int n FROM wom_team_checks GROUP BY round']) console.log(q, JSON.stringify((await c.query(q)).rows));
    }
    await c.end();
  })();
  return { stop: async () => {
    stopped = true;
    await polling;
    return findings(rounds, stand, teams, from);
  } };
}

/** The sitting phase's findings from each team's round end times. */
function findings(rounds: Map<string, { round: number; times: number[] }>, stand: WomStandIn, teams: number, from: number): SitResult {
  const to = Date.now();
  const first: number[] = [];
  const gaps: number[] = [];
  const longest: number[] = [];
  let once = 0;
  let twice = 0;
  for (const { times } of rounds.values()) {
    if (times.length >= 1) once += 1;
    if (times.length >= 2) twice += 1;
    if (times.length) first.push((times[0] - from) / 1000);
    let worst = times.length ? times[0] - from : to - from;
    for (let i = 1; i < times.length; i += 1) {
      gaps.push((times[i] - times[i - 1]) / 1000);
      worst = Math.max(worst, times[i] - times[i - 1]);
    }
    if (times.length) worst = Math.max(worst, to - times[times.length - 1]);
    longest.push(worst / 1000);
  }
  // A team whose checks never started has no row: it went the whole time without one.
  for (let i = rounds.size; i < teams; i += 1) longest.push((to - from) / 1000);
  const sorted = (x: number[]) => Float64Array.from(x).sort();
  return { seconds: (to - from) / 1000, load: womLoad(stand, from), teams, checkedOnce: once, checkedTwice: twice, first: sorted(first), gaps: sorted(gaps), longest: sorted(longest) };
}

/** One roll run of the wom part and the stand-in's load during it. */
interface WomRun {
  label: string;
  result: RunResult;
  load: ReturnType<typeof womLoad> | null;
}

/** The wom part: seed, sit, then the alternating roll runs. Answers the report's lines. */
async function womPart(): Promise<string[]> {
  many.G = WOM_G;
  const stand = new WomStandIn();
  await stand.start();
  for (const ign of LEADERS) stand.add(ign, { ehb: 0, ehp: 0, level: 1000, skills: { fishing: 1_000_000 } });
  const seeded = await createTestDatabase('postgres');
  const runs: WomRun[] = [];
  let sat: SitResult | null = null;
  try {
    console.log(`wom: seeding ${many.G} games of 4 teams ...`);
    const s = await seed(seeded, () => 4);
    const womEnv = { WOM_API_URL: stand.url, WOM_BUDGET_SECONDS: String(BUDGET_SECONDS), WOM_CHECK_MINUTES: String(CHECK_MINUTES) };
    const bare = await run('bare', seeded, s, async (env) => {
      await prepare(env.DATABASE_URL, null);
      return startBareServer(env, s.sample);
    });
    runs.push({ label: 'bare', result: bare, load: null });
    report('bare', bare, null);
    for (let pair = 0; pair < PAIRS; pair += 1) {
      for (const withTotals of [false, true]) {
        let from = 0;
        const result = await run('real', seeded, s, async (env) => {
          await prepare(env.DATABASE_URL, withTotals ? XP_RULE : null);
          stand.heal();
          const watch = withTotals && !sat ? await watchChecks(env.DATABASE_URL, stand, s.games.length * 4) : null;
          const startedAt = Date.now();
          const cluster = await startCluster({ ...env, ...womEnv }, 2, true);
          if (watch) {
            console.log(`  sitting until ${SIT_SECONDS} s from the servers' start while the Wise Old Man checks run ...`);
            await sleep(startedAt + SIT_SECONDS * 1000 - Date.now());
            sat = await watch.stop();
            reportSit(sat);
          }
          from = Date.now();
          return cluster;
        }, async () => {
          // No more progress updates while the bench waits for the last broadcasts: every call is put back.
          stand.failAll({ status: 429, retryAfter: 120 });
        });
        const label = withTotals ? 'with Wise Old Man totals' : 'without team totals';
        const l = withTotals ? womLoad(stand, from) : null;
        runs.push({ label, result, load: l });
        report(label, result, l);
      }
    }
  } finally {
    await seeded.drop();
    await stand.stop();
  }
  return womLines(runs, sat);
}

function report(label: string, r: RunResult, l: ReturnType<typeof womLoad> | null): void {
  console.log(`  ${label}: ack p50/p99 ${ms(percentile(r.ack, 50))}/${ms(percentile(r.ack, 99))} ms, spectator p50/p99 ${ms(percentile(r.spectator, 50))}/${ms(percentile(r.spectator, 99))} ms, ${r.rollsPerSecond.toFixed(1)} rolls/s, refused ${r.refused}, timeouts ${r.timeouts}, missed ${r.missed}, CPU ${r.cpuCores.toFixed(2)} cores, lost ${r.lost}, doubled ${r.doubled}, mismatched ${r.mismatched}${l ? `; Wise Old Man ${l.count} requests, at most ${l.maxPerWindow} per ${BUDGET_SECONDS} s window` : ''}; load ${load()}`);
}

function reportSit(x: SitResult): void {
  console.log(`  sat ${x.seconds.toFixed(0)} s: ${x.load.count} Wise Old Man requests (${x.load.perSecond.toFixed(1)}/s), at most ${x.load.maxPerWindow} per ${BUDGET_SECONDS} s window; ${x.checkedOnce} / ${x.teams} teams checked once, ${x.checkedTwice} twice; first round p50/max ${ms(percentile(x.first, 50))}/${ms(percentile(x.first, 100))} s; gaps p50/max ${ms(percentile(x.gaps, 50))}/${ms(percentile(x.gaps, 100))} s; longest without a check p50/max ${ms(percentile(x.longest, 50))}/${ms(percentile(x.longest, 100))} s (cycle ${CHECK_MINUTES * 60} s)`);
}

/** The wom part's Markdown. */
function womLines(runs: WomRun[], sat: SitResult | null): string[] {
  const cycle = CHECK_MINUTES * 60;
  const bare = runs.find((r) => r.label === 'bare')?.result;
  const p = (r: RunResult, a: 'ack' | 'spectator', q: number) => percentile(r[a], q);
  const lines = [
    `### Wise Old Man checks and rolls (${many.G} games x 4 teams, 2 processes + Redis behind nginx, PostgreSQL)`,
    '',
    `Budget window WOM_BUDGET_SECONDS=${BUDGET_SECONDS} (${WOM_LIMIT} calls per window, summed over the processes), WOM_CHECK_MINUTES=${CHECK_MINUTES} (a cycle of ${cycle} s): ` +
      `time shortened by ${(60 / BUDGET_SECONDS).toFixed(0)} for both. Rolls: each team once every ${many.PERIOD_MS} ms, ${many.S} compact spectators per game, ${many.SECONDS} s, the first ${many.WARMUP_SECONDS} s not counted.`,
    '',
  ];
  if (sat) {
    const s = sat as SitResult;
    lines.push(
      `Teams sitting on their squares for ${s.seconds.toFixed(0)} s: ${s.load.count} requests to the stand-in (${s.load.perSecond.toFixed(1)} a second), at most ${s.load.maxPerWindow} in any ${BUDGET_SECONDS} s window (limit ${WOM_LIMIT}); ` +
        `${s.checkedOnce} of ${s.teams} teams had a round completed, ${s.checkedTwice} two. First round after p50 ${ms(percentile(s.first, 50))} s, max ${ms(percentile(s.first, 100))} s; ` +
        `gap between a team's rounds p50 ${ms(percentile(s.gaps, 50))} s, p99 ${ms(percentile(s.gaps, 99))} s, max ${ms(percentile(s.gaps, 100))} s (${ratio(percentile(s.gaps, 100), cycle)} cycles); ` +
        `longest a team went without a completed round p50 ${ms(percentile(s.longest, 50))} s, max ${ms(percentile(s.longest, 100))} s (${ratio(percentile(s.longest, 100), cycle)} cycles).`,
      '',
    );
  }
  lines.push(
    '| run | roll ack p50 / p99 (ms) | roll to spectator p50 / p99 (ms) | ack ratio to bare p50 / p99 | spectator ratio to bare p50 / p99 | rolls/s | refused / timeouts / missed | server CPU (cores) | lost / doubled / mismatched | Wise Old Man requests / most per window |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const { label, result: r, load: l } of runs) {
    const vsBare = (a: 'ack' | 'spectator') => (bare && r !== bare ? `${ratio(p(r, a, 50), p(bare, a, 50))} / ${ratio(p(r, a, 99), p(bare, a, 99))}` : '');
    lines.push(`| ${label} | ${ms(p(r, 'ack', 50))} / ${ms(p(r, 'ack', 99))} | ${ms(p(r, 'spectator', 50))} / ${ms(p(r, 'spectator', 99))} | ${vsBare('ack')} | ${vsBare('spectator')} | ${r.rollsPerSecond.toFixed(1)} | ${r.refused} / ${r.timeouts} / ${r.missed} | ${r.cpuCores.toFixed(2)} | ${r.lost} / ${r.doubled} / ${r.mismatched} | ${l ? `${l.count} / ${l.maxPerWindow}` : ''} |`);
  }
  lines.push('');
  return lines;
}

/** One post's timings: sent, answered (the earlier 204 of a pair), and the count the event's team had once it counted. */
interface Post {
  gameIndex: number;
  sentAt: number;
  answeredAt: number;
  statuses: number[];
  /** The number of different posts of this event up to and including this one. */
  nth: number;
}

/** Posts sent again after a connection error (a kept-alive connection the server had just closed). */
let resent = 0;

/**
 * Posts `payload` to `url` like Dink (multipart payload_json, no file); answers the status and the
 * time of the answer. A connection error is sent again, up to twice (the same bytes: should the
 * first have arrived, the server takes the second as a duplicate); then status 0.
 */
async function post(url: string, payload: unknown): Promise<{ status: number; at: number }> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const form = new FormData();
      form.append('payload_json', JSON.stringify(payload));
      const res = await fetch(url, { method: 'POST', body: form });
      await res.arrayBuffer();
      return { status: res.status, at: wallNow() };
    } catch {
      if (attempt >= 2) return { status: 0, at: wallNow() };
      resent += 1;
    }
  }
}

/** The dink part: seed DINK_G games, links, spectators, the posts, then the counts. Answers the report's lines. */
async function dinkPart(): Promise<string[]> {
  many.G = DINK_G;
  const seeded: TestDatabase = await createTestDatabase('postgres');
  let cluster: Running | null = null;
  const sockets: Socket[] = [];
  let copy: Awaited<ReturnType<typeof copyOf>> | null = null;
  try {
    console.log(`dink: seeding ${many.G} games ...`);
    const s: Seed = await seed(seeded, () => 2);
    copy = await copyOf(seeded);
    await prepare(copy.env.DATABASE_URL, KC_RULE);
    cluster = await startCluster(copy.env, 2, true);
    const urls = cluster.urls ?? [cluster.url];
    const owner = new ApiClient(cluster.url);
    for (const part of s.cookie.split('; ')) {
      const eq = part.indexOf('=');
      owner.cookies.set(part.slice(0, eq), part.slice(eq + 1));
    }
    const tokens = await Promise.all(s.games.map(async (g) => {
      const made = ok(await owner.post(`/api/clan/${s.clanId}/events/${g.eventId}/dink`), 'dink link');
      return String(made.dink.url).split('/').pop() as string;
    }));
    // One spectator per game: the first team's `have` as each update carries it, with the receipt time.
    const seen: { at: number; have: number }[][] = s.games.map(() => []);
    await Promise.all(s.games.map((g, i) => new Promise<void>((resolve, reject) => {
      const socket = connectSocket(cluster!.url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false });
      sockets.push(socket);
      const team = g.teams[0].teamId;
      socket.on('game_state_update', (m: { game_state: { team_states?: { team_id: number; progress?: { have: number } | null }[] } }) => {
        const at = wallNow();
        const t = m.game_state.team_states?.find((x) => x.team_id === team);
        if (t?.progress) seen[i].push({ at, have: t.progress.have });
        resolve();
      });
      socket.once('connect', () => socket.emit('join_game', { game_id: g.gameId, compact: true }));
      socket.once('connect_error', reject);
    })));
    console.log(`  ${s.games.length} links and spectators ready; posting 60 a minute to each for ${DINK_SECONDS} s`);
    const posts: Post[] = [];
    const unique = s.games.map(() => 0);
    const statusCounts: Record<number, number> = {};
    const from = wallNow();
    const loadDuring: number[] = [];
    const sampler = setInterval(() => loadDuring.push(os.loadavg()[0]), 10_000);
    await Promise.all(s.games.map(async (_, i) => {
      const offset = Math.random() * 1000;
      const slots = Math.floor(DINK_SECONDS);
      const inFlight: Promise<void>[] = [];
      for (let k = 0; k < slots; k += 1) {
        const wait = from + offset + k * 1000 - wallNow();
        if (wait > 0) await sleep(wait);
        // Slot 8 of every ten is left out for the pair in slot 9: 60 posts a minute per link.
        if (k % 10 === 8) continue;
        const payload = { ...KC_FIXTURE, playerName: LEADERS[0], content: `${String(KC_FIXTURE.content)} #${i}-${k}` };
        const to = k % 10 === 9 ? urls : [urls[k % urls.length]];
        unique[i] += 1;
        const nth = unique[i];
        const sentAt = wallNow();
        inFlight.push(Promise.all(to.map((u) => post(`${u}/api/dink/${tokens[i]}`, payload))).then((answers) => {
          for (const a of answers) statusCounts[a.status] = (statusCounts[a.status] ?? 0) + 1;
          posts.push({ gameIndex: i, sentAt, answeredAt: Math.min(...answers.map((a) => a.at)), statuses: answers.map((a) => a.status), nth });
        }));
      }
      await Promise.all(inFlight);
    }));
    clearInterval(sampler);
    const postedFor = wallNow() - from;
    // The last updates: until no spectator has had one for 2 s.
    for (let last = -1; ;) {
      const total = seen.reduce((a, x) => a + x.length, 0);
      if (total === last) break;
      last = total;
      await sleep(2000);
    }
    const latencies: number[] = [];
    const fromSend: number[] = [];
    let missed = 0;
    for (const p of posts) {
      const got = seen[p.gameIndex].find((x) => x.have >= p.nth);
      if (!got) {
        missed += 1;
        continue;
      }
      latencies.push(got.at - p.answeredAt);
      fromSend.push(got.at - p.sentAt);
    }
    const lat = Float64Array.from(latencies).sort();
    const sent = Float64Array.from(fromSend).sort();
    // The counts as stored, against the different posts sent.
    const c = new pg.Client({ connectionString: copy.env.DATABASE_URL });
    await c.connect();
    let haveSum = 0;
    let over = 0;
    let under = 0;
    const outcomes: Record<string, number> = {};
    try {
      const rows = (await c.query('SELECT game_id, team_id, progress FROM team_states')).rows as { game_id: number; team_id: number; progress: string | null }[];
      s.games.forEach((g, i) => {
        const row = rows.find((r) => Number(r.game_id) === g.gameId && Number(r.team_id) === g.teams[0].teamId);
        const have = row?.progress ? (JSON.parse(row.progress) as { have: number }).have : 0;
        haveSum += have;
        if (have > unique[i]) over += 1;
        if (have < unique[i]) under += 1;
      });
      for (const r of (await c.query('SELECT outcome, count(*)::int AS n FROM dink_posts GROUP BY outcome')).rows) outcomes[r.outcome] = Number(r.n);
    } finally {
      await c.end();
    }
    const uniqueSum = unique.reduce((a, x) => a + x, 0);
    const totalPosts = Object.values(statusCounts).reduce((a, x) => a + x, 0);
    const within = latencies.filter((x) => x <= 100).length;
    const sortedLoad = [...loadDuring].sort((a, b) => a - b);
    console.log(`  ${totalPosts} posts (${uniqueSum} different) in ${(postedFor / 1000).toFixed(1)} s, ${resent} sent again after a connection error, answers ${JSON.stringify(statusCounts)}, outcomes ${JSON.stringify(outcomes)}; update after 204 p50/p99/max ${ms(percentile(lat, 50))}/${ms(percentile(lat, 99))}/${ms(percentile(lat, 100))} ms (${within} of ${latencies.length} within 100 ms), after send p50/p99 ${ms(percentile(sent, 50))}/${ms(percentile(sent, 99))} ms, missed ${missed}; have summed ${haveSum} vs ${uniqueSum} different posts (events over ${over}, under ${under}); load ${load()}`);
    return [
      `### Dink totals (${s.games.length} events, 2 processes + Redis behind nginx, PostgreSQL)`,
      '',
      `${totalPosts} posts in ${(postedFor / 1000).toFixed(1)} s (60 a minute per link, ${uniqueSum} different: every tenth sent to both processes at once; ${resent} sent again after a connection error), answers ${JSON.stringify(statusCounts)}; recorded outcomes ${JSON.stringify(outcomes)}. ` +
        `1-min load during: median ${sortedLoad.length ? sortedLoad[Math.floor(sortedLoad.length / 2)].toFixed(2) : 'n/a'}.`,
      '',
      '| progress update at the spectator after the 204, p50 / p99 / max (ms) | within 100 ms | after the post was sent, p50 / p99 (ms) | updates never seen | `have` summed / different posts | events counted over / under |',
      '|---:|---:|---:|---:|---:|---:|',
      `| ${ms(percentile(lat, 50))} / ${ms(percentile(lat, 99))} / ${ms(percentile(lat, 100))} | ${within} / ${latencies.length} | ${ms(percentile(sent, 50))} / ${ms(percentile(sent, 99))} | ${missed} | ${haveSum} / ${uniqueSum} | ${over} / ${under} |`,
      '',
      'Negative: the update reached the spectator before the 204 (the post is judged and broadcast, then answered).',
      '',
    ];
  } finally {
    for (const socket of sockets) socket.disconnect();
    if (cluster) await cluster.stop();
    if (copy) await copy.drop();
    await seeded.drop();
  }
}

async function main(): Promise<void> {
  if (!PG_URL) throw new Error('Set BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL): the two processes share it.');
  if (!process.env.TEST_DATABASE_URL) process.env.TEST_DATABASE_URL = PG_URL;
  const started = new Date();
  const loadBefore = load();
  const loadDuring: number[] = [];
  const sampler = setInterval(() => loadDuring.push(os.loadavg()[0]), 10_000);
  const sections: string[] = [];
  if (PART === 'both' || PART === 'dink') sections.push(...(await dinkPart()));
  if (PART === 'both' || PART === 'wom') sections.push(...(await womPart()));
  clearInterval(sampler);
  const sorted = [...loadDuring].sort((a, b) => a - b);
  writeResults(OUT, [
    '## Team totals',
    '',
    `Produced by \`node --import tsx bench/teamTotals.bench.ts\` (BENCH_PART=${PART}) at ${started.toISOString()}.`,
    `Machine: ${machine()}. Load average before: ${loadBefore}; after: ${load()}; 1-min load during (every 10 s): median ${sorted.length ? sorted[Math.floor(sorted.length / 2)].toFixed(2) : 'n/a'}, max ${sorted.length ? sorted[sorted.length - 1].toFixed(2) : 'n/a'}.`,
    '',
    ...sections,
  ].join('\n'));
}

runBench(main);
