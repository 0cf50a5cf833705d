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
  copyOf, load, machine, many, ms, PG_URL, ratio, run, seed, startBareServer, startCluster, startRealServer, type RunResult, type Running,
} from './manyHarness';

/**
 * Team totals under load (docs/server.md §17), on PostgreSQL with two real processes behind nginx
 * and the Redis adapter (bench/manyHarness.ts startCluster), in two parts (BENCH_PART=wom, dink or
 * both; default both):
 *
 * wom — BENCH_G (default 200) live games of 4 teams each (one IGN per team), every team standing
 * on a square whose task is a Wise Old Man team total (XP fishing, a total never reached), against
 * the Wise Old Man stand-in (tests/support/womStandIn.ts) in this process. Time is shortened
 * consistently: the budget window WOM_BUDGET_SECONDS is BENCH_WOM_BUDGET_SECONDS (default 1: 20
 * calls a second stand for 20 a minute) and WOM_CHECK_MINUTES is BENCH_WOM_CHECK_MINUTES (default
 * 0.25: 15 s stand for the default 15 minutes, the same factor 60). A sitting phase per budget
 * (BENCH_WOM_KEY: without, with, both or none, default both: without a key 20 calls a window, with
 * WOM_API_KEY 100), each on a fresh copy: the teams sit BENCH_WOM_SIT_SECONDS (default 100) from
 * the servers being ready while the checks run. It prints what the budget allows by arithmetic (a round
 * of every team's calls in check cycles: over two cycles the goal cannot be met whatever the
 * code), the stand-in's requests (the most in any sliding window of the budget's length, over both
 * processes) and each team's completed check rounds (wom_team_checks, read every second): its
 * longest wait in check cycles (to its first round, between rounds, to the end) and the teams
 * over two cycles. Then the roll load of bench/many.bench.ts (bench/manyHarness.ts run: one Leader
 * socket per game, each team rolling once every BENCH_PERIOD_MS, default 3000, BENCH_S compact
 * spectators per game, default 5) in the same games, on two real processes behind nginx, or on one
 * reached directly with BENCH_WOM_ROLL_PROCESSES=1 (as bench:many), once on the bare baseline
 * (bench/manyBareServer.ts), then alternating runs without team totals (the same copy with every
 * task's rule removed) and with them (every arrival then starts a team's baseline round; with
 * WOM_API_KEY when BENCH_WOM_ROLL_KEY=1; the deployed Wise Old Man times unless
 * BENCH_WOM_ROLL_TIME=short, as the rolls run at their real rate), BENCH_PAIRS pairs (default 2; 0 skips the rolls): roll
 * acknowledgement and roll-to-spectator p50 / p99 and the ratios real / bare and with / without.
 *
 * dink — BENCH_DINK_G (default 50) events, each with its game's first team on a square whose task is
 * a Dink LOOT team total (Zulrah's scales, a total never reached) and a Dink link; every event's
 * link gets 60 posts a minute for BENCH_DINK_SECONDS (default 60), like Dink (multipart
 * payload_json, the loot fixture as the Leader, each post of an event with its own quantity),
 * alternating between the two processes; every tenth post is the same post sent to both processes
 * at once (one of the two must count, the other is a duplicate), so 54 different posts a minute.
 * One spectator socket per game (through nginx) receives the progress updates; each update is
 * matched to its own post (in version order, the step of `have` is the post's quantity) and timed
 * against that post's 204. Answers other than 204 (a 503 when no upload slot came within its wait)
 * are counted and reported, never timed; afterwards each event's `have` is compared with what its
 * posts answered 204 add up to.
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
/**
 * Which budgets the sitting phase is run with, in order (BENCH_WOM_KEY: `without`, `with`, or
 * `both`, default both): without an API key (20 calls a window) and with WOM_API_KEY (100).
 */
const KEY_MODES: readonly boolean[] = ({ without: [false], with: [true], both: [false, true], none: [] } as Record<string, boolean[]>)[process.env.BENCH_WOM_KEY ?? 'both'] ?? [false, true];
/** Whether the roll runs with team totals have WOM_API_KEY (BENCH_WOM_ROLL_KEY=1; default without, as deployed without a key). */
const ROLL_KEY = process.env.BENCH_WOM_ROLL_KEY === '1';
/**
 * The Wise Old Man times of the roll runs (BENCH_WOM_ROLL_TIME): `real` (default) the deployed
 * ones, a 60-s budget window and 15-min cycles, since the rolls run at their real rate; `short`
 * the sitting phase's shortened ones, which make 60 times the Wise Old Man work per roll.
 */
const ROLL_TIME_REAL = (process.env.BENCH_WOM_ROLL_TIME ?? 'real') !== 'short';
const ROLL_BUDGET_SECONDS = ROLL_TIME_REAL ? 60 : BUDGET_SECONDS;
/** The API key the servers send when a run has one (the stand-in takes any). */
const BENCH_KEY = 'bench-key';
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
/**
 * The real servers of the roll runs (BENCH_WOM_ROLL_PROCESSES): 2 (default) processes with the Redis
 * adapter behind nginx, as deployed at scale; 1 a single process reached directly, as bench:many's
 * real server and the bare baseline are, so the ratios to bare compare with bench:many's on a
 * machine that two processes, nginx, Redis, PostgreSQL and the clients would saturate.
 */
const ROLL_PROCESSES = Number(process.env.BENCH_WOM_ROLL_PROCESSES ?? 2);
const DINK_G = Number(process.env.BENCH_DINK_G ?? 50);
const DINK_SECONDS = Number(process.env.BENCH_DINK_SECONDS ?? 60);
/** Wise Old Man's budget (docs/server.md §16, §17): calls per budget window over every process, without and with an API key. */
const WOM_LIMIT = 20;
const WOM_LIMIT_WITH_KEY = 100;
const limitOf = (key: boolean) => (key ? WOM_LIMIT_WITH_KEY : WOM_LIMIT);
/** The goal (docs/server.md §17): no team waits more than this many check cycles for its next check. */
const MAX_CYCLES = 2;
const LEADERS = ['LeaderA', 'LeaderB', 'LeaderC', 'LeaderD'];
const XP_RULE: AutoRule = { type: 'XP', names: ['fishing'], min: null, team_total: 1_000_000_000, distinct: false };
/** The Dink total: LOOT counts each post's quantity, so every post of an event carries its own quantity and its update is told apart by how much `have` moved. */
const LOOT_ITEM = "Zulrah's scales";
const LOOT_RULE: AutoRule = { type: 'LOOT', names: [LOOT_ITEM], min: null, team_total: 1_000_000_000, distinct: false };
const LOOT_FIXTURE = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/dink/loot.json'), 'utf8')) as Record<string, unknown>;

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
function womLoad(stand: WomStandIn, from: number, windowSeconds = BUDGET_SECONDS): { count: number; perSecond: number; maxPerWindow: number; maxPerMinute: number } {
  const to = Date.now();
  const count = stand.requests.filter((r) => r.at >= from).length;
  return { count, perSecond: count / Math.max(0.001, (to - from) / 1000), maxPerWindow: stand.maxInWindow(windowSeconds * 1000, from), maxPerMinute: stand.maxInWindow(60_000, from) };
}

/** The sitting phase's findings: the stand-in's load and each team's completed rounds. */
interface SitResult {
  /** Whether the servers had WOM_API_KEY (100 calls a window instead of 20). */
  key: boolean;
  /** IGNs per team on average (one call each per round when Wise Old Man's update answers 200). */
  ignsPerTeam: number;
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
  /** Teams whose longest wait was over MAX_CYCLES check cycles. */
  overGoal: number;
}

/**
 * Watches the teams sit on their Wise Old Man squares from `from` (ms; call it before the servers
 * start: their sweep at start begins the checks) while the checks run: reads wom_team_checks
 * every second (a round's end moves `round` and sets `checked_at`) until `stop()`, which answers
 * the findings.
 */
async function watchChecks(databaseUrl: string, stand: WomStandIn, teams: number, key: boolean): Promise<{ stop(): Promise<SitResult>; ready(): void }> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const members = (await c.query('SELECT count(*)::int AS n FROM team_members WHERE ign_id IS NOT NULL')).rows[0] as { n: number };
  const watchedFrom = Date.now();
  let from = watchedFrom;
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
  return {
    // The waits count from the servers being ready (their start-up is no part of a check cycle);
    // the requests from before, so the first calls are counted.
    ready: () => {
      from = Date.now();
    },
    stop: async () => {
      stopped = true;
      await polling;
      return findings(rounds, stand, teams, { requests: watchedFrom, waits: from }, key, Number(members.n) / Math.max(1, teams));
    },
  };
}

/** The sitting phase's findings from each team's round end times. */
function findings(rounds: Map<string, { round: number; times: number[] }>, stand: WomStandIn, teams: number, since: { requests: number; waits: number }, key: boolean, ignsPerTeam: number): SitResult {
  const to = Date.now();
  const from = since.waits;
  const first: number[] = [];
  const gaps: number[] = [];
  const longest: number[] = [];
  let once = 0;
  let twice = 0;
  for (const { times } of rounds.values()) {
    if (times.length >= 1) once += 1;
    if (times.length >= 2) twice += 1;
    if (times.length) first.push(Math.max(0, times[0] - from) / 1000);
    let worst = times.length ? Math.max(0, times[0] - from) : to - from;
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
  const overGoal = longest.filter((x) => x > MAX_CYCLES * CHECK_MINUTES * 60).length;
  return { key, ignsPerTeam, seconds: (to - from) / 1000, load: womLoad(stand, since.requests), teams, checkedOnce: once, checkedTwice: twice, first: sorted(first), gaps: sorted(gaps), longest: sorted(longest), overGoal };
}

/** One roll run of the wom part and the stand-in's load during it. */
interface WomRun {
  label: string;
  result: RunResult;
  load: ReturnType<typeof womLoad> | null;
}

/** The servers' Wise Old Man settings: the stand-in, the shortened times (the deployed ones when `realTime`), and an API key when `key`. */
function womEnvOf(stand: WomStandIn, key: boolean, realTime = false): Record<string, string> {
  const times = realTime ? { WOM_BUDGET_SECONDS: '60', WOM_CHECK_MINUTES: '15' } : { WOM_BUDGET_SECONDS: String(BUDGET_SECONDS), WOM_CHECK_MINUTES: String(CHECK_MINUTES) };
  return { WOM_API_URL: stand.url, ...times, ...(key ? { WOM_API_KEY: BENCH_KEY } : {}) };
}

/**
 * One sitting phase: a fresh copy of the seed with every team on its XP square, the two processes
 * started with (or without) the key, the checks watched for SIT_SECONDS from the servers being
 * ready (the requests from before they start).
 */
async function sit(seeded: TestDatabase, stand: WomStandIn, teams: number, key: boolean): Promise<SitResult> {
  const copy = await copyOf(seeded);
  let cluster: Running | null = null;
  try {
    await prepare(copy.env.DATABASE_URL, XP_RULE);
    stand.heal();
    const watch = await watchChecks(copy.env.DATABASE_URL, stand, teams, key);
    cluster = await startCluster({ ...copy.env, ...womEnvOf(stand, key) }, 2, true);
    const readyAt = Date.now();
    watch.ready();
    console.log(`  ${key ? 'with' : 'without'} WOM_API_KEY: sitting ${SIT_SECONDS} s from the servers being ready while the Wise Old Man checks run ...`);
    await sleep(readyAt + SIT_SECONDS * 1000 - Date.now());
    const found = await watch.stop();
    reportSit(found);
    return found;
  } finally {
    if (cluster) await cluster.stop();
    await copy.drop();
  }
}

/** The wom part: seed, the bare baseline, a sitting phase per key mode, then the alternating roll runs. Answers the report's lines. */
async function womPart(): Promise<string[]> {
  many.G = WOM_G;
  const stand = new WomStandIn();
  await stand.start();
  for (const ign of LEADERS) stand.add(ign, { ehb: 0, ehp: 0, level: 1000, skills: { fishing: 1_000_000 } });
  const seeded = await createTestDatabase('postgres');
  const runs: WomRun[] = [];
  const sits: SitResult[] = [];
  try {
    console.log(`wom: seeding ${many.G} games of 4 teams ...`);
    const s = await seed(seeded, () => 4);
    for (const key of KEY_MODES) sits.push(await sit(seeded, stand, s.games.length * 4, key));
    if (PAIRS > 0) {
      const bare = await run('bare', seeded, s, async (env) => {
        await prepare(env.DATABASE_URL, null);
        return startBareServer(env, s.sample);
      });
      runs.push({ label: 'bare', result: bare, load: null });
      report('bare', bare, null);
    }
    for (let pair = 0; pair < PAIRS; pair += 1) {
      for (const withTotals of [false, true]) {
        let from = 0;
        const result = await run('real', seeded, s, async (env) => {
          await prepare(env.DATABASE_URL, withTotals ? XP_RULE : null);
          stand.heal();
          const womEnv = { ...env, ...womEnvOf(stand, ROLL_KEY, ROLL_TIME_REAL) };
          const cluster = ROLL_PROCESSES === 1 ? await startRealServer(womEnv) : await startCluster(womEnv, ROLL_PROCESSES, true);
          from = Date.now();
          return cluster;
        }, async () => {
          // No more progress updates while the bench waits for the last broadcasts: every call is put back.
          stand.failAll({ status: 429, retryAfter: 120 });
        });
        const label = withTotals ? `with Wise Old Man totals${ROLL_KEY ? ' (WOM_API_KEY)' : ''}` : 'without team totals';
        const l = withTotals ? womLoad(stand, from, ROLL_BUDGET_SECONDS) : null;
        runs.push({ label, result, load: l });
        report(label, result, l);
      }
    }
  } finally {
    await seeded.drop();
    await stand.stop();
  }
  return womLines(runs, sits);
}

function report(label: string, r: RunResult, l: ReturnType<typeof womLoad> | null): void {
  console.log(`  ${label}: ack p50/p99 ${ms(percentile(r.ack, 50))}/${ms(percentile(r.ack, 99))} ms, spectator p50/p99 ${ms(percentile(r.spectator, 50))}/${ms(percentile(r.spectator, 99))} ms, ${r.rollsPerSecond.toFixed(1)} rolls/s, refused ${r.refused}, timeouts ${r.timeouts}, missed ${r.missed}, CPU ${r.cpuCores.toFixed(2)} cores${Number.isFinite(r.dbCores) ? `, PostgreSQL ${r.dbCores.toFixed(2)} cores` : ''}, lost ${r.lost}, doubled ${r.doubled}, mismatched ${r.mismatched}${r.queriesPerRoll === null ? '' : `, ${r.queriesPerRoll.toFixed(1)} statements a roll (the first process's, BENCH_COUNT_QUERIES=1)`}${l ? `; Wise Old Man ${l.count} requests, at most ${l.maxPerWindow} in any sliding ${ROLL_BUDGET_SECONDS} s window (limit ${limitOf(ROLL_KEY)})` : ''}; load ${load()}`);
}

/**
 * What the budget allows by arithmetic (docs/server.md §17): a round of every team's checks is one
 * call per IGN (Wise Old Man's update; a read only when it fails), served at `limit` a window. When
 * that round takes at most MAX_CYCLES check cycles, the line drains and every team is checked
 * again within MAX_CYCLES cycles (a team due just behind all the others waits one cycle plus a
 * round); beyond that no order of the line can help: the goal cannot be met, whatever the code.
 */
function arithmetic(x: SitResult): { calls: number; roundCycles: number; most: number; met: boolean; text: string } {
  const limit = limitOf(x.key);
  const calls = Math.round(x.teams * x.ignsPerTeam);
  const roundSeconds = (calls / limit) * BUDGET_SECONDS;
  const cycle = CHECK_MINUTES * 60;
  const roundCycles = roundSeconds / cycle;
  const most = Math.floor(MAX_CYCLES * (cycle / BUDGET_SECONDS) * limit);
  const met = roundCycles <= MAX_CYCLES;
  const scale = 60 / BUDGET_SECONDS;
  const text = `${x.key ? 'with WOM_API_KEY' : 'without a key'}: ${x.teams} teams x ${x.ignsPerTeam.toFixed(2)} IGNs = ${calls} calls a round at ${limit} a window take ${(roundSeconds).toFixed(1)} s ` +
    `(${((roundSeconds * scale) / 60).toFixed(1)} min at real scale) = ${roundCycles.toFixed(2)} check cycles; ${MAX_CYCLES} cycles hold at most ${most} IGNs: ` +
    (met ? `within ${MAX_CYCLES} cycles is possible by arithmetic (a team's gap at most ${(1 + Math.min(1, roundCycles)).toFixed(2)} cycles)` : `**within ${MAX_CYCLES} cycles cannot be met by arithmetic** (a team's gap is at least ${roundCycles.toFixed(2)} cycles)`);
  return { calls, roundCycles, most, met, text };
}

function reportSit(x: SitResult): void {
  const cycle = CHECK_MINUTES * 60;
  const limit = limitOf(x.key);
  console.log(`  ${arithmetic(x).text}`);
  console.log(`  sat ${x.seconds.toFixed(0)} s ${x.key ? 'with' : 'without'} WOM_API_KEY: ${x.load.count} Wise Old Man requests (${x.load.perSecond.toFixed(1)}/s), at most ${x.load.maxPerWindow} in any sliding ${BUDGET_SECONDS} s window (limit ${limit}: ${x.load.maxPerWindow <= limit ? 'kept' : 'NOT kept'}); ${x.checkedOnce} / ${x.teams} teams checked once, ${x.checkedTwice} twice; first round p50/max ${ms(percentile(x.first, 50))}/${ms(percentile(x.first, 100))} s; gaps p50/max ${ms(percentile(x.gaps, 50))}/${ms(percentile(x.gaps, 100))} s; per-team max wait p50/max ${ms(percentile(x.longest, 50))}/${ms(percentile(x.longest, 100))} s = ${ratio(percentile(x.longest, 50), cycle)}/${ratio(percentile(x.longest, 100), cycle)} cycles of ${cycle} s; ${x.overGoal} teams over ${MAX_CYCLES} cycles (${x.overGoal === 0 ? 'met' : 'NOT met'})`);
}

/** The sitting phases' Markdown: the arithmetic, the requests per sliding window, the waits in cycles. */
function sitLines(sits: SitResult[]): string[] {
  const cycle = CHECK_MINUTES * 60;
  const lines: string[] = [];
  if (sits.length === 0) return lines;
  lines.push(
    '| budget | arithmetic: a round of every team (calls / cycles) | requests / per s | most in any sliding window (limit) | teams checked once / twice | first round p50 / max (s) | gap between rounds p50 / p99 / max (s) | per-team max wait p50 / max (cycles) | teams over ' + MAX_CYCLES + ' cycles |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const x of sits) {
    const a = arithmetic(x);
    lines.push(`| ${x.key ? 'WOM_API_KEY (100)' : 'no key (20)'} | ${a.calls} / ${a.roundCycles.toFixed(2)}${a.met ? '' : ' (over ' + MAX_CYCLES + ')'} | ${x.load.count} / ${x.load.perSecond.toFixed(1)} | ${x.load.maxPerWindow} (${limitOf(x.key)}) | ${x.checkedOnce} / ${x.checkedTwice} of ${x.teams} | ${ms(percentile(x.first, 50))} / ${ms(percentile(x.first, 100))} | ${ms(percentile(x.gaps, 50))} / ${ms(percentile(x.gaps, 99))} / ${ms(percentile(x.gaps, 100))} | ${ratio(percentile(x.longest, 50), cycle)} / ${ratio(percentile(x.longest, 100), cycle)} | ${x.overGoal} |`);
  }
  lines.push('');
  for (const x of sits) lines.push(`- ${arithmetic(x).text}.`);
  lines.push(
    '',
    `The waits count from the servers being ready; a team's wait is the longest of: to its first completed round, between two of its rounds, and from its last round to the end of the ${sits[0].seconds.toFixed(0)} s. ` +
      'Requests are counted at the stand-in as they arrive, over both processes, in every sliding window of the budget\'s length.',
    '',
  );
  return lines;
}

/** The wom part's Markdown. */
function womLines(runs: WomRun[], sits: SitResult[]): string[] {
  const cycle = CHECK_MINUTES * 60;
  const bare = runs.find((r) => r.label === 'bare')?.result;
  const p = (r: RunResult, a: 'ack' | 'spectator', q: number) => percentile(r[a], q);
  const lines = [
    `### Wise Old Man checks and rolls (${many.G} games x 4 teams, PostgreSQL; checks on 2 processes + Redis behind nginx, rolls on ${ROLL_PROCESSES === 1 ? 'one process reached directly, as bench:many' : `${ROLL_PROCESSES} processes + Redis behind nginx`})`,
    '',
    `Budget window WOM_BUDGET_SECONDS=${BUDGET_SECONDS} (${WOM_LIMIT} calls per window without a key, ${WOM_LIMIT_WITH_KEY} with WOM_API_KEY, summed over the processes), WOM_CHECK_MINUTES=${CHECK_MINUTES} (a cycle of ${cycle} s): ` +
      `time shortened by ${(60 / BUDGET_SECONDS).toFixed(0)} for both. Teams sat ${SIT_SECONDS} s from the servers being ready. Rolls: each team once every ${many.PERIOD_MS} ms, ${many.S} compact spectators per game, ${many.SECONDS} s, the first ${many.WARMUP_SECONDS} s not counted; with team totals ${ROLL_KEY ? 'with' : 'without'} WOM_API_KEY and ${ROLL_TIME_REAL ? 'the deployed Wise Old Man times (60-s budget window, 15-min cycles), the rolls being at their real rate' : 'the shortened Wise Old Man times (60 times the Wise Old Man work per roll of the deployed ones)'}.`,
    '',
    ...sitLines(sits),
  ];
  if (runs.length === 0) return lines;
  lines.push(
    '| run | roll ack p50 / p99 (ms) | roll to spectator p50 / p99 (ms) | ack ratio to bare p50 / p99 | spectator ratio to bare p50 / p99 | rolls/s | refused / timeouts / missed | server CPU (cores) | PostgreSQL CPU (cores) | statements a roll (first process) | lost / doubled / mismatched | Wise Old Man requests / most per sliding window |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const { label, result: r, load: l } of runs) {
    const vsBare = (a: 'ack' | 'spectator') => (bare && r !== bare ? `${ratio(p(r, a, 50), p(bare, a, 50))} / ${ratio(p(r, a, 99), p(bare, a, 99))}` : '');
    lines.push(`| ${label} | ${ms(p(r, 'ack', 50))} / ${ms(p(r, 'ack', 99))} | ${ms(p(r, 'spectator', 50))} / ${ms(p(r, 'spectator', 99))} | ${vsBare('ack')} | ${vsBare('spectator')} | ${r.rollsPerSecond.toFixed(1)} | ${r.refused} / ${r.timeouts} / ${r.missed} | ${r.cpuCores.toFixed(2)} | ${Number.isFinite(r.dbCores) ? r.dbCores.toFixed(2) : ''} | ${r.queriesPerRoll === null ? '' : r.queriesPerRoll.toFixed(1)} | ${r.lost} / ${r.doubled} / ${r.mismatched} | ${l ? `${l.count} / ${l.maxPerWindow}` : ''} |`);
  }
  lines.push('');
  return lines;
}

/** One different post (a pair sent to both processes is one post): its quantity (unique in its event), when it was sent and each answer. */
interface Post {
  gameIndex: number;
  quantity: number;
  sentAt: number;
  answers: { status: number; at: number }[];
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
    await prepare(copy.env.DATABASE_URL, LOOT_RULE);
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
    // One spectator per game: the game's version and the first team's `have` as each update carries them, with the receipt time.
    const seen: { at: number; version: number; have: number }[][] = s.games.map(() => []);
    await Promise.all(s.games.map((g, i) => new Promise<void>((resolve, reject) => {
      const socket = connectSocket(cluster!.url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false });
      sockets.push(socket);
      const team = g.teams[0].teamId;
      socket.on('game_state_update', (m: { game_state: { version: number; team_states?: { team_id: number; progress?: { have: number } | null }[] } }) => {
        const at = wallNow();
        const t = m.game_state.team_states?.find((x) => x.team_id === team);
        if (t?.progress) seen[i].push({ at, version: m.game_state.version, have: t.progress.have });
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
        // Quantity k + 1: no two posts of an event add the same amount.
        const quantity = k + 1;
        const extra = { ...(LOOT_FIXTURE.extra as Record<string, unknown>), items: [{ id: 12934, quantity, priceEach: 1, name: LOOT_ITEM }] };
        const payload = { ...LOOT_FIXTURE, playerName: LEADERS[0], content: `${String(LOOT_FIXTURE.content)} #${i}-${k}`, extra };
        const to = k % 10 === 9 ? urls : [urls[k % urls.length]];
        unique[i] += 1;
        const sentAt = wallNow();
        inFlight.push(Promise.all(to.map((u) => post(`${u}/api/dink/${tokens[i]}`, payload))).then((answers) => {
          for (const a of answers) statusCounts[a.status] = (statusCounts[a.status] ?? 0) + 1;
          posts.push({ gameIndex: i, quantity, sentAt, answers });
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
    // Each update to its own post: a counted post is one game change (version + 1), so in version
    // order `have` moves by exactly that post's quantity. An update whose previous version the
    // spectator did not see, or whose step matches no post, is unmatched (reported).
    const updateOf = new Map<Post, number>();
    let unmatchedUpdates = 0;
    let countedTwice = 0;
    s.games.forEach((_, i) => {
      const mine = new Map(posts.filter((p) => p.gameIndex === i).map((p) => [p.quantity, p]));
      const byVersion = new Map<number, { at: number; have: number }>();
      for (const x of seen[i]) if (!byVersion.has(x.version)) byVersion.set(x.version, x);
      const versions = [...byVersion.keys()].sort((a, b) => a - b);
      for (let k = 1; k < versions.length; k += 1) {
        const now = byVersion.get(versions[k])!;
        const before = byVersion.get(versions[k - 1])!;
        const step = now.have - before.have;
        if (step === 0) continue;
        const p = versions[k] === versions[k - 1] + 1 ? mine.get(step) : undefined;
        if (!p) unmatchedUpdates += 1;
        else if (updateOf.has(p)) countedTwice += 1;
        else updateOf.set(p, now.at);
      }
    });
    const latencies: number[] = [];
    const fromSend: number[] = [];
    let missed = 0;
    let refusedOnly = 0;
    let countedAfterRefusal = 0;
    for (const p of posts) {
      const got = updateOf.get(p);
      const ok204 = p.answers.filter((a) => a.status === 204);
      if (ok204.length === 0) {
        // No 204 (a 503: no upload slot within its wait): not timed, counted apart; it should not count.
        refusedOnly += 1;
        if (got !== undefined) countedAfterRefusal += 1;
        continue;
      }
      if (got === undefined) {
        missed += 1;
        continue;
      }
      // From the first 204 of the post (of a pair, the earlier of the two).
      latencies.push(got - Math.min(...ok204.map((a) => a.at)));
      fromSend.push(got - p.sentAt);
    }
    const lat = Float64Array.from(latencies).sort();
    const sent = Float64Array.from(fromSend).sort();
    // The counts as stored, against the different posts sent.
    const c = new pg.Client({ connectionString: copy.env.DATABASE_URL });
    await c.connect();
    let haveSum = 0;
    let answeredSum = 0;
    let over = 0;
    let under = 0;
    const outcomes: Record<string, number> = {};
    try {
      const rows = (await c.query('SELECT game_id, team_id, progress FROM team_states')).rows as { game_id: number; team_id: number; progress: string | null }[];
      s.games.forEach((g, i) => {
        const row = rows.find((r) => Number(r.game_id) === g.gameId && Number(r.team_id) === g.teams[0].teamId);
        const have = row?.progress ? (JSON.parse(row.progress) as { have: number }).have : 0;
        // What the event's posts answered 204 add up to: each counted once, none twice.
        const answered = posts.filter((p) => p.gameIndex === i && p.answers.some((a) => a.status === 204)).reduce((a, p) => a + p.quantity, 0);
        haveSum += have;
        answeredSum += answered;
        if (have > answered) over += 1;
        if (have < answered) under += 1;
      });
      for (const r of (await c.query('SELECT outcome, count(*)::int AS n FROM dink_posts GROUP BY outcome')).rows) outcomes[r.outcome] = Number(r.n);
    } finally {
      await c.end();
    }
    const uniqueSum = unique.reduce((a, x) => a + x, 0);
    const totalPosts = Object.values(statusCounts).reduce((a, x) => a + x, 0);
    const within = latencies.filter((x) => x <= 100).length;
    const p99 = percentile(lat, 99);
    const verdict = latencies.length === 0 ? 'not measured' : p99 <= 100 ? 'met' : 'NOT met';
    const answered503 = statusCounts[503] ?? 0;
    const sortedLoad = [...loadDuring].sort((a, b) => a - b);
    console.log(`  ${totalPosts} posts (${uniqueSum} different) in ${(postedFor / 1000).toFixed(1)} s, ${resent} sent again after a connection error, answers ${JSON.stringify(statusCounts)} (${answered503} answered 503; ${refusedOnly} different posts without any 204, ${countedAfterRefusal} of them counted anyway), outcomes ${JSON.stringify(outcomes)}; ` +
      `update after its own 204 p50/p99/max ${ms(percentile(lat, 50))}/${ms(percentile(lat, 99))}/${ms(percentile(lat, 100))} ms (${within} of ${latencies.length} within 100 ms; p99 within 100 ms ${verdict}), after send p50/p99 ${ms(percentile(sent, 50))}/${ms(percentile(sent, 99))} ms; ` +
      `204 without its update ${missed}, updates matching no post ${unmatchedUpdates}, posts counted twice ${countedTwice}; have summed ${haveSum} vs ${answeredSum} the posts answered 204 add up to (events over ${over}, under ${under}); load ${load()}`);
    return [
      `### Dink totals (${s.games.length} events, 2 processes + Redis behind nginx, PostgreSQL)`,
      '',
      `${totalPosts} posts in ${(postedFor / 1000).toFixed(1)} s (60 a minute per link, ${uniqueSum} different: every tenth sent to both processes at once; ${resent} sent again after a connection error), answers ${JSON.stringify(statusCounts)}; recorded outcomes ${JSON.stringify(outcomes)}. ` +
        `**${answered503} answers were 503** (no upload slot within its wait, docs/server.md §8); ${refusedOnly} different posts had no 204 at all (not timed), ${countedAfterRefusal} of those counted anyway. ` +
        `1-min load during: median ${sortedLoad.length ? sortedLoad[Math.floor(sortedLoad.length / 2)].toFixed(2) : 'n/a'}.`,
      '',
      `Each post is a LOOT of ${LOOT_ITEM} with its own quantity in its event, so each progress update is matched to its own post: in the game's version order, the step of \`have\` is that post's quantity (an update whose previous version was not seen, or whose step is no post's, is counted as matching no post). A post's time is from its first 204 to the spectator's receipt of its update.`,
      '',
      '| progress update at the spectator after its 204, p50 / p99 / max (ms) | within 100 ms | p99 within 100 ms | after the post was sent, p50 / p99 (ms) | 503 answers / posts without a 204 | 204 without its update | updates matching no post | posts counted twice | `have` summed / quantities answered 204 | events over / under |',
      '|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|',
      `| ${ms(percentile(lat, 50))} / ${ms(p99)} / ${ms(percentile(lat, 100))} | ${within} / ${latencies.length} | ${verdict} | ${ms(percentile(sent, 50))} / ${ms(percentile(sent, 99))} | ${answered503} / ${refusedOnly} | ${missed} | ${unmatchedUpdates} | ${countedTwice} | ${haveSum} / ${answeredSum} | ${over} / ${under} |`,
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
