import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';

/** The snapshot an actor gives (as `useSelector` reads it). */
type SnapshotOf<TActor> = TActor extends { getSnapshot(): infer S } ? S : undefined;

/** The selected values, under the selectors' names. */
type Selected<TSelectors> = { [K in keyof TSelectors]: TSelectors[K] extends (snapshot: never) => infer T ? T : never };

/** Two selections are the same when every name holds the same value (Object.is, as `useSelector` compares one value). */
function sameValues<T extends object>(a: T, b: T): boolean {
  const names = Object.keys(a) as (keyof T)[];
  return names.length === Object.keys(b).length && names.every((name) => Object.is(a[name], b[name]));
}

/**
 * Several named selectors of one actor read at once: `useSelectors(flow, { phase: sel.selectPhase,
 * busy: sel.isBusy })` gives `{ phase, busy }`. Each value is what `useSelector(flow, selector)`
 * gives, and the component re-renders only when one of them changes (the selection is compared
 * value by value), as it would with one `useSelector` a value.
 */
export function useSelectors<TActor extends AnyActorRef, TSelectors extends Record<string, (snapshot: SnapshotOf<TActor>) => unknown>>(
  actor: TActor,
  selectors: TSelectors,
): Selected<TSelectors> {
  const select = (snapshot: SnapshotOf<TActor>) => Object.fromEntries(Object.entries(selectors).map(([name, selector]) => [name, selector(snapshot)])) as Selected<TSelectors>;
  return useSelector(actor, select, sameValues);
}
