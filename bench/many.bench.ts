import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '../tests/support/server';
import { percentile, runBench, writeResults } from './measure';
import {
  load, machine, many, ms, PG_URL, rowsOf, run, seed, startCluster, sweepRowsOf, SWEEP, SWEEP_P99_MS, SWEEP_SECONDS, SWEEP_WARMUP_SECONDS, type RunResult,
} from './manyHarness';

/**
 * Many live games at once (docs/server.md §6): G games (BENCH_G, default 200), each
 * with 2 to 4 teams (game i has 2 + i % 3), one Leader socket per game rolling for every team in
 * turn (each team once every BENCH_PERIOD_MS, default 3000, proof off), and S compact spectators
 * per game (BENCH_S, default 50: 10,000 sockets) spread over BENCH_WORKERS client processes
 * (bench/manySpectatorWorker.ts; the Leaders in bench/manyLeaderWorker.ts). Rolls run for
 * BENCH_SECONDS (default 60); the first BENCH_WARMUP_SECONDS (default 5) are not counted in the
 * latencies and rates (their rolls are checked like the others).
 *
 * For each database (BENCH_DBS, default sqlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL is
 * set, postgres) the games are seeded once through the API on a fresh database, then copied (SQLite
 * file copy, PostgreSQL `CREATE DATABASE ... TEMPLATE`) so the real server (server/index.ts) and
 * the bare baseline (bench/manyBareServer.ts: the same room broadcasts and the same writes per roll,
 * nothing else) each start from the same seed. Reported per run: roll acknowledgement p50/p99
 * (roll_dice emit → the Leader's game_state_update of that roll), roll-to-spectator p50/p99 (emit
 * → each spectator's receipt), sustained rolls/s, deliveries/s, refused rolls and timeouts, server
 * CPU (utime + stime over the rolling time, in cores) and peak RSS (VmHWM); ratios real / bare.
 * Checked after each run against the database: every acknowledged roll's log entries there
 * (lost), roll entries in the database beyond the acknowledged rolls (doubled), every spectator's
 * final positions equal to team_states (mismatched), version gaps and stale updates seen.
 * With BENCH_COUNT_QUERIES=1 the real server counts its SQL statements (DB_COUNT_QUERIES, the
 * db_queries_total metric) and the report gives statements per roll.
 *
 * Scale-out (BENCH_SCALE=0,1,2,4, PostgreSQL only): the same load through nginx (/usr/sbin/nginx,
 * deploy/nginx/clan-snakes.conf's site with the bench's ports) to 1, 2 or 4 real processes with the
 * Redis adapter on a redis-server of its own, and 0 = one process behind nginx without Redis; reports
 * deliveries per second per CPU of the server processes (and of everything: nginx and Redis too),
 * written to bench/many-scale.md.
 *
 * With BENCH_SWEEP (periods in ms, e.g. 3000,1500,1000,750,500) each run then sweeps the roll rate
 * on the same sockets, BENCH_SWEEP_SECONDS (default 20) per period, until the roll-to-spectator
 * p99 passes 250 ms: the highest sustained roll rate within it, and the CPU per roll on the way.
 *
 * Run: `npm run bench:many` (env BENCH_G, BENCH_S, BENCH_SECONDS, BENCH_PERIOD_MS, BENCH_WORKERS=4,
 * BENCH_DBS=sqlite,postgres, BENCH_MODES=bare,real (order of the first database; reversed on the next), BENCH_CPU_PROF=dir (real server
 * under `node --cpu-prof`), BENCH_NODE_FLAGS (node flags of both servers, e.g. `--trace-gc`), BENCH_SERVER_OUT=dir
 * (the servers' output, one file per process), BENCH_ROLLS_OUT=prefix (each measured roll's emit and
 * acknowledgement times, ms since the epoch, as JSON in `<prefix>-<mode>.json`: where the slow rolls fall in
 * time, e.g. against the servers' `--trace-gc` lines), BENCH_OUT=bench/many.md, which `npm run bench` appends to
 * bench/RESULTS.md).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { G, S, SECONDS, WARMUP_SECONDS, PERIOD_MS, WORKERS } = many;
const DBS = (process.env.BENCH_DBS ?? (PG_URL ? 'sqlite,postgres' : 'sqlite')).split(',').map((s) => s.trim()).filter(Boolean) as ('sqlite' | 'postgres')[];
/** Which servers run, in this order (bare and real alternate from one database to the next when both run). */
const MODES = (process.env.BENCH_MODES ?? 'bare,real').split(',').map((x) => x.trim()).filter((x): x is 'real' | 'bare' => x === 'real' || x === 'bare');
/**
 * Scale-out (BENCH_SCALE, e.g. 0,1,2,4): the same load on PostgreSQL through nginx to that many real
 * processes with the Redis adapter; 0 is one process without Redis (the adapter's own cost).
 */
const SCALE = (process.env.BENCH_SCALE ?? '').split(',').map((x) => x.trim()).filter(Boolean).map(Number);
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? (SCALE.length ? 'bench/many-scale.md' : 'bench/many.md'));

async function main(): Promise<void> {
  if (SCALE.length) return scaleOut();
  const started = new Date();
  const loadBefore = load();
  const loadDuring: number[] = [];
  const sampler = setInterval(() => loadDuring.push(os.loadavg()[0]), 10_000);
  if (PG_URL && !process.env.TEST_DATABASE_URL) process.env.TEST_DATABASE_URL = PG_URL;
  const table: string[] = [];
  const sweepRows: string[] = [];
  const notes: string[] = [];
  for (const backend of DBS) {
    console.log(`${backend}: seeding ${G} games ...`);
    const seeded = await createTestDatabase(backend);
    try {
      const s = await seed(seeded);
      const order = DBS.indexOf(backend) % 2 === 0 ? MODES : [...MODES].reverse();
      const got: Partial<Record<'real' | 'bare', RunResult>> = {};
      for (const mode of order) {
        const r = await run(mode, seeded, s);
        got[mode] = r;
        console.log(`  ${mode}: ack p50/p99 ${ms(percentile(r.ack, 50))}/${ms(percentile(r.ack, 99))} ms, spectator p50/p99 ${ms(percentile(r.spectator, 50))}/${ms(percentile(r.spectator, 99))} ms, ${r.rollsPerSecond.toFixed(1)} rolls/s, ${Math.round(r.deliveriesPerSecond)} deliveries/s, refused ${r.refused}, timeouts ${r.timeouts}, missed ${r.missed}, CPU ${r.cpuCores.toFixed(2)} cores${Number.isFinite(r.dbCores) ? `, PostgreSQL ${r.dbCores.toFixed(2)} cores` : ''}, RSS ${(r.peakRssKb / 1024).toFixed(0)} MB, lost ${r.lost}, doubled ${r.doubled}, mismatched ${r.mismatched}, gaps ${r.gaps}, stale ${r.stale}, ${r.messagesPerRoll.toFixed(2)} messages/roll${r.queriesPerRoll === null ? '' : `, ${r.queriesPerRoll.toFixed(1)} queries/roll`}; load ${load()}`);
        if (Object.keys(r.errors).length) notes.push(`- ${backend} ${mode}: refusals ${JSON.stringify(r.errors)}`);
      }
      table.push(...rowsOf(backend, got.real, got.bare));
      for (const r of [got.real, got.bare]) if (r) sweepRows.push(...sweepRowsOf(backend, r));
    } finally {
      await seeded.drop();
    }
  }
  clearInterval(sampler);
  const sorted = [...loadDuring].sort((a, b) => a - b);
  const sweepLines = sweepRows.length
    ? [
        '',
        `Roll-rate sweep (BENCH_SWEEP=${SWEEP.join(',')}): after the run above, on the same sockets, each team rolling once every period for ${SWEEP_SECONDS} s (the first ${SWEEP_WARMUP_SECONDS} s not counted), until the roll-to-spectator p99 passed ${SWEEP_P99_MS} ms. "Highest" marks the highest roll rate with p99 at most ${SWEEP_P99_MS} ms.`,
        '',
        '| database | server | period (ms) | offered rolls/s | rolls/s | roll ack p50 / p99 (ms) | roll to spectator p50 / p99 (ms) | server CPU (cores) | CPU per roll (ms) | refused / timeouts / missed | |',
        '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
        ...sweepRows,
      ]
    : [];
  const lines = [
    '## Many live games at once',
    '',
    `Produced by \`npm run bench:many\` (bench/many.bench.ts) at ${started.toISOString()}: G = ${G} games (2-4 teams each), S = ${S} compact`,
    `spectators per game (${(G * S).toLocaleString('en-US')} sockets over ${WORKERS} client processes), one Leader socket per game rolling for each team once`,
    `every ${PERIOD_MS} ms (closed loop: a game's next roll waits for the last one's answer), ${SECONDS} s of rolling, the first ${WARMUP_SECONDS} s not counted.`,
    `Machine: ${machine()}. Load average (1 / 5 / 15 min) before: ${loadBefore}; after: ${load()}; 1-min load during (every 10 s): median ${sorted.length ? sorted[Math.floor(sorted.length / 2)].toFixed(2) : 'n/a'}, max ${sorted.length ? sorted[sorted.length - 1].toFixed(2) : 'n/a'}.`,
    `One run of each (${MODES.join(', then ')} on ${DBS[0]}, the other order on the next database), each on its own copy of the same seeded database. "Bare" is bench/manyBareServer.ts: the same rooms and`,
    'compact broadcasts and the same four writes per roll in one transaction, no reads, checks or rules (the limit).',
    '',
    '| database | server | roll ack p50 / p99 (ms) | roll to spectator p50 / p99 (ms) | rolls/s | deliveries/s | refused / timeouts | missed receipts | server CPU (cores) | PostgreSQL CPU (cores) | peak RSS (MB) | lost / doubled / unacknowledged applied | spectators off the database / sockets | version gaps / stale updates | messages per roll per spectator | SQL statements per roll |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...table,
    ...sweepLines,
    '',
    ...notes,
  ];
  writeResults(OUT, lines.join('\n') + '\n');
}

/** Scale-out runs (BENCH_SCALE) on one PostgreSQL seed: one real run per entry, through nginx. */
async function scaleOut(): Promise<void> {
  const started = new Date();
  const loadBefore = load();
  const loadDuring: number[] = [];
  const sampler = setInterval(() => loadDuring.push(os.loadavg()[0]), 10_000);
  if (PG_URL && !process.env.TEST_DATABASE_URL) process.env.TEST_DATABASE_URL = PG_URL;
  console.log(`postgres: seeding ${G} games ...`);
  const seeded = await createTestDatabase('postgres');
  const rows: string[] = [];
  try {
    const s = await seed(seeded);
    for (const n of SCALE) {
      const procs = Math.max(1, n);
      const label = n === 0 ? '1 process, no Redis' : `${n} process${n > 1 ? 'es' : ''} + Redis`;
      const r = await run('real', seeded, s, (env) => startCluster(env, procs, n > 0));
      const all = r.cpuCores + r.sideCores;
      console.log(`  ${label}: spectator p50/p99 ${ms(percentile(r.spectator, 50))}/${ms(percentile(r.spectator, 99))} ms, ack p50/p99 ${ms(percentile(r.ack, 50))}/${ms(percentile(r.ack, 99))} ms, ${r.rollsPerSecond.toFixed(1)} rolls/s, ${Math.round(r.deliveriesPerSecond)} deliveries/s, servers ${r.cpuCores.toFixed(2)} cores, nginx+redis ${r.sideCores.toFixed(2)} cores, lost ${r.lost}, doubled ${r.doubled}, mismatched ${r.mismatched}, gaps ${r.gaps}, stale ${r.stale}, missed ${r.missed}; load ${load()}`);
      rows.push(`| ${label} | ${ms(percentile(r.ack, 50))} / ${ms(percentile(r.ack, 99))} | ${ms(percentile(r.spectator, 50))} / ${ms(percentile(r.spectator, 99))} | ${r.rollsPerSecond.toFixed(1)} | ${Math.round(r.deliveriesPerSecond)} | ${r.cpuCores.toFixed(2)} | ${Math.round(r.deliveriesPerSecond / r.cpuCores)} | ${r.sideCores.toFixed(2)} | ${Math.round(r.deliveriesPerSecond / all)} | ${(r.peakRssKb / 1024).toFixed(0)} | ${r.refused} / ${r.timeouts} / ${r.missed} | ${r.lost} / ${r.doubled} / ${r.mismatched} | ${r.gaps} / ${r.stale} |`);
    }
  } finally {
    await seeded.drop();
  }
  clearInterval(sampler);
  const sorted = [...loadDuring].sort((a, b) => a - b);
  const lines = [
    '## Scale-out: the same load over 1, 2 and 4 processes (PostgreSQL, Redis adapter, nginx)',
    '',
    `Produced by \`BENCH_SCALE=${SCALE.join(',')} npm run bench:many\` at ${started.toISOString()}: G = ${G} games, S = ${S} compact spectators per game`,
    `(${(G * S).toLocaleString('en-US')} sockets over ${WORKERS} client processes), each team rolling once every ${PERIOD_MS} ms, ${SECONDS} s, the first ${WARMUP_SECONDS} s not counted;`,
    'clients connect to nginx (deploy/nginx/clan-snakes.conf\'s site, hashed per connection), which spreads them over the processes;',
    'the Redis adapter on a redis-server of the bench\'s own. Server CPU: the server processes together; side CPU: nginx and Redis.',
    `Machine: ${machine()}. Load average before: ${loadBefore}; after: ${load()}; 1-min load during: median ${sorted.length ? sorted[Math.floor(sorted.length / 2)].toFixed(2) : 'n/a'}, max ${sorted.length ? sorted[sorted.length - 1].toFixed(2) : 'n/a'}.`,
    '',
    '| processes | roll ack p50 / p99 (ms) | roll to spectator p50 / p99 (ms) | rolls/s | deliveries/s | server CPU (cores) | deliveries/s per server CPU | nginx + Redis CPU (cores) | deliveries/s per CPU, all | peak RSS per process (MB, max) | refused / timeouts / missed | lost / doubled / spectators off the database | version gaps / stale updates |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ];
  writeResults(OUT, lines.join('\n'));
}

runBench(main);
