// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router-dom';
import { TestModel, getShortestPaths } from '../support/graph';
import { sessionMachine, type SessionEvent } from '../../machines/session.machine';
import { routes } from '../../src/app/routes';
import { OnboardingPage } from '../../src/features/onboarding/OnboardingPage';
import { DEV_EXPIRED_TEXT, DEV_WELCOME_TEXT, EXPIRED_TEXT, WELCOME_TEXT } from '../../src/features/auth/messages';
import { DISCORD_NOT_CONFIGURED, USER_LOAD_FAILED, type AuthStatus } from '../../contract/user';
import { FakeEffects } from '../support/effects';
import { fakeSessionLogic, fakeUser, renderRoutes } from '../support/render';

/** Model-based test of the session chart (docs/client.md §2) through the rendered app. */

const status = (over: Partial<AuthStatus>): AuthStatus => ({ authorized: false, has_token: false, session_keys: [], error: null, dev_login: true, discord_login: false, ...over });
const withIgns = fakeUser();
const withoutIgns = fakeUser({ igns: [] });

type SyntheticEvent =
  | { type: 'xstate.done.actor.checkAuthStatus'; output: AuthStatus }
  | { type: 'xstate.error.actor.checkAuthStatus'; error: Error }
  | { type: 'xstate.done.actor.loadUser'; output: typeof withIgns }
  | { type: 'xstate.error.actor.loadUser'; error: Error }
  | { type: 'xstate.done.actor.logout' }
  | { type: 'xstate.error.actor.logout'; error: Error }
  | { type: 'xstate.done.actor.devLogin' }
  | { type: 'xstate.error.actor.devLogin'; error: Error };
type ModelEvent = SessionEvent | SyntheticEvent;

const EVENTS: ModelEvent[] = [
  { type: 'xstate.done.actor.checkAuthStatus', output: status({ authorized: true, has_token: true, session_keys: ['user_id'] }) },
  { type: 'xstate.done.actor.checkAuthStatus', output: status({ has_token: true }) },
  { type: 'xstate.done.actor.checkAuthStatus', output: status({}) },
  { type: 'xstate.error.actor.checkAuthStatus', error: new Error('down') },
  { type: 'xstate.done.actor.loadUser', output: withIgns },
  { type: 'xstate.done.actor.loadUser', output: withoutIgns },
  { type: 'xstate.error.actor.loadUser', error: new Error('bad profile') },
  { type: 'xstate.done.actor.logout' },
  { type: 'xstate.error.actor.logout', error: new Error('logout failed') },
  { type: 'xstate.done.actor.devLogin' },
  { type: 'xstate.error.actor.devLogin', error: new Error('Username is required.') },
  { type: 'xstate.error.actor.devLogin', error: new Error('') },
  { type: 'session.check' },
  { type: 'session.devLogin', username: 'alice' },
  { type: 'session.reload' },
  { type: 'session.logout' },
  { type: 'session.logoutEverywhere' },
  { type: 'onboarding.completed' },
];

interface World {
  fx: FakeEffects;
  onboardingFx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** The error the signed-out screen must show, by the docs oracle below (null: none). */
  expectedError: string | null;
}

/** The texts the session chart shows (docs/client.md §2; written here, not read from the chart). */
const LOAD_FAILED_TEXT = 'We could not load your profile, so you have been signed out. Please log in again.';
const SIGN_IN_FAILED_TEXT = 'Sign-in failed.';

/** Spec oracle: the error shown after `event` taken in state `from` (`current`: the error before). */
function errorAfter(from: string, event: any, current: string | null): string | null {
  switch (event.type) {
    case 'xstate.error.actor.loadUser':
      return LOAD_FAILED_TEXT;
    case 'xstate.error.actor.devLogin':
      return event.error.message || SIGN_IN_FAILED_TEXT;
    case 'session.devLogin':
    case 'xstate.done.actor.loadUser':
      return null;
    case 'xstate.done.actor.checkAuthStatus':
      return event.output.authorized ? null : current;
    case 'xstate.done.actor.logout':
    case 'xstate.error.actor.logout':
      return from === 'userLoadFailed' ? current : null;
    default:
      return current;
  }
}
type Executor = (w: World, event: any) => Promise<void>;

const settle = (name: string, how: 'resolve' | 'reject') => async (w: World, e: any) => {
  await act(async () => {
    if (how === 'resolve') await w.fx.resolve(name, e.output);
    else await w.fx.reject(name, e.error);
  });
};

/** How each event is caused through the UI or the fake API (typed: a new event must get one). */
const EXECUTORS = {
  'xstate.done.actor.checkAuthStatus': settle('checkAuthStatus', 'resolve'),
  'xstate.error.actor.checkAuthStatus': settle('checkAuthStatus', 'reject'),
  'xstate.done.actor.loadUser': settle('loadUser', 'resolve'),
  'xstate.error.actor.loadUser': settle('loadUser', 'reject'),
  'xstate.done.actor.logout': settle('logout', 'resolve'),
  'xstate.error.actor.logout': settle('logout', 'reject'),
  'xstate.done.actor.devLogin': settle('devLogin', 'resolve'),
  'xstate.error.actor.devLogin': settle('devLogin', 'reject'),
  'session.check': async () => {
    // The Discord callback landing after a successful sign-in makes the chart look again.
    await act(async () => {
      await currentRouter!.navigate('/auth-callback?auth=success&path=%2Fdashboard');
    });
  },
  'session.devLogin': async (w) => {
    await w.user.type(await screen.findByLabelText('Username'), 'alice');
    await w.user.click(screen.getByRole('button', { name: 'Dev Sign-in' }));
  },
  'session.reload': async (w) => {
    await w.user.click(await screen.findByRole('button', { name: 'Refresh stats' }));
  },
  'session.logout': async (w) => {
    const onboarding = screen.queryByRole('heading', { name: 'Initial Setup' });
    if (onboarding) {
      await w.user.click(screen.getByRole('button', { name: 'Log out' }));
      return;
    }
    await w.user.click(await screen.findByRole('button', { name: /account menu$/i }));
    await w.user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
  },
  'session.logoutEverywhere': async (w) => {
    // The profile's Account & Security panel (docs/client.md §3).
    await w.user.click(await screen.findByRole('button', { name: /account menu$/i }));
    await w.user.click(await screen.findByRole('menuitem', { name: 'Profile' }));
    await w.user.click(await screen.findByRole('button', { name: 'Log out everywhere' }));
  },
  'onboarding.completed': async (w) => {
    await w.user.type(await screen.findByLabelText(/in-game names/i), 'Zezima');
    await w.user.click(screen.getByRole('button', { name: 'Continue to Clan Setup' }));
    await act(async () => w.onboardingFx.resolve('loadClans', []));
    await w.user.click(await screen.findByRole('button', { name: 'Finish Setup & Go to Dashboard' }));
    await act(async () => w.onboardingFx.resolve('submitSetup', { ign_count: 1 }));
  },
} satisfies Record<ModelEvent['type'], Executor>;

let currentRouter: { navigate: (to: string) => Promise<void> } | null = null;

const flushDelays = async () => {
  // /loading keeps its message up for a moment before moving on.
  await act(async () => {
    vi.advanceTimersByTime(2000);
  });
};
const spinnerShown = () => expect(document.querySelector('.spinner')).not.toBeNull();

/** The last logout call the UI made ended every session (`everywhere`) or this one only. */
const expectLogoutCall = (w: World, everywhere: boolean) =>
  waitFor(() => expect(w.fx.calls('logout').at(-1)).toEqual([{ everywhere }]));

/** What the screen shows in each state node (every node must have one: see the guard test). */
const ASSERTIONS: Record<string, (s: any, w: World) => Promise<void>> = {
  checking: async () => {
    await waitFor(spinnerShown);
  },
  signingIn: async () => {
    await waitFor(() => screen.getByText('Signing you in...'));
  },
  unauthenticated: async (s, w) => {
    await flushDelays();
    // The model's server offers development sign-in only: the status text points to it, never to the disabled Discord button.
    const text = s.context.notice === 'expired' ? DEV_EXPIRED_TEXT : DEV_WELCOME_TEXT;
    await waitFor(() => screen.getByText(text));
    for (const spec of [WELCOME_TEXT, EXPIRED_TEXT]) expect(screen.queryByText(spec)).toBeNull();
    // Spec guard: the error text comes from the test's own oracle, not from the chart's context.
    const expected = w.expectedError;
    if (expected) expect(screen.getByText(expected)).toBeTruthy();
    for (const text of [LOAD_FAILED_TEXT, SIGN_IN_FAILED_TEXT, 'Username is required.']) if (text !== expected) expect(screen.queryByText(text)).toBeNull();
    // The model's server has no Discord client (dev sign-in is on): the button is disabled with the reason.
    expect(s.context.discordLogin).toBe(false);
    expect(screen.queryByRole('link', { name: 'Log in with Discord' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Log in with Discord', description: DISCORD_NOT_CONFIGURED }).hasAttribute('disabled')).toBe(true);
  },
  loadingUser: async () => {
    await waitFor(spinnerShown);
  },
  userLoadFailed: async (_s, w) => {
    await waitFor(spinnerShown);
    await expectLogoutCall(w, false);
  },
  onboardingNeeded: async () => {
    await flushDelays();
    await waitFor(() => screen.getByRole('heading', { name: 'Initial Setup' }));
  },
  ready: async () => {
    await flushDelays();
    await waitFor(() => screen.getByRole('heading', { name: 'Welcome, alice!' }));
  },
  refreshing: async () => {
    await waitFor(() => screen.getByRole('button', { name: 'Refreshing...' }));
    screen.getByRole('heading', { name: 'Welcome, alice!' });
  },
  loggingOut: async (_s, w) => {
    await waitFor(spinnerShown);
    await expectLogoutCall(w, false);
  },
  loggingOutEverywhere: async (_s, w) => {
    await waitFor(spinnerShown);
    await expectLogoutCall(w, true);
  },
};

const model = new TestModel(sessionMachine);
const paths = model.getPaths(
  () =>
    getShortestPaths(sessionMachine, {
      // Events by state: those the chart takes there (a new event in EVENTS reaches every state that takes it).
      events: (s: any) => EVENTS.filter((e) => s.can(e as any)) as any,
      serializeState: (s: any) => `${JSON.stringify(s.value)}|${s.context.notice}|${s.context.error}|${s.context.user?.igns.length ?? -1}`,
    }) as any,
  { allowDuplicatePaths: true },
);

function testRoutes(onboardingFx: FakeEffects): RouteObject[] {
  const effects = { loadClans: onboardingFx.fn('loadClans'), submitSetup: onboardingFx.fn('submitSetup') };
  const swap = (list: RouteObject[]): RouteObject[] =>
    list.map((r) =>
      r.path === '/onboarding'
        ? { path: r.path, element: <OnboardingPage effects={effects} /> }
        : r.children
          ? { ...r, children: swap(r.children) }
          : r,
    );
  return swap(routes);
}

const stateKey = (s: any) => (typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]);

describe('session chart through the UI', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('reaches and asserts every state node (guard)', () => {
    const nodes = Object.keys(sessionMachine.root.states);
    const reached = new Set(paths.flatMap((p: any) => [stateKey(p.state), ...p.steps.map((st: any) => stateKey(st.state))]));
    expect([...reached].sort()).toEqual([...nodes].sort());
    expect(Object.keys(ASSERTIONS).sort()).toEqual([...nodes].sort());
  });

  it('reaches the signed-out screen after a failed user load, and after a failed sign-in without a message (spec guard)', () => {
    // The error is part of the state's identity: if the chart stopped setting it, these signed-out
    // states would merge with the plain one and no generated path would show the text.
    const signedOutAfter = (type: string, message?: string) =>
      paths.some((p: any) => {
        const i = p.steps.findIndex((st: any) => st.event.type === type && (message === undefined || st.event.error?.message === message));
        return i >= 0 && p.steps.slice(i).some((st: any) => stateKey(st.state) === 'unauthenticated' && st.state.context.error !== null);
      });
    expect(signedOutAfter('xstate.error.actor.loadUser')).toBe(true);
    expect(signedOutAfter('xstate.error.actor.devLogin', '')).toBe(true);
  });

  for (const path of paths as any[]) {
    it(path.description, async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const fx = new FakeEffects();
      const onboardingFx = new FakeEffects();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const { router } = renderRoutes(testRoutes(onboardingFx), '/dashboard', fakeSessionLogic(fx));
      currentRouter = router;
      const world: World = { fx, onboardingFx, user, expectedError: null };
      let from = '';
      for (const step of path.steps) {
        if (step.event.type === 'xstate.init') {
          await ASSERTIONS[stateKey(step.state)](step.state, world);
          from = stateKey(step.state);
          continue;
        }
        const exec = (EXECUTORS as Record<string, Executor>)[step.event.type];
        await exec(world, step.event);
        world.expectedError = errorAfter(from, step.event, world.expectedError);
        await ASSERTIONS[stateKey(step.state)](step.state, world);
        from = stateKey(step.state);
      }
    });
  }
});
