import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { ROOT, chartDot, chartTransitions, transitionsTaken } from '../support/chartGraph';
import type { ChartRun, PathRecord } from '../support/pathsData';
import { chartCoverage, markdownSummary, runProblems, type ChartSource } from '../support/pathsReport';

/**
 * The pure parts of the path report (`npm run test:paths`): the transitions read from a machine
 * definition, the transitions a step takes, the DOT drawing, coverage and the exit rule, on a small
 * chart with every kind of transition (root `on`, guarded candidates, `after`, `always`, invoke
 * onDone/onError, a compound state).
 */

const door = setup({
  types: { context: {} as { locked: boolean }, events: {} as { type: 'door.open' } | { type: 'door.lock' } | { type: 'door.reset' } | { type: 'door.push' } },
  actors: { checkKey: fromPromise(async () => true) },
  guards: { isLocked: ({ context }) => context.locked },
  delays: { autoClose: 1000 },
}).createMachine({
  id: 'door',
  context: { locked: false },
  initial: 'closed',
  on: { 'door.reset': '.closed' },
  states: {
    closed: {
      on: {
        'door.open': [{ guard: 'isLocked', target: 'checking' }, { target: 'open' }],
        'door.lock': { actions: assign({ locked: true }) },
      },
    },
    checking: {
      invoke: { id: 'checkKey', src: 'checkKey', onDone: 'opening', onError: 'closed' },
    },
    opening: { always: 'open' },
    open: {
      initial: 'wide',
      after: { autoClose: 'closed' },
      states: { wide: { on: { 'door.push': 'ajar' } }, ajar: {} },
    },
  },
});

const KEYS = [
  '(root) -> door.reset',
  'closed -> door.open [isLocked]',
  'closed -> door.open [else]',
  'closed -> door.lock',
  'checking -> done(checkKey)',
  'checking -> error(checkKey)',
  'opening -> always',
  'open -> after(autoClose)',
  'open.wide -> door.push',
];

const source: ChartSource = { id: 'door', file: 'machines/door.machine.ts', machine: door };

const step = (event: string, reached: string[], transitions: string[] = [], refused?: string[]) => ({ event, reached, transitions, ...(refused ? { refused } : {}) });
const path = (steps: PathRecord['steps'], failure?: PathRecord['failure']): PathRecord => ({ title: steps.map((s) => s.event).join(' → '), status: failure ? 'failed' : 'passed', steps, ms: 10, ...(failure ? { failure } : {}) });
const run = (paths: PathRecord[], uncovered: Record<string, string> = {}): ChartRun => ({ name: 'door', chart: 'door', file: 'tests/ui/door.model.test.tsx', uncovered, guard: { status: 'passed' }, paths });

/** Paths that take every transition of the door chart. */
const FULL = [
  path([step('start', ['closed']), step('door.reset', ['closed'], ['(root) -> door.reset'])]),
  path([
    step('start', ['closed']),
    step('door.open', ['open', 'open.wide'], ['closed -> door.open [else]']),
    step('door.push', ['open', 'open.ajar'], ['open.wide -> door.push']),
    step('after(autoClose)', ['closed'], ['open -> after(autoClose)']),
  ]),
  path([
    step('start', ['closed']),
    step('door.lock', ['closed'], ['closed -> door.lock']),
    step('door.open', ['checking'], ['closed -> door.open [isLocked]']),
    step('done(checkKey)', ['open', 'open.wide'], ['checking -> done(checkKey)', 'opening -> always']),
  ]),
  path([step('start', ['closed']), step('door.lock', ['closed'], ['closed -> door.lock']), step('door.open', ['checking'], ['closed -> door.open [isLocked]']), step('error(checkKey)', ['closed'], ['checking -> error(checkKey)'])]),
];

describe('chart transitions read from the machine definition', () => {
  it('names every transition once: root on, guarded candidates, on without target, invoke outcomes, always, after', () => {
    expect(chartTransitions(door).map((t) => t.key)).toEqual(KEYS);
    const byKey = new Map(chartTransitions(door).map((t) => [t.key, t]));
    expect(byKey.get('closed -> door.open [isLocked]')).toMatchObject({ source: 'closed', event: 'door.open', targets: ['checking'], guard: 'isLocked' });
    expect(byKey.get('closed -> door.lock')?.targets).toEqual([]);
    expect(byKey.get('(root) -> door.reset')).toMatchObject({ source: ROOT, targets: ['closed'] });
  });

  it('tells which transitions a step takes, eventless ones after the event included, and none for an event the chart refuses', () => {
    const closed = door.resolveState({ value: 'closed', context: { locked: false } });
    const locked = door.resolveState({ value: 'closed', context: { locked: true } });
    const checking = door.resolveState({ value: 'checking', context: { locked: true } });
    expect(transitionsTaken(door, closed, { type: 'door.open' })).toEqual(['closed -> door.open [else]']);
    expect(transitionsTaken(door, locked, { type: 'door.open' })).toEqual(['closed -> door.open [isLocked]']);
    expect(transitionsTaken(door, checking, { type: 'xstate.done.actor.checkKey', output: true })).toEqual(['checking -> done(checkKey)', 'opening -> always']);
    expect(transitionsTaken(door, checking, { type: 'door.lock' })).toEqual([]);
    expect(transitionsTaken(door, undefined, { type: 'xstate.init' })).toEqual([]);
  });
});

describe('the chart diagram (DOT)', () => {
  it('draws each transition coloured by its mark, compound states as clusters, and refused events as dotted edges to a ✗', () => {
    const marks = new Map([
      ['closed -> door.open [else]', 'covered'],
      ['open -> after(autoClose)', 'excused'],
    ] as const);
    const dot = chartDot(door, marks, [{ source: 'checking', event: 'door.lock' }]);
    expect(dot).toMatch(/^digraph chart \{/);
    expect(dot).toContain('subgraph "cluster_open" {');
    expect(dot).toContain('"init:open" -> "open.wide"');
    expect(dot).toMatch(/"closed" -> "open" \[label="door\.open", tooltip="closed -> door\.open \[else\]", color="#1a7f37".*lhead="cluster_open"/);
    expect(dot).toMatch(/"closed" -> "checking" \[label="door\.open \[isLocked\]", [^\n]*color="#cf222e"/);
    expect(dot).toMatch(/"open" -> "closed" \[label="after\(autoClose\)", [^\n]*color="#9a6700"[^\n]*style=dashed[^\n]*ltail="cluster_open"/);
    expect(dot).toMatch(/"closed" -> "closed" \[label="door\.lock"/);
    expect(dot).toMatch(/"checking" -> "refused:checking" \[label="door\.lock \(not taken\)"[^\n]*style=dotted/);
    expect(dot.split('\n').filter((l) => / -> /.test(l) && !l.includes('init:')).length).toBe(KEYS.length + 1);
  });

  it('is DOT that Graphviz (@viz-js/viz) lays out without errors', async () => {
    const viz = await (await import('@viz-js/viz')).instance();
    const result = viz.render(chartDot(door, new Map()), { format: 'svg' });
    expect(result.errors).toEqual([]);
    expect(result.status).toBe('success');
    expect(result.output).toContain('<svg');
  });
});

describe('coverage and the exit rule', () => {
  it('passes a chart whose paths take every transition and rest in every state', () => {
    const c = chartCoverage(source, [run(FULL)]);
    expect([...c.marks.values()].every((m) => m === 'covered')).toBe(true);
    expect(runProblems([c])).toEqual([]);
    expect(markdownSummary([c], [])).toContain('| door | 6/6 | 9/9 | 4/4 | 0.0 s | ok |');
  });

  it('fails a chart with no generated test, and a test run that failed without a record of why', () => {
    expect(runProblems([chartCoverage(source, [])])).toEqual(['door: no generated test (no modelTests from tests/support/chartModel.ts ran for it)']);
    expect(runProblems([chartCoverage(source, [run(FULL)])], 1)).toEqual(['the test run exited with code 1']);
  });

  it('fails an uncovered transition or state without a reason, and excuses one named in `uncovered`', () => {
    const noPush = path([step('start', ['closed']), step('door.open', ['open', 'open.wide'], ['closed -> door.open [else]']), step('after(autoClose)', ['closed'], ['open -> after(autoClose)'])]);
    const noAjar = (uncovered: Record<string, string>) => chartCoverage(source, [run([noPush, ...FULL.slice(2)], uncovered)]);
    expect(runProblems([noAjar({})])).toEqual([
      'door: state open.ajar is not covered and has no reason in `uncovered`',
      'door: transition (root) -> door.reset is not covered and has no reason in `uncovered`',
      'door: transition open.wide -> door.push is not covered and has no reason in `uncovered`',
    ]);
    const excused = noAjar({ 'open.ajar': 'no push on this screen', 'open.wide -> door.push': 'no push on this screen', '(root) -> door.reset': 'no reset button yet' });
    expect(runProblems([excused])).toEqual([]);
    expect(excused.marks.get('(root) -> door.reset')).toBe('excused');
    expect(excused.reasons.get('open.ajar')).toBe('no push on this screen');
    // '<source> -> <event>' excuses every guarded candidate of that event.
    const noOpen = chartCoverage(source, [run([FULL[0]], { 'open.ajar': 'drawn only', 'closed -> door.open': 'x', 'closed -> door.lock': 'x', 'checking -> done(checkKey)': 'x', 'checking -> error(checkKey)': 'x', 'opening -> always': 'x', 'open -> after(autoClose)': 'x', 'open.wide -> door.push': 'x', checking: 'x', opening: 'x', open: 'x', 'open.wide': 'x' })]);
    expect(runProblems([noOpen])).toEqual([]);
    expect(noOpen.marks.get('closed -> door.open [isLocked]')).toBe('excused');
  });

  it('counts a state the chart passes through as covered by the eventless transition out of it', () => {
    const c = chartCoverage(source, [run(FULL)]);
    expect(c.marks.get('opening')).toBe('covered');
    expect(FULL.some((p) => p.steps.some((s) => s.reached.includes('opening')))).toBe(false);
  });

  it('fails a failed path and does not count the failing step or those after it', () => {
    const failing = path([step('start', ['closed']), step('door.reset', ['closed'], ['(root) -> door.reset'])], { step: 1, during: 'asserting closed', error: 'boom', screen: 'Door' });
    const c = chartCoverage(source, [run([failing, ...FULL.slice(1)])]);
    expect(c.marks.get('(root) -> door.reset')).toBe('uncovered');
    expect(runProblems([c])).toEqual(['door: transition (root) -> door.reset is not covered and has no reason in `uncovered`', 'door: 1 path(s) failed: start → door.reset']);
  });

  it('fails an event the model offers in a state that the chart does not take (a deleted transition)', () => {
    const refusing = path([step('start', ['open', 'open.wide'], [], ['door.lock'])]);
    const c = chartCoverage(source, [run([...FULL, refusing])]);
    expect(c.refused).toEqual([{ source: 'open.wide', event: 'door.lock' }]);
    expect(runProblems([c])).toEqual(['door: open.wide does not take door.lock, which the model offers there and does not ignore']);
  });
});
