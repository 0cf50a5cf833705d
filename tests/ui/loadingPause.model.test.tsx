// @vitest-environment jsdom
import { act, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { User } from '../../contract/user';
import { loadingPauseMachine } from '../../machines/loadingPause.machine';
import { LoadingPage } from '../../src/features/auth/LoadingPage';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { fakeUser, renderRoutes, signedInSessionLogic } from '../support/render';

/**
 * Model-based test of the loadingPause chart (docs/client.md §1: the navigation
 * state's message stays up for a moment, then the page moves on) through the rendered /loading
 * page, once per way in: with a message and a redirect, without either (default text, then
 * /dashboard), and for a user without IGNs (then /onboarding). Time is fake; the pause is 1.5 s.
 */

type Snap = SnapshotFrom<typeof loadingPauseMachine>;
const READ = 'xstate.after.messageRead.loadingPause.reading';
type ModelEvent = { type: typeof READ };

const PAUSE_MS = 1500;

interface Arrival {
  name: string;
  state: { message?: string; redirectTo?: string } | undefined;
  user: User;
  /** The text shown while reading, and the page shown once read. */
  shown: string;
  lands: string;
}

const ARRIVALS: Arrival[] = [
  { name: 'with a message and a redirect', state: { message: 'Signing you in...', redirectTo: '/profile' }, user: fakeUser(), shown: 'Signing you in...', lands: 'Profile page' },
  { name: 'without a state', state: undefined, user: fakeUser(), shown: 'Loading...', lands: 'Dashboard page' },
  { name: 'without IGNs', state: { message: 'Almost there', redirectTo: '/profile' }, user: fakeUser({ igns: [] }), shown: 'Almost there', lands: 'Onboarding page' },
];

const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

for (const arrival of ARRIVALS) {
  modelTests<Snap, ModelEvent, Arrival>({
    name: `loadingPause (${arrival.name})`,
    machine: loadingPauseMachine,
    dropPrefixPaths: true,
    // Time moves only when a step says so, so the pause can be checked to the millisecond (no
    // findBy/waitFor here: Testing Library's async wrapper waits on a setTimeout, faked here).
    fakeTimers: 'manual',
    events: (s) => (s.matches('reading') ? [{ type: READ }] : []),
    executors: {
      // The page holds until the very last millisecond of the pause, then moves on.
      [READ]: async (w) => {
        await advance(PAUSE_MS - 1);
        expect(screen.getByRole('status').textContent).toBe(w.shown);
        await advance(1);
      },
    } satisfies Record<ModelEvent['type'], ModelExecutor<Arrival, Snap, ModelEvent>>,
    assertions: {
      reading: async (_s, w) => {
        expect(screen.getByRole('status').textContent).toBe(w.shown);
        expect(screen.queryByText(w.lands)).toBeNull();
      },
      read: async (_s, w) => {
        expect(screen.getByText(w.lands)).toBeTruthy();
        expect(screen.queryByRole('status')).toBeNull();
      },
    },
    render: () => {
      renderRoutes(
        [
          { path: '/loading', element: <LoadingPage /> },
          { path: '/profile', element: <p>Profile page</p> },
          { path: '/dashboard', element: <p>Dashboard page</p> },
          { path: '/onboarding', element: <p>Onboarding page</p> },
          { path: '/', element: <p>Home page</p> },
        ],
        { pathname: '/loading', state: arrival.state },
        signedInSessionLogic(arrival.user),
      );
      return arrival;
    },
    guards: () => expect(loadingPauseMachine.implementations.delays.messageRead).toBe(PAUSE_MS),
  });
}
