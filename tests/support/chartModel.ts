import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyStateMachine, AnyStateNode, SnapshotFrom } from 'xstate';
import { TestModel, getShortestPaths, type TestPath } from './graph';

/**
 * The one harness of the model-based UI tests of a chart (docs/architecture.md
 * §6): the shortest paths of the REAL chart taken with @xstate/graph (`TestModel` +
 * `getShortestPaths`, events as a function of state, so synthetic `xstate.done/error.actor.*` and
 * `xstate.after.*` steps come from the chart), then one test per path that causes each step's
 * event through the rendered screen (an executor per event type) and asserts every state node the
 * step is in (an assertion per state node, parents included); and guard tests that every state node
 * is reached and asserted and every executor is driven. What differs per screen comes in through
 * a `ChartModel`.
 */

/** One step of a path as an executor sees it: the event, the state it leads to, and the state before. */
export interface ModelStep<S, E> {
  event: E;
  state: S;
  prev: S;
}
/** Causes one step's event through the screen. */
export type ModelExecutor<W, S, E> = (w: W, step: ModelStep<S, E>) => Promise<void>;

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
}

/** The dotted paths of every state node of `machine` ('loading', 'ready', 'ready.idle', ...). */
export function stateKeysOf(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  const walk = (node: AnyStateNode, prefix: string[]) => {
    for (const [key, child] of Object.entries(node.states)) {
      keys.push([...prefix, key].join('.'));
      walk(child as AnyStateNode, [...prefix, key]);
    }
  };
  walk(machine.root, []);
  return keys;
}

/** Whether snapshot `s` is in the state node at dotted path `key` ('ready.adding.idle'). */
export const matchesKey = (s: { matches: (value: never) => boolean }, key: string): boolean => {
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

const shortLabel = (e: { type: string }) => e.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$1($2)').replace(/^xstate\.after\.(\w+)\..*$/, 'after($1)');

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

    it('reaches every state node, asserts every one, and drives every event (guard)', () => {
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
      c.guards?.(paths);
    });

    for (const { input, path } of runs) {
      it(`${c.inputs ? `${JSON.stringify(input)}: ` : ''}${pathTitle(path, c.label)}`, async () => {
        if (c.fakeTimers) vi.useFakeTimers(c.fakeTimers === 'manual' ? { toFake: ['setTimeout', 'clearTimeout'] } : { shouldAdvanceTime: true, advanceTimeDelta: 2 });
        const w = await c.render(input);
        const exec = c.executors as Record<string, ModelExecutor<W, S, E>>;
        let prev = path.steps[0].state;
        for (const step of path.steps) {
          if (step.event.type !== 'xstate.init') await exec[step.event.type](w, { event: step.event, state: step.state, prev });
          for (const k of keys) if (matchesKey(step.state, k)) await c.assertions[k](step.state, w);
          prev = step.state;
        }
      });
    }
  });
}
