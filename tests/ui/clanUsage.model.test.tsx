// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { clanUsageMachine, type ClanUsageEvent } from '../../machines/clanUsage.machine';
import { USAGE_TEXTS, UsagePanel } from '../../src/features/clan/UsagePanel';
import type { ClanUsage } from '../../contract/quotas';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based test of the clanUsage chart (docs/server.md §18 "Quotas") through the rendered
 * usage lines of the clan page: the first read ('Loading usage...'), the figures ('Proof images:
 * 12.3 MiB of 2,048 MiB', 'Open events: 3 of 50'), the warning at a limit, Refresh (the figures
 * stay while reading), a failure with the server's text and Retry.
 */

type Snap = SnapshotFrom<typeof clanUsageMachine>;
const DONE = 'xstate.done.actor.loadUsage';
const ERROR = 'xstate.error.actor.loadUsage';
type ModelEvent = ClanUsageEvent | { type: typeof DONE } | { type: typeof ERROR };

const CLAN = 7;
const MIB = 1024 * 1024;
/** The first read, then a clan at its event limit on the next. */
const FIGURES: ClanUsage[] = [
  { upload_bytes: Math.round(12.3 * MIB), upload_quota_bytes: 2048 * MIB, events_open: 3, events_limit: 50 },
  { upload_bytes: 2048 * MIB, upload_quota_bytes: 2048 * MIB, events_open: 50, events_limit: 50 },
];
const LINES = [
  ['Proof images: 12.3 MiB of 2,048 MiB', 'Open events: 3 of 50'],
  ['Proof images: 2,048 MiB of 2,048 MiB', 'Open events: 50 of 50'],
];

interface World {
  fx: FakeEffects;
  /** Loads answered so far: which figures are on screen (-1: none, after a failure or before the first). */
  shown: number;
  loads: number;
}

const expectFigures = (w: World) => {
  expect(screen.getByTestId('usage-uploads').textContent).toBe(LINES[w.shown][0]);
  expect(screen.getByTestId('usage-events').textContent).toBe(LINES[w.shown][1]);
  if (w.shown === 1) expect(screen.getByTestId('usage-at-quota').textContent).toBe(USAGE_TEXTS.atQuota);
  else expect(screen.queryByTestId('usage-at-quota')).toBeNull();
};

modelTests<Snap, ModelEvent, World>({
  name: 'clanUsage',
  machine: clanUsageMachine,
  dropPrefixPaths: true,
  inputs: [{ clanId: CLAN }],
  events: (s) => (s.matches('loading') ? [{ type: DONE }, { type: ERROR }] : [{ type: 'usage.reload' }]),
  // The state before tells apart a refresh (from loaded) from a retry (from failed), so each gets its path.
  serialize: (s, event, prev) => JSON.stringify([s.value, event?.type ?? null, event ? prev?.value : null]),
  executors: {
    [DONE]: async (w) => {
      const i = Math.min(w.loads, FIGURES.length - 1);
      await w.fx.resolve('loadUsage', FIGURES[i]);
      w.loads += 1;
      w.shown = i;
    },
    [ERROR]: async (w) => {
      await w.fx.reject('loadUsage', new Error('Permission denied. You are not authorized to manage this clan.'));
      w.shown = -1;
    },
    'usage.reload': async (_w, { prev }) => {
      await userEvent.click(await screen.findByRole('button', { name: prev.matches('failed') ? USAGE_TEXTS.retry : USAGE_TEXTS.refresh }));
    },
  } satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>,
  assertions: {
    loading: async (_s, w) => {
      if (w.shown >= 0) {
        expect(((await screen.findByRole('button', { name: USAGE_TEXTS.refreshing })) as HTMLButtonElement).disabled).toBe(true);
        expectFigures(w);
      } else {
        expect(await screen.findByText(USAGE_TEXTS.loading)).toBeTruthy();
        expect(screen.queryByTestId('usage-uploads')).toBeNull();
      }
      expect(w.fx.calls('loadUsage').at(-1)).toEqual([CLAN]);
    },
    loaded: async (_s, w) => {
      expect(((await screen.findByRole('button', { name: USAGE_TEXTS.refresh })) as HTMLButtonElement).disabled).toBe(false);
      expectFigures(w);
      expect(screen.queryByTestId('usage-error')).toBeNull();
    },
    failed: async () => {
      expect((await screen.findByTestId('usage-error')).textContent).toBe('Permission denied. You are not authorized to manage this clan.');
      expect(screen.getByRole('button', { name: USAGE_TEXTS.retry })).toBeTruthy();
      expect(screen.queryByTestId('usage-uploads')).toBeNull();
    },
  },
  render: async () => {
    const fx = new FakeEffects();
    render(<UsagePanel clanId={CLAN} loadUsage={fx.fn('loadUsage')} />);
    return { fx, shown: -1, loads: 0 };
  },
});

describe('usage at a limit', () => {
  afterEach(cleanup);

  it('a clan at its event limit and upload quota reads so, with the warning', async () => {
    const fx = new FakeEffects();
    render(<UsagePanel clanId={CLAN} loadUsage={fx.fn('loadUsage')} />);
    await act(() => fx.resolve('loadUsage', FIGURES[1]));
    expectFigures({ fx, shown: 1, loads: 1 });
  });
});
