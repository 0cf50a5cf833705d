// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { FakeEffects } from '../support/effects';
import { answering, dialog, expectFailed, expectProcessing, expectSucceeded, failing, fieldChanges, modalExecutors, modalSuite, modalTexts, replaceText, untypedRule } from '../support/confirmActionModel';
import type { ConfirmExecutor as Executor, ConfirmModelUse, ConfirmStateNode, ConfirmSnap as Snap, ConfirmWorld as World, ModalUse } from '../support/confirmActionModel';
import { countingSession, fakeUser, renderRoutes } from '../support/render';
import type { User } from '../../contract/user';
import { ProfilePage, type ProfileEffects } from '../../src/features/profile/ProfilePage';
import { linkLines, validateClanCreate, validateDeleteAccount, validateIgnEdit, validateIgnLink } from '../../src/features/profile/profileActions';
import { DATA_RIGHTS_TEXTS } from '../../contract/dataRights';
import { ApiRequestError } from '../../src/api/client';

/**
 * Model-based test of the confirmAction chart (docs/flows.md §3: confirm,
 * processing, result message, close) through the rendered ProfilePage, for each of its six uses:
 * link IGNs, edit IGN, delete IGN, leave clan, create clan, delete account (typed username; a
 * success signs out and leaves for /, docs/server.md §18). Paths are generated from the chart
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

/** One use of the chart on the profile page, with its form field (when it has one) and the values a person types in it. */
interface Use extends ModalUse<World> {
  field?: { name: string; label: string; values: string[] };
  /** A success leaves the profile for / (the account is gone). */
  leaves?: boolean;
}

const click = (w: World, name: string | RegExp) => w.user.click(screen.getByRole('button', { name }));
const api = (message: string, status = 409) => new ApiRequestError(message, status);

const USES: Use[] = [
  {
    ...modalTexts('link IGNs', 'Link New IGNs', 'Link IGNs', 'Linking IGNs...'),
    validate: untypedRule(validateIgnLink),
    open: { type: 'confirm.open', draft: { text: '' } },
    trigger: (w) => click(w, 'Link New IGNs'),
    field: { name: 'text', label: 'New IGNs, separated by commas', values: ['', ' , ', 'Zezima, Lynx'] },
    done: {
      message: () => [linkLines.linked('Zezima'), linkLines.failed('Lynx', 'You already linked Lynx.')].join('\n'),
      settle: async (w) => {
        await act(() => w.fx.resolve('linkIgn', { id: 20, ign: 'Zezima' }));
        await act(() => w.fx.reject('linkIgn', api('You already linked Lynx.')));
      },
      // Lynx failed: the result stays in the modal as a warning.
      partial: true,
    },
    failure: {
      message: [linkLines.failed('Zezima', 'IGN must be at most 12 characters.'), linkLines.failed('Lynx', 'Network error. Failed to connect to the server.')].join('\n'),
      settle: async (w) => {
        await act(() => w.fx.reject('linkIgn', api('IGN must be at most 12 characters.', 400)));
        await act(() => w.fx.reject('linkIgn', api('Network error. Failed to connect to the server.', 0)));
      },
    },
    // One call per IGN (docs/game-rules.md §13); Lynx failed, so the result is a warning, not a success.
    calls: (w) => {
      expect(w.fx.calls('linkIgn')).toEqual([['Zezima'], ['Lynx']]);
      expect(within(dialog()).getByRole('status').className).toBe('notice notice--warning');
    },
  },
  {
    ...modalTexts('edit IGN', 'Edit IGN', 'Save IGN', 'Saving IGN...'),
    validate: untypedRule(validateIgnEdit),
    open: { type: 'confirm.open', subject: { id: 11, ign: 'OlgaMain' }, draft: { ign: 'OlgaMain', current: 'OlgaMain' } },
    trigger: (w) => click(w, 'Edit IGN OlgaMain'),
    field: { name: 'ign', label: 'New IGN', values: ['', 'OlgaNew'] },
    done: answering('editIgn', 'IGN OlgaMain was changed to OlgaNew.', { id: 11, ign: 'OlgaNew' }),
    failure: failing('editIgn', 'You already linked OlgaNew.', 409),
    calls: (w) => expect(w.fx.calls('editIgn')).toEqual([[11, 'OlgaNew']]),
  },
  {
    ...modalTexts('delete IGN', 'Delete IGN', 'Delete IGN', 'Deleting IGN...'),
    open: { type: 'confirm.open', subject: { id: 11, ign: 'OlgaMain' } },
    trigger: (w) => click(w, 'Delete IGN OlgaMain'),
    done: answering('deleteIgn', 'IGN OlgaMain was deleted.'),
    failure: failing('deleteIgn', 'OlgaMain is on a team of a game that is not finished.', 409),
    calls: (w) => expect(w.fx.calls('deleteIgn')).toEqual([[11]]),
  },
  {
    ...modalTexts('leave clan', 'Leave Clan', 'Leave Clan', 'Leaving clan...'),
    open: { type: 'confirm.open', subject: { clanId: 7, userId: 1, name: 'Iron Snakes' } },
    trigger: (w) => click(w, 'Leave Clan Iron Snakes'),
    done: answering('leaveClan', 'You have left Iron Snakes.'),
    failure: failing('leaveClan', 'Failed to leave clan. Check if you are the sole Owner/Admin. Please retry.', 500),
    calls: (w) => expect(w.fx.calls('leaveClan')).toEqual([[7, 1]]),
  },
  {
    ...modalTexts('create clan', 'Create New Clan', 'Create Clan', 'Creating clan...'),
    validate: untypedRule(validateClanCreate),
    open: { type: 'confirm.open', draft: { name: '' } },
    trigger: (w) => click(w, 'Create New Clan'),
    field: { name: 'name', label: 'Clan name', values: ['', 'Iron Ladders'] },
    done: answering('createClan', 'Clan Iron Ladders was created. You are its Owner.', 9),
    failure: failing('createClan', 'Clan limit reached: you already own 3 clans.', 409),
    calls: (w) => expect(w.fx.calls('createClan')).toEqual([['Iron Ladders']]),
  },
  {
    ...modalTexts('delete account', 'Delete account', 'Delete account', 'Deleting account...'),
    validate: untypedRule(validateDeleteAccount),
    open: { type: 'confirm.open', draft: { typed: '', username: 'Olga' } },
    trigger: (w) => click(w, 'Delete account'),
    field: { name: 'typed', label: 'Type your username to confirm', values: ['', 'olga', 'Olga'] },
    done: answering('deleteAccount', DATA_RIGHTS_TEXTS.deleted),
    failure: failing('deleteAccount', DATA_RIGHTS_TEXTS.soleOwner('Iron Snakes'), 409),
    calls: (w) => expect(w.fx.calls('deleteAccount')).toEqual([['Olga']]),
    leaves: true,
  },
];

/** The use as the path generator sees it: its one field's values, submit always offered. */
function modelOf(use: Use): ConfirmModelUse {
  return {
    validate: use.validate,
    open: use.open,
    changes: (s) => fieldChanges(s, use.field ? { [use.field.name]: use.field.values } : {}),
    canSubmit: () => true,
    doneMessage: use.done.message,
    failureMessage: use.failure.message,
    // The profile keeps its buttons after a success, except a deleted IGN's and a left clan's.
    reopens: !/delete|leave/i.test(use.name),
    leaves: use.leaves,
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
    // On success the session's user is loaded again (session.reload).
    // A deleted account: signed out and on the landing page (here the catch-all route).
    succeeded: async (s) => {
      if (!use.leaves) return expectSucceeded(use, w, s, true);
      await screen.findByText('elsewhere');
      expect(screen.queryByRole('dialog')).toBeNull();
      use.calls(w, s.context.draft);
    },
    failed: (s) => expectFailed(s, w),
  };
}

/** How each event is caused through the page. */
function executors(use: Use, w: World): Record<string, Executor> {
  return modalExecutors(use, w, async ({ event }) => {
    if (event.type === 'confirm.change') await replaceText(w, within(dialog()).getByLabelText(use.field!.label), event.value);
  });
}

async function renderProfile(): Promise<World> {
  const fx = new FakeEffects();
  const effects: ProfileEffects = {
    linkIgn: fx.fn('linkIgn'),
    editIgn: fx.fn('editIgn'),
    deleteIgn: fx.fn('deleteIgn'),
    leaveClan: fx.fn('leaveClan'),
    createClan: fx.fn('createClan'),
    deleteAccount: fx.fn('deleteAccount'),
  };
  const session = countingSession(USER);
  renderRoutes([{ path: '/profile', element: <ProfilePage effects={effects} /> }, { path: '*', element: <p>elsewhere</p> }], '/profile', session.logic);
  await screen.findByRole('heading', { name: 'Olga' });
  return { fx, user: userEvent.setup(), loads: session.loads };
}

modalSuite('confirmAction chart through the profile page', USES, {
  model: modelOf,
  assertions,
  executors,
  render: renderProfile,
  idle: () => ({ fx: new FakeEffects(), user: userEvent.setup(), loads: () => 0 }),
  change: (event) => `change(${JSON.stringify(event.value)})`,
  guard: {
    name: 'covers the spec validation texts and every cancel/close edge (guard)',
    check: (all) => {
      const errors = new Set(all.flatMap(({ paths }) => paths.flatMap((p) => p.steps.map((st) => st.state.context.error))));
      // The documented texts, verbatim (docs/game-rules.md §13).
      for (const text of [
        'IGN field cannot be empty. Please enter a name.',
        'No valid IGNs found. Please enter names separated by commas.',
        'New IGN field cannot be empty. Please enter a name.',
        'The new IGN is the same as the current one. No change was made.',
        'Clan name cannot be empty. Please enter a name.',
        'Type your username to confirm.',
      ]) {
        expect(errors.has(text), text).toBe(true);
      }
      for (const { use, paths } of all) {
        const edges = new Set(paths.flatMap((p) => p.steps.slice(1).map((st, i) => `${JSON.stringify(p.steps[i].state.value)} ${st.event.type}`)));
        // A full success's banner is only dismissed (confirm.close); a partial one's modal also takes Esc.
        const cancelFromResult = use.done.partial ? ['"succeeded" confirm.cancel'] : [];
        // A deleted account's success leaves the page: no banner to close.
        const closeResult = use.leaves ? [] : ['"succeeded" confirm.close'];
        for (const edge of ['"confirming" confirm.cancel', ...closeResult, ...cancelFromResult, '"failed" confirm.close', '"failed" confirm.cancel', '"failed" confirm.retry']) {
          expect(edges.has(edge), `${use.name}: ${edge}`).toBe(true);
        }
      }
    },
  },
});
