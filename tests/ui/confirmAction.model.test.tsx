// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { assign, fromPromise, type SnapshotFrom } from 'xstate';
import { TestModel, getShortestPaths, type TestPath } from '../support/graph';
import { FakeEffects } from '../support/effects';
import { fakeUser, renderRoutes } from '../support/render';
import { confirmActionMachine, type ConfirmActionEvent } from '../../machines/confirmAction.machine';
import { sessionMachine } from '../../machines/session.machine';
import type { AuthStatus, User } from '../../contract/user';
import { ProfilePage, type ProfileEffects } from '../../src/features/profile/ProfilePage';
import { linkLines, validateClanCreate, validateIgnEdit, validateIgnLink } from '../../src/features/profile/profileActions';
import { ApiRequestError } from '../../src/api/client';

/**
 * Model-based test of the confirmAction chart (product-spec section 4 "Modal flows": confirm,
 * processing, result message, close) through the rendered ProfilePage, for each of its five uses:
 * link IGNs, edit IGN, delete IGN, leave clan, create clan. Paths are generated from the chart
 * (given each use's validation guard, as the page gives it) and driven by clicking and typing.
 */

type Snap = SnapshotFrom<typeof confirmActionMachine>;
type Done = { type: 'xstate.done.actor.performAction'; output: { message: string } };
type Failed = { type: 'xstate.error.actor.performAction'; error: Error };
type ModelEvent = ConfirmActionEvent | Done | Failed;

const USER: User = fakeUser({
  id: 1,
  username: 'Olga',
  discord_username: 'olga_discord',
  igns: [{ id: 11, ign: 'OlgaMain' }],
  clan_memberships_list: [{ clan_id: 7, name: 'Iron Snakes', role: 'Member', joined_at: '2026-01-02T10:00:00.000Z' }],
  can_create_clan: true,
});

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  loads: () => number;
}

/** One use of the chart on the profile page. */
interface Use {
  name: string;
  title: string;
  confirmLabel: string;
  processingText: string;
  validate?: (draft: Record<string, unknown>) => string | null;
  /** The `confirm.open` the trigger sends. */
  open: Extract<ConfirmActionEvent, { type: 'confirm.open' }>;
  /** Opens the modal through the page. */
  trigger: (w: World) => Promise<void>;
  /** The form field, when the modal has one, and the values a person types in it. */
  field?: { name: string; label: string; values: string[] };
  /** The success message and how the fake calls are settled for it. */
  done: { message: string; settle: (w: World) => Promise<void> };
  failure: { message: string; settle: (w: World) => Promise<void> };
  /** The calls expected once the action succeeded. */
  calls: (w: World) => void;
}

const click = (w: World, name: string | RegExp) => w.user.click(screen.getByRole('button', { name }));
const api = (message: string, status = 409) => new ApiRequestError(message, status);

const USES: Use[] = [
  {
    name: 'link IGNs',
    title: 'Link New IGNs',
    confirmLabel: 'Link IGNs',
    processingText: 'Linking IGNs...',
    validate: validateIgnLink,
    open: { type: 'confirm.open', draft: { text: '' } },
    trigger: (w) => click(w, 'Link New IGNs'),
    field: { name: 'text', label: 'New IGNs, separated by commas', values: ['', ' , ', 'Zezima, Lynx'] },
    done: {
      message: [linkLines.linked('Zezima'), linkLines.failed('Lynx', 'You already linked Lynx.')].join('\n'),
      settle: async (w) => {
        await act(() => w.fx.resolve('linkIgn', { id: 20, ign: 'Zezima' }));
        await act(() => w.fx.reject('linkIgn', api('You already linked Lynx.')));
      },
    },
    failure: {
      message: [linkLines.failed('Zezima', 'IGN must be at most 12 characters.'), linkLines.failed('Lynx', 'Network error. Failed to connect to the server.')].join('\n'),
      settle: async (w) => {
        await act(() => w.fx.reject('linkIgn', api('IGN must be at most 12 characters.', 400)));
        await act(() => w.fx.reject('linkIgn', api('Network error. Failed to connect to the server.', 0)));
      },
    },
    // One call per IGN (product-spec section 5 IGNs).
    calls: (w) => expect(w.fx.calls('linkIgn')).toEqual([['Zezima'], ['Lynx']]),
  },
  {
    name: 'edit IGN',
    title: 'Edit IGN',
    confirmLabel: 'Save IGN',
    processingText: 'Saving IGN...',
    validate: validateIgnEdit,
    open: { type: 'confirm.open', subject: { id: 11, ign: 'OlgaMain' }, draft: { ign: 'OlgaMain', current: 'OlgaMain' } },
    trigger: (w) => click(w, 'Edit IGN OlgaMain'),
    field: { name: 'ign', label: 'New IGN', values: ['', 'OlgaNew'] },
    done: { message: 'IGN OlgaMain was changed to OlgaNew.', settle: (w) => act(() => w.fx.resolve('editIgn', { id: 11, ign: 'OlgaNew' })) },
    failure: { message: 'You already linked OlgaNew.', settle: (w) => act(() => w.fx.reject('editIgn', api('You already linked OlgaNew.'))) },
    calls: (w) => expect(w.fx.calls('editIgn')).toEqual([[11, 'OlgaNew']]),
  },
  {
    name: 'delete IGN',
    title: 'Delete IGN',
    confirmLabel: 'Delete IGN',
    processingText: 'Deleting IGN...',
    open: { type: 'confirm.open', subject: { id: 11, ign: 'OlgaMain' } },
    trigger: (w) => click(w, 'Delete IGN OlgaMain'),
    done: { message: 'IGN OlgaMain was deleted.', settle: (w) => act(() => w.fx.resolve('deleteIgn')) },
    failure: {
      message: 'OlgaMain is on a team of a game that is not finished.',
      settle: (w) => act(() => w.fx.reject('deleteIgn', api('OlgaMain is on a team of a game that is not finished.'))),
    },
    calls: (w) => expect(w.fx.calls('deleteIgn')).toEqual([[11]]),
  },
  {
    name: 'leave clan',
    title: 'Leave Clan',
    confirmLabel: 'Leave Clan',
    processingText: 'Leaving clan...',
    open: { type: 'confirm.open', subject: { clanId: 7, userId: 1, name: 'Iron Snakes' } },
    trigger: (w) => click(w, 'Leave Clan Iron Snakes'),
    done: { message: 'You have left Iron Snakes.', settle: (w) => act(() => w.fx.resolve('leaveClan')) },
    failure: {
      message: 'Failed to leave clan. Check if you are the sole Owner/Admin. Please retry.',
      settle: (w) => act(() => w.fx.reject('leaveClan', api('Failed to leave clan. Check if you are the sole Owner/Admin. Please retry.', 500))),
    },
    calls: (w) => expect(w.fx.calls('leaveClan')).toEqual([[7, 1]]),
  },
  {
    name: 'create clan',
    title: 'Create New Clan',
    confirmLabel: 'Create Clan',
    processingText: 'Creating clan...',
    validate: validateClanCreate,
    open: { type: 'confirm.open', draft: { name: '' } },
    trigger: (w) => click(w, 'Create New Clan'),
    field: { name: 'name', label: 'Clan name', values: ['', 'Iron Ladders'] },
    done: { message: 'Clan Iron Ladders was created. You are its Owner.', settle: (w) => act(() => w.fx.resolve('createClan', 9)) },
    failure: {
      message: 'Clan limit reached: you already own 3 clans.',
      settle: (w) => act(() => w.fx.reject('createClan', api('Clan limit reached: you already own 3 clans.'))),
    },
    calls: (w) => expect(w.fx.calls('createClan')).toEqual([['Iron Ladders']]),
  },
];

/** The chart as a use runs it: the use's validation is the `isDraftValid` guard (as useConfirmAction provides it). */
function chartOf(use: Use) {
  return confirmActionMachine.provide({
    guards: { isDraftValid: ({ context }) => !use.validate || use.validate(context.draft) === null },
    actions: { assignValidationError: assign(({ context }) => ({ error: use.validate?.(context.draft) ?? null })) },
  });
}

/** Events a person (or the fake server) can cause in a state of this use. */
function eventsFor(use: Use) {
  return (s: Snap): ModelEvent[] => {
    if (s.matches('closed')) return [use.open];
    if (s.matches('confirming')) {
      const draft = use.field ? String(s.context.draft[use.field.name] ?? '') : '';
      const changes = (use.field?.values ?? [])
        .filter((value) => value !== draft)
        .map((value) => ({ type: 'confirm.change' as const, field: use.field!.name, value }));
      return [...changes, { type: 'confirm.submit' }, { type: 'confirm.cancel' }];
    }
    if (s.matches('processing')) {
      return [
        { type: 'xstate.done.actor.performAction', output: { message: use.done.message } },
        { type: 'xstate.error.actor.performAction', error: new Error(use.failure.message) },
      ];
    }
    if (s.matches('succeeded')) return [{ type: 'confirm.close' }, { type: 'confirm.cancel' }];
    return [{ type: 'confirm.retry' }, { type: 'confirm.close' }, { type: 'confirm.cancel' }];
  };
}

/**
 * States are told apart by value, draft and error; a return to `closed` also keeps the edge it
 * came by, so every close and cancel edge gets its own path.
 */
function serializeState(s: Snap, event: ModelEvent | undefined, prev: Snap | undefined): string {
  const base = JSON.stringify([s.value, s.context.draft, s.context.error]);
  return s.matches('closed') && event && prev ? `${base} via ${event.type} from ${JSON.stringify(prev.value)}` : base;
}

const STATE_NODES = ['closed', 'confirming', 'processing', 'succeeded', 'failed'] as const;

function pathsOf(use: Use): TestPath<Snap, ModelEvent>[] {
  const machine = chartOf(use);
  const model = new TestModel(machine, { stateMatcher: (s: Snap, key: string) => s.matches(key as (typeof STATE_NODES)[number]) });
  return model.getPaths(
    () => getShortestPaths(machine, { events: eventsFor(use) as never, serializeState: serializeState as never }) as never,
    { allowDuplicatePaths: false },
  ) as unknown as TestPath<Snap, ModelEvent>[];
}

const dialog = () => screen.getByRole('dialog');

/** What the screen shows in each state node of the chart. */
function assertions(use: Use, w: World): Record<(typeof STATE_NODES)[number], (s: Snap) => Promise<void>> {
  return {
    closed: async () => {
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    },
    confirming: async (s) => {
      const d = await screen.findByRole('dialog');
      within(d).getByRole('heading', { name: use.title });
      expect(within(d).getByRole('button', { name: use.confirmLabel }).hasAttribute('disabled')).toBe(false);
      if (use.field) expect((within(d).getByLabelText(use.field.label) as HTMLInputElement).value).toBe(String(s.context.draft[use.field.name] ?? ''));
      if (s.context.error) expect(within(d).getByRole('alert').textContent).toBe(s.context.error);
      else expect(within(d).queryByRole('alert')).toBeNull();
    },
    processing: async () => {
      const d = dialog();
      within(d).getByText(use.processingText);
      expect(within(d).getByRole('button', { name: use.confirmLabel }).hasAttribute('disabled')).toBe(true);
      expect(within(d).getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
    },
    succeeded: async (s) => {
      const d = await screen.findByRole('dialog');
      await waitFor(() => expect(within(d).getByRole('status').textContent).toBe(s.context.result));
      within(d).getByRole('button', { name: 'Close' });
      expect(within(d).queryByRole('button', { name: 'Retry' })).toBeNull();
      use.calls(w);
      // On success the session's user is loaded again (session.refresh).
      await waitFor(() => expect(w.loads()).toBe(2));
    },
    failed: async (s) => {
      const d = await screen.findByRole('dialog');
      await waitFor(() => expect(within(d).getByRole('alert').textContent).toBe(s.context.error));
      within(d).getByRole('button', { name: 'Retry' });
      within(d).getByRole('button', { name: 'Close' });
      expect(w.loads()).toBe(1);
    },
  };
}

type Executor = (step: { event: ModelEvent; state: Snap }) => Promise<void>;

/** How each event is caused through the page. */
function executors(use: Use, w: World) {
  return {
    'confirm.open': async () => use.trigger(w),
    'confirm.change': async ({ event }) => {
      if (event.type !== 'confirm.change') return;
      const input = within(dialog()).getByLabelText(use.field!.label);
      await w.user.clear(input);
      if (event.value) {
        await w.user.click(input);
        await w.user.paste(String(event.value));
      }
    },
    'confirm.submit': async () => w.user.click(within(dialog()).getByRole('button', { name: use.confirmLabel })),
    // Cancel is the button while confirming, Esc on the result step (which has no Cancel button).
    'confirm.cancel': async () => {
      const cancel = within(dialog()).queryByRole('button', { name: 'Cancel' });
      if (cancel) await w.user.click(cancel);
      else await w.user.keyboard('{Escape}');
    },
    'confirm.retry': async () => w.user.click(within(dialog()).getByRole('button', { name: 'Retry' })),
    'confirm.close': async () => w.user.click(within(dialog()).getByRole('button', { name: 'Close' })),
    'xstate.done.actor.performAction': async () => use.done.settle(w),
    'xstate.error.actor.performAction': async () => use.failure.settle(w),
  } satisfies Record<ModelEvent['type'], Executor>;
}

/** A session signed in as USER; counts the user loads (the first, then one per session.refresh). */
function countingSession() {
  let loads = 0;
  const logic = sessionMachine.provide({
    actors: {
      checkAuthStatus: fromPromise<AuthStatus, void>(async () => ({ authorized: true, has_token: true, session_keys: ['user_id'], error: null, dev_login: false })),
      loadUser: fromPromise<User, void>(async () => {
        loads += 1;
        return USER;
      }),
      logout: fromPromise<void, void>(async () => undefined),
    },
  });
  return { logic, loads: () => loads };
}

function renderProfile(): World {
  const fx = new FakeEffects();
  const effects: ProfileEffects = {
    linkIgn: fx.fn('linkIgn'),
    editIgn: fx.fn('editIgn'),
    deleteIgn: fx.fn('deleteIgn'),
    leaveClan: fx.fn('leaveClan'),
    createClan: fx.fn('createClan'),
  };
  const session = countingSession();
  renderRoutes([{ path: '/profile', element: <ProfilePage effects={effects} /> }, { path: '*', element: <p>elsewhere</p> }], '/profile', session.logic);
  return { fx, user: userEvent.setup(), loads: session.loads };
}

const short = (path: TestPath<Snap, ModelEvent>) =>
  path.steps
    .slice(1)
    .map(({ event }) => (event.type === 'confirm.change' ? `change(${JSON.stringify(event.value)})` : event.type.replace('xstate.', '').replace('.actor.performAction', '')))
    .join(' → ');

describe('confirmAction chart through the profile page', () => {
  afterEach(cleanup);

  const all = USES.map((use) => ({ use, paths: pathsOf(use) }));

  it('reaches every state node for every use, and every node has an assertion (guard)', () => {
    const w = { fx: new FakeEffects(), user: userEvent.setup(), loads: () => 0 };
    for (const { use, paths } of all) {
      const reached = new Set<string>();
      for (const p of paths) for (const st of p.steps) for (const key of STATE_NODES) if (st.state.matches(key)) reached.add(key);
      expect([...reached].sort(), use.name).toEqual([...STATE_NODES].sort());
      expect(Object.keys(assertions(use, w)).sort()).toEqual([...STATE_NODES].sort());
      expect(Object.keys(confirmActionMachine.states).sort()).toEqual([...STATE_NODES].sort());
    }
  });

  it('covers the spec validation texts and every cancel/close edge (guard)', () => {
    const errors = new Set(all.flatMap(({ paths }) => paths.flatMap((p) => p.steps.map((st) => st.state.context.error))));
    // The spec's texts, verbatim (product-spec section 5 IGNs and Clans).
    for (const text of [
      'IGN field cannot be empty. Please enter a name.',
      'No valid IGNs found. Please enter names separated by commas.',
      'New IGN field cannot be empty. Please enter a name.',
      'The new IGN is the same as the current one. No change was made.',
      'Clan name cannot be empty. Please enter a name.',
    ]) {
      expect(errors.has(text), text).toBe(true);
    }
    for (const { use, paths } of all) {
      const edges = new Set(paths.flatMap((p) => p.steps.slice(1).map((st, i) => `${JSON.stringify(p.steps[i].state.value)} ${st.event.type}`)));
      for (const edge of ['"confirming" confirm.cancel', '"succeeded" confirm.close', '"succeeded" confirm.cancel', '"failed" confirm.close', '"failed" confirm.cancel', '"failed" confirm.retry']) {
        expect(edges.has(edge), `${use.name}: ${edge}`).toBe(true);
      }
    }
  });

  for (const { use, paths } of all) {
    describe(use.name, () => {
      for (const path of paths) {
        it(short(path), async () => {
          const w = renderProfile();
          await screen.findByRole('heading', { name: 'Olga' });
          await path.test({
            events: executors(use, w) as never,
            states: assertions(use, w) as never,
          });
        });
      }
    });
  }
});
