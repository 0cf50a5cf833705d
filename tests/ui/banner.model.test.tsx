// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useActorRef } from '@xstate/react';
import { describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { bannerMachine, BANNER_DELAYS, type BannerEvent, type BannerTone } from '../../machines/banner.machine';
import { GameBanner, type BannerRef } from '../../src/features/game/GameBanner';
import { useFakeTimersPerTest } from '../support/timers';
import { TestModel, getShortestPaths, type TestPath } from '../support/graph';

/**
 * Model-based test of the banner chart (the one fading message of docs/client.md §1; docs/game-rules.md §6:
 * fade at 4 s, removal at 5 s) through the rendered GameBanner: paths generated from the real chart
 * with @xstate/graph; `message.show` is what the charts send it, `message.dismiss` the close
 * button, the two delays fake time; every state asserted on the screen.
 */

type Snap = SnapshotFrom<typeof bannerMachine>;
const FADE = 'xstate.after.messageFade.banner.shown';
const REMOVE = 'xstate.after.messageRemove.banner.fading';
type ModelEvent = BannerEvent | { type: typeof FADE } | { type: typeof REMOVE };

const STATE_NODES = ['hidden', 'shown', 'fading'] as const;
type StateNode = (typeof STATE_NODES)[number];

/** Events in a state: two messages (a new one replaces the old, restarting the clock), the close button, time. */
function eventsOf(s: Snap): ModelEvent[] {
  const shows: ModelEvent[] = (['success', 'error'] as BannerTone[]).map((tone) => ({ type: 'message.show', tone, text: `A ${tone} message.` }));
  if (s.matches('hidden')) return shows;
  return [...shows, { type: 'message.dismiss' }, s.matches('shown') ? { type: FADE } : { type: REMOVE }];
}

/** A state counts once per edge kind into it, so every edge (dismiss, replace, removal) gets a path. */
const serializeState = (s: Snap, event: ModelEvent | undefined, prev: Snap | undefined) =>
  `${JSON.stringify(s.value)} ${s.context.message?.tone ?? ''} via ${event?.type ?? ''} from ${JSON.stringify(prev?.value ?? null)}`;

const model = new TestModel(bannerMachine, { stateMatcher: (s: Snap, key: string) => s.matches(key as never) } as never);
const paths = model.getPaths(
  () => getShortestPaths(bannerMachine, { events: eventsOf as never, serializeState: serializeState as never }) as never,
  { allowDuplicatePaths: true },
) as unknown as TestPath<Snap, ModelEvent>[];

let banner: BannerRef;
function Host() {
  banner = useActorRef(bannerMachine);
  return <GameBanner banner={banner} />;
}

const advance = (ms: number) => act(async () => { await vi.advanceTimersByTimeAsync(ms); });
type Executor = (step: { event: ModelEvent; state: Snap }) => Promise<void>;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

const EXECUTORS = {
  'message.show': async ({ event }) => {
    act(() => banner.send(event as BannerEvent));
  },
  'message.dismiss': async () => user().click(screen.getByRole('button', { name: 'Dismiss message' })),
  [FADE]: async () => advance(BANNER_DELAYS.messageFade),
  [REMOVE]: async () => advance(BANNER_DELAYS.messageRemove),
} satisfies Record<ModelEvent['type'], Executor>;

const shownMessage = (s: Snap, fading: boolean) => async () => {
  const el = screen.getByTestId('game-banner');
  expect(el.textContent).toContain(s.context.message!.text);
  expect(el.dataset.tone).toBe(s.context.message!.tone);
  expect(el.className).toBe(fading ? 'game-banner game-banner--fading' : 'game-banner');
};
const ASSERTIONS: Record<StateNode, (s: Snap) => Promise<void>> = {
  hidden: async () => expect(screen.queryByTestId('game-banner')).toBeNull(),
  shown: (s) => shownMessage(s, false)(),
  fading: (s) => shownMessage(s, true)(),
};

describe('banner chart through the rendered GameBanner', () => {
  useFakeTimersPerTest();

  it('reaches and asserts every state node, and takes every edge (guard)', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => STATE_NODES.find((k) => st.state.matches(k))!)));
    expect([...reached].sort()).toEqual([...STATE_NODES].sort());
    expect(Object.keys(ASSERTIONS).sort()).toEqual(Object.keys(bannerMachine.root.states).sort());
    const edges = new Set(paths.flatMap((p) => p.steps.slice(1).map((st, i) => `${JSON.stringify(p.steps[i].state.value)} ${st.event.type}`)));
    for (const from of ['"shown"', '"fading"']) for (const type of ['message.show', 'message.dismiss']) expect(edges.has(`${from} ${type}`), `${from} ${type}`).toBe(true);
    expect(edges.has(`"shown" ${FADE}`) && edges.has(`"fading" ${REMOVE}`)).toBe(true);
    expect(BANNER_DELAYS.messageFade + BANNER_DELAYS.messageRemove).toBe(5000);
  });

  for (const path of paths) {
    const name = path.steps
      .slice(1)
      .map(({ event }) => (event.type === 'message.show' ? `show(${event.tone})` : event.type.replace('xstate.after.', '').replace(/\.banner\..*/, '')))
      .join(' → ');
    it(name || 'initial', async () => {
      render(<Host />);
      await path.test({ events: EXECUTORS as never, states: ASSERTIONS as never });
    });
  }
});
