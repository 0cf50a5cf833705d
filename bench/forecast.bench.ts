import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { generateConnections } from '../contract/game/generate';
import { forecastGame, simulateBoard, type SimBoard } from '../contract/game/forecast';
import { seededRandom } from '../contract/game/random';

/**
 * `npm run bench:forecast` (docs/server.md §15; docs/game-rules.md §14): 10,000 simulated runs
 * of a 225-square board with 12 snakes and 12 ladders,
 * - on the server: forecastGame for 4 teams on square 1 (the forecast route's work, in one piece),
 *   goal under 300 ms;
 * - in Chromium's Web Worker: simulateBoard, the board simulator a manager sees, goal under 1 s;
 * each against a bare baseline in the same run: the same number of die rolls and table moves
 * with Math.random and no bookkeeping (the least such a simulation can cost here). Medians of
 * REPEATS measurements after one warm-up; prints a Markdown table for bench/RESULTS.md.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPEATS = Number(process.env.REPEATS ?? 7);
const RUNS = 10_000;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const board: SimBoard = { board_size: 225, connections: generateConnections({ board_size: 225, num_snakes: 12, num_ladders: 12 }, seededRandom(225)) };
const teams = [1, 2, 3, 4].map((team_id) => ({ team_id, position: 1 }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The bare baseline: `runs` runs per team of table moves with Math.random dice, no bookkeeping. */
function bare(b: SimBoard, runs: number, teamCount: number): number {
  const n = b.board_size;
  const via = Array.from({ length: n + 1 }, (_, s) => s);
  for (const c of b.connections) via[c.start] = c.end;
  let rolls = 0;
  for (let r = 0; r < runs * teamCount; r += 1) {
    let square = 1;
    while (square !== n && rolls < 1e9) {
      square = via[Math.min(square + 1 + Math.floor(Math.random() * 6), n)];
      rolls += 1;
    }
  }
  return rolls;
}

/** Milliseconds `fn` takes, measured REPEATS times after one warm-up; the median. */
function timed(fn: () => unknown): { median: number; all: number[] } {
  fn();
  const all: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const t = performance.now();
    fn();
    all.push(performance.now() - t);
  }
  return { median: median(all), all };
}

/** The simulator and the bare loop bundled for a Web Worker, answering {real, bare} ms per message. */
async function workerSource(): Promise<string> {
  const entry = `
    import { simulateBoard } from ${JSON.stringify(path.join(ROOT, 'contract/game/forecast.ts'))};
    ${bare.toString()}
    self.onmessage = (e) => {
      const { board, runs } = e.data;
      let t = performance.now();
      const sim = simulateBoard({ board, runs });
      const real = performance.now() - t;
      t = performance.now();
      bare(board, runs, 1);
      self.postMessage({ real, bare: performance.now() - t, mean: sim.mean_rolls });
    };`;
  const out = await build({ stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' }, bundle: true, format: 'iife', write: false, logLevel: 'warning', target: 'chrome120' });
  return out.outputFiles[0].text;
}

async function inBrowser(): Promise<{ real: number[]; bare: number[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>simulator bench</title>');
    const source = await workerSource();
    // A script text, not a function: tsx would add its own helpers to a function's source.
    const script = `(async ({ source, board, runs, repeats }) => {
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      const once = () => new Promise((resolve) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.postMessage({ board, runs });
      });
      await once();
      const real = [];
      const bare = [];
      for (let i = 0; i < repeats; i += 1) {
        const r = await once();
        real.push(r.real);
        bare.push(r.bare);
      }
      worker.terminate();
      return { real, bare };
    })(${JSON.stringify({ source, board, runs: RUNS, repeats: REPEATS })})`;
    return (await page.evaluate(script)) as { real: number[]; bare: number[] };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');
  const loadBefore = load();
  const server = timed(() => forecastGame({ board, teams, runs: RUNS }));
  const serverBare = timed(() => bare(board, RUNS, teams.length));
  const sim = timed(() => simulateBoard({ board, runs: RUNS }));
  const simBare = timed(() => bare(board, RUNS, 1));
  const browser = await inBrowser();
  const fmt = (x: number) => x.toFixed(1);
  const rows = [
    ['server: forecast, 4 teams × 10,000 runs (forecastGame)', server.median, serverBare.median, 300],
    ['server: board simulator, 10,000 runs (simulateBoard)', sim.median, simBare.median, 1000],
    ["browser worker: board simulator, 10,000 runs (simulateBoard in Chromium's Worker)", median(browser.real), median(browser.bare), 1000],
  ] as const;
  console.log(`\nForecast and simulator (bench/forecast.bench.ts), ${new Date().toISOString()}; ${os.cpus().length} CPUs, Node ${process.version}; load before ${loadBefore}, after ${load()}; medians of ${REPEATS} after a warm-up.\n`);
  console.log('| what | real (ms) | bare (ms) | ratio | goal (ms) | met |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const [what, real, bareMs, goal] of rows) console.log(`| ${what} | ${fmt(real)} | ${fmt(bareMs)} | ${(real / bareMs).toFixed(2)} | ${goal} | ${real < goal ? 'yes' : 'no'} |`);
  console.log(`\nEach server forecast (ms): ${server.all.map(fmt).join(', ')}; each browser simulation (ms): ${browser.real.map(fmt).join(', ')}`);
}

await main();
