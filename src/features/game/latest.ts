import { useLayoutEffect, useRef, type RefObject } from 'react';
import { fromPromise } from 'xstate';

/** What a management view's effects need: the calls and the ids of its clan and event. */
export interface ViewCalls<E> {
  effects: E;
  clanId: number;
  eventId: number;
}

/**
 * A ref to the latest `value`: the implementations given once to a flow actor
 * (`useActorRef(machine.provide(...))`) read the current props through it instead of the first
 * render's.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** A promise actor that runs `call` with the view's current effects and ids. */
export function latestCall<E, I, O>(latest: RefObject<ViewCalls<E>>, call: (effects: E, clanId: number, eventId: number, input: I) => Promise<O>) {
  return fromPromise<O, I>(({ input }) => {
    const { effects, clanId, eventId } = latest.current;
    return call(effects, clanId, eventId, input);
  });
}
