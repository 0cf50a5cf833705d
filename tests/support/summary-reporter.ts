import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the closing summary names. */
const SLOWEST = 15;

/**
 * Prints, after the default reporter, the slowest test files (import plus tests and hooks, in
 * seconds), so a CI log shows where the run's time went, then one plain closing line,
 * 'N passed, N failed, N skipped', so CI can read the outcome of `npm test` (README "Tests").
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    const root = process.cwd() + '/';
    const slowest = testModules
      .map((mod) => ({ file: mod.moduleId.replace(root, ''), s: (mod.diagnostic().collectDuration + mod.diagnostic().duration) / 1000 }))
      .sort((a, b) => b.s - a.s)
      .slice(0, SLOWEST);
    process.stdout.write(`\nSlowest test files (s):\n${slowest.map((m) => `  ${m.s.toFixed(1).padStart(7)}  ${m.file}`).join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
