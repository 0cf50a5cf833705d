import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../tests/support/api';
import { createTestDatabase, freePort, startServer, type Backend } from '../tests/support/server';
import { noisePng, peakRssDuring, percentileOf, postDink, rssKb, seedDinkLoad, timeCalls, type DinkLoad, type PostAnswer } from '../tests/support/uploadLoad';
import { sleep } from './measure';

/**
 * Uploads bounded in flight (docs/server.md §8): BENCH_POSTS (default 60, at most 60: one Dink
 * link takes 60 posts a minute) Dink posts of 8 MiB sent at once, each a noise PNG just under
 * 8 MiB that decodes, each by the player of a different team standing on a task square whose rule
 * the post satisfies, so every post read would be decoded and become a submission
 * (tests/support/uploadLoad.ts). Against three servers, each started fresh for every run:
 * - real: the real server (server/index.ts) with UPLOADS_IN_FLIGHT=BENCH_IN_FLIGHT (default 4,
 *   the product's default);
 * - open: the same with UPLOADS_IN_FLIGHT=BENCH_POSTS: no post ever waits (what the gate saves);
 * - bare: a plain node:http server (bench/uploadsBareServer.ts) reading the same bytes and
 *   dropping them (the floor of receiving 60 x 8 MiB at once).
 * Each run: one post first (warm-up: libvips and its threads load once), the process's VmRSS as
 * idle, then the burst while another member reads the game over REST every 50 ms from a worker
 * thread; the window ends when every post is answered and every 204 post is judged (recorded).
 * Reported per database and server, medians over BENCH_RUNS runs (default 3): resident memory idle,
 * its rise at the peak (VmRSS sampled every 10 ms, and VmHWM), what is left BENCH_SETTLE_S
 * (default 10) seconds after; others' call p50 / p95 / max; posts answered 204 / 503 (each 503
 * must carry Retry-After) / anything else; posts lost (answered 204, never judged) or taken
 * though answered 503; the burst's length; ratios real / bare and real / open. Done when the
 * real server's rise is at most 256 MB and others' p95 at most 0.5 s.
 *
 * Run: `npm run bench:uploads` (env BENCH_POSTS, BENCH_IN_FLIGHT, BENCH_RUNS, BENCH_SETTLE_S,
 * BENCH_MODES=bare,real,open, BENCH_DBS=sqlite,postgres (postgres with BENCH_DATABASE_URL or
 * TEST_DATABASE_URL), BENCH_OUT=bench/uploads.md).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const POSTS = Number(process.env.BENCH_POSTS ?? 60);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 10);
const MODES = (process.env.BENCH_MODES ?? 'bare,real,open').split(',').map((m) => m.trim()) as Mode[];
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '';
const DBS = (process.env.BENCH_DBS ?? (PG_URL ? 'sqlite,postgres' : 'sqlite')).split(',').map((d) => d.trim()) as Backend[];
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? 'bench/uploads.md');
/** Just under 8 MiB, the proof limit (docs/server.md §9), so no post is refused 413. */
const PNG_BYTES = 8 * 1024 * 1024 - 4096;
/** Done-when of docs/server.md §8. */
const RISE_MAX_MB = 256;
const P95_MAX_MS = 500;

type Mode = 'bare' | 'real' | 'open';

/** One run's figures. */
interface Run {
  idleMb: number;
  riseMb: number;
  settleMb: number;
  p50: number;
  p95: number;
  max: number;
  calls: number;
  failedCalls: number;
  ok: number;
  busy: number;
  other: number;
  busyWithoutRetryAfter: number;
  lost: number;
  takenThoughBusy: number;
  burstS: number;
}

/** A server under test: its process id, the URL posts go to, who times their calls, and how to stop it. */
interface Target {
  pid: number;
  postUrl: string;
  players: string[];
  other: ApiClient;
  otherPath: string;
  /** Resolves once every post answered 204 is judged (the real servers), at once for the bare one. */
  judged(answers: PostAnswer[]): Promise<{ lost: number; takenThoughBusy: number }>;
  warm(): Promise<void>;
  stop(): Promise<void>;
}

/** Waits until the event's recent list holds `count` posts (60 s at most); the players named. */
async function recordedPlayers(load: DinkLoad, count: number): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await load.owner.get(load.recentPath);
    if (r.status !== 200) throw new Error(`recent posts: ${r.status} ${JSON.stringify(r.body)}`);
    const posts = r.body.posts as { player_name: string }[];
    if (posts.length >= count || Date.now() > deadline) return posts.map((p) => p.player_name);
    await sleep(200);
  }
}

/** The real server on a fresh database of `backend`, with `inFlight` upload slots, seeded with a warm-up event and the burst's event. */
async function realTarget(backend: Backend, inFlight: number, png: Buffer): Promise<Target> {
  const db = await createTestDatabase(backend);
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-bench-uploads-'));
  const server = await startServer({ ...db.env, UPLOADS_IN_FLIGHT: String(inFlight), UPLOAD_DIR: uploadDir, GAME_CACHE_CHECK_MS: '' });
  const warm = await seedDinkLoad(server.url, db.env, 'bench', 1, POSTS);
  const load = await seedDinkLoad(server.url, db.env, 'bench', POSTS);
  return {
    pid: server.proc.pid!,
    postUrl: load.dinkUrl,
    players: load.players,
    other: load.other,
    otherPath: load.gamePath,
    async warm() {
      const r = await postDink(warm.dinkUrl, png, warm.players[0]);
      if (r.status !== 204) throw new Error(`warm-up post: ${r.status}`);
      await recordedPlayers(warm, 1);
    },
    async judged(answers) {
      const answered = load.players.filter((_, i) => answers[i].status >= 200 && answers[i].status < 300);
      const got = new Set(await recordedPlayers(load, answered.length));
      const busy = load.players.filter((_, i) => answers[i].status === 503);
      return { lost: answered.filter((p) => !got.has(p)).length, takenThoughBusy: busy.filter((p) => got.has(p)).length };
    },
    async stop() {
      await server.stop();
      await db.drop();
      fs.rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

/** The bare node:http server (bench/uploadsBareServer.ts). */
async function bareTarget(png: Buffer): Promise<Target> {
  const port = await freePort();
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/uploadsBareServer.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('bare listening')) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const players = Array.from({ length: POSTS }, (_, i) => `Player ${i + 1}`);
  return {
    pid: proc.pid!,
    postUrl: `${url}/api/dink/bare`,
    players,
    other: new ApiClient(url),
    otherPath: '/api/game',
    async warm() {
      await postDink(`${url}/api/dink/bare`, png, 'Player 0');
    },
    async judged() {
      return { lost: 0, takenThoughBusy: 0 };
    },
    async stop() {
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      });
    },
  };
}

/** One burst against `target`, as described above. */
async function burst(target: Target, png: Buffer): Promise<Run> {
  await target.warm();
  await sleep(1000);
  const idleKb = rssKb(target.pid);
  const started = performance.now();
  const { result, peakKb } = await peakRssDuring(target.pid, async () => {
    const posts = Promise.all(target.players.map((player) => postDink(target.postUrl, png, player)));
    const judged = posts.then((answers) => target.judged(answers));
    const others = await timeCalls(target.other, target.otherPath, judged);
    return { answers: await posts, judged: await judged, others };
  });
  const burstS = (performance.now() - started) / 1000;
  await sleep(SETTLE_S * 1000);
  const settleKb = rssKb(target.pid);
  const { answers, judged, others } = result;
  return {
    idleMb: idleKb / 1024,
    riseMb: (peakKb - idleKb) / 1024,
    settleMb: (settleKb - idleKb) / 1024,
    p50: percentileOf(others.ms, 50),
    p95: percentileOf(others.ms, 95),
    max: Math.max(...others.ms),
    calls: others.ms.length,
    failedCalls: others.statuses.filter((s) => s !== 200).length,
    ok: answers.filter((a) => a.status === 204).length,
    busy: answers.filter((a) => a.status === 503).length,
    other: answers.filter((a) => a.status !== 204 && a.status !== 503).length,
    busyWithoutRetryAfter: answers.filter((a) => a.status === 503 && !a.retryAfter).length,
    lost: judged.lost,
    takenThoughBusy: judged.takenThoughBusy,
    burstS,
  };
}

const median = (xs: number[]) => percentileOf(xs, 50);
const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');

/** The median of each figure over a mode's runs. */
function summary(runs: Run[]): Run {
  const keys = Object.keys(runs[0]) as (keyof Run)[];
  return Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as unknown as Run;
}

async function main(): Promise<void> {
  if (POSTS > 60) throw new Error('BENCH_POSTS: at most 60 (one Dink link takes 60 posts a minute)');
  const png = await noisePng(PNG_BYTES);
  const loadBefore = os.loadavg()[0];
  const loadDuring: number[] = [];
  const sampler = setInterval(() => loadDuring.push(os.loadavg()[0]), 5000);
  const startedAt = new Date();
  const results = new Map<string, Run[]>();
  for (const backend of DBS) {
    for (let run = 1; run <= RUNS; run++) {
      for (const mode of MODES) {
        const target = mode === 'bare' ? await bareTarget(png) : await realTarget(backend, mode === 'real' ? IN_FLIGHT : POSTS, png);
        try {
          const r = await burst(target, png);
          const key = `${backend} ${mode}`;
          results.set(key, [...(results.get(key) ?? []), r]);
          console.log(`${key} run ${run}: rise ${f0(r.riseMb)} MB (idle ${f0(r.idleMb)}, +${f0(r.settleMb)} after ${SETTLE_S} s), others p95 ${f0(r.p95)} ms (max ${f0(r.max)}, ${r.calls} calls), posts 204/503/other ${r.ok}/${r.busy}/${r.other}, lost ${r.lost}, ${r.burstS.toFixed(1)} s`);
        } finally {
          await target.stop();
        }
      }
    }
  }
  clearInterval(sampler);
  const lines = [
    `Uploads bounded in flight: ${POSTS} concurrent Dink posts of 8 MiB (a noise PNG of ${PNG_BYTES} bytes that decodes, each post by another team's player, so each read is decoded), real = UPLOADS_IN_FLIGHT=${IN_FLIGHT}, open = UPLOADS_IN_FLIGHT=${POSTS}, bare = node:http dropping the bytes; medians of ${RUNS} runs, each on a fresh process.`,
    `Started ${startedAt.toISOString()}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}; 1-min load before ${loadBefore.toFixed(2)}, during median ${f2(median(loadDuring))} (max ${f2(Math.max(...loadDuring))}).`,
    '',
    '| database | server | RSS idle (MB) | RSS rise at peak (MB) | left after ' + SETTLE_S + ' s (MB) | others\' GET p50 / p95 / max (ms) | calls (failed) | posts 204 / 503 / other | 503 without Retry-After | 204 lost / 503 taken | burst (s) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const verdicts: string[] = [];
  for (const backend of DBS) {
    const of = (mode: Mode) => (results.has(`${backend} ${mode}`) ? summary(results.get(`${backend} ${mode}`)!) : null);
    for (const mode of MODES) {
      const s = of(mode)!;
      lines.push(`| ${backend} | ${mode} | ${f0(s.idleMb)} | ${f0(s.riseMb)} | ${f0(s.settleMb)} | ${f0(s.p50)} / ${f0(s.p95)} / ${f0(s.max)} | ${f0(s.calls)} (${f0(s.failedCalls)}) | ${f0(s.ok)} / ${f0(s.busy)} / ${f0(s.other)} | ${f0(s.busyWithoutRetryAfter)} | ${f0(s.lost)} / ${f0(s.takenThoughBusy)} | ${s.burstS.toFixed(1)} |`);
    }
    const real = of('real');
    for (const base of ['bare', 'open'] as const) {
      const b = of(base);
      if (real && b) lines.push(`| ${backend} | ratio real / ${base} | ${f2(real.idleMb / b.idleMb)} | ${f2(real.riseMb / b.riseMb)} | | ${f2(real.p50 / b.p50)} / ${f2(real.p95 / b.p95)} / ${f2(real.max / b.max)} | | | | | ${f2(real.burstS / b.burstS)} |`);
    }
    if (real) {
      const runs = results.get(`${backend} real`)!;
      const worstRise = Math.max(...runs.map((r) => r.riseMb));
      const worstP95 = Math.max(...runs.map((r) => r.p95));
      const clean = runs.every((r) => r.other === 0 && r.busyWithoutRetryAfter === 0 && r.lost === 0 && r.takenThoughBusy === 0 && r.failedCalls === 0);
      const met = worstRise <= RISE_MAX_MB && worstP95 <= P95_MAX_MS && clean;
      verdicts.push(`${backend}: ${met ? 'met' : 'NOT met'} in every run (worst rise ${f0(worstRise)} MB of ${RISE_MAX_MB}, worst others' p95 ${f0(worstP95)} ms of ${P95_MAX_MS}, ${clean ? 'no post lost or answered otherwise' : 'a post lost, a call failed or an answer not 204/503 with Retry-After'})`);
    }
  }
  lines.push('', `Done when (docs/server.md §8): ${verdicts.join('; ')}.`);
  const text = lines.join('\n') + '\n';
  console.log('\n' + text);
  fs.writeFileSync(OUT, text);
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
