import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { expect, vi } from 'vitest';
import type { ActorSteps, ModelExecutor } from './chartModel';
import { FakeEffects } from './effects';

/**
 * What the model tests of the list-loader charts (gamesLobby, spectateList, teamList;
 * docs/architecture.md §4, §6) share: the screen rendered at a route over fake effects, the load
 * actor's done and error steps answered by the fake server (a failure without a message, so the
 * list's fallback text shows), the first-load screen, and fake time moved for a poll.
 */
export interface ListWorld {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}
/** The synthetic steps of load actor `A` of a list of `T`. */
export type Loaded<A extends string, T> = ActorSteps<A, T[]>;

/** Settles the pending load of `name` (a failure without a message: the chart's fallback text shows). */
const settle = (w: ListWorld, name: string, e: { type: string; output?: unknown }) =>
  act(() => (e.type.startsWith('xstate.done') ? w.fx.resolve(name, e.output) : w.fx.reject(name, new Error(''))));
/** Executors of the load actor `name`'s done and error steps: the fake server answers or fails. */
export const loadExecutors = <A extends string, S, E extends { type: string }>(name: A) => {
  const run: ModelExecutor<ListWorld, S, E> = async (w, { event }) => settle(w, name, event);
  return { [`xstate.done.actor.${name}`]: run, [`xstate.error.actor.${name}`]: run } as Record<`xstate.done.actor.${A}` | `xstate.error.actor.${A}`, ModelExecutor<ListWorld, S, E>>;
};
/** The first-load screen: the documented loading text, and `absent()` (the list or its error) not shown. */
export const firstLoadShows = (text: string, absent: () => Element | null) => async () => {
  expect(await screen.findByText(text)).toBeTruthy();
  expect(absent()).toBeNull();
};
/** Moves fake time on by `ms` (a poll's delay). */
export const advance = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));
/** The executor of an event type the screen never sends. */
export const notSent = (type: string) => async () => {
  throw new Error(`${type} is not sent by this screen`);
};

/** Renders `screen` at the route `path` with fake effects; user-event follows fake time when the chart has delays. */
export const renderAt = (path: string, screenOf: (fx: FakeEffects) => ReactElement, fakeTimers = false) => (): ListWorld => {
  const fx = new FakeEffects();
  render(<MemoryRouter initialEntries={[path]}>{screenOf(fx)}</MemoryRouter>);
  return { fx, user: userEvent.setup(fakeTimers ? { delay: null, advanceTimers: vi.advanceTimersByTime } : {}) };
};
