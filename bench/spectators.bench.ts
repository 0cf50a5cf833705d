import { spawn, execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { createTestDatabase, freePort, startServer, type TestServer } from '../tests/support/server';
import { ApiClient } from '../tests/support/api';
import { autoSplit, countsToSettings } from '../contract/game';

/**
 * Spectator fan-out benchmark (server-contract section 5 "Size of a broadcast"):
 * for N spectator sockets on one game (default 100, 1,000, 5,000), 200 rolls by two team Leaders,
 * each measured from the roll_dice emit to the game_state_update receipt at every spectator,
 * beside a bare Socket.IO server that broadcasts a payload of the same byte size to N sockets
 * in the same run. Reports p50/p99 over all receipts, their ratios, and the peak RSS (VmHWM) of
 * both server processes, and writes bench/RESULTS.md.
 *
 * Run: `npm run bench` (env BENCH_N=100,1000,5000, BENCH_ROLLS=200, BENCH_OUT=bench/RESULTS.md).
 * Method:
 * - the real server is `server/index.ts` in its own process on a fresh SQLite file with
 *   BOARD_SEED; a 225-square game with two teams (one Leader each) is set up through the API,
 *   with snakes on 213-218 so nobody wins during the run; it is in-progress
 * - spectators are anonymous socket.io-client sockets over the websocket transport, connected
 *   and joined in batches of 250; all live in this one client process
 * - rolls are sequential: the next roll is emitted once every spectator has received the
 *   previous one (so broadcasts never overlap and each latency is one roll's fan-out); 10 warm-up
 *   rolls are not counted
 * - the bare server (bench/bareServer.ts) runs in its own process too; a trigger message from one
 *   socket makes it broadcast `game_state_update` with a payload of the real progress update's
 *   byte size to the room of N sockets
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SIZES = (process.env.BENCH_N ?? '100,1000,5000').split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
const ROLLS = Number(process.env.BENCH_ROLLS ?? 200);
const WARMUP = 10;
const BATCH = 250;
const ROLL_TIMEOUT_MS = 15_000;
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? 'bench/RESULTS.md');
const TASKS_CSV = path.resolve(ROOT, '../shared/data/osrs-tasks.csv');
/** Snakes on 213..218 of a 225 board: no team can get past 212, so the game never ends. */
const NO_WIN_SNAKES = [[213, 2], [214, 3], [215, 4], [216, 5], [217, 6], [218, 7]];

type AnySocket = Socket;

interface RunResult {
  /** Other messages a spectator received per counted broadcast (new_log_entry on the real server). */
  extraPerRoll: number;
  latencies: Float64Array;
  missed: number;
  connectMs: number;
  payloadBytes: number;
  peakRssKb: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The p-th percentile (0..100) of sorted values, nearest rank. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** VmHWM (peak resident set) of a process in kB, from /proc/<pid>/status. */
function peakRssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+)\s+kB/.exec(status);
  return m ? Number(m[1]) : NaN;
}

/** Opens one websocket socket.io-client socket and resolves once connected. */
function open(url: string, cookie?: string): Promise<AnySocket> {
  const socket = connectSocket(url, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: 60_000,
    extraHeaders: cookie ? { cookie } : undefined,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

/**
 * Connects `n` spectators in batches; each runs `join(socket)` (resolving when joined) and is
 * watched by `onUpdate(index, payload)` for game_state_update.
 */
async function connectSpectators(
  url: string,
  n: number,
  join: (s: AnySocket) => Promise<void>,
  onUpdate: (index: number, payload: any) => void,
): Promise<{ sockets: AnySocket[]; ms: number }> {
  const t0 = performance.now();
  const sockets: AnySocket[] = [];
  for (let start = 0; start < n; start += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(BATCH, n - start) }, async (_, k) => {
        const index = start + k;
        const s = await open(url);
        await join(s);
        s.on('game_state_update', (payload: any) => onUpdate(index, payload));
        return s;
      }),
    );
    sockets.push(...batch);
  }
  return { sockets, ms: performance.now() - t0 };
}

/**
 * Runs `rolls` sequential broadcasts: `fire(i)` starts broadcast i; `seqOf(payload)` names the
 * broadcast a receipt belongs to. Each broadcast waits for all n receipts (or ROLL_TIMEOUT_MS).
 */
async function measure(
  n: number,
  total: number,
  fire: (i: number) => void,
  register: (handler: (index: number, seq: number) => void) => void,
): Promise<{ latencies: Float64Array; missed: number }> {
  const latencies = new Float64Array(n * Math.max(0, total - WARMUP));
  let filled = 0;
  let missed = 0;
  let current = -1;
  let t0 = 0;
  let count = 0;
  let done: (() => void) | null = null;
  register((_index, seq) => {
    if (seq !== current) return;
    const now = performance.now();
    if (current >= WARMUP) latencies[filled++] = now - t0;
    count += 1;
    if (count === n && done) done();
  });
  for (let i = 0; i < total; i += 1) {
    current = i;
    count = 0;
    const all = new Promise<void>((resolve) => {
      done = resolve;
    });
    t0 = performance.now();
    fire(i);
    const ok = await Promise.race([all.then(() => true), sleep(ROLL_TIMEOUT_MS).then(() => false)]);
    if (!ok) {
      // A broadcast nobody received means the roll was not applied: the run is not measuring
      // what it should, so stop rather than report numbers.
      if (count === 0) throw new Error(`broadcast ${i}: no spectator received it within ${ROLL_TIMEOUT_MS} ms`);
      if (i >= WARMUP) missed += n - count;
      console.warn(`  broadcast ${i}: only ${count}/${n} receipts within ${ROLL_TIMEOUT_MS} ms`);
    }
  }
  return { latencies: latencies.slice(0, filled), missed };
}

/** Cookie header of an ApiClient's session. */
const cookieOf = (api: ApiClient) => [...api.cookies].map(([k, val]) => `${k}=${val}`).join('; ');

/** Expects a 200 answer. */
function ok(r: { status: number; body: unknown }, what: string): any {
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Sets up the game on the real server; returns ids and the Leader's cookie. */
async function setUpGame(server: TestServer) {
  const owner = new ApiClient(server.url);
  const me = await owner.onboard('bench-owner', ['LeaderOne', 'LeaderTwo'], { role: 'Owner', clan_name: 'Bench Clan' });
  const clanId = me.clan_memberships_list[0].clan_id as number;
  const ignIds = me.igns.map((i: { id: number }) => i.id) as number[];
  if (fs.existsSync(TASKS_CSV)) {
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(TASKS_CSV)], { type: 'text/csv' }), 'osrs-tasks.csv');
    ok(await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form), 'upload tasks');
  }
  const event = ok(await owner.post(`/api/clan/${clanId}/events/`, { name: 'Bench Cup', start_datetime: '2031-06-01T18:00Z' }), 'event');
  const eventId = event.event.id as number;
  const teams: number[] = [];
  for (const [i, [name, color]] of [['Red', '#aa0000'], ['Blue', '#0000aa']].entries()) {
    const t = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color }), 'team');
    teams.push(t.team.id);
    ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${t.team.id}/members`, { osrs_ign_id: ignIds[i], role: 'Leader' }), 'leader');
  }
  const game = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, {
    board_size: 225, num_snakes: 5, num_ladders: 5, max_reverts_allowed: 3, ...countsToSettings(autoSplit(225)),
  }), 'game');
  const gameId = game.game.id as number;
  const base = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
  ok(await owner.put(`${base}/board`, { snakes_config: NO_WIN_SNAKES, ladders_config: [] }), 'board');
  ok(await owner.put(`${base}/status`, { status: 'in-progress' }), 'start');
  return { gameId, teams, ignIds, cookie: cookieOf(owner) };
}

/** One run against the real server with n spectators. */
async function runReal(n: number): Promise<RunResult> {
  const db = await createTestDatabase('sqlite');
  // Every spectator connects from 127.0.0.1 and the Leader rolls as fast as rolls arrive: lift
  // the per-address socket cap, the join limit and the roll limits of server-contract section 7
  // (100 sockets, 30 joins, 5 and 10 rolls a second) that measure abuse, not fan-out.
  const server = await startServer({
    ...db.env,
    BOARD_SEED: '2024',
    SOCKETS_PER_ADDRESS: '1000000',
    JOINS_PER_ADDRESS: '1000000',
    ROLLS_PER_SOCKET: '1000000',
    ROLLS_PER_USER: '1000000',
  });
  const sockets: AnySocket[] = [];
  try {
    const { gameId, teams, ignIds, cookie } = await setUpGame(server);
    const leader = await open(server.url, cookie);
    sockets.push(leader);
    leader.on('action_error', (e: { message: string }) => console.error(`  roll refused: ${e.message}`));
    let baseVersion = 0;
    let payloadBytes = 0;
    let handler: (index: number, seq: number) => void = () => {};
    const spectators = await connectSpectators(
      server.url,
      n,
      (s) => new Promise<void>((resolve, reject) => {
        s.once('game_state_update', (p: any) => {
          baseVersion = p.game_state.version;
          resolve();
        });
        s.once('action_error', (e: { message: string }) => reject(new Error(e.message)));
        s.emit('join_game', { game_id: gameId });
      }),
      (index, p) => {
        const seq = p.game_state.version - baseVersion - 1;
        if (index === 0 && payloadBytes === 0 && seq >= 0) payloadBytes = Buffer.byteLength(JSON.stringify(p));
        handler(index, seq);
      },
    );
    sockets.push(...spectators.sockets);
    let logs = 0;
    spectators.sockets[0].on('new_log_entry', () => (logs += 1));
    const result = await measure(n, ROLLS + WARMUP, (i) => {
      leader.emit('roll_dice', { game_id: gameId, team_id: teams[i % 2], performer_ign_id: ignIds[i % 2] });
    }, (h) => {
      handler = h;
    });
    const peak = peakRssKb(server.proc.pid!);
    return { ...result, extraPerRoll: logs / (ROLLS + WARMUP), connectMs: spectators.ms, payloadBytes, peakRssKb: peak };
  } finally {
    for (const s of sockets) s.disconnect();
    await server.stop();
    await db.drop();
  }
}

/** Starts bench/bareServer.ts with the given payload size. */
async function startBare(payloadBytes: number): Promise<{ url: string; proc: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/bareServer.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), PAYLOAD_BYTES: String(payloadBytes) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bare server did not start:\n' + out)), 30_000);
    proc.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('bare listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.stderr!.on('data', (d) => (out += d));
    proc.on('exit', (code) => reject(new Error(`bare server exited ${code}:\n${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    stop: () => new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    }),
  };
}

/** One run against the bare server with n spectators and the real run's payload size. */
async function runBare(n: number, payloadBytes: number): Promise<RunResult> {
  const bare = await startBare(payloadBytes);
  const sockets: AnySocket[] = [];
  try {
    const trigger = await open(bare.url);
    sockets.push(trigger);
    let handler: (index: number, seq: number) => void = () => {};
    let measuredBytes = 0;
    const spectators = await connectSpectators(
      bare.url,
      n,
      (s) => new Promise<void>((resolve) => {
        s.once('joined', () => resolve());
        s.emit('join');
      }),
      (index, p) => {
        if (index === 0 && measuredBytes === 0) measuredBytes = Buffer.byteLength(JSON.stringify(p));
        handler(index, p.game_state.seq);
      },
    );
    sockets.push(...spectators.sockets);
    const result = await measure(n, ROLLS + WARMUP, (i) => trigger.emit('trigger', { seq: i }), (h) => {
      handler = h;
    });
    const peak = peakRssKb(bare.proc.pid!);
    return { ...result, extraPerRoll: 0, connectMs: spectators.ms, payloadBytes: measuredBytes, peakRssKb: peak };
  } finally {
    for (const s of sockets) s.disconnect();
    await bare.stop();
  }
}

/** nproc, CPU model and RAM of this machine. */
function machine(): { cpus: number; model: string; ramGb: string; node: string; kernel: string } {
  const cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  let cpus = os.availableParallelism();
  try {
    cpus = Number(execSync('nproc').toString().trim()) || cpus;
  } catch {
    /* keep availableParallelism */
  }
  const meminfo = fs.existsSync('/proc/meminfo') ? fs.readFileSync('/proc/meminfo', 'utf8') : '';
  const kb = Number(/MemTotal:\s+(\d+)/.exec(meminfo)?.[1] ?? os.totalmem() / 1024);
  return { cpus, model, ramGb: (kb / 1024 / 1024).toFixed(1), node: process.version, kernel: os.release() };
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const mb = (kb: number) => (kb / 1024).toFixed(0);

async function main(): Promise<void> {
  const started = new Date();
  const loadBefore = os.loadavg();
  const rows: { n: number; real: RunResult; bare: RunResult; stats: Record<string, number> }[] = [];
  for (const n of SIZES) {
    console.log(`N = ${n}: real server ...`);
    const real = await runReal(n);
    console.log(`N = ${n}: bare Socket.IO (${real.payloadBytes} B payload) ...`);
    const bare = await runBare(n, real.payloadBytes);
    const r = real.latencies.slice().sort();
    const b = bare.latencies.slice().sort();
    const stats = { realP50: percentile(r, 50), realP99: percentile(r, 99), bareP50: percentile(b, 50), bareP99: percentile(b, 99) };
    rows.push({ n, real, bare, stats });
    console.log(`  real p50 ${ms(stats.realP50)} ms p99 ${ms(stats.realP99)} ms, peak RSS ${mb(real.peakRssKb)} MB; bare p50 ${ms(stats.bareP50)} ms p99 ${ms(stats.bareP99)} ms, peak RSS ${mb(bare.peakRssKb)} MB`);
  }
  const m = machine();
  const loadAfter = os.loadavg();
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const logsPerRoll = rows.length ? (rows.reduce((sum, r) => sum + r.real.extraPerRoll, 0) / rows.length).toFixed(2) : 'n/a';
  const lines = [
    '# Spectator fan-out benchmark',
    '',
    `Produced by \`npm run bench\` (bench/spectators.bench.ts) on ${started.toISOString().slice(0, 10)} (${started.toISOString()}).`,
    '',
    `Machine: ${m.cpus} CPUs (nproc), ${m.model}, ${m.ramGb} GiB RAM; Node ${m.node}; Linux ${m.kernel}.`,
    `Load average (1 / 5 / 15 min) before the run: ${load(loadBefore)}; after: ${load(loadAfter)}. The machine is shared,`,
    'so other work ran beside the benchmark; the two servers of a row were measured one right after the other.',
    `Total run time: ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`,
    ...(Math.max(loadBefore[0], loadAfter[0]) > m.cpus
      ? ['', `The load average exceeded the ${m.cpus} CPUs during this run, so the numbers are noisy and the ratios rough`,
        '(a row where the bare server comes out slower is such noise); rerun on an idle machine for a clean comparison.']
      : []),
    '',
    `Each row: N anonymous spectator sockets (websocket transport) on one game, ${ROLLS} rolls by two team Leaders`,
    `(after ${WARMUP} uncounted warm-up rolls), latency from the roll_dice emit to the game_state_update receipt`,
    'at every spectator, percentiles over all N x rolls receipts. "Bare" is a Socket.IO server with no database',
    'or rules broadcasting a payload of the same byte size to N sockets in the same run. Ratio = real / bare.',
    'Peak RSS is VmHWM of the server process at the end of its run (a fresh process per row).',
    '',
    '| N | payload (B) | real p50 (ms) | real p99 (ms) | bare p50 (ms) | bare p99 (ms) | ratio p50 | ratio p99 | real peak RSS (MB) | bare peak RSS (MB) | connect + join N (s) real / bare | missed receipts real / bare |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ n, real, bare, stats }) =>
      `| ${n.toLocaleString('en-US')} | ${real.payloadBytes} | ${ms(stats.realP50)} | ${ms(stats.realP99)} | ${ms(stats.bareP50)} | ${ms(stats.bareP99)} | ${(stats.realP50 / stats.bareP50).toFixed(2)} | ${(stats.realP99 / stats.bareP99).toFixed(2)} | ${mb(real.peakRssKb)} | ${mb(bare.peakRssKb)} | ${(real.connectMs / 1000).toFixed(1)} / ${(bare.connectMs / 1000).toFixed(1)} | ${real.missed} / ${bare.missed} |`),
    '',
    'Notes:',
    '- The real server does per roll: the permission checks, one SQLite transaction (read, conditional version',
    '  update, team state and log writes, COMMIT), then one game_state_update per audience room and one',
    `  new_log_entry per log line (${logsPerRoll} per roll on average here) to both rooms. The bare server sends`,
    '  only the one game_state_update, so the difference is the roll itself plus the extra log messages, which',
    '  the next roll queues behind at large N (each spectator socket receives them in order).',
    '- All spectators live in one client process, whose own event loop handles the N receipts one after',
    '  another; latencies at large N therefore include the client side, for both servers alike.',
    '- connect + join: every join_game answer on the real server is the whole game read from the database for',
    '  that socket, the bare server answers a bare acknowledgement.',
    '- The real server runs on SQLite (embedded default, one process, BOARD_SEED), with the 144 tasks of',
    '  ../shared/data/osrs-tasks.csv on a 225-square board; snakes on squares 213-218 keep the game from ending.',
    '',
  ];
  fs.writeFileSync(OUT, lines.join('\n'));
  console.log(`Results written to ${path.relative(process.cwd(), OUT)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error('Benchmark failed:', err);
    process.exit(1);
  },
);
