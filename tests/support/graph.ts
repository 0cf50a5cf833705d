/**
 * The one import of the chart path generator (docs/architecture.md §6):
 * @xstate/graph 3.0.4, the package the product owner named. Switching to `xstate/graph` is this line.
 */
export * from '@xstate/graph';

import type { AnyStateMachine, Snapshot } from 'xstate';
import { TestModel, getShortestPaths, type TestPath } from '@xstate/graph';

/**
 * The shortest paths of `machine` as a TestModel gives them (docs/architecture.md recipe for charts that
 * invoke): events as a function of the state, the test's state (and event) serializers, the
 * chart's input; duplicate paths kept so every edge gets its own test.
 */
export function modelPaths<TSnap extends Snapshot<unknown>, TEvent extends { type: string }>(
  machine: AnyStateMachine,
  options: { events: (s: TSnap) => TEvent[]; serializeState: (s: TSnap, e?: TEvent) => string; serializeEvent?: (e: TEvent) => string; input?: unknown },
): TestPath<TSnap, TEvent>[] {
  const model = new TestModel(machine, {});
  return model.getPaths(() => getShortestPaths(machine, options as never) as never, { allowDuplicatePaths: true }) as unknown as TestPath<TSnap, TEvent>[];
}
