import { cleanup } from '@testing-library/react';
import { relative } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, SnapshotFrom } from 'xstate';
import { chartTransitions, eventLabel, excuses, stateKeysOf, transitionsTaken } from './chartGraph';
import { TestModel, getShortestPaths, type TestPath } from './graph';
import { PATHS_REPORT_ENV, writeChartRun, type ChartRun, type PathRecord } from './pathsData';

/**
 * The one harness of the model-based UI tests of a chart (docs/architecture.md
 * §6): the shortest paths of the REAL chart taken with @xstate/graph (`TestModel` +
 * `getShortestPaths`, events as a function of state, so synthetic `xstate.done/error.actor.*` and
 * `xstate.after.*` steps come from the chart), then one test per path that causes each step's
 * event through the rendered screen (an executor per event type) and asserts every state node the
 * step is in (an assertion per state node, parents included); and guard tests that every state node
 * is reached and asserted and every executor is driven. What differs per screen comes in through
 * a `ChartModel`. When PATHS_REPORT names a folder (`npm run test:paths`), each model also records
 * its paths, the transitions each step took and how each path ended there (tests/support/pathsData.ts).
 */

/** One step of a path as an executor sees it: the event, the state it leads to, and the state before. */
export interface ModelStep<S, E> {
  event: E;
  state: S;
  prev: S;
}
/** Causes one step's event through the screen. */
export type ModelExecutor<W, S, E> = (w: W, step: ModelStep<S, E>) => Promise<void>;
/**
 * The synthetic steps a path takes for invoked actor `A` (its invoke id): done with the actor's
 * output (none when it answers nothing, `O = void`), or error with the failure.
 */
export type ActorSteps<A extends string, O = void> =
  | ([O] extends [void] ? { type: `xstate.done.actor.${A}` } : { type: `xstate.done.actor.${A}`; output: O })
  | { type: `xstate.error.actor.${A}`; error: Error };

export interface ChartModel<S extends SnapshotFrom<AnyStateMachine>, E extends { type: string }, W> {
  name: string;
  machine: AnyStateMachine;
  /** The chart's inputs: paths are taken from each, and the screen rendered with the path's one. */
  inputs?: unknown[];
  /** States with only eventless transitions (never a step of a path): named, checked to be such, and not asserted. */
  passingThrough?: string[];
  /** The events a person, the fake server or time can cause in a state (of the run from `input`, when the screen differs per input). */
  events: (s: S, input?: unknown) => E[];
  /** Tells states apart (default: value, context and the event that led there). */
  serialize?: (s: S, event: E | undefined, prev: S | undefined) => string;
  /** One executor per event type, typed by the caller (`satisfies Record<E['type'], ...>`). */
  executors: Record<E['type'], ModelExecutor<W, S, E>>;
  /** One assertion per state node, keyed by its dotted path ('ready', 'ready.idle'). */
  assertions: Record<string, (s: S, w: W) => Promise<void> | void>;
  /** Renders the screen (for the path's input) and returns the world the executors and assertions use. */
  render: (input: unknown) => W | Promise<W>;
  /** Fake timers for the chart's delays: `true` lets time also pass by itself (for user-event), `'manual'` moves it (setTimeout only; React's scheduler runs for real) only when an executor does. */
  fakeTimers?: boolean | 'manual';
  /** How an event reads in a test name (default: its type, synthetic ones shortened). */
  label?: (event: E) => string;
  /**
   * Offered events the chart deliberately ignores in that state (all others must be taken, so a
   * deleted transition fails the guard).
   */
  ignores?: (s: S, event: E) => boolean;
  /** Event types with an executor that the screen never causes (each executor throws why). */
  notDriven?: string[];
  /** More guards over the generated paths (documented texts reached, edges taken). */
  guards?: (paths: TestPath<S, E>[]) => void;
  /** Drop each path that a longer path starts with (it takes the same steps and asserts the same states): fewer, longer tests for a chart with many states. */
  dropPrefixPaths?: boolean;
  /**
   * State nodes ('ready.idle') and transitions ('ready -> list.reload' for every candidate of that
   * event, or one key as the path report names it) the generated paths leave out on purpose, each
   * with the reason; the path report (`npm run test:paths`) fails on any other left out.
   */
  uncovered?: Record<string, string>;
}

/** Whether snapshot `s` is in the state node at dotted path `key` ('ready.adding.idle'). */
const matchesKey = (s: { matches: (value: never) => boolean }, key: string): boolean => {
  const value = key.split('.').reduceRight<unknown>((inner, part) => (inner === undefined ? part : { [part]: inner }), undefined);
  return s.matches(value as never);
};

const defaultSerialize = (s: SnapshotFrom<AnyStateMachine>, event?: { type: string }) => JSON.stringify([s.value, s.context, event?.type ?? null]);

/**
 * The shortest paths to every distinct state of `machine` (TestModel + getShortestPaths): `events`
 * offered per state, states told apart by `serialize`, from the chart's `input`.
 */
export function shortestPaths<S extends SnapshotFrom<AnyStateMachine>, E extends { type: string }>(
  machine: AnyStateMachine,
  events: (s: S) => E[],
  serialize: (s: S, event: E | undefined, prev: S | undefined) => string,
  { input, allowDuplicatePaths = false }: { input?: unknown; allowDuplicatePaths?: boolean } = {},
): TestPath<S, E>[] {
  const model = new TestModel(machine, {});
  return model.getPaths(
    () => getShortestPaths(machine, { input, events: events as never, serializeState: serialize as never, limit: 2000 }) as never,
    { allowDuplicatePaths },
  ) as unknown as TestPath<S, E>[];
}

/** The generated paths of a chart model, each with the input it starts from. */
function pathsOf<S extends SnapshotFrom<AnyStateMachine>, E extends { type: string }, W>(c: ChartModel<S, E, W>): { input: unknown; path: TestPath<S, E> }[] {
  return (c.inputs ?? [undefined]).flatMap((input) =>
    shortestPaths(c.machine, (s: S) => c.events(s, input), c.serialize ?? defaultSerialize, { input, allowDuplicatePaths: !c.dropPrefixPaths }).map((path) => ({ input, path })),
  );
}

/** The state node at a dotted path. */
const nodeAt = (machine: AnyStateMachine, key: string) => key.split('.').reduce<AnyStateNode>((node, part) => node.states[part], machine.root);

const shortLabel = (e: { type: string }) => eventLabel(e.type);

/**
 * Guard: every event a person or the server can cause in a state of the paths is taken by the
 * chart there (or named as ignored), so a deleted transition fails even where no state tells it.
 */
function expectEventsTaken<S extends SnapshotFrom<AnyStateMachine>, E extends { type: string }>(
  paths: TestPath<S, E>[],
  events: (s: S) => E[],
  ignores?: (s: S, event: E) => boolean,
): void {
  for (const p of paths)
    for (const st of p.steps)
      for (const e of events(st.state)) if (!ignores?.(st.state, e)) expect(st.state.can(e as never), `${JSON.stringify(st.state.value)} takes ${e.type}`).toBe(true);
}

/** The name of a path's test: its events after the initial one. */
function pathTitle<S extends SnapshotFrom<AnyStateMachine>, E extends { type: string }>(path: TestPath<S, E>, label: (e: E) => string = shortLabel): string {
  return path.steps.slice(1).map((st) => label(st.event)).join(' → ') || 'initial';
}

/** Where a path's test is: the step index and what it does ('render', 'xstate.init', 'asserting ready.idle'). */
type PathPlace = { step: number; during: string };

/** The page's text, spaces folded, cut to `max` characters ('' outside a DOM). */
const screenText = (max = 1200) => (typeof document === 'undefined' ? '' : (document.body?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, max));

/**
 * The real clock in milliseconds, taken before any test installs fake timers (which replace
 * `performance.now`), so a path's time is wall time even when its chart's delays run on fake time.
 */
const realNow: () => number = performance.now.bind(performance);

/**
 * `test` as a test body that, when `note` is given, tells it how the test ended (its start in
 * `realNow()` milliseconds, and the error it threw) before the error goes on to Vitest.
 */
function recorded(note: ((started: number, error?: unknown) => void) | undefined, test: () => void | Promise<void>): () => Promise<void> {
  return async () => {
    const started = realNow();
    try {
      await test();
    } catch (error) {
      note?.(started, error ?? new Error('thrown without a value'));
      throw error;
    }
    note?.(started);
  };
}

/**
 * Collects what a model's tests did for the path report (`pathsData.ChartRun`) and writes it after
 * the model's last test, into folder `dir`.
 */
function pathsRecorder<S extends SnapshotFrom<AnyStateMachine>, E extends { type: string }, W>(c: ChartModel<S, E, W>, dir: string) {
  const run: ChartRun = { name: c.name, chart: c.machine.id, file: '', uncovered: c.uncovered ?? {}, guard: { status: 'passed' }, paths: [] };
  const allKeys = stateKeysOf(c.machine);
  const label = c.label ?? shortLabel;
  const message = (error: unknown) => String(error instanceof Error ? error.message : error).slice(0, 2000);
  const noteFile = () => (run.file ||= relative(process.cwd(), expect.getState().testPath ?? ''));
  afterAll(() => void (run.file && writeChartRun(dir, run)));
  return {
    guard(_started: number, error?: unknown) {
      noteFile();
      run.guard = error === undefined ? { status: 'passed' } : { status: 'failed', error: message(error) };
    },
    path(input: unknown, path: TestPath<S, E>, started: number, failed?: { at: PathPlace; error: unknown }) {
      noteFile();
      const steps = path.steps.map((st, i) => ({
        event: i === 0 ? 'start' : label(st.event),
        reached: allKeys.filter((k) => matchesKey(st.state, k)),
        transitions: transitionsTaken(c.machine, i === 0 ? undefined : (path.steps[i - 1].state as AnyMachineSnapshot), st.event, input),
        refused: c.events(st.state, input).filter((e) => !c.ignores?.(st.state, e) && !st.state.can(e as never)).map(label),
      }));
      const record: PathRecord = { title: pathTitle(path, c.label), status: failed ? 'failed' : 'passed', steps, ms: Math.round(realNow() - started) };
      if (c.inputs) record.input = JSON.stringify(input);
      if (failed) record.failure = { ...failed.at, error: message(failed.error), screen: screenText() };
      run.paths.push(record);
    },
  };
}

/** Guards, then one test per generated path. */
export function modelTests<S extends SnapshotFrom<AnyStateMachine>, E extends { type: string }, W>(c: ChartModel<S, E, W>): void {
  describe(`${c.name} chart through its screen`, () => {
    afterEach(() => {
      cleanup();
      vi.useRealTimers();
    });
    const runs = pathsOf(c);
    const paths = runs.map((r) => r.path);
    const passing = c.passingThrough ?? [];
    const keys = stateKeysOf(c.machine).filter((k) => !passing.includes(k));
    const reportDir = process.env[PATHS_REPORT_ENV];
    const recorder = reportDir ? pathsRecorder(c, reportDir) : undefined;

    it('reaches every state node, asserts every one, and drives every event (guard)', recorded(recorder?.guard, () => {
      for (const k of passing) {
        const node = nodeAt(c.machine, k);
        expect(node.always?.length && Object.keys(node.on).length === 0 && node.invoke.length === 0, `${k} passes through`).toBeTruthy();
      }
      expect(Object.keys(c.assertions).sort()).toEqual([...keys].sort());
      const reached = new Set(paths.flatMap((p) => p.steps.flatMap((st) => keys.filter((k) => matchesKey(st.state, k)))));
      expect([...reached].sort()).toEqual([...keys].sort());
      const driven = new Set(paths.flatMap((p) => p.steps.map((st) => st.event.type)));
      for (const type of Object.keys(c.executors).filter((t) => !c.notDriven?.includes(t))) expect(driven.has(type), `${type} is driven`).toBe(true);
      for (const { input, path } of runs) expectEventsTaken([path], (s: S) => c.events(s, input), c.ignores);
      // A reason names something the chart has, so a renamed state or event leaves no stale excuse behind.
      const transitions = chartTransitions(c.machine);
      const all = stateKeysOf(c.machine);
      for (const name of Object.keys(c.uncovered ?? {})) expect(all.includes(name) || transitions.some((t) => excuses(name, t)), `uncovered '${name}' names a state node or transition of ${c.machine.id}`).toBe(true);
      c.guards?.(paths);
    }));

    for (const { input, path } of runs) {
      const at: PathPlace = { step: 0, during: 'render' };
      const note = recorder && ((started: number, error?: unknown) => recorder.path(input, path, started, error === undefined ? undefined : { at, error }));
      it(`${c.inputs ? `${JSON.stringify(input)}: ` : ''}${pathTitle(path, c.label)}`, recorded(note, async () => {
        if (c.fakeTimers) vi.useFakeTimers(c.fakeTimers === 'manual' ? { toFake: ['setTimeout', 'clearTimeout'] } : { shouldAdvanceTime: true, advanceTimeDelta: 2 });
        const w = await c.render(input);
        const exec = c.executors as Record<string, ModelExecutor<W, S, E>>;
        let prev = path.steps[0].state;
        for (const [i, step] of path.steps.entries()) {
          Object.assign(at, { step: i, during: step.event.type });
          if (step.event.type !== 'xstate.init') await exec[step.event.type](w, { event: step.event, state: step.state, prev });
          for (const k of keys)
            if (matchesKey(step.state, k)) {
              at.during = `asserting ${k}`;
              await c.assertions[k](step.state, w);
            }
          prev = step.state;
        }
      }));
    }
  });
}
