import type { AnyStateMachine } from 'xstate';
import { ROOT, chartTransitions, excuses, stateKeysOf, type ChartTransition, type CoverageMark, type RefusedEvent } from './chartGraph';
import type { ChartRun, PathRecord } from './pathsData';

/**
 * The path report's pure part: from the charts in machines/ and what the model tests recorded
 * (`pathsData.ChartRun`), each chart's coverage, the rule that fails the run, the Markdown summary
 * and the HTML page. `tests/support/runPaths.ts` runs the tests and writes what these return.
 */

/** A chart of machines/: its machine's id, the file it is in, and the machine. */
export interface ChartSource {
  id: string;
  file: string;
  machine: AnyStateMachine;
}

/** One chart's coverage over the records of every model test of it. */
export interface ChartCoverage {
  id: string;
  file: string;
  /** The test files that recorded it (empty: the chart has no generated test). */
  tests: string[];
  states: string[];
  transitions: ChartTransition[];
  /** Marks of every state path and transition key. */
  marks: Map<string, CoverageMark>;
  /** Why each excused state or transition key is left out. */
  reasons: Map<string, string>;
  paths: (PathRecord & { model: string })[];
  /** Events offered in a state and not taken there, nor ignored by the model: transitions the chart lacks. */
  refused: RefusedEvent[];
  /** Guard tests that failed: the model's name and the error. */
  guardFailures: { model: string; error: string }[];
  /** Wall time of the chart's path tests, milliseconds. */
  ms: number;
}

/** The deepest state nodes of a step's `reached` list. */
const leavesOf = (reached: string[]) => reached.filter((k) => !reached.some((o) => o.startsWith(`${k}.`)));

/** The steps of `path` that ran and passed (all of them, or those before the failing one). */
const passedSteps = (path: PathRecord) => (path.failure ? path.steps.slice(0, path.failure.step) : path.steps);

/**
 * The coverage of `chart` by `runs` (the records whose `chart` is its id): a state node is covered
 * when a passed step rests in it or takes a transition out of it (states the chart only passes
 * through), a transition when a passed step takes it; anything else is excused when a run's
 * `uncovered` names it (a state path, a transition key, or '<source> -> <event>'), else uncovered.
 */
export function chartCoverage(chart: ChartSource, runs: ChartRun[]): ChartCoverage {
  const mine = runs.filter((r) => r.chart === chart.id);
  const states = stateKeysOf(chart.machine);
  const transitions = chartTransitions(chart.machine);
  const steps = mine.flatMap((r) => r.paths.flatMap(passedSteps));
  const taken = new Set(steps.flatMap((s) => s.transitions));
  const rested = new Set([...steps.flatMap((s) => s.reached), ...transitions.filter((t) => taken.has(t.key)).map((t) => t.source)]);
  const declared = new Map(mine.flatMap((r) => Object.entries(r.uncovered)));
  const reasons = new Map<string, string>();
  const marks = new Map<string, CoverageMark>();
  for (const s of states) {
    const reason = declared.get(s);
    if (!rested.has(s) && reason !== undefined) reasons.set(s, reason);
    marks.set(s, rested.has(s) ? 'covered' : reason !== undefined ? 'excused' : 'uncovered');
  }
  for (const t of transitions) {
    const reason = [...declared].find(([name]) => excuses(name, t))?.[1];
    if (!taken.has(t.key) && reason !== undefined) reasons.set(t.key, reason);
    marks.set(t.key, taken.has(t.key) ? 'covered' : reason !== undefined ? 'excused' : 'uncovered');
  }
  const refused = new Map(
    mine.flatMap((r) =>
      r.paths.flatMap((p) =>
        p.steps.flatMap((s) => {
          const leaves = leavesOf(s.reached);
          const source = leaves.length === 1 ? leaves[0] : ROOT;
          return (s.refused ?? []).map((event) => [`${source} -> ${event}`, { source, event }] as const);
        }),
      ),
    ),
  );
  return {
    id: chart.id,
    file: chart.file,
    tests: [...new Set(mine.map((r) => r.file))].sort(),
    states,
    transitions,
    marks,
    reasons,
    paths: mine.flatMap((r) => r.paths.map((p) => ({ ...p, model: r.name }))),
    refused: [...refused.values()],
    guardFailures: mine.flatMap((r) => (r.guard.status === 'failed' ? [{ model: r.name, error: r.guard.error ?? '' }] : [])),
    ms: mine.reduce((sum, r) => sum + r.paths.reduce((s, p) => s + p.ms, 0), 0),
  };
}

const count = (c: ChartCoverage, keys: string[], mark: CoverageMark) => keys.filter((k) => c.marks.get(k) === mark).length;

/**
 * Why the run fails, one line per reason (empty: it passes): a chart with no generated test, a
 * state or transition left uncovered without a reason, a failed path, a failed guard test, and
 * `runnerExit` (the test runner's exit code) when non-zero though no record shows why.
 */
export function runProblems(charts: ChartCoverage[], runnerExit = 0): string[] {
  const problems: string[] = [];
  for (const c of charts) {
    if (c.tests.length === 0) {
      problems.push(`${c.id}: no generated test (no modelTests from tests/support/chartModel.ts ran for it)`);
      continue;
    }
    for (const s of c.states) if (c.marks.get(s) === 'uncovered') problems.push(`${c.id}: state ${s} is not covered and has no reason in \`uncovered\``);
    for (const t of c.transitions) if (c.marks.get(t.key) === 'uncovered') problems.push(`${c.id}: transition ${t.key} is not covered and has no reason in \`uncovered\``);
    for (const r of c.refused) problems.push(`${c.id}: ${r.source} does not take ${r.event}, which the model offers there and does not ignore`);
    const failed = c.paths.filter((p) => p.status === 'failed').map((p) => p.title);
    if (failed.length) problems.push(`${c.id}: ${failed.length} path(s) failed: ${failed.slice(0, 3).join('; ')}${failed.length > 3 ? '; …' : ''}`);
    for (const g of c.guardFailures) problems.push(`${c.id}: guard test failed (${g.model})`);
  }
  if (runnerExit !== 0 && problems.length === 0) problems.push(`the test run exited with code ${runnerExit}`);
  return problems;
}

/** Milliseconds as seconds with one decimal ('2.4 s'). */
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One chart's figures as table cells: states, transitions (excused in brackets), paths passed of generated, time, result. */
function figures(c: ChartCoverage): string[] {
  if (c.tests.length === 0) return ['–', '–', 'no test', '–', 'missing'];
  const keys = c.transitions.map((t) => t.key);
  const excused = count(c, c.states, 'excused') + count(c, keys, 'excused');
  const uncovered = count(c, c.states, 'uncovered') + count(c, keys, 'uncovered') + c.refused.length;
  const failed = c.paths.filter((p) => p.status === 'failed').length + c.guardFailures.length;
  const result = [failed ? `${failed} failed` : '', uncovered ? `${uncovered} uncovered` : ''].filter(Boolean).join(', ') || 'ok';
  return [
    `${count(c, c.states, 'covered')}/${c.states.length}`,
    `${count(c, keys, 'covered')}/${keys.length}${excused ? ` (${excused} excused)` : ''}`,
    `${c.paths.filter((p) => p.status === 'passed').length}/${c.paths.length}`,
    seconds(c.ms),
    result,
  ];
}

const HEADERS = ['Chart', 'States covered', 'Transitions taken', 'Paths passed', 'Time', 'Result'];

/** The terminal summary: a Markdown table with one row per chart, then the problems (or that there are none). */
export function markdownSummary(charts: ChartCoverage[], problems: string[]): string {
  const rows = charts.map((c) => [c.id, ...figures(c)]);
  const lines = [`| ${HEADERS.join(' | ')} |`, `|${HEADERS.map((_, i) => (i === 0 || i === 5 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
  lines.push('', problems.length ? `${problems.length} problem(s):` : 'Every chart is covered and every path passed.', ...problems.map((p) => `- ${p}`));
  return lines.join('\n');
}

/** `text` safe inside HTML. */
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The state a step rests in, as its deepest state nodes ('ready.idle + message.hidden'). */
const restingIn = (reached: string[]) => leavesOf(reached).join(' + ') || '(none)';

const anchor = (id: string) => `chart-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;

function pathHtml(p: PathRecord & { model: string }): string {
  const failedAt = p.failure?.step ?? -1;
  const steps = p.steps
    .map((s, i) => {
      const cls = i === failedAt ? 'failed' : failedAt >= 0 && i > failedAt ? 'skipped' : '';
      const fail =
        i === failedAt && p.failure
          ? `<div class="failure">Failed while ${esc(p.failure.during === 'xstate.init' ? 'at the start' : p.failure.during)}<pre>${esc(p.failure.error)}</pre>Screen then:<pre>${esc(p.failure.screen || '(empty)')}</pre></div>`
          : '';
      const via = s.transitions.length ? ` <span class="via">via ${esc(s.transitions.join(', '))}</span>` : i > 0 ? ' <span class="via">(no transition: the chart ignores it here)</span>' : '';
      return `<li class="${cls}"><code>${esc(s.event)}</code> → <b>${esc(restingIn(s.reached))}</b>${via}${fail}</li>`;
    })
    .join('');
  const input = p.input ? ` <span class="via">input ${esc(p.input)}</span>` : '';
  return `<details${p.status === 'failed' ? ' open' : ''} class="${p.status}"><summary>${p.status === 'passed' ? '✔' : '✘'} ${esc(p.title)}${input} <span class="via">${esc(p.model)} · ${p.ms} ms</span></summary><ol start="0">${steps}</ol></details>`;
}

function chartHtml(c: ChartCoverage, svg: string | undefined): string {
  const [states, transitions, paths, time, result] = figures(c);
  const head = `<h2 id="${anchor(c.id)}">${esc(c.id)} <small>${esc(c.file)}</small></h2>`;
  if (c.tests.length === 0) return `<section class="missing">${head}<p class="bad">No generated test: no <code>modelTests</code> from tests/support/chartModel.ts ran for this chart.</p>${svg ?? ''}</section>`;
  const left = [...c.states, ...c.transitions.map((t) => t.key)].filter((k) => c.marks.get(k) !== 'covered');
  const items = [
    ...left.map((k) => (c.marks.get(k) === 'excused' ? `<li class="excused"><code>${esc(k)}</code>: ${esc(c.reasons.get(k) ?? '')}</li>` : `<li class="bad"><code>${esc(k)}</code>: no reason given</li>`)),
    ...c.refused.map((r) => `<li class="bad"><code>${esc(r.source)}</code> does not take <code>${esc(r.event)}</code>: the model offers it there and does not ignore it</li>`),
  ];
  const leftHtml = items.length ? `<h3>Left out</h3><ul>${items.join('')}</ul>` : '';
  const guards = c.guardFailures.map((g) => `<p class="bad">Guard test of ${esc(g.model)} failed:</p><pre>${esc(g.error)}</pre>`).join('');
  return `<section>${head}<p>Tests: ${c.tests.map((t) => `<code>${esc(t)}</code>`).join(', ')}</p>
<p>States covered <b>${states}</b> · transitions taken <b>${transitions}</b> · paths passed <b>${paths}</b> · ${time} · <b class="${result === 'ok' ? 'ok' : 'bad'}">${esc(result)}</b></p>
${guards}<div class="diagram">${svg ?? ''}</div>${leftHtml}<h3>Paths</h3>${c.paths.map(pathHtml).join('\n')}</section>`;
}

/**
 * The report page: the summary table (linking to each chart), the problems, then per chart its
 * figures, its diagram (`svgs`, by chart id, inlined), what is left out and why, and every path
 * step by step with the failing step's error and screen text.
 */
export function htmlReport(charts: ChartCoverage[], problems: string[], svgs: ReadonlyMap<string, string>, generatedAt: Date): string {
  const rows = charts.map((c) => `<tr><td><a href="#${anchor(c.id)}">${esc(c.id)}</a></td>${figures(c).map((f) => `<td>${esc(f)}</td>`).join('')}</tr>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Generated path tests</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#24292f;max-width:1400px}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:right}td:first-child,th:first-child,td:last-child{text-align:left}
section{border-top:2px solid #d0d7de;margin-top:2rem}h2 small{font-weight:normal;color:#57606a;font-size:.7em}
.ok{color:#1a7f37}.bad{color:#cf222e}.excused{color:#9a6700}.via{color:#57606a;font-size:.85em}
.legend span{margin-right:1rem}.diagram svg{max-width:100%;height:auto}
details{margin:.2rem 0}details.failed>summary{color:#cf222e;font-weight:bold}li.failed{background:#ffebe9}li.skipped{color:#8c959f}
pre{white-space:pre-wrap;background:#f6f8fa;padding:.5rem;max-height:20rem;overflow:auto}
</style></head><body>
<h1>Generated path tests</h1>
<p>${esc(generatedAt.toISOString())} · <code>npm run test:paths</code></p>
<p class="legend"><span class="ok">━ covered</span><span class="excused">┅ left out with a reason</span><span class="bad">━ not covered</span></p>
<table><thead><tr>${HEADERS.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>
${rows}
</tbody></table>
${problems.length ? `<h2 class="bad">${problems.length} problem(s)</h2><ul>${problems.map((p) => `<li class="bad">${esc(p)}</li>`).join('')}</ul>` : '<p class="ok">Every chart is covered and every path passed.</p>'}
${charts.map((c) => chartHtml(c, svgs.get(c.id))).join('\n')}
</body></html>
`;
}
