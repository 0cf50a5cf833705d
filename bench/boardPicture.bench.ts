import './production';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createTestDatabase, startServer } from '../tests/support/server';
import type { PublicGame } from '../contract/gameApi';
import type { CachedGame } from '../server/games/cache';
import { boardPicture, forgetBoardLayers } from '../server/lobby/boardPicture';
import { benchClan, startBenchGame } from './seed';
import { listenForBench } from './listen';
import { ok, percentile, REAL_ENV, runBench } from './measure';

/**
 * `npm run bench:picture` (docs/server.md §19 "The board as a picture"), in one run:
 * 1. A cached answer: GET /api/public/game/{id}/board.png (800 px) of a drawn game version, with
 *    autocannon at 50 connections for BENCH_HTTP_SECONDS, against a bare node:http server (this
 *    file run with BENCH_ROLE=bare) answering the same PNG bytes with the same headers;
 *    BENCH_REPEAT measurements each, real and bare alternating after one uncounted warm-up of
 *    each; medians and their ratio.
 * 2. Cold renders: the picture of a 225-square board with 4 teams for a version never drawn
 *    (lobby/boardPicture.ts boardPicture: BoardView to SVG, sharp to PNG), pawns moved each time,
 *    BENCH_RENDERS times at 800 and at 1,600 px in this process after 2 warm-ups; p50 and p95, for
 *    a next version of a board drawn before (still layers from memory) and for a board's first
 *    picture (forgetBoardLayers before each).
 *    This process runs React's production build as the deployed server does (NODE_ENV=production,
 *    bench/production.ts); the spawned servers run as tests/support/server.ts starts them.
 * Prints a Markdown section for bench/RESULTS.md (copied there by hand).
 * The real server is server/index.ts in its own process on a fresh SQLite file (REAL_ENV), the
 * game set up through the API (bench/seed.ts) with 4 teams, one of which has rolled.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 20);

/** The bare baseline: node:http answering every request with PICTURE_FILE's bytes and PICTURE_HEADERS (JSON), one writeHead and one end. */
function bareServer(): void {
  const body = fs.readFileSync(process.env.PICTURE_FILE ?? '');
  const headers = [...Object.entries(JSON.parse(process.env.PICTURE_HEADERS ?? '{}') as Record<string, string>).flat(), 'Content-Length', String(body.length)];
  const http = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  listenForBench(http, 'bare', 0);
}

/** Starts the bare baseline in its own process; its URL and process. */
async function startBare(png: Buffer, headers: Record<string, string>): Promise<{ url: string; proc: ChildProcess }> {
  const file = path.join(os.tmpdir(), `bench-picture-${process.pid}.png`);
  fs.writeFileSync(file, png);
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/boardPicture.bench.ts')], {
    cwd: ROOT,
    env: { ...process.env, BENCH_ROLE: 'bare', PICTURE_FILE: file, PICTURE_HEADERS: JSON.stringify(headers) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /bare listening on (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.on('exit', (code) => reject(new Error(`bare server exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, proc };
}

/** autocannon at 50 connections for HTTP_SECONDS: mean requests/s, p99 latency (ms), non-2xx answers and errors. */
async function load(url: string): Promise<{ rps: number; p99: number; bad: number }> {
  const r = await autocannon({ url, connections: 50, duration: HTTP_SECONDS });
  return { rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Cold renders of `game` at `width`: each a version never drawn before (a fresh ETag, its pawns
 * moved). `first`: the board's first picture too (the still layers forgotten before each render:
 * squares, numbers, snakes and ladders drawn as well); else a next version of a board drawn before
 * (its still layers from memory, as after every roll of a game whose picture was asked before).
 */
async function coldRenders(game: PublicGame, width: number, first: boolean): Promise<{ p50: number; p95: number; bytes: number }> {
  let serial = 0;
  const once = async () => {
    serial += 1;
    const moved = { ...game, team_states: game.team_states.map((t, i) => ({ ...t, current_position: 1 + ((serial * 7 + i * 13) % game.board_size) })) };
    const entry = { etag: `"g1v${serial}-w${width}-${first ? 'first' : 'next'}-bench"`, public: moved } as CachedGame;
    if (first) forgetBoardLayers();
    const t = performance.now();
    const picture = await boardPicture(entry, width);
    return { ms: performance.now() - t, bytes: picture.png.byteLength };
  };
  await once();
  await once();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RENDERS; i += 1) {
    const r = await once();
    times.push(r.ms);
    bytes = r.bytes;
  }
  const sorted = Float64Array.from(times).sort();
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), bytes };
}

async function main(): Promise<void> {
  const started = new Date();
  const loadBefore = os.loadavg();
  const db = await createTestDatabase('sqlite');
  const server = await startServer({ ...db.env, ...REAL_ENV });
  let bare: { url: string; proc: ChildProcess } | null = null;
  try {
    const { owner, clanId, ignIds } = await benchClan(server.url, ['LeaderOne', 'LeaderTwo', 'LeaderThree', 'LeaderFour']);
    const event = ok(await owner.post(`/api/clan/${clanId}/events/`, { name: 'Bench Cup', start_datetime: '2031-06-01T18:00Z' }), 'event');
    const eventId = event.event.id as number;
    const colours = ['#aa0000', '#0000aa', '#00aa00', '#d4aa3a'];
    for (let i = 0; i < 4; i += 1) {
      const t = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: `Team ${i + 1}`, color: colours[i] }), 'team');
      ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${t.team.id}/members`, { osrs_ign_id: ignIds[i], role: 'Leader' }), 'leader');
    }
    const gameId = await startBenchGame(owner, clanId, eventId);
    const url = `${server.url}/api/public/game/${gameId}/board.png`;
    const first = await fetch(url);
    if (first.status !== 200) throw new Error(`board.png answered ${first.status}`);
    const png = Buffer.from(await first.arrayBuffer());
    const perAnswer = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-request-id']);
    const headers = Object.fromEntries([...first.headers].filter(([name]) => !perAnswer.has(name)));
    bare = await startBare(png, headers);
    const check = Buffer.from(await (await fetch(bare.url)).arrayBuffer());
    if (!check.equals(png)) throw new Error('the bare server answers other bytes');

    console.log(`board.png ${png.byteLength} B; warm-up`);
    await load(url);
    await load(bare.url);
    const real: Awaited<ReturnType<typeof load>>[] = [];
    const base: Awaited<ReturnType<typeof load>>[] = [];
    for (let i = 0; i < REPEAT; i += 1) {
      real.push(await load(url));
      base.push(await load(bare.url));
      console.log(`  run ${i + 1}: real ${real[i].rps.toFixed(0)} req/s p99 ${real[i].p99} ms, bare ${base[i].rps.toFixed(0)} req/s p99 ${base[i].p99} ms`);
    }

    const game = ((await (await fetch(`${server.url}/api/public/game/${gameId}`)).json()) as { game: PublicGame }).game;
    const next800 = await coldRenders(game, 800, false);
    const first800 = await coldRenders(game, 800, true);
    const next1600 = await coldRenders(game, 1600, false);
    const first1600 = await coldRenders(game, 1600, true);
    const loadAfter = os.loadavg();
    const rps = (xs: typeof real) => median(xs.map((x) => x.rps));
    const p99 = (xs: typeof real) => median(xs.map((x) => x.p99));
    const f = (x: number) => x.toFixed(1);
    const lines = [
      `## The board as a picture, ${started.toISOString().slice(0, 10)} (\`npm run bench:picture\`)`,
      '',
      `Run ${started.toISOString()}; ${os.availableParallelism()} CPUs, ${os.cpus()[0]?.model ?? 'unknown'}; Node ${process.version}; NODE_ENV ${process.env.NODE_ENV} (React's ${process.env.NODE_ENV === 'production' ? 'production' : 'development'} build).`,
      `Load average (1 / 5 / 15 min) before: ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}; after: ${loadAfter.map((x) => x.toFixed(2)).join(' / ')}.`,
      '',
      `Cached answer: \`GET /api/public/game/{id}/board.png\` (800 px, ${png.byteLength} B, a 225-square board with 4 teams) with`,
      `autocannon, 50 connections, ${HTTP_SECONDS} s per measurement, against bare node:http answering the same bytes and headers;`,
      `${REPEAT} measurements each, alternating, after one uncounted warm-up of each.`,
      '',
      '| | requests/s (median) | p99 latency (ms, median) | runs (requests/s) | non-2xx or errors |',
      '|---|---:|---:|---|---:|',
      `| real server | ${rps(real).toFixed(0)} | ${p99(real)} | ${real.map((x) => x.rps.toFixed(0)).join(', ')} | ${real.reduce((s, x) => s + x.bad, 0)} |`,
      `| bare node:http | ${rps(base).toFixed(0)} | ${p99(base)} | ${base.map((x) => x.rps.toFixed(0)).join(', ')} | ${base.reduce((s, x) => s + x.bad, 0)} |`,
      `| ratio real / bare | ${(rps(real) / rps(base)).toFixed(2)} | | | |`,
      '',
      `Cold renders (a version never drawn, its pawns moved: BoardView to SVG, sharp to PNG, in one process), ${RENDERS} each after 2 warm-ups;`,
      'a next version of a board drawn before (its still layers from memory), and a board\'s first picture (nothing from memory):',
      '',
      '| width | render | p50 (ms) | p95 (ms) | PNG bytes |',
      '|---:|---|---:|---:|---:|',
      `| 800 | next version | ${f(next800.p50)} | ${f(next800.p95)} | ${next800.bytes} |`,
      `| 800 | first picture | ${f(first800.p50)} | ${f(first800.p95)} | ${first800.bytes} |`,
      `| 1600 | next version | ${f(next1600.p50)} | ${f(next1600.p95)} | ${next1600.bytes} |`,
      `| 1600 | first picture | ${f(first1600.p50)} | ${f(first1600.p95)} | ${first1600.bytes} |`,
    ];
    console.log(`\n${lines.join('\n')}\n`);
  } finally {
    bare?.proc.kill('SIGTERM');
    await server.stop();
    await db.drop();
  }
}

if (process.env.BENCH_ROLE === 'bare') bareServer();
else runBench(main);
