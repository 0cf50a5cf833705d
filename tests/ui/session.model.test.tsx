// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { RouteObject } from 'react-router-dom';
import { modelTests, type ModelExecutor } from '../support/chartModel';
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
type Snap = SnapshotFrom<typeof sessionMachine>;

const authorized = status({ authorized: true, has_token: true, session_keys: ['user_id'] });
const loadUserSettles: ModelEvent[] = [
  { type: 'xstate.done.actor.loadUser', output: withIgns },
  { type: 'xstate.done.actor.loadUser', output: withoutIgns },
  { type: 'xstate.error.actor.loadUser', error: new Error('bad profile') },
];
const logoutSettles: ModelEvent[] = [{ type: 'xstate.done.actor.logout' }, { type: 'xstate.error.actor.logout', error: new Error('logout failed') }];

/** What a person, the fake server or the Discord callback can cause in each state (the chart must take each). */
const OFFERED: Record<string, ModelEvent[]> = {
  checking: [
    { type: 'xstate.done.actor.checkAuthStatus', output: authorized },
    { type: 'xstate.done.actor.checkAuthStatus', output: status({ has_token: true }) },
    { type: 'xstate.done.actor.checkAuthStatus', output: status({}) },
    { type: 'xstate.error.actor.checkAuthStatus', error: new Error('down') },
  ],
  unauthenticated: [{ type: 'session.check' }, { type: 'session.devLogin', username: 'alice' }],
  signingIn: [
    { type: 'xstate.done.actor.devLogin' },
    { type: 'xstate.error.actor.devLogin', error: new Error('Username is required.') },
    { type: 'xstate.error.actor.devLogin', error: new Error('') },
  ],
  loadingUser: loadUserSettles,
  refreshing: loadUserSettles,
  userLoadFailed: logoutSettles,
  loggingOut: logoutSettles,
  loggingOutEverywhere: logoutSettles,
  onboardingNeeded: [{ type: 'onboarding.completed' }, { type: 'session.logout' }],
  ready: [{ type: 'session.reload' }, { type: 'session.logout' }, { type: 'session.logoutEverywhere' }],
};

interface World {
  fx: FakeEffects;
  router: { navigate: (to: string) => Promise<void> };
  onboardingFx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** The error the signed-out screen must show, by the docs oracle below (null: none). */
  expectedError: string | null;
}

/** The texts the session chart shows (docs/client.md §2; written here, not read from the chart). */
const LOAD_FAILED_TEXT = 'We could not load your profile, so you have been signed out. Please log in again.';
const SIGN_IN_FAILED_TEXT = 'Sign-in failed.';

/** Spec oracle: the error shown after `event` taken in state `from` (`current`: the error before). */
function errorAfter(from: string, event: ModelEvent, current: string | null): string | null {
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
type Executor = ModelExecutor<World, Snap, ModelEvent>;

const settle = (name: string, how: 'resolve' | 'reject'): Executor => async (w, { event }) => {
  await act(async () => {
    if (how === 'resolve') await w.fx.resolve(name, 'output' in event ? event.output : undefined);
    else await w.fx.reject(name, 'error' in event ? event.error : undefined);
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
  'session.check': async (w) => {
    // The Discord callback landing after a successful sign-in makes the chart look again.
    await act(async () => {
      await w.router.navigate('/auth-callback?auth=success&path=%2Fdashboard');
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

/** Each executor, then the docs oracle's error for the state it leads to. */
const TRACKED = Object.fromEntries(
  Object.entries(EXECUTORS).map(([type, exec]): [string, Executor] => [
    type,
    async (w, step) => {
      await (exec as Executor)(w, step);
      w.expectedError = errorAfter(String(step.prev.value), step.event, w.expectedError);
    },
  ]),
) as typeof EXECUTORS;

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
const ASSERTIONS: Record<string, (s: Snap, w: World) => Promise<void>> = {
  checking: async () => {
    await waitFor(spinnerShown);
  },
  signingIn: async () => {
    await waitFor(() => screen.getByText('Signing you in...'));
  },
  unauthenticated: async (s, w) => {
    await flushDelays();
    // The model's server offers development sign-in only: the status text points to it, never to
    // the disabled Discord button. When the status check itself failed, the page cannot know that
    // and shows the plain texts.
    const dev = s.context.devLogin;
    const texts = dev ? [DEV_WELCOME_TEXT, DEV_EXPIRED_TEXT] : [WELCOME_TEXT, EXPIRED_TEXT];
    const text = texts[s.context.notice === 'expired' ? 1 : 0];
    await waitFor(() => screen.getByText(text));
    for (const other of [WELCOME_TEXT, EXPIRED_TEXT, DEV_WELCOME_TEXT, DEV_EXPIRED_TEXT]) if (other !== text) expect(screen.queryByText(other)).toBeNull();
    expect(screen.queryByLabelText('Username') !== null).toBe(dev);
    // Spec guard: the error text comes from the test's own oracle, not from the chart's context.
    const expected = w.expectedError;
    if (expected) expect(screen.getByText(expected)).toBeTruthy();
    for (const text of [LOAD_FAILED_TEXT, SIGN_IN_FAILED_TEXT, 'Username is required.']) if (text !== expected) expect(screen.queryByText(text)).toBeNull();
    // The model's server has no Discord client (dev sign-in is on): the button is disabled with the reason, so a person is not sent to a sign-in that cannot work.
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

modelTests<Snap, ModelEvent, World>({
  name: 'session',
  machine: sessionMachine,
  // Development sign-in is offered only where the server said it is on.
  events: (s) => OFFERED[String(s.value)].filter((e) => e.type !== 'session.devLogin' || s.context.devLogin),
  // The signed-out screen and the check are told apart by how they were reached too (server down,
  // no session, failed sign-in, logout, signed in), so each way there is driven and asserted; so
  // are the states a refresh and a logout everywhere end in (their answers settle another call).
  serialize: (s, event, prev) =>
    `${JSON.stringify(s.value)}|${s.context.notice}|${s.context.error}|${s.context.user?.igns.length ?? -1}|${s.matches('unauthenticated') || s.matches('checking') ? event?.type : ''}|${
      prev && (prev.matches('refreshing') || prev.matches('loggingOutEverywhere')) && !s.matches(prev.value) ? `after ${String(prev.value)}` : ''
    }`,
  executors: TRACKED,
  assertions: ASSERTIONS,
  dropPrefixPaths: true,
  fakeTimers: true,
  render: () => {
    const fx = new FakeEffects();
    const onboardingFx = new FakeEffects();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderRoutes(testRoutes(onboardingFx), '/dashboard', fakeSessionLogic(fx));
    return { fx, onboardingFx, user, router, expectedError: null };
  },
  guards: (paths) => {
    // The error is part of the state's identity: if the chart stopped setting it, these signed-out
    // states would merge with the plain one and no generated path would show the text.
    const signedOutAfter = (type: string, message?: string) =>
      paths.some((p) => {
        const i = p.steps.findIndex((st) => st.event.type === type && (message === undefined || ('error' in st.event && st.event.error.message === message)));
        return i >= 0 && p.steps.slice(i).some((st) => st.state.matches('unauthenticated') && st.state.context.error !== null);
      });
    expect(signedOutAfter('xstate.error.actor.loadUser')).toBe(true);
    expect(signedOutAfter('xstate.error.actor.devLogin', '')).toBe(true);
  },
});
