// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { AuthStatus } from '../../contract/user';
import { onboardingMachine, type OnboardingEvent } from '../../machines/onboarding.machine';
import { sessionMachine, type LogoutInput } from '../../machines/session.machine';
import { OnboardingPage } from '../../src/features/onboarding/OnboardingPage';
import { MEMBER_NEEDS_CLAN, ONBOARDING_IGN_ERROR, OWNER_NEEDS_NAME, clanSetupError, onboardingIgns } from '../../contract/onboarding';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { fakeUser, renderRoutes } from '../support/render';

/**
 * Model-based test of the onboarding chart (docs/client.md §1; docs/game-rules.md §6, §13) through the rendered
 * page: paths generated from the real chart, each step caused by typing, clicking or settling the
 * page's fake effects, and every state node asserted on the screen.
 */

type Snap = SnapshotFrom<typeof onboardingMachine>;
const CLANS = [{ id: 7, name: 'Iron Legion' }];
const SERVER_ERROR = "A clan named 'Iron Legion' already exists.";

type SyntheticEvent =
  | { type: 'xstate.done.actor.loadClans'; output: typeof CLANS }
  | { type: 'xstate.error.actor.loadClans'; error: Error }
  | { type: 'xstate.done.actor.submitSetup'; output: { ign_count: number } }
  | { type: 'xstate.error.actor.submitSetup'; error: Error };
type ModelEvent = OnboardingEvent | SyntheticEvent;
type EventOf<T extends ModelEvent['type']> = Extract<ModelEvent, { type: T }>;

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}

/** The step-2 choices a person can make: the other roles, the clan name for an owner, a loaded clan for a member. */
function clanChoices(s: Snap): ModelEvent[] {
  const ctx = s.context;
  const list: ModelEvent[] = (['Owner', 'Member', 'None'] as const).filter((role) => role !== ctx.role).map((role) => ({ type: 'clan.roleSelect', role }));
  if (ctx.role === 'Owner') list.push({ type: 'clan.nameChange', value: 'Iron Legion' }, { type: 'clan.nameChange', value: '' });
  if (ctx.role === 'Member' && ctx.clans.length > 0 && !s.matches({ clanStep: 'loadingClans' })) list.push({ type: 'clan.select', clanId: 7 }, { type: 'clan.select', clanId: null });
  return list;
}

/** Events offered in a state: what the screen lets a person (or the fake server) do there. */
function eventsFor(s: Snap): ModelEvent[] {
  if (s.matches('ignStep'))
    return [
      { type: 'ign.change', value: 'Zezima, Lynx Titan, ThirteenChars' },
      { type: 'ign.change', value: ' , ' },
      { type: 'ign.change', value: 'ThirteenChars' },
      { type: 'onboarding.next' },
    ];
  if (s.matches({ clanStep: 'loadingClans' }))
    return [
      ...clanChoices(s),
      { type: 'onboarding.back' },
      { type: 'onboarding.submit' },
      { type: 'xstate.done.actor.loadClans', output: CLANS },
      { type: 'xstate.error.actor.loadClans', error: new Error('down') },
    ];
  if (s.matches('submitting'))
    return [
      { type: 'xstate.done.actor.submitSetup', output: { ign_count: 2 } },
      { type: 'xstate.error.actor.submitSetup', error: new Error(SERVER_ERROR) },
    ];
  if (s.matches('done')) return [];
  return [...clanChoices(s), { type: 'onboarding.back' }, { type: 'onboarding.submit' }];
}

/** Whether the step-2 choice can be sent: a name or a clan changes what the chart does only through this. */
const choiceComplete = (s: Snap) => clanSetupError({ role: s.context.role, clan_name: s.context.clanName, clan_id: s.context.clanId }) === null;

const ROLE_LABEL = { Owner: /Clan Owner/, Member: /Clan Member/, None: /None/ } as const;

const EXECUTORS = {
  'ign.change': async (w, { event }) => {
    const { value } = event as EventOf<'ign.change'>;
    const input = await screen.findByLabelText(/in-game names/i);
    await w.user.clear(input);
    if (value) await w.user.type(input, value);
  },
  'onboarding.next': async (w) => w.user.click(screen.getByRole('button', { name: 'Continue to Clan Setup' })),
  'onboarding.back': async (w) => w.user.click(screen.getByRole('button', { name: 'Back to IGNs' })),
  'clan.roleSelect': async (w, { event }) => {
    await w.user.click(screen.getByRole('radio', { name: ROLE_LABEL[(event as EventOf<'clan.roleSelect'>).role] }));
  },
  'clan.nameChange': async (w, { event }) => {
    const { value } = event as EventOf<'clan.nameChange'>;
    const input = screen.getByLabelText('Clan name');
    await w.user.clear(input);
    if (value) await w.user.type(input, value);
  },
  'clan.select': async (w, { event }) => {
    const { clanId } = event as EventOf<'clan.select'>;
    await w.user.selectOptions(screen.getByLabelText('Clan'), clanId ? String(clanId) : '');
  },
  'onboarding.submit': async (w) => w.user.click(screen.getByRole('button', { name: /Finish Setup & Go to Dashboard|Saving/ })),
  'xstate.done.actor.loadClans': async (w, { event }) => act(() => w.fx.resolve('loadClans', (event as EventOf<'xstate.done.actor.loadClans'>).output)),
  'xstate.error.actor.loadClans': async (w, { event }) => act(() => w.fx.reject('loadClans', (event as EventOf<'xstate.error.actor.loadClans'>).error)),
  'xstate.done.actor.submitSetup': async (w, { event }) => act(() => w.fx.resolve('submitSetup', (event as EventOf<'xstate.done.actor.submitSetup'>).output)),
  'xstate.error.actor.submitSetup': async (w, { event }) => act(() => w.fx.reject('submitSetup', (event as EventOf<'xstate.error.actor.submitSetup'>).error)),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

const errorShown = (error: string | null) => {
  const el = screen.queryByTestId('onboarding-error');
  if (error) expect(el?.textContent).toBe(error);
  else expect(el).toBeNull();
};
/** Step 2 names the IGNs it will not link, so a person sees why one is missing later. */
const droppedShown = (s: Snap) => {
  const el = screen.queryByTestId('onboarding-dropped');
  if (s.context.ignText.includes('ThirteenChars')) expect(el?.textContent).toBe('Not linked (an IGN has 1 to 12 characters): ThirteenChars');
  else expect(el).toBeNull();
};
const roleChecked = (s: Snap) => expect((screen.getByRole('radio', { name: ROLE_LABEL[s.context.role] }) as HTMLInputElement).checked).toBe(true);

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

modelTests<Snap, ModelEvent, World>({
  name: 'onboarding',
  machine: onboardingMachine,
  events: eventsFor,
  // Back to step 1 right after the server refused the setup is a state of its own (the refusal goes).
  serialize: (s, event, prev) =>
    JSON.stringify([
      s.value, 'igns' in onboardingIgns(s.context.ignText), s.context.role, choiceComplete(s), s.context.error, s.context.clans.length,
      event?.type === 'onboarding.back' && prev?.matches('failed') === true && prev.context.error === SERVER_ERROR,
    ]),
  dropPrefixPaths: true,
  executors: EXECUTORS,
  assertions: {
    ignStep: async (s) => {
      await screen.findByRole('button', { name: 'Continue to Clan Setup' });
      errorShown(s.context.error);
    },
    clanStep: async (s) => {
      await screen.findByRole('button', { name: 'Back to IGNs' });
      roleChecked(s);
      errorShown(s.context.error);
      droppedShown(s);
    },
    'clanStep.loadingClans': async (s) => {
      await screen.findByRole('button', { name: 'Finish Setup & Go to Dashboard' });
      if (s.context.role === 'Member') screen.getByRole('option', { name: 'Loading clans...' });
    },
    'clanStep.choosing': async (s) => {
      await screen.findByRole('button', { name: 'Finish Setup & Go to Dashboard' });
      if (s.context.role === 'Member') await screen.findByRole('option', { name: s.context.clans.length ? 'Iron Legion' : 'No existing clans found. Choose another option.' });
    },
    submitting: async () => {
      await screen.findByRole('button', { name: 'Saving...' });
    },
    failed: async (s) => {
      await screen.findByRole('button', { name: 'Finish Setup & Go to Dashboard' });
      errorShown(s.context.error);
    },
    done: async (_s, w) => {
      await waitFor(() => expect(document.querySelector('.spinner')).not.toBeNull());
      expect(screen.queryByRole('heading', { name: 'Initial Setup' })).toBeNull();
      // Only the valid names are sent: the 13-character one is dropped.
      const [payload] = w.fx.calls('submitSetup').at(-1) as [{ igns: string[] }];
      expect(payload.igns).toEqual(['Zezima', 'Lynx Titan']);
    },
  },
  render: () => {
    const fx = new FakeEffects();
    const effects = { loadClans: fx.fn('loadClans'), submitSetup: fx.fn('submitSetup') };
    renderRoutes([{ path: '/onboarding', element: <OnboardingPage effects={effects} /> }, { path: '*', element: <p>elsewhere</p> }], '/onboarding', sessionWithoutIgns());
    return { fx, user: userEvent.setup() };
  },
  guards: (paths) => {
    // Every rule and server error text of the docs is shown on some path.
    const errors = new Set(paths.flatMap((p) => p.steps.map((st) => st.state.context.error)));
    for (const text of [ONBOARDING_IGN_ERROR, OWNER_NEEDS_NAME, MEMBER_NEEDS_CLAN, SERVER_ERROR]) expect(errors.has(text)).toBe(true);
  },
});
