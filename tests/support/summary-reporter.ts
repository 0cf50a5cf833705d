import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the closing summary names. */
const SLOWEST = 15;
/** How many of the tests that came closest to their time limit the closing summary names. */
const NEAREST_LIMIT = 10;

/**
 * Prints, after the default reporter, the slowest test files (import plus tests and hooks, in
 * seconds), so a CI log shows where the run's time went, and the tests that used most of their
 * timeout (duration / timeout), so a limit that a loaded run nearly reached shows before a run
 * fails on it; then one plain closing line,
 * 'N passed, N failed, N skipped', so CI can read the outcome of `npm test` (README "Tests").
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const root = process.cwd() + '/';
    const nearLimit: { name: string; s: number; share: number }[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        const timeout = test.options.timeout;
        const took = test.diagnostic()?.duration;
        if (timeout && took !== undefined) nearLimit.push({ name: `${mod.moduleId.replace(root, '')} > ${test.name}`, s: took / 1000, share: took / timeout });
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    const slowest = testModules
      .map((mod) => ({ file: mod.moduleId.replace(root, ''), s: (mod.diagnostic().collectDuration + mod.diagnostic().duration) / 1000 }))
      .sort((a, b) => b.s - a.s)
      .slice(0, SLOWEST);
    process.stdout.write(`\nSlowest test files (s):\n${slowest.map((m) => `  ${m.s.toFixed(1).padStart(7)}  ${m.file}`).join('\n')}\n`);
    const nearest = nearLimit.sort((a, b) => b.share - a.share).slice(0, NEAREST_LIMIT);
    process.stdout.write(`\nNearest their timeout (share of it, s):\n${nearest.map((t) => `  ${(t.share * 100).toFixed(0).padStart(4)}%  ${t.s.toFixed(1).padStart(6)}  ${t.name.slice(0, 150)}`).join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
