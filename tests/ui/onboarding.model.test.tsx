// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { AuthStatus } from '../../contract/user';
import { TestModel, getShortestPaths } from '../support/graph';
import { onboardingMachine, type OnboardingEvent } from '../../machines/onboarding.machine';
import { sessionMachine, type LogoutInput } from '../../machines/session.machine';
import { OnboardingPage } from '../../src/features/onboarding/OnboardingPage';
import { MEMBER_NEEDS_CLAN, ONBOARDING_IGN_ERROR, OWNER_NEEDS_NAME, onboardingIgns } from '../../contract/onboarding';
import { FakeEffects } from '../support/effects';
import { fakeUser, renderRoutes } from '../support/render';

/** Model-based test of the onboarding chart (docs/client.md §1; docs/game-rules.md §6, §13) through the rendered page. */

const CLANS = [{ id: 7, name: 'Iron Legion' }];
const SERVER_ERROR = "A clan named 'Iron Legion' already exists.";

type SyntheticEvent =
  | { type: 'xstate.done.actor.loadClans'; output: typeof CLANS }
  | { type: 'xstate.error.actor.loadClans'; error: Error }
  | { type: 'xstate.done.actor.submitSetup'; output: { ign_count: number } }
  | { type: 'xstate.error.actor.submitSetup'; error: Error };
type ModelEvent = OnboardingEvent | SyntheticEvent;

/** Events offered in a state: only what the screen lets a person do there. */
function eventsFor(s: any): ModelEvent[] {
  const ctx = s.context;
  const list: ModelEvent[] = [
    { type: 'ign.change', value: 'Zezima, Lynx Titan, ThirteenChars' },
    { type: 'ign.change', value: ' , ' },
    { type: 'ign.change', value: 'ThirteenChars' },
    { type: 'onboarding.next' },
    { type: 'onboarding.back' },
    // Clicking the radio that is already checked changes nothing, so only the others are offered.
    ...(['Owner', 'Member', 'None'] as const).filter((role) => role !== ctx.role).map((role) => ({ type: 'clan.roleSelect' as const, role })),
    { type: 'onboarding.submit' },
    { type: 'xstate.done.actor.loadClans', output: CLANS },
    { type: 'xstate.error.actor.loadClans', error: new Error('down') },
    { type: 'xstate.done.actor.submitSetup', output: { ign_count: 2 } },
    { type: 'xstate.error.actor.submitSetup', error: new Error(SERVER_ERROR) },
  ];
  if (ctx.role === 'Owner') list.push({ type: 'clan.nameChange', value: 'Iron Legion' }, { type: 'clan.nameChange', value: '' });
  if (ctx.role === 'Member' && ctx.clans.length > 0 && !s.matches({ clanStep: 'loadingClans' })) list.push({ type: 'clan.select', clanId: 7 }, { type: 'clan.select', clanId: null });
  return list;
}

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}
type Executor = (w: World, e: any) => Promise<void>;

const EXECUTORS = {
  'ign.change': async (w, e) => {
    const input = await screen.findByLabelText(/in-game names/i);
    await w.user.clear(input);
    if (e.value) await w.user.type(input, e.value);
  },
  'onboarding.next': async (w) => w.user.click(screen.getByRole('button', { name: 'Continue to Clan Setup' })),
  'onboarding.back': async (w) => w.user.click(screen.getByRole('button', { name: 'Back to IGNs' })),
  'clan.roleSelect': async (w, e) => {
    const label = { Owner: /Clan Owner/, Member: /Clan Member/, None: /None/ }[e.role as 'Owner' | 'Member' | 'None'];
    await w.user.click(screen.getByRole('radio', { name: label }));
  },
  'clan.nameChange': async (w, e) => {
    const input = screen.getByLabelText('Clan name');
    await w.user.clear(input);
    if (e.value) await w.user.type(input, e.value);
  },
  'clan.select': async (w, e) => {
    await w.user.selectOptions(screen.getByLabelText('Clan'), e.clanId ? String(e.clanId) : '');
  },
  'onboarding.submit': async (w) => w.user.click(screen.getByRole('button', { name: /Finish Setup & Go to Dashboard|Saving/ })),
  'xstate.done.actor.loadClans': async (w, e) => act(() => w.fx.resolve('loadClans', e.output)),
  'xstate.error.actor.loadClans': async (w, e) => act(() => w.fx.reject('loadClans', e.error)),
  'xstate.done.actor.submitSetup': async (w, e) => act(() => w.fx.resolve('submitSetup', e.output)),
  'xstate.error.actor.submitSetup': async (w, e) => act(() => w.fx.reject('submitSetup', e.error)),
} satisfies Record<ModelEvent['type'], Executor>;

const errorShown = (error: string | null) => {
  const el = screen.queryByTestId('onboarding-error');
  if (error) expect(el?.textContent).toBe(error);
  else expect(el).toBeNull();
};
/** Step 2 names the IGNs it will not link. */
const droppedShown = (s: any) => {
  const el = screen.queryByTestId('onboarding-dropped');
  if (String(s.context.ignText).includes('ThirteenChars')) expect(el?.textContent).toBe('Not linked (an IGN has 1 to 12 characters): ThirteenChars');
  else expect(el).toBeNull();
};
const roleChecked = (role: string) => {
  const label = { Owner: /Clan Owner/, Member: /Clan Member/, None: /None/ }[role as 'Owner'];
  expect((screen.getByRole('radio', { name: label }) as HTMLInputElement).checked).toBe(true);
};

/** What the screen shows in each state node. */
const ASSERTIONS: Record<string, (s: any) => Promise<void>> = {
  ignStep: async (s) => {
    await screen.findByRole('button', { name: 'Continue to Clan Setup' });
    errorShown(s.context.error);
  },
  'clanStep.loadingClans': async (s) => {
    await screen.findByRole('button', { name: 'Finish Setup & Go to Dashboard' });
    roleChecked(s.context.role);
    if (s.context.role === 'Member') screen.getByRole('option', { name: 'Loading clans...' });
    errorShown(s.context.error);
    droppedShown(s);
  },
  'clanStep.choosing': async (s) => {
    await screen.findByRole('button', { name: 'Finish Setup & Go to Dashboard' });
    roleChecked(s.context.role);
    if (s.context.role === 'Member') {
      await screen.findByRole('option', { name: s.context.clans.length ? 'Iron Legion' : 'No existing clans found. Choose another option.' });
    }
    errorShown(s.context.error);
    droppedShown(s);
  },
  submitting: async () => {
    await screen.findByRole('button', { name: 'Saving...' });
  },
  failed: async (s) => {
    await screen.findByRole('button', { name: 'Finish Setup & Go to Dashboard' });
    errorShown(s.context.error);
  },
  done: async () => {
    await waitFor(() => expect(document.querySelector('.spinner')).not.toBeNull());
    expect(screen.queryByRole('heading', { name: 'Initial Setup' })).toBeNull();
  },
};

const stateKey = (s: any): string =>
  typeof s.value === 'string' ? s.value : Object.entries(s.value).map(([k, v]) => `${k}.${v as string}`)[0];

const model = new TestModel(onboardingMachine);
const paths = model.getPaths(
  () =>
    getShortestPaths(onboardingMachine, {
      events: eventsFor as any,
      serializeState: (s: any) =>
        [JSON.stringify(s.value), 'igns' in onboardingIgns(s.context.ignText), s.context.role, s.context.error, s.context.clans.length].join('|'),
    }) as any,
  { allowDuplicatePaths: false },
);

function sessionWithoutIgns() {
  let calls = 0;
  return sessionMachine.provide({
    actors: {
      checkAuthStatus: fromPromise<AuthStatus, void>(async () => ({ authorized: true, has_token: true, session_keys: ['user_id'], error: null, dev_login: false, discord_login: true })),
      // First load: a user with no IGN (onboarding needed); the reload after setup stays pending.
      loadUser: fromPromise(() => (calls++ === 0 ? Promise.resolve(fakeUser({ igns: [] })) : new Promise<never>(() => {}))),
      logout: fromPromise<void, LogoutInput>(async () => undefined),
      devLogin: fromPromise<void, { username: string }>(async () => undefined),
    },
  });
}

describe('onboarding chart through the UI', () => {
  afterEach(cleanup);

  it('reaches and asserts every state node, and covers the spec texts (guard)', () => {
    const leafKeys = ['ignStep', 'clanStep.loadingClans', 'clanStep.choosing', 'submitting', 'failed', 'done'];
    const reached = new Set(paths.flatMap((p: any) => p.steps.map((st: any) => stateKey(st.state))));
    expect([...reached].sort()).toEqual([...leafKeys].sort());
    expect(Object.keys(ASSERTIONS).sort()).toEqual([...leafKeys].sort());
    const errors = new Set(paths.flatMap((p: any) => p.steps.map((st: any) => st.state.context.error)));
    for (const text of [ONBOARDING_IGN_ERROR, OWNER_NEEDS_NAME, MEMBER_NEEDS_CLAN, SERVER_ERROR]) expect(errors.has(text)).toBe(true);
  });

  for (const path of paths as any[]) {
    it(path.description, async () => {
      const fx = new FakeEffects();
      const effects = { loadClans: fx.fn('loadClans'), submitSetup: fx.fn('submitSetup') };
      renderRoutes([{ path: '/onboarding', element: <OnboardingPage effects={effects} /> }, { path: '*', element: <p>elsewhere</p> }], '/onboarding', sessionWithoutIgns());
      const world: World = { fx, user: userEvent.setup() };
      for (const step of path.steps) {
        if (step.event.type !== 'xstate.init') await (EXECUTORS as Record<string, Executor>)[step.event.type](world, step.event);
        await ASSERTIONS[stateKey(step.state)](step.state);
      }
      if (path.state.matches('done')) {
        const [payload] = fx.calls('submitSetup')[0] as [any];
        expect(payload.igns).toEqual(['Zezima', 'Lynx Titan']);
      }
    });
  }
});
