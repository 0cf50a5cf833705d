// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { useActorRef } from '@xstate/react';
import { afterEach, describe, expect, it } from 'vitest';
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { useSelectors } from '../../src/base/useSelectors';

/**
 * useSelectors (src/base/useSelectors.ts): the named selectors' values under their names, and a
 * render only when one of them changes, not on every snapshot of the actor.
 */

const counter = setup({
  types: { context: {} as { count: number; noise: number }, events: {} as { type: 'count' } | { type: 'noise' } },
}).createMachine({
  context: { count: 0, noise: 0 },
  initial: 'even',
  on: {
    count: { actions: assign({ count: ({ context }) => context.count + 1 }) },
    noise: { actions: assign({ noise: ({ context }) => context.noise + 1 }) },
  },
  states: { even: {} },
});

type S = SnapshotFrom<typeof counter>;
const selectCount = (s: S) => s.context.count;
const selectIsOdd = (s: S) => s.context.count % 2 === 1;

let renders = 0;
let ref: ActorRefFrom<typeof counter> | undefined;

function Counter() {
  ref = useActorRef(counter);
  const { count, odd } = useSelectors(ref, { count: selectCount, odd: selectIsOdd });
  renders += 1;
  return <p data-testid="count">{`${count} ${odd ? 'odd' : 'even'}`}</p>;
}

afterEach(() => {
  cleanup();
  renders = 0;
});

describe('useSelectors', () => {
  it('gives each selector’s value under its name, and again when one changes', () => {
    render(<Counter />);
    expect(screen.getByTestId('count').textContent).toBe('0 even');
    act(() => ref!.send({ type: 'count' }));
    expect(screen.getByTestId('count').textContent).toBe('1 odd');
  });

  it('does not render again for a snapshot whose selected values are all the same', () => {
    render(<Counter />);
    const before = renders;
    act(() => ref!.send({ type: 'noise' }));
    act(() => ref!.send({ type: 'noise' }));
    expect(renders).toBe(before);
    act(() => ref!.send({ type: 'count' }));
    expect(renders).toBe(before + 1);
  });
});
