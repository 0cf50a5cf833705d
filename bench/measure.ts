import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

// What the live-game benchmarks (bench/spectators.bench.ts, bench/many.bench.ts) measure with,
// written once.

/** Resolves after `ms` milliseconds (pacing only; never used to wait for a state). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes of one machine. */
export const wallNow = () => performance.timeOrigin + performance.now();

/** Snakes on 213..218 of a 225-square board: no team can get past 212, so the game never ends. */
export const NO_WIN_SNAKES = [[213, 2], [214, 3], [215, 4], [216, 5], [217, 6], [218, 7]];

/** The p-th percentile (0..100) of sorted values, nearest rank; NaN when empty. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** VmHWM (peak resident set) of a process in kB, from /proc/<pid>/status; NaN when absent. */
export function peakRssKb(pid: number): number {
  const m = /VmHWM:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** The body of a 200 answer; throws with `what`, the status and the body otherwise. */
export function ok(r: { status: number; body: unknown }, what: string): any {
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A benchmark's client process (bench/*Worker.ts, run with tsx) and its IPC messages: it says
 * `{type: 'ready'}` once started, `{type: 'error', message}` on a failure (printed), and leaves
 * on `{type: 'close'}` (killed after 5 s otherwise).
 */
export class ClientProcess {
  private readonly waiters: { test: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  private constructor(private readonly proc: ChildProcess) {
    proc.on('message', (m: any) => {
      if (m.type === 'error') console.error('  client error:', m.message);
      const i = this.waiters.findIndex((w) => w.test(m));
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(m);
    });
  }

  /** Forks `file` (a path from the repository root) and waits for its 'ready'; `advanced` IPC serialization when asked. */
  static async start(file: string, serialization: 'json' | 'advanced' = 'json'): Promise<ClientProcess> {
    const proc = fork(path.join(ROOT, file), [], { cwd: ROOT, execArgv: ['--import', 'tsx'], serialization, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const c = new ClientProcess(proc);
    await c.next((m) => m.type === 'ready');
    return c;
  }

  /** The next message that passes `test`. */
  next(test: (m: any) => boolean): Promise<any> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Sends `m` and waits for the answer of type `answer` (or an error, thrown). */
  async ask(m: unknown, answer: string): Promise<any> {
    const got = this.next((x) => x.type === answer || x.type === 'error');
    this.proc.send(m as never);
    const x = await got;
    if (x.type === 'error') throw new Error(x.message);
    return x;
  }

  /** Sends `m` without waiting. */
  send(m: unknown): void {
    this.proc.send(m as never);
  }

  /** Asks the process to leave, and kills it after 5 s if it has not. */
  async close(): Promise<void> {
    if (this.proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.send({ type: 'close' });
    await Promise.race([exited, sleep(5000)]);
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
  }
}

/** Writes a benchmark's results (Markdown `text`) to the file `out` and says where, relative to the working folder. */
export function writeResults(out: string, text: string): void {
  fs.writeFileSync(out, text);
  console.log(`Results written to ${path.relative(process.cwd(), out)}`);
}

/** Runs a benchmark's `main` as the whole process: exit 0 once it resolves; 'Benchmark failed:' with the error and exit 1 when it rejects. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error('Benchmark failed:', err);
      process.exit(1);
    },
  );
}

/** Stops a bench baseline server process with SIGTERM (its listenForBench handler exits 0); resolves once it has exited, at once when it already has. */
export function stopProcess(proc: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

/**
 * The env of the real server in the live-game benchmarks: the limits of docs/server.md §8 that
 * measure abuse, not load or fan-out, and the open-events quota, lifted; the board seeded.
 */
export const REAL_ENV: Record<string, string> = {
  BOARD_SEED: '2024',
  // The production default (tests/support/server.ts sets 0 so tests' direct writes show at once).
  GAME_CACHE_CHECK_MS: '250',
  SOCKETS_PER_ADDRESS: '1000000',
  JOINS_PER_ADDRESS: '1000000',
  JOINS_PER_SOCKET: '1000000',
  ROLLS_PER_SOCKET: '1000000',
  ROLLS_PER_USER: '1000000',
  // The many-games benches put hundreds of events in one clan (a quota of docs/server.md §18).
  CLAN_OPEN_EVENTS: '1000000',
};
