// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { FakeEffects } from '../support/effects';
import {
  commonExecutors,
  dialog,
  expectFailed,
  expectProcessing,
  expectChartStateNodes,
  expectStateNodesCovered,
  expectSucceededDialog,
  fieldChanges,
  pathName,
  pathsOf,
  replaceText,
  type ConfirmExecutor as Executor,
  type ConfirmModelEvent as ModelEvent,
  type ConfirmModelUse,
  type ConfirmPath,
  type ConfirmStateNode,
  type ConfirmSnap as Snap,
  type ConfirmWorld as World,
  untypedRule,
} from '../support/confirmActionModel';
import { fakeUser, renderRoutes } from '../support/render';
import { sessionMachine, type LogoutInput } from '../../machines/session.machine';
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

const USER: User = fakeUser({
  id: 1,
  username: 'Olga',
  discord_username: 'olga_discord',
  igns: [{ id: 11, ign: 'OlgaMain' }],
  clan_memberships_list: [{ clan_id: 7, name: 'Iron Snakes', role: 'Member', joined_at: '2026-01-02T10:00:00.000Z' }],
  can_create_clan: true,
});

/** One use of the chart on the profile page. */
interface Use {
  name: string;
  title: string;
  confirmLabel: string;
  processingText: string;
  validate?: (draft: Record<string, unknown>) => string | null;
  /** The `confirm.open` the trigger sends. */
  open: ConfirmModelUse['open'];
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
    validate: untypedRule(validateIgnLink),
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
    validate: untypedRule(validateIgnEdit),
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
    validate: untypedRule(validateClanCreate),
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

/** The use as the path generator sees it: its one field's values, submit always offered. */
function modelOf(use: Use): ConfirmModelUse {
  return {
    validate: use.validate,
    open: use.open,
    changes: (s) => fieldChanges(s, use.field ? { [use.field.name]: use.field.values } : {}),
    canSubmit: () => true,
    doneMessage: () => use.done.message,
    failureMessage: use.failure.message,
  };
}

/** What the screen shows in each state node of the chart. */
function assertions(use: Use, w: World): Record<ConfirmStateNode, (s: Snap) => Promise<void>> {
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
    processing: () => expectProcessing(use),
    succeeded: async (s) => {
      await expectSucceededDialog(s, { retryHidden: true });
      use.calls(w);
      // On success the session's user is loaded again (session.reload).
      await waitFor(() => expect(w.loads()).toBe(2));
    },
    failed: (s) => expectFailed(s, w),
  };
}

/** How each event is caused through the page. */
function executors(use: Use, w: World) {
  return {
    ...commonExecutors(w, () => use.trigger(w)),
    'confirm.change': async ({ event }) => {
      if (event.type !== 'confirm.change') return;
      await replaceText(w, within(dialog()).getByLabelText(use.field!.label), event.value);
    },
    'confirm.submit': async () => w.user.click(within(dialog()).getByRole('button', { name: use.confirmLabel })),
    'xstate.done.actor.performAction': async () => use.done.settle(w),
    'xstate.error.actor.performAction': async () => use.failure.settle(w),
  } satisfies Record<ModelEvent['type'], Executor>;
}

/** A session signed in as USER; counts the user loads (the first, then one per session.reload). */
function countingSession() {
  let loads = 0;
  const logic = sessionMachine.provide({
    actors: {
      checkAuthStatus: fromPromise<AuthStatus, void>(async () => ({ authorized: true, has_token: true, session_keys: ['user_id'], error: null, dev_login: false })),
      loadUser: fromPromise<User, void>(async () => {
        loads += 1;
        return USER;
      }),
      logout: fromPromise<void, LogoutInput>(async () => undefined),
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

const short = (path: ConfirmPath) => pathName(path, (event) => `change(${JSON.stringify(event.value)})`);

describe('confirmAction chart through the profile page', () => {
  afterEach(cleanup);

  const all = USES.map((use) => ({ use, paths: pathsOf(modelOf(use)) }));

  it('reaches every state node for every use, and every node has an assertion (guard)', () => {
    const w = { fx: new FakeEffects(), user: userEvent.setup(), loads: () => 0 };
    for (const { use, paths } of all) {
      expectStateNodesCovered(use.name, paths, assertions(use, w));
      expectChartStateNodes();
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
