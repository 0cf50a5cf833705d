// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useActorRef } from '@xstate/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { bannerMachine, BANNER_DELAYS, type BannerEvent, type BannerTone } from '../../machines/banner.machine';
import { GameBanner, type BannerRef } from '../../src/features/game/GameBanner';
import { modelTests, type ModelExecutor } from '../support/chartModel';

/**
 * Model-based test of the banner chart (the one fading message of docs/client.md §1; docs/game-rules.md §6:
 * fade at 4 s, removal at 5 s) through the rendered GameBanner: paths generated from the real chart
 * by the chart-model harness; `message.show` is what the charts send it, `message.dismiss` the
 * close button, the two delays fake time; every state asserted on the screen.
 */

type Snap = SnapshotFrom<typeof bannerMachine>;
const FADE = 'xstate.after.messageFade.banner.shown';
const REMOVE = 'xstate.after.messageRemove.banner.fading';
type ModelEvent = BannerEvent | { type: typeof FADE } | { type: typeof REMOVE };
type World = { banner: BannerRef; user: ReturnType<typeof userEvent.setup> };

/** Events in a state: two messages (a new one replaces the old, restarting the clock), the close button, time. */
function eventsOf(s: Snap): ModelEvent[] {
  const shows: ModelEvent[] = (['success', 'error'] as BannerTone[]).map((tone) => ({ type: 'message.show', tone, text: `A ${tone} message.` }));
  if (s.matches('hidden')) return shows;
  return [...shows, { type: 'message.dismiss' }, s.matches('shown') ? { type: FADE } : { type: REMOVE }];
}

/** A state counts once per edge kind into it, so every edge (dismiss, replace, removal) gets a path. */
const serializeState = (s: Snap, event: ModelEvent | undefined, prev: Snap | undefined) =>
  `${JSON.stringify(s.value)} ${s.context.message?.tone ?? ''} via ${event?.type ?? ''} from ${JSON.stringify(prev?.value ?? null)}`;

const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

const EXECUTORS = {
  'message.show': async (w, { event }) => {
    act(() => w.banner.send(event as BannerEvent));
  },
  'message.dismiss': async (w) => w.user.click(screen.getByRole('button', { name: 'Dismiss message' })),
  [FADE]: async () => advance(BANNER_DELAYS.messageFade),
  [REMOVE]: async () => advance(BANNER_DELAYS.messageRemove),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

const shownMessage = (s: Snap, fading: boolean) => {
  const el = screen.getByTestId('game-banner');
  expect(el.textContent).toContain(s.context.message!.text);
  expect(el.dataset.tone).toBe(s.context.message!.tone);
  expect(el.className).toBe(fading ? 'game-banner game-banner--fading' : 'game-banner');
};

modelTests<Snap, ModelEvent, World>({
  name: 'banner',
  machine: bannerMachine,
  dropPrefixPaths: true,
  events: eventsOf,
  serialize: serializeState,
  executors: EXECUTORS,
  fakeTimers: true,
  label: (e) => (e.type === 'message.show' ? `show(${e.tone})` : e.type.replace('xstate.after.', '').replace(/\.banner\..*/, '')),
  assertions: {
    hidden: () => expect(screen.queryByTestId('game-banner')).toBeNull(),
    shown: (s) => shownMessage(s, false),
    fading: (s) => shownMessage(s, true),
  },
  render: () => {
    const world = { user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) } as World;
    function Host() {
      world.banner = useActorRef(bannerMachine);
      return <GameBanner banner={world.banner} />;
    }
    render(<Host />);
    return world;
  },
  guards: (paths) => {
    // Every edge out of a message gets a path of its own: replaced, dismissed, faded, removed.
    const edges = new Set(paths.flatMap((p) => p.steps.slice(1).map((st, i) => `${JSON.stringify(p.steps[i].state.value)} ${st.event.type}`)));
    for (const from of ['"shown"', '"fading"']) for (const type of ['message.show', 'message.dismiss']) expect(edges.has(`${from} ${type}`), `${from} ${type}`).toBe(true);
    expect(edges.has(`"shown" ${FADE}`) && edges.has(`"fading" ${REMOVE}`)).toBe(true);
    // The documented clock: removal 5 s after the message appears.
    expect(BANNER_DELAYS.messageFade + BANNER_DELAYS.messageRemove).toBe(5000);
  },
});
