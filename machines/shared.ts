import { fromCallback, fromPromise, type EventObject } from 'xstate';

/**
 * Shapes every chart shares (docs/architecture.md §4). Charts import only xstate and
 * contract types; this file is part of machines/ and obeys the same rule.
 */

/**
 * The default of a promise actor in a chart's `setup`: it throws "{chart} machine: actor '{name}'
 * was not provided", so a missing implementation is loud (docs/architecture.md §3). The real
 * one is given from src/ with `machine.provide(...)`. Typed by its output and input.
 */
export function missingPromise<TOutput, TInput = void>(chart: string, name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${chart} machine: actor '${name}' was not provided`);
  });
}

/** The same for a callback actor (sockets, announcers): typed by the events it receives and its input. */
export function missingCallback<TEvent extends EventObject, TInput = void>(chart: string, name: string) {
  return fromCallback<TEvent, TInput>(() => {
    throw new Error(`${chart} machine: actor '${name}' was not provided`);
  });
}
