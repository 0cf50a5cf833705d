import os from 'node:os';
import { balanceTeams, snakeSpread, type BalanceSignup } from '../contract/balance';
import { seededRandom } from '../contract/game/random';

/**
 * `npm run bench:balance` (docs/game-rules.md §16; docs/server.md §16): balancing 2,000
 * sign-ups into 20 teams with balanceTeams (the work of POST .../teams/balance and of its apply
 * check, in one piece), goal under 200 ms, against a bare baseline in the same run: a plain sort
 * of the same sign-ups by score (the least any balancing by score costs). Scores are drawn from a
 * seeded generator, lopsided like a clan's (many low, a few very high), one in ten missing.
 * Real and bare are measured alternately, REPEATS times each after a warm-up; medians and their
 * ratio are printed as a Markdown table for bench/RESULTS.md.
 */

const REPEATS = Number(process.env.REPEATS ?? 15);
const SIGNUPS = 2_000;
const TEAMS = 20;

const rng = seededRandom(2026);
/** A number in [0, 1) from the seeded generator. */
const random = () => rng.int(0, 999_999) / 1_000_000;
const signups: BalanceSignup[] = Array.from({ length: SIGNUPS }, (_, i) => ({
  id: i + 1,
  score: random() < 0.1 ? null : Math.round(2000 * random() ** 3 * 100) / 100,
  wants_leader: random() < 0.15,
}));
const slots = Array.from({ length: TEAMS }, (_, i) => ({ team_id: null, name: `Team ${i + 1}` }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The bare baseline: a copy of the sign-ups sorted by score (missing last), ties by id. */
function bare(): number {
  const sorted = [...signups].sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.id - b.id);
  return sorted.length;
}

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

function main(): void {
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');
  const loadBefore = load();
  balanceTeams(signups, slots);
  bare();
  const real: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    real.push(time(() => balanceTeams(signups, slots)));
    base.push(time(bare));
  }
  const p = balanceTeams(signups, slots);
  const fmt = (x: number) => x.toFixed(2);
  const r = median(real);
  const b = median(base);
  console.log(`\nBalanced teams (bench/balance.bench.ts), ${new Date().toISOString()}; ${os.cpus().length} CPUs, Node ${process.version}; load before ${loadBefore}, after ${load()}; medians of ${REPEATS}, real and bare alternating, after a warm-up.\n`);
  console.log('| what | real (ms) | bare (ms) | ratio | goal (ms) | met |');
  console.log('|---|---:|---:|---:|---:|---|');
  console.log(`| balanceTeams, ${SIGNUPS.toLocaleString('en-US')} sign-ups into ${TEAMS} teams vs a plain sort of them | ${fmt(r)} | ${fmt(b)} | ${(r / b).toFixed(1)} | 200 | ${r < 200 ? 'yes' : 'no'} |`);
  console.log(`\nSpread: snake order ${snakeSpread(signups, TEAMS)}, after swaps ${p.spread} (team totals ${Math.min(...p.teams.map((t) => t.total_score))} to ${Math.max(...p.teams.map((t) => t.total_score))}).`);
  console.log(`Each balance (ms): ${real.map(fmt).join(', ')}; each sort (ms): ${base.map(fmt).join(', ')}`);
}

main();
