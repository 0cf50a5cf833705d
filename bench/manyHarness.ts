import { spawn, execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freePort, untilListening, type TestDatabase } from '../tests/support/server';
import { benchClan, startBenchGame } from './seed';
import { ClientProcess, ok, peakRssKb, percentile, REAL_ENV, sleep, stopProcess, wallNow } from './measure';

// What the many-games benchmarks (bench/many.bench.ts, bench/teamTotals.bench.ts) share, written
// once: the seed of G live games through the API, copies of it per run, the real server (one
// process, or several behind nginx with Redis) and the bare baseline (bench/manyBareServer.ts),
// one measured run of the Leaders' rolls and the spectators' receipts (bench/manyLeaderWorker.ts,
// bench/manySpectatorWorker.ts) with its checks against the database, and the report's rows.
// What each measures and why is bench/many.bench.ts's doc comment.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The load of a run (env BENCH_G, BENCH_S, BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_PERIOD_MS,
 * BENCH_WORKERS; see bench/many.bench.ts): G games, S compact spectators per game over WORKERS
 * client processes, each team rolling once every PERIOD_MS for SECONDS, the first WARMUP_SECONDS
 * not counted. A benchmark built on this harness may change them before its first seed or run.
 */
export const many = {
  G: Number(process.env.BENCH_G ?? 200),
  S: Number(process.env.BENCH_S ?? 50),
  SECONDS: Number(process.env.BENCH_SECONDS ?? 60),
  WARMUP_SECONDS: Number(process.env.BENCH_WARMUP_SECONDS ?? 5),
  PERIOD_MS: Number(process.env.BENCH_PERIOD_MS ?? 3000),
  WORKERS: Number(process.env.BENCH_WORKERS ?? 4),
};
export const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '';
const COUNT_QUERIES = process.env.BENCH_COUNT_QUERIES === '1';
/**
 * The roll-rate sweep (BENCH_SWEEP, e.g. 3000,1500,1000,750,500): after the main run, on the same
 * sockets, each team rolls once every that many ms for SWEEP_SECONDS (the first 3 s not counted),
 * period after period, until the roll-to-spectator p99 passes SWEEP_P99_MS.
 */
export const SWEEP = (process.env.BENCH_SWEEP ?? '').split(',').map((x) => Number(x.trim())).filter((x) => x > 0);
export const SWEEP_SECONDS = Number(process.env.BENCH_SWEEP_SECONDS ?? 20);
export const SWEEP_WARMUP_SECONDS = 3;
export const SWEEP_P99_MS = 250;
const CPU_PROF = process.env.BENCH_CPU_PROF ?? '';
/** Node flags for both servers, real and bare (BENCH_NODE_FLAGS, space-separated; e.g. `--trace-gc`). */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** A folder the servers' output is copied into, one file per server process (BENCH_SERVER_OUT). */
const SERVER_OUT = process.env.BENCH_SERVER_OUT ?? '';
/** A path prefix for each run's measured rolls, [emitAt, ackAt] (BENCH_ROLLS_OUT). */
const ROLLS_OUT = process.env.BENCH_ROLLS_OUT ?? '';

/** Copies what `proc` prints into SERVER_OUT/<name>-<pid>.log when BENCH_SERVER_OUT is set. */
function keepOutput(proc: ChildProcess, name: string): void {
  if (!SERVER_OUT) return;
  fs.mkdirSync(SERVER_OUT, { recursive: true });
  const file = fs.createWriteStream(path.join(SERVER_OUT, `${name}-${proc.pid}.log`));
  proc.stdout?.on('data', (d: Buffer) => file.write(d));
  proc.stderr?.on('data', (d: Buffer) => file.write(d));
  proc.once('exit', () => file.end());
}
const TEAM_COLORS = [['Red', '#aa0000'], ['Blue', '#0000aa'], ['Green', '#00aa00'], ['Gold', '#aaaa00']];
const CLK_TCK = 100;

/** A seeded game: its id and its teams with their Leader IGN. */
export interface SeededGame {
  gameId: number;
  eventId: number;
  teams: { teamId: number; ignId: number }[];
}

/** What one run measured. */
export interface RunResult {
  mode: 'real' | 'bare';
  ack: Float64Array;
  spectator: Float64Array;
  rolls: number;
  rollsPerSecond: number;
  deliveriesPerSecond: number;
  refused: number;
  timeouts: number;
  errors: Record<string, number>;
  missed: number;
  /** CPU of the server processes over the counted time, in cores (1 = one CPU busy). */
  cpuCores: number;
  /** CPU of nginx and Redis over the same time (scale-out runs), in cores. */
  sideCores: number;
  /** CPU of PostgreSQL's processes over the same time (its server and backends; NaN on SQLite, which runs in the server), in cores. */
  dbCores: number;
  /** The highest peak RSS (VmHWM) of the server processes. */
  peakRssKb: number;
  lost: number;
  doubled: number;
  unacknowledgedApplied: number;
  mismatched: number;
  gaps: number;
  stale: number;
  messagesPerRoll: number;
  queriesPerRoll: number | null;
  sockets: number;
  /** The sweep's steps (BENCH_SWEEP), in the order run. */
  sweep: SweepStep[];
}

/** One step of the roll-rate sweep: what was offered and what was measured. */
export interface SweepStep {
  periodMs: number;
  /** Rolls per second the Leaders would make were every roll answered at once. */
  offered: number;
  rollsPerSecond: number;
  ack: Float64Array;
  spectator: Float64Array;
  cpuCores: number;
  refused: number;
  timeouts: number;
  missed: number;
}


/** utime + stime of a process in clock ticks. */
function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * The pids of this machine's PostgreSQL processes (the postmaster and its backends: /proc/<pid>/comm
 * 'postgres'), whose CPU the bench adds up as the database's (a backend that exits meanwhile is
 * not counted; the pools' connections stay open through a run).
 */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** utime + stime of `pids` in clock ticks, by pid (a pid gone meanwhile is left out). */
function ticksByPid(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      out.set(pid, cpuTicks(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU ticks `after` minus `before` over the pids present in both. */
function ticksBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, t] of after) {
    const was = before.get(pid);
    if (was !== undefined) sum += t - was;
  }
  return sum;
}

/** Runs `tasks` with at most `n` at once. */
async function pool<T>(n: number, items: T[], task: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i], i);
    }
  }));
}

/**
 * Seeds many.G in-progress games through the API of a real server on `db`: one Owner with four IGNs
 * (the Leaders), one clan with the example tasks, per game an event with `teamsOf(i)` teams (1 to 4;
 * by default 2-4: 2 + i % 3; IGN k leads team k), a 225-square game with no-win snakes, started.
 * Answers the games, the clan, the Owner's cookie and one public game (the bare server's join answer).
 */
export async function seed(db: TestDatabase, teamsOf: (i: number) => number = (i) => 2 + (i % 3)): Promise<{ games: SeededGame[]; clanId: number; cookie: string; sample: unknown }> {
  const server = await startRealServer({ ...db.env, DB_COUNT_QUERIES: '' });
  try {
    const { owner, clanId, ignIds } = await benchClan(server.url, ['LeaderA', 'LeaderB', 'LeaderC', 'LeaderD']);
    const games: SeededGame[] = new Array(many.G);
    await pool(4, Array.from({ length: many.G }, (_, i) => i), async (i) => {
      const event = ok(await owner.post(`/api/clan/${clanId}/events/`, { name: `Bench Cup ${i + 1}`, start_datetime: '2031-06-01T18:00Z' }), 'event');
      const eventId = event.event.id as number;
      const teams: SeededGame['teams'] = [];
      for (let k = 0; k < teamsOf(i); k += 1) {
        const [name, color] = TEAM_COLORS[k];
        const t = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color }), 'team');
        ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${t.team.id}/members`, { osrs_ign_id: ignIds[k], role: 'Leader' }), 'leader');
        teams.push({ teamId: t.team.id, ignId: ignIds[k] });
      }
      const gameId = await startBenchGame(owner, clanId, eventId);
      games[i] = { gameId, eventId, teams };
      if ((i + 1) % 50 === 0) console.log(`  seeded ${i + 1} / ${many.G} games`);
    });
    const sample = (await (await fetch(`${server.url}/api/public/game/${games[0].gameId}`)).json()) as { game: unknown };
    return { games, clanId, cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '), sample: sample.game };
  } finally {
    await server.stop();
  }
}

/** A copy of the seeded database for one run (SQLite: the file; PostgreSQL: a database from the seed as template). */
export async function copyOf(db: TestDatabase): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (db.backend === 'sqlite') {
    const src = db.env.SQLITE_FILE;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-many-'));
    for (const ext of ['', '-wal', '-shm']) if (fs.existsSync(src + ext)) fs.copyFileSync(src + ext, path.join(dir, 'test.db' + ext));
    return { env: { SQLITE_FILE: path.join(dir, 'test.db') }, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const seedUrl = new URL(db.env.DATABASE_URL);
  const name = `${seedUrl.pathname.slice(1)}_c${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${seedUrl.pathname.slice(1)}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = '/' + name;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A running server under test: its URL, its process and how to stop it. */
export interface Running {
  url: string;
  /** The server processes (one, or several behind nginx). */
  pids: number[];
  /** Each server process's own URL behind nginx (startCluster), to reach one process on purpose. */
  urls?: string[];
  /** Processes beside them (nginx master and workers, Redis), measured apart. */
  side?: () => number[];
  stop(): Promise<void>;
  metrics?: () => Promise<string>;
}

/**
 * A real server process (server/index.ts) on `env` and `port`, with the env of tests/support/server.ts
 * (dev sign-in for the seed) and REAL_ENV; under `node --cpu-prof` into BENCH_CPU_PROF when set
 * (node refuses --cpu-prof in NODE_OPTIONS, so the bench spawns it itself). Resolves once it listens.
 */
export async function startRealServer(env: Record<string, string>, port?: number): Promise<Running> {
  const p = port ?? (await freePort());
  const prof = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : [];
  if (CPU_PROF) fs.mkdirSync(CPU_PROF, { recursive: true });
  const proc = spawn(process.execPath, [...NODE_FLAGS, ...prof, '--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: '', REDIS_URL: '', DISCORD_CLIENT_ID: '', NODE_ENV: 'test', AUTH_RATE_LIMIT: '100000',
      CLIENT_DIR: path.join(ROOT, 'dist'), SHUTDOWN_GRACE_MS: '0', ...REAL_ENV, ...(COUNT_QUERIES ? { DB_COUNT_QUERIES: '1' } : {}), ...env, PORT: String(p),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  keepOutput(proc, 'real');
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  await untilListening(proc, () => out, 120_000);
  const url = `http://127.0.0.1:${p}`;
  return {
    url,
    pids: [proc.pid!],
    metrics: async () => (await fetch(`${url}/metrics`)).text(),
    stop: () => new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
      setTimeout(() => proc.kill('SIGKILL'), 15_000).unref();
    }),
  };
}

/** The bare baseline on `env` with `sample` as its join answer. */
export async function startBareServer(env: Record<string, string>, sample: unknown): Promise<Running> {
  const port = await freePort();
  const file = path.join(os.tmpdir(), `bench-many-sample-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(sample));
  const proc = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'bench/manyBareServer.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), BARE_SAMPLE: file, DATABASE_URL: env.DATABASE_URL ?? '', BARE_SQLITE: env.SQLITE_FILE ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  keepOutput(proc, 'bare');
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => {
    out += d;
    process.stderr.write(d);
  });
  await untilListening(proc, () => out, 60_000);
  return {
    url: `http://127.0.0.1:${port}`,
    pids: [proc.pid!],
    stop: () => stopProcess(proc),
  };
}

/** db_queries_total from the real server's /metrics, or null when not counted. */
async function queriesCounted(server: Running): Promise<number | null> {
  if (!COUNT_QUERIES || !server.metrics) return null;
  const m = /^db_queries_total (\d+)/m.exec(await server.metrics());
  return m ? Number(m[1]) : null;
}

/** Roll entries and team positions as the database holds them after a run. */
async function readBack(env: Record<string, string>): Promise<{ logIds: Set<number>; rollEntries: Map<number, number>; positions: Map<number, string> }> {
  const logSql = 'SELECT id, game_id, roll_index FROM game_log';
  const teamSql = 'SELECT game_id, team_id, current_position FROM team_states ORDER BY team_id';
  let logs: { id: number; game_id: number; roll_index: number | null }[];
  let teams: { game_id: number; team_id: number; current_position: number }[];
  if (env.DATABASE_URL) {
    const c = new pg.Client({ connectionString: env.DATABASE_URL });
    await c.connect();
    logs = (await c.query(logSql)).rows;
    teams = (await c.query(teamSql)).rows;
    await c.end();
  } else {
    const d = new Database(env.SQLITE_FILE, { readonly: true });
    logs = d.prepare(logSql).all() as typeof logs;
    teams = d.prepare(teamSql).all() as typeof teams;
    d.close();
  }
  const rollEntries = new Map<number, number>();
  for (const l of logs) if (l.roll_index !== null) rollEntries.set(Number(l.game_id), (rollEntries.get(Number(l.game_id)) ?? 0) + 1);
  const byGame = new Map<number, string[]>();
  for (const t of teams) {
    const list = byGame.get(Number(t.game_id)) ?? [];
    list.push(`${t.team_id}:${t.current_position}`);
    byGame.set(Number(t.game_id), list);
  }
  return { logIds: new Set(logs.map((l) => Number(l.id))), rollEntries, positions: new Map([...byGame].map(([g, l]) => [g, l.join(',')])) };
}

/**
 * Lets the last broadcasts land (a roll that timed out may still be applied and sent): waits until
 * the spectators' message count holds still for 2 s, at most 60 s.
 */
async function settled(spectators: ClientProcess[]): Promise<void> {
  for (let last = -1, i = 0; i < 60; i += 1) {
    const counts = await Promise.all(spectators.map((c) => c.ask({ type: 'count' }, 'count')));
    const total = counts.reduce((a, x) => a + (x.messages as number), 0);
    if (total === last) return;
    last = total;
    await sleep(2000);
  }
}

/**
 * One measured run of `mode` on a fresh copy of the seed: the server from `start` when given (else
 * the real server or the bare baseline on the copy's env); `rolled`, when given, runs once the
 * rolling is over, before the bench waits for the last broadcasts to land (e.g. to quiet a source
 * of updates that are not rolls).
 */
export async function run(
  mode: 'real' | 'bare',
  seeded: TestDatabase,
  s: Awaited<ReturnType<typeof seed>>,
  start?: (env: Record<string, string>) => Promise<Running>,
  rolled?: () => Promise<void>,
): Promise<RunResult> {
  const copy = await copyOf(seeded);
  const server = start ? await start(copy.env) : mode === 'real' ? await startRealServer(copy.env) : await startBareServer(copy.env, s.sample);
  const spectators = await Promise.all(Array.from({ length: many.WORKERS }, () => ClientProcess.start('bench/manySpectatorWorker.ts', 'advanced')));
  const leaders = await ClientProcess.start('bench/manyLeaderWorker.ts', 'advanced');
  try {
    const t0 = performance.now();
    await Promise.all(spectators.map((c, k) => {
      const games: number[] = [];
      for (let i = k; i < many.G * many.S; i += many.WORKERS) games.push(s.games[i % many.G].gameId);
      return c.ask({ type: 'connect', url: server.url, games }, 'joined');
    }));
    await leaders.ask({ type: 'connect', url: server.url, cookie: s.cookie, games: s.games }, 'joined');
    console.log(`  ${mode}: ${many.G * many.S} spectators and ${many.G} Leaders joined in ${((performance.now() - t0) / 1000).toFixed(1)} s; rolling for ${many.SECONDS} s`);
    const queriesBefore = await queriesCounted(server);
    const goAt = wallNow();
    const measureFrom = goAt + many.WARMUP_SECONDS * 1000;
    const onPostgres = Boolean(copy.env.DATABASE_URL);
    const ticks = () => ({
      servers: server.pids.reduce((a, pid) => a + cpuTicks(pid), 0),
      side: (server.side?.() ?? []).reduce((a, pid) => a + cpuTicks(pid), 0),
      db: onPostgres ? ticksByPid(postgresPids()) : new Map<number, number>(),
    });
    const ticksAt: { warm: ReturnType<typeof ticks> | null; end: ReturnType<typeof ticks> | null } = { warm: null, end: null };
    const warmTimer = setTimeout(() => (ticksAt.warm = ticks()), many.WARMUP_SECONDS * 1000);
    const doneMsg = leaders.ask({ type: 'go', periodMs: many.PERIOD_MS, durationMs: many.SECONDS * 1000 }, 'done');
    const endTimer = setTimeout(() => (ticksAt.end = ticks()), many.SECONDS * 1000);
    const done = await doneMsg;
    clearTimeout(warmTimer);
    clearTimeout(endTimer);
    if (!ticksAt.end) ticksAt.end = ticks();
    const queriesAfter = await queriesCounted(server);
    await rolled?.();
    // Let the last broadcasts land (a roll that timed out may still be applied and sent): until the
    // spectators' message count holds still for 2 s, at most 60 s.
    await settled(spectators);
    const rolls = done.rolls as [number, number, number, number, number[]][];
    const measured = rolls.filter((r) => r[2] >= measureFrom);
    if (ROLLS_OUT) fs.writeFileSync(`${ROLLS_OUT}-${mode}.json`, JSON.stringify(measured.map((r) => [r[2], r[3]])));
    const emits = measured.map((r) => [r[0], r[1], r[2]]);
    const results = await Promise.all(spectators.map((c) => c.ask({ type: 'collect', emits }, 'result')));
    const spectatorLatencies: number[] = [];
    let missed = 0, messages = 0, gaps = 0, stale = 0, sockets = 0;
    const finals = new Map<number, Record<string, number>>();
    for (const r of results) {
      for (const x of r.latencies as Float64Array) spectatorLatencies.push(x);
      missed += r.missed;
      messages += r.messages;
      gaps += r.gaps;
      stale += r.stale;
      sockets += r.sockets;
      for (const [g, counts] of Object.entries(r.finals as Record<string, Record<string, number>>)) {
        const held = finals.get(Number(g)) ?? {};
        for (const [key, n] of Object.entries(counts)) held[key] = (held[key] ?? 0) + n;
        finals.set(Number(g), held);
      }
    }
    // The sweep (BENCH_SWEEP): the same sockets, shorter periods, until the spectators' p99 passes SWEEP_P99_MS.
    const sweep: SweepStep[] = [];
    const allRolls = [...rolls];
    let allTimeouts = done.timeouts as number;
    let lastResults = results;
    for (const periodMs of SWEEP) {
      const offered = s.games.reduce((a, g) => a + (g.teams.length * 1000) / periodMs, 0);
      const from = wallNow() + SWEEP_WARMUP_SECONDS * 1000;
      let stepWarm: ReturnType<typeof ticks> | null = null;
      const warm = setTimeout(() => (stepWarm = ticks()), SWEEP_WARMUP_SECONDS * 1000);
      const stepDone = await leaders.ask({ type: 'go', periodMs, durationMs: SWEEP_SECONDS * 1000 }, 'done');
      clearTimeout(warm);
      const cpuEnd = ticks();
      await settled(spectators);
      const stepRolls = stepDone.rolls as [number, number, number, number, number[]][];
      allRolls.push(...stepRolls);
      allTimeouts += stepDone.timeouts as number;
      const counted = stepRolls.filter((r) => r[2] >= from);
      lastResults = await Promise.all(spectators.map((c) => c.ask({ type: 'collect', emits: counted.map((r) => [r[0], r[1], r[2]]) }, 'result')));
      const lat: number[] = [];
      for (const r of lastResults) for (const x of r.latencies as Float64Array) lat.push(x);
      const windowS = SWEEP_SECONDS - SWEEP_WARMUP_SECONDS;
      const step: SweepStep = {
        periodMs,
        offered,
        rollsPerSecond: counted.length / windowS,
        ack: Float64Array.from(counted.map((r) => r[3] - r[2])).sort(),
        spectator: Float64Array.from(lat).sort(),
        cpuCores: stepWarm ? (cpuEnd.servers - (stepWarm as ReturnType<typeof ticks>).servers) / CLK_TCK / windowS : NaN,
        refused: stepDone.refused as number,
        timeouts: stepDone.timeouts as number,
        missed: lastResults.reduce((a, r) => a + (r.missed as number), 0),
      };
      sweep.push(step);
      console.log(`    sweep ${mode}: every ${periodMs} ms (offered ${offered.toFixed(0)} rolls/s): ${step.rollsPerSecond.toFixed(1)} rolls/s, spectator p50/p99 ${ms(percentile(step.spectator, 50))}/${ms(percentile(step.spectator, 99))} ms, ack p99 ${ms(percentile(step.ack, 99))} ms, CPU ${step.cpuCores.toFixed(2)} cores; load ${load()}`);
      if (!(percentile(step.spectator, 99) <= SWEEP_P99_MS)) break;
    }
    if (sweep.length) {
      const finalsNow = new Map<number, Record<string, number>>();
      for (const r of lastResults)
        for (const [g, counts] of Object.entries(r.finals as Record<string, Record<string, number>>)) {
          const held = finalsNow.get(Number(g)) ?? {};
          for (const [key, n] of Object.entries(counts)) held[key] = (held[key] ?? 0) + n;
          finalsNow.set(Number(g), held);
        }
      finals.clear();
      for (const [g, counts] of finalsNow) finals.set(g, counts);
    }
    const peak = Math.max(...server.pids.map(peakRssKb));
    await server.stop();
    // Lost, doubled, mismatched: the database against what the Leaders were told and the spectators hold.
    const db = await readBack(copy.env);
    let lost = 0;
    const ackedPerGame = new Map<number, number>();
    for (const r of allRolls) {
      ackedPerGame.set(r[0], (ackedPerGame.get(r[0]) ?? 0) + 1);
      for (const id of r[4]) if (!db.logIds.has(id)) lost += 1;
      if (r[4].length === 0) lost += 1;
    }
    let extra = 0;
    for (const g of s.games) extra += (db.rollEntries.get(g.gameId) ?? 0) - (ackedPerGame.get(g.gameId) ?? 0);
    const unacknowledgedApplied = Math.min(Math.max(extra, 0), allTimeouts);
    let mismatched = 0;
    for (const g of s.games) {
      const want = db.positions.get(g.gameId) ?? '';
      for (const [key, n] of Object.entries(finals.get(g.gameId) ?? {})) if (key !== want) mismatched += n;
    }
    const windowS = Math.max(0.001, many.SECONDS - many.WARMUP_SECONDS);
    const ackLat = Float64Array.from(measured.map((r) => r[3] - r[2])).sort();
    return {
      mode,
      ack: ackLat,
      spectator: Float64Array.from(spectatorLatencies).sort(),
      rolls: rolls.length,
      rollsPerSecond: measured.length / windowS,
      deliveriesPerSecond: spectatorLatencies.length / windowS,
      refused: done.refused,
      timeouts: done.timeouts,
      errors: done.errors,
      missed,
      cpuCores: ticksAt.warm && ticksAt.end ? (ticksAt.end.servers - ticksAt.warm.servers) / CLK_TCK / windowS : NaN,
      sideCores: ticksAt.warm && ticksAt.end ? (ticksAt.end.side - ticksAt.warm.side) / CLK_TCK / windowS : NaN,
      dbCores: onPostgres && ticksAt.warm && ticksAt.end ? ticksBetween(ticksAt.warm.db, ticksAt.end.db) / CLK_TCK / windowS : NaN,
      peakRssKb: peak,
      lost,
      doubled: Math.max(0, extra - unacknowledgedApplied),
      unacknowledgedApplied,
      mismatched,
      gaps,
      stale,
      messagesPerRoll: sockets ? messages / sockets / Math.max(1, rolls.length / many.G) : NaN,
      queriesPerRoll: queriesBefore !== null && queriesAfter !== null && rolls.length ? (queriesAfter - queriesBefore) / rolls.length : null,
      sockets,
      sweep,
    };
  } finally {
    await leaders.close();
    await Promise.all(spectators.map((c) => c.close()));
    await server.stop();
    await copy.drop();
  }
}

/** Children of a process (nginx's workers). */
function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Spawns `cmd` and resolves once its output includes `ready` (rejects on exit or after 60 s). */
async function spawnReady(cmd: string, args: string[], ready: string): Promise<ChildProcess> {
  const proc = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out = (out + d.toString()).slice(-10_000);
      if (out.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited with ${code}:\n${out}`));
    });
  });
  return proc;
}

/** Stops a child process with `signal` and waits for its exit. */
function stopProc(proc: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill(signal);
    setTimeout(() => proc.kill('SIGKILL'), 10_000).unref();
  });
}

/**
 * The site of deploy/nginx/clan-snakes.conf for `ports`, listening on `listen`: its server block as
 * written, with the upstream's servers replaced by the bench's processes and the hash key made
 * per connection ($remote_addr$remote_port): every bench client comes from 127.0.0.1, and a
 * websocket-only client is one TCP connection, so per-connection hashing is as sticky as the
 * deployment's per-address hashing while it spreads the clients over the processes.
 */
function nginxConf(dir: string, listen: number, ports: number[]): string {
  let site = fs.readFileSync(path.join(ROOT, 'deploy/nginx/clan-snakes.conf'), 'utf8');
  site = site.replace(/^\s*server 127\.0\.0\.1:\d+[^\n]*\n/gm, '');
  site = site.replace(/hash \$remote_addr consistent;/, `hash $remote_addr$remote_port consistent;\n${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}`);
  site = site.replace(/listen 80;/, `listen 127.0.0.1:${listen};`).replace(/^\s*listen \[::\]:80;\n/m, '');
  return [
    'daemon off;',
    'worker_processes 2;',
    'worker_rlimit_nofile 19000;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 18000; multi_accept on; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
    site,
    '}',
    '',
  ].join('\n');
}

/**
 * `procs` real server processes on `env` (PostgreSQL) behind nginx (/usr/sbin/nginx with
 * nginxConf), with the Redis adapter on a Redis of the bench's own (redis-server on a free port)
 * when `redis`; TRUST_PROXY=1 as deployed. CPU and RSS are measured on the server processes; nginx
 * and Redis are the side processes.
 */
export async function startCluster(env: Record<string, string>, procs: number, redis: boolean): Promise<Running> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-nginx-'));
  const started: { redis?: ChildProcess; nginx?: ChildProcess; servers: Running[] } = { servers: [] };
  const stop = async () => {
    if (started.nginx) await stopProc(started.nginx, 'SIGQUIT');
    await Promise.all(started.servers.map((x) => x.stop()));
    if (started.redis) await stopProc(started.redis);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    let redisUrl = '';
    if (redis) {
      const port = await freePort();
      started.redis = await spawnReady('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], 'Ready to accept connections');
      redisUrl = `redis://127.0.0.1:${port}`;
    }
    for (let i = 0; i < procs; i += 1) started.servers.push(await startRealServer({ ...env, REDIS_URL: redisUrl, TRUST_PROXY: '1' }));
    const listen = await freePort();
    fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConf(dir, listen, started.servers.map((x) => Number(new URL(x.url).port))));
    const nginx = spawn('/usr/sbin/nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
    started.nginx = nginx;
    const url = `http://127.0.0.1:${listen}`;
    for (let i = 0; ; i += 1) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
      const okNow = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
      if (okNow) break;
      if (i > 100) throw new Error('nginx did not answer');
      await sleep(200);
    }
    return {
      url,
      pids: started.servers.flatMap((x) => x.pids),
      urls: started.servers.map((x) => x.url),
      side: () => [...(started.redis ? [started.redis.pid!] : []), nginx.pid!, ...childrenOf(nginx.pid!)],
      metrics: started.servers[0].metrics,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** nproc, CPU model and RAM of this machine. */
export function machine(): string {
  const cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
  let cpus = os.availableParallelism();
  try {
    cpus = Number(execSync('nproc').toString().trim()) || cpus;
  } catch {
    /* keep availableParallelism */
  }
  return `${cpus} CPUs (nproc), ${model}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM; Node ${process.version}; Linux ${os.release()}`;
}

export const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
export const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? (a / b).toFixed(2) : 'n/a');
export const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ');

/** The markdown rows of one database's real and bare runs. */
export function rowsOf(backend: string, real?: RunResult, bare?: RunResult): string[] {
  const p = (r: RunResult, a: 'ack' | 'spectator', q: number) => percentile(r[a], q);
  const line = (r: RunResult) =>
    `| ${backend} | ${r.mode} | ${ms(p(r, 'ack', 50))} / ${ms(p(r, 'ack', 99))} | ${ms(p(r, 'spectator', 50))} / ${ms(p(r, 'spectator', 99))} | ${r.rollsPerSecond.toFixed(1)} | ${Math.round(r.deliveriesPerSecond)} | ${r.refused} / ${r.timeouts} | ${r.missed} | ${r.cpuCores.toFixed(2)} | ${Number.isFinite(r.dbCores) ? r.dbCores.toFixed(2) : ''} | ${(r.peakRssKb / 1024).toFixed(0)} | ${r.lost} / ${r.doubled} / ${r.unacknowledgedApplied} | ${r.mismatched} / ${r.sockets} | ${r.gaps} / ${r.stale} | ${r.messagesPerRoll.toFixed(2)} | ${r.queriesPerRoll === null ? '' : r.queriesPerRoll.toFixed(1)} |`;
  if (!real || !bare) return [real, bare].filter((r): r is RunResult => r !== undefined).map(line);
  return [
    line(real),
    line(bare),
    `| ${backend} | ratio real / bare | ${ratio(p(real, 'ack', 50), p(bare, 'ack', 50))} / ${ratio(p(real, 'ack', 99), p(bare, 'ack', 99))} | ${ratio(p(real, 'spectator', 50), p(bare, 'spectator', 50))} / ${ratio(p(real, 'spectator', 99), p(bare, 'spectator', 99))} | ${ratio(real.rollsPerSecond, bare.rollsPerSecond)} | ${ratio(real.deliveriesPerSecond, bare.deliveriesPerSecond)} | | | ${ratio(real.cpuCores, bare.cpuCores)} | ${Number.isFinite(real.dbCores) ? ratio(real.dbCores, bare.dbCores) : ''} | ${ratio(real.peakRssKb, bare.peakRssKb)} | | | | | |`,
  ];
}

/** The sweep table's rows of one run; the highest step with the spectators' p99 within SWEEP_P99_MS is marked. */
export function sweepRowsOf(backend: string, r: RunResult): string[] {
  const within = r.sweep.filter((x) => percentile(x.spectator, 99) <= SWEEP_P99_MS);
  const best = within.reduce<SweepStep | null>((a, x) => (a === null || x.rollsPerSecond > a.rollsPerSecond ? x : a), null);
  return r.sweep.map((x) =>
    `| ${backend} | ${r.mode} | ${x.periodMs} | ${x.offered.toFixed(0)} | ${x.rollsPerSecond.toFixed(1)} | ${ms(percentile(x.ack, 50))} / ${ms(percentile(x.ack, 99))} | ${ms(percentile(x.spectator, 50))} / ${ms(percentile(x.spectator, 99))} | ${x.cpuCores.toFixed(2)} | ${ms((1000 * x.cpuCores) / x.rollsPerSecond)} | ${x.refused} / ${x.timeouts} / ${x.missed} | ${x === best ? 'highest' : ''} |`,
  );
}
