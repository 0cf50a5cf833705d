import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { StateMachine, type AnyStateMachine } from 'xstate';
import { chartDot } from './chartGraph';
import { PATHS_REPORT_ENV, readChartRuns } from './pathsData';
import { chartCoverage, htmlReport, markdownSummary, runProblems, type ChartSource } from './pathsReport';

/**
 * `npm run test:paths`: runs only the generated path tests (the tests/ui model tests that call
 * `modelTests` of tests/support/chartModel.ts) with recording on, then writes
 * reports/paths/index.html (each chart's figures, diagram and paths), prints the Markdown summary,
 * and exits non-zero when a chart of machines/ has no generated test, leaves a state or transition
 * uncovered without a reason, or a test fails (pathsReport.runProblems). Arguments narrow the run
 * to the test files whose path contains one of them (`npm run test:paths -- lightbox`); the charts
 * left out then count as having no test.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = path.join(ROOT, 'reports/paths');
const DATA = path.join(OUT, 'data');

/** The model test files that run chartModel's `modelTests`, themselves or through a tests/support module they import. */
function pathTestFiles(): string[] {
  const dir = path.join(ROOT, 'tests/ui');
  const calls = (file: string) => fs.existsSync(file) && /\bmodelTests\s*[(<]/.test(fs.readFileSync(file, 'utf8'));
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.model.test.tsx') || f.endsWith('.model.test.ts'))
    .map((f) => path.join(dir, f))
    .filter((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const supports = [...text.matchAll(/from '\.\.\/support\/([\w.-]+)'/g)].map((m) => m[1]);
      if (supports.includes('chartModel') && calls(file)) return true;
      return supports.filter((s) => s !== 'chartModel').some((s) => ['.ts', '.tsx'].some((ext) => calls(path.join(ROOT, 'tests/support', s + ext))));
    })
    .sort();
}

/** Every machine exported by machines/*.machine.ts, with its file. */
async function chartSources(): Promise<ChartSource[]> {
  const dir = path.join(ROOT, 'machines');
  const sources: ChartSource[] = [];
  for (const f of fs.readdirSync(dir).filter((name) => name.endsWith('.machine.ts')).sort()) {
    const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) if (value instanceof StateMachine) sources.push({ id: (value as AnyStateMachine).id, file: `machines/${f}`, machine: value as AnyStateMachine });
  }
  return sources;
}

async function main(): Promise<number> {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(DATA, { recursive: true });
  const only = process.argv.slice(2);
  const files = pathTestFiles().filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
  console.log(`Generated path tests: ${files.length} model test files use tests/support/chartModel.ts\n`);
  // vitest given no file runs every test: a filter matching none is a mistake to say, not a full run.
  if (files.length === 0) {
    console.log(`No model test file matches ${only.join(', ')}.`);
    return 1;
  }
  const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '--reporter=dot', ...files.map((f) => path.relative(ROOT, f))], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, [PATHS_REPORT_ENV]: DATA },
  });
  const runnerExit = run.status ?? 1;

  const runs = readChartRuns(DATA);
  // A run of some files (`npm run test:paths -- banner`) reports only the charts those files test.
  const sources = (await chartSources()).filter((s) => only.length === 0 || runs.some((r) => r.chart === s.id));
  const charts = sources.map((s) => chartCoverage(s, runs));
  const known = new Set((await chartSources()).map((s) => s.id));
  const strays = [...new Set(runs.filter((r) => !known.has(r.chart)).map((r) => `${r.chart} (${r.file})`))];
  const problems = runProblems(charts, runnerExit);

  const viz = await (await import('@viz-js/viz')).instance();
  const svgs = new Map(charts.map((c, i) => [c.id, viz.renderString(chartDot(sources[i].machine, c.marks, c.refused), { format: 'svg' })]));
  fs.writeFileSync(path.join(OUT, 'index.html'), htmlReport(charts, problems, svgs, new Date()));

  console.log(`\n${markdownSummary(charts, problems)}`);
  if (strays.length) console.log(`\nRecords of machines not in machines/*.machine.ts (not counted): ${strays.join(', ')}`);
  console.log(`\nReport: ${path.relative(process.cwd(), path.join(OUT, 'index.html'))}`);
  return problems.length ? 1 : 0;
}

process.exitCode = await main();
