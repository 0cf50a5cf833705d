import { spawn, execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { createTestDatabase, freePort, startServer, untilListening, type TestServer } from '../tests/support/server';
import { ApiClient } from '../tests/support/api';
import { benchClan, startBenchGame } from './seed';
import { ClientProcess, ok, peakRssKb, percentile, REAL_ENV, runBench, sleep, stopProcess, wallNow, writeResults } from './measure';

/**
 * Speed benchmark of the live game (docs/server.md §6), all in one run:
 * 1. Roll to every spectator: for N spectator sockets on one game (default 5,000 and 10,000),
 *    BENCH_ROLLS rolls by two team Leaders, each measured from the roll_dice emit to the
 *    game_state_update receipt at every spectator; spectators join compact (docs/server.md §6:
 *    one message per roll, the progress update carrying the roll's new_log_entries); beside the
 *    bare server (bench/bareServer.ts) sending one message of the same size (the compact progress
 *    update the real server sent, taken from the real run) to N sockets. p50/p99 over all
 *    receipts, ratios, peak RSS (VmHWM), messages per roll per spectator (1 when compact works).
 * 2. Join storm: the time to connect and join the N spectators (every worker at once), real
 *    (join_game answered with the whole public game) and bare (the same message).
 * 3. HTTP: GET /api/public/game/{id} of that game against the bare node:http answer of the same
 *    body pre-serialised, autocannon with 50 connections, BENCH_HTTP_SECONDS each.
 * Every measurement is made BENCH_REPEAT times (default 3), real and bare alternating, and the
 * medians are reported; results go to bench/RESULTS.md.
 *
 * Run: `npm run bench` (env BENCH_N=5000,10000, BENCH_ROLLS=100, BENCH_REPEAT=3, BENCH_WORKERS=4,
 * BENCH_HTTP_SECONDS=5, BENCH_OUT=bench/RESULTS.md).
 * Method:
 * - the real server is `server/index.ts` in its own process on a fresh SQLite file with
 *   BOARD_SEED; a 225-square game with two teams (one Leader each) is set up through the API,
 *   with snakes on 213-218 so nobody wins during the run; it is in-progress
 * - spectators are anonymous socket.io-client sockets over the websocket transport, spread over
 *   BENCH_WORKERS client processes (bench/spectatorWorker.ts), so the receiving side is not the
 *   wall; receipt times are absolute (performance.timeOrigin + now) and compared with the emit's
 * - rolls are sequential: the next roll is emitted once every spectator has received the
 *   previous one (so broadcasts never overlap); 10 warm-up rolls are not counted
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SIZES = (process.env.BENCH_N ?? '5000,10000').split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
const ROLLS = Number(process.env.BENCH_ROLLS ?? 100);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? 'bench/RESULTS.md');

/** One fan-out run: latencies over all receipts, missed receipts, join storm time, peak RSS, messages a spectator got per roll. */
interface RunResult {
  latencies: Float64Array;
  missed: number;
  joinMs: number;
  peakRssKb: number;
  messagesPerRoll: number;
}

/** What the real server sent a compact spectator, replayed by the bare one. */
interface Samples {
  join: Record<string, unknown>;
  /** The compact progress update of one roll, its new_log_entries included. */
  progress: Record<string, unknown>;
  httpBody: string;
  /** The real answer's headers but those node:http writes itself or that change per answer (Date, Connection, Keep-Alive, Content-Length, X-Request-Id). */
  httpHeaders: Record<string, string>;
}


/** The median of a few numbers. */
function median(values: number[]): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

/** Opens one websocket socket.io-client socket and resolves once connected. */
function open(url: string, cookie?: string): Promise<Socket> {
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

/** Broadcasts sent before the counted ones (a warm server and warm clients), and the longest wait for one (ms). */
const WARMUP = 10;
const ROLL_TIMEOUT_MS = 15_000;

/**
 * Spreads n spectators over WORKERS processes, all joining at once (the join storm), then runs
 * ROLLS + WARMUP sequential broadcasts fired by `fire(i)`, each waiting until every spectator got
 * it (or ROLL_TIMEOUT_MS). Answers the latencies of the counted broadcasts and the storm's time.
 */
async function fanOut(url: string, n: number, mode: 'real' | 'bare', gameId: number, fire: (i: number) => void): Promise<Omit<RunResult, 'peakRssKb'>> {
  const total = ROLLS + WARMUP;
  const workers = await Promise.all(Array.from({ length: WORKERS }, () => ClientProcess.start('bench/spectatorWorker.ts')));
  try {
    const shares = workers.map((_, k) => Math.floor(n / WORKERS) + (k < n % WORKERS ? 1 : 0));
    const t0 = performance.now();
    await Promise.all(workers.map((w, k) => {
      const joined = w.next((m) => m.type === 'joined');
      w.send({ type: 'connect', url, count: shares[k], mode, gameId, rolls: total });
      return joined;
    }));
    const joinMs = performance.now() - t0;
    const fired: number[] = [];
    for (let i = 0; i < total; i += 1) {
      const all = Promise.all(workers.map((w) => {
        const got = w.next((m) => m.type === 'received' && m.seq === i);
        w.send({ type: 'expect', seq: i });
        return got;
      }));
      fired[i] = wallNow();
      fire(i);
      const ok = await Promise.race([all.then(() => true), sleep(ROLL_TIMEOUT_MS).then(() => false)]);
      if (!ok) console.warn(`  broadcast ${i}: not every spectator got it within ${ROLL_TIMEOUT_MS} ms`);
    }
    const latencies: number[] = [];
    let missed = 0;
    let messages = 0;
    for (const [k, w] of workers.entries()) {
      const got = w.next((m) => m.type === 'receipts');
      w.send({ type: 'collect' });
      const { times, messages: count } = await got;
      messages += count / shares[k];
      for (let seq = WARMUP; seq < total; seq += 1) {
        for (let j = 0; j < shares[k]; j += 1) {
          const t = times[seq * shares[k] + j];
          if (typeof t === 'number') latencies.push(t - fired[seq]);
          else missed += 1;
        }
      }
    }
    return { latencies: Float64Array.from(latencies).sort(), missed, joinMs, messagesPerRoll: (messages / workers.length - 1) / total };
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}

/** Cookie header of an ApiClient's session. */
const cookieOf = (api: ApiClient) => [...api.cookies].map(([k, val]) => `${k}=${val}`).join('; ');

/** Sets up the game on the real server; returns ids and the Leader's cookie. */
async function setUpGame(server: TestServer) {
  const { owner, clanId, ignIds } = await benchClan(server.url, ['LeaderOne', 'LeaderTwo']);
  const event = ok(await owner.post(`/api/clan/${clanId}/events/`, { name: 'Bench Cup', start_datetime: '2031-06-01T18:00Z' }), 'event');
  const eventId = event.event.id as number;
  const teams: number[] = [];
  for (const [i, [name, color]] of [['Red', '#aa0000'], ['Blue', '#0000aa']].entries()) {
    const t = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color }), 'team');
    teams.push(t.team.id);
    ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${t.team.id}/members`, { osrs_ign_id: ignIds[i], role: 'Leader' }), 'leader');
  }
  const gameId = await startBenchGame(owner, clanId, eventId);
  return { gameId, teams, ignIds, cookie: cookieOf(owner) };
}

/** A real server on a fresh SQLite file with the bench game set up. */
async function startReal(): Promise<{ server: TestServer; game: Awaited<ReturnType<typeof setUpGame>>; stop(): Promise<void> }> {
  const db = await createTestDatabase('sqlite');
  const server = await startServer({ ...db.env, ...REAL_ENV });
  const game = await setUpGame(server);
  return {
    server,
    game,
    stop: async () => {
      await server.stop();
      await db.drop();
    },
  };
}

/** What a compact spectator of the real server receives: the public game (HTTP body and join answer), one roll's progress update with its new_log_entries. */
async function sampleReal(url: string, game: Awaited<ReturnType<typeof setUpGame>>): Promise<Samples> {
  // Uncompressed, as autocannon asks for it (fetch would otherwise ask for and decode gzip, and the
  // replayed headers would name an encoding the replayed body does not have).
  const res = await fetch(`${url}/api/public/game/${game.gameId}`, { headers: { 'accept-encoding': 'identity' } });
  const httpBody = await res.text();
  const perAnswer = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-request-id']);
  const httpHeaders = Object.fromEntries([...res.headers].filter(([name]) => !perAnswer.has(name)));
  const leader = await open(url, game.cookie);
  const probe = await open(url);
  try {
    await new Promise<void>((resolve) => {
      probe.once('game_state_update', () => resolve());
      probe.emit('join_game', { game_id: game.gameId, compact: true });
    });
    const progress = new Promise<Record<string, unknown>>((resolve) => probe.once('game_state_update', (p: any) => resolve(p.game_state)));
    leader.emit('roll_dice', { game_id: game.gameId, team_id: game.teams[0], performer_ign_id: game.ignIds[0] });
    const sample = await progress;
    if (!Array.isArray(sample.new_log_entries)) throw new Error('the compact progress update carries no new_log_entries');
    return { join: JSON.parse(httpBody).game, progress: sample, httpBody, httpHeaders };
  } finally {
    leader.disconnect();
    probe.disconnect();
  }
}

/** One fan-out run against a fresh real server with n spectators. */
async function runReal(n: number): Promise<RunResult> {
  const real = await startReal();
  const leader = await open(real.server.url, real.game.cookie);
  try {
    const { gameId, teams, ignIds } = real.game;
    leader.on('action_error', (e: { message: string }) => console.error(`  roll refused: ${e.message}`));
    const result = await fanOut(real.server.url, n, 'real', gameId, (i) => {
      leader.emit('roll_dice', { game_id: gameId, team_id: teams[i % 2], performer_ign_id: ignIds[i % 2] });
    });
    return { ...result, peakRssKb: peakRssKb(real.server.proc.pid!) };
  } finally {
    leader.disconnect();
    await real.stop();
  }
}

/**
 * Starts bench/bareServer.ts (Socket.IO attached, the same messages) replaying `samples`, or with
 * `script` bench/plainServer.ts (node:http with nothing attached, the HTTP answer only).
 */
async function startBare(samples: Samples, script = 'bench/bareServer.ts'): Promise<{ url: string; proc: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const file = path.join(os.tmpdir(), `bench-samples-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(samples));
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), BARE_SAMPLES: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  await untilListening(proc, () => out, 30_000);
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    stop: () => stopProcess(proc),
  };
}

/** One fan-out run against a fresh bare server with n spectators. */
async function runBare(n: number, samples: Samples): Promise<RunResult> {
  const bare = await startBare(samples);
  const trigger = await open(bare.url);
  try {
    const result = await fanOut(bare.url, n, 'bare', 0, (i) => trigger.emit('trigger', { seq: i }));
    return { ...result, peakRssKb: peakRssKb(bare.proc.pid!) };
  } finally {
    trigger.disconnect();
    await bare.stop();
  }
}

/** autocannon at 50 connections for HTTP_SECONDS: mean requests/s, p99 latency (ms), non-2xx answers. */
async function load(url: string): Promise<{ rps: number; p99: number; bad: number }> {
  const r = await autocannon({ url, connections: 50, duration: HTTP_SECONDS });
  return { rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors };
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
  const loadDuring: number[] = [];
  const sampler = setInterval(() => loadDuring.push(os.loadavg()[0]), 10_000);

  // What the real server sends a spectator, replayed by the bare server.
  const first = await startReal();
  const samples = await sampleReal(first.server.url, first.game);
  await first.stop();
  const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x));
  const sizes = {
    join: bytes({ game_state: samples.join }),
    progress: bytes({ game_state: samples.progress }),
    http: Buffer.byteLength(samples.httpBody),
  };
  console.log(`messages: join answer ${sizes.join} B, compact progress update ${sizes.progress} B; HTTP body ${sizes.http} B`);

  type Row = { n: number; real: RunResult[]; bare: RunResult[] };
  const rows: Row[] = [];
  for (const n of SIZES) {
    const row: Row = { n, real: [], bare: [] };
    for (let k = 1; k <= REPEAT; k += 1) {
      console.log(`N = ${n}, run ${k}/${REPEAT}: real server ...`);
      const real = await runReal(n);
      console.log(`  p50 ${ms(percentile(real.latencies, 50))} p99 ${ms(percentile(real.latencies, 99))} ms, join ${(real.joinMs / 1000).toFixed(1)} s, RSS ${mb(real.peakRssKb)} MB, ${real.messagesPerRoll.toFixed(2)} messages/roll`);
      console.log(`N = ${n}, run ${k}/${REPEAT}: bare server ...`);
      const bare = await runBare(n, samples);
      console.log(`  p50 ${ms(percentile(bare.latencies, 50))} p99 ${ms(percentile(bare.latencies, 99))} ms, join ${(bare.joinMs / 1000).toFixed(1)} s, RSS ${mb(bare.peakRssKb)} MB, ${bare.messagesPerRoll.toFixed(2)} messages/roll`);
      row.real.push(real);
      row.bare.push(bare);
    }
    rows.push(row);
  }

  console.log('HTTP: GET /api/public/game/{id} against bare node:http (Socket.IO attached) and plain node:http (nothing attached) ...');
  const real = await startReal();
  const bare = await startBare(samples);
  const plain = await startBare(samples, 'bench/plainServer.ts');
  type Load = Awaited<ReturnType<typeof load>>;
  const http: { real: Load[]; bare: Load[]; plain: Load[] } = { real: [], bare: [], plain: [] };
  try {
    await load(`${real.server.url}/api/public/game/${real.game.gameId}`); // warm-up
    await load(`${plain.url}/api/public/game/${real.game.gameId}`); // warm-up
    for (let k = 1; k <= REPEAT; k += 1) {
      http.real.push(await load(`${real.server.url}/api/public/game/${real.game.gameId}`));
      http.plain.push(await load(`${plain.url}/api/public/game/${real.game.gameId}`));
      http.bare.push(await load(`${bare.url}/api/public/game/${real.game.gameId}`));
      console.log(`  run ${k}: real ${http.real.at(-1)!.rps.toFixed(0)} req/s, plain ${http.plain.at(-1)!.rps.toFixed(0)} req/s, bare ${http.bare.at(-1)!.rps.toFixed(0)} req/s (load ${os.loadavg()[0].toFixed(2)})`);
    }
  } finally {
    await real.stop();
    await bare.stop();
    await plain.stop();
  }
  clearInterval(sampler);

  const m = machine();
  const loadAfter = os.loadavg();
  const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const med = (runs: RunResult[], f: (r: RunResult) => number) => median(runs.map(f));
  const p50 = (r: RunResult) => percentile(r.latencies, 50);
  const p99 = (r: RunResult) => percentile(r.latencies, 99);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const httpReal = median(http.real.map((r) => r.rps));
  const httpBare = median(http.bare.map((r) => r.rps));
  const httpPlain = median(http.plain.map((r) => r.rps));
  const lines = [
    '# Speed benchmark',
    '',
    `Produced by \`npm run bench\` (bench/spectators.bench.ts) on ${started.toISOString().slice(0, 10)} (${started.toISOString()}), one run.`,
    '',
    `Machine: ${m.cpus} CPUs (nproc), ${m.model}, ${m.ramGb} GiB RAM; Node ${m.node}; Linux ${m.kernel}.`,
    `Load average (1 / 5 / 15 min) before the run: ${fmt(loadBefore)}; after: ${fmt(loadAfter)}; 1-min load sampled every 10 s during it: median ${median(loadDuring).toFixed(2)}, max ${Math.max(...loadDuring, 0).toFixed(2)}.`,
    'The machine is shared with other work; real and bare were measured alternately, each measurement',
    `${REPEAT} times, and the medians are reported. Total run time: ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`,
    '',
    'Messages (bytes of JSON as the client decodes them): the join_game answer (whole public game)',
    `${sizes.join} B, the compact progress update after a roll (its new_log_entries included) ${sizes.progress} B; the public game HTTP body ${sizes.http} B.`,
    '',
    '## Roll to every spectator, and the join storm',
    '',
    `N anonymous compact spectator sockets (websocket transport; join_game {game_id, compact: true}, server-contract §5) spread over ${WORKERS} client processes, on one game; ${ROLLS} rolls`,
    `by two team Leaders after ${WARMUP} uncounted warm-up rolls; latency from the roll_dice emit to the`,
    'game_state_update receipt at every spectator, p50/p99 over all N x rolls receipts of a run, then the median',
    'of the runs. "Bare" is bench/bareServer.ts: no database, no rules, sending the same message (the one compact',
    'progress update a real roll sends, its new_log_entries included; the whole game as the join answer). Ratio = real / bare.',
    'Messages per roll: every message a spectator received after its join answer, divided by the rolls (1.00 = one message per roll).',
    'Join storm: all N sockets connect and join at once (every client process in batches of 100), until the last',
    'join answer. Peak RSS: VmHWM of the server process (a fresh process per run), median of the runs.',
    '',
    '| N | real p50 (ms) | bare p50 (ms) | ratio p50 | real p99 (ms) | bare p99 (ms) | ratio p99 | join storm real / bare (s) | ratio join | peak RSS real / bare (MB) | messages per roll real / bare | missed receipts real / bare |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ n, real: r, bare: b }) => {
      const rp50 = med(r, p50), bp50 = med(b, p50), rp99 = med(r, p99), bp99 = med(b, p99);
      const rj = med(r, (x) => x.joinMs), bj = med(b, (x) => x.joinMs);
      return `| ${n.toLocaleString('en-US')} | ${ms(rp50)} | ${ms(bp50)} | ${ratio(rp50, bp50)} | ${ms(rp99)} | ${ms(bp99)} | ${ratio(rp99, bp99)} | ${(rj / 1000).toFixed(2)} / ${(bj / 1000).toFixed(2)} | ${ratio(rj, bj)} | ${mb(med(r, (x) => x.peakRssKb))} / ${mb(med(b, (x) => x.peakRssKb))} | ${med(r, (x) => x.messagesPerRoll).toFixed(2)} / ${med(b, (x) => x.messagesPerRoll).toFixed(2)} | ${r.reduce((s2, x) => s2 + x.missed, 0)} / ${b.reduce((s2, x) => s2 + x.missed, 0)} |`;
    }),
    '',
    'Each run (p50 / p99 ms, join s):',
    '',
    ...rows.flatMap(({ n, real: r, bare: b }) => r.map((x, k) =>
      `- N = ${n.toLocaleString('en-US')}, run ${k + 1}: real ${ms(p50(x))} / ${ms(p99(x))}, join ${(x.joinMs / 1000).toFixed(2)}; bare ${ms(p50(b[k]))} / ${ms(p99(b[k]))}, join ${(b[k].joinMs / 1000).toFixed(2)}`)),
    '',
    '## Public game over HTTP',
    '',
    `\`GET /api/public/game/{id}\` of the bench game (${sizes.http} B) with autocannon, 50 connections, ${HTTP_SECONDS} s per`,
    'measurement, no Accept-Encoding (so no side compresses), against bare node:http with Socket.IO attached',
    '(bench/bareServer.ts) and plain node:http with nothing attached (bench/plainServer.ts), both answering the',
    `same body and headers pre-serialised; ${REPEAT} measurements each, alternating real, plain, bare, after one uncounted warm-up of the real and the plain server.`,
    '',
    '| | requests/s (median) | p99 latency (ms, median) | runs (requests/s) | non-2xx or errors |',
    '|---|---:|---:|---|---:|',
    `| real server | ${httpReal.toFixed(0)} | ${median(http.real.map((r) => r.p99)).toFixed(0)} | ${http.real.map((r) => r.rps.toFixed(0)).join(', ')} | ${http.real.reduce((s2, r) => s2 + r.bad, 0)} |`,
    `| bare node:http | ${httpBare.toFixed(0)} | ${median(http.bare.map((r) => r.p99)).toFixed(0)} | ${http.bare.map((r) => r.rps.toFixed(0)).join(', ')} | ${http.bare.reduce((s2, r) => s2 + r.bad, 0)} |`,
    `| plain node:http | ${httpPlain.toFixed(0)} | ${median(http.plain.map((r) => r.p99)).toFixed(0)} | ${http.plain.map((r) => r.rps.toFixed(0)).join(', ')} | ${http.plain.reduce((s2, r) => s2 + r.bad, 0)} |`,
    `| ratio real / bare | ${ratio(httpReal, httpBare)} | | | |`,
    `| ratio real / plain | ${ratio(httpReal, httpPlain)} | | | |`,
    '',
    'Notes:',
    '- The real server answers the public game from its game cache (server/games/cache.ts): the body serialised',
    '  once per version, an ETag, and at most one SELECT of the version every 250 ms (GAME_CACHE_CHECK_MS),',
    '  a fresh entry answered by node:http before the app (publicGameNodeAnswer); the',
    '  join_game answer is the same cached game, encoded once per version. Per roll it runs the permission checks, one SQLite transaction',
    '  and one broadcast per audience room and flavour; a compact room gets one message per roll (Socket.IO encodes a room broadcast once).',
    '- The real server runs on SQLite (embedded default, one process, BOARD_SEED), with the tasks of',
    '  examples/osrs-tasks.csv on a 225-square board; snakes on squares 213-218 keep the game from ending.',
    '- Client and servers share the machine\'s CPUs: the client processes, the server and the other work on the',
    '  machine compete for the same cores, for the real and the bare server alike.',
    '',
  ];
  // The many-games section (bench/many.bench.ts writes bench/many.md) and the hand-written ones follow.
  for (const file of ['bench/many.md', 'bench/many-scale.md', 'bench/many-notes.md']) {
    const many = path.resolve(ROOT, file);
    if (fs.existsSync(many)) lines.push(fs.readFileSync(many, 'utf8'));
  }
  const lighthouse = path.resolve(ROOT, 'bench/lighthouse.md');
  if (fs.existsSync(lighthouse)) lines.push(fs.readFileSync(lighthouse, 'utf8'));
  writeResults(OUT, lines.join('\n'));
}

runBench(main);
