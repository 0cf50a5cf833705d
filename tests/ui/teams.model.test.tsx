// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
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
  walkPath,
  type ConfirmExecutor as Executor,
  type ConfirmModelEvent as ModelEvent,
  type ConfirmModelUse,
  type ConfirmPath,
  type ConfirmStateNode,
  type ConfirmSnap as Snap,
  type ConfirmWorld,
  untypedRule,
} from '../support/confirmActionModel';
import { TEAM_NAME_REQUIRED, teamCreatedMessage, teamDeletedMessage, teamUpdatedMessage, type Team } from '../../contract/team';
import { EventTeamsView, type TeamsEffects } from '../../src/features/teams/EventTeamsView';
import { validateTeamDraft } from '../../src/features/teams/TeamFormFields';
import { asTeamDraft, editTeamDraft, newTeamDraft, teamBody } from '../../src/features/teams/teamForm';
import { ApiRequestError } from '../../src/api/client';

/**
 * Model-based test of the confirmAction chart (product-spec section 4 "Modal flows") through the
 * rendered Event Teams view, for its three modals: Create New Team, Edit Team and the delete
 * confirmation (product-spec sections 2 Event Teams view, 5 Teams, 8 Teams). Paths come from the
 * chart with the team form rule as the `isDraftValid` guard; the executors click and type (the hex
 * colour through react-colorful's input, whose 100 ms debounce is flushed when it loses focus).
 */

const CLAN_ID = 7;
const EVENT_ID = 3;
const BLUE: Team = { id: 5, name: 'Blue Wizards', color: '#2a5db0', member_count: 2 };

interface World extends ConfirmWorld {
  /** What the fake server holds; fetchTeams answers it at once. */
  store: Team[];
}

type FieldName = 'name' | 'color';
const LABELS: Record<FieldName, string> = { name: 'Team Name', color: 'Team Colour (hex)' };

interface Use {
  name: string;
  title: string;
  confirmLabel: string;
  processingText: string;
  validate?: (draft: Record<string, unknown>) => string | null;
  open: ConfirmModelUse['open'];
  trigger: (w: World) => Promise<void>;
  fields?: Record<FieldName, string[]>;
  doneMessage: (draft: Record<string, unknown>) => string;
  settleDone: (w: World, draft: Record<string, unknown>) => Promise<void>;
  failure: { message: string; call: string };
  calls: (w: World, draft: Record<string, unknown>) => void;
}

const api = (message: string, status = 500) => new ApiRequestError(message, status);
const click = (w: World, name: string) => w.user.click(screen.getByRole('button', { name }));

const USES: Use[] = [
  {
    name: 'create team',
    title: 'Create New Team',
    confirmLabel: 'Create Team',
    processingText: 'Creating team...',
    validate: untypedRule(validateTeamDraft),
    open: { type: 'confirm.open', draft: { ...newTeamDraft() } },
    trigger: (w) => click(w, 'Create New Team'),
    fields: { name: ['Red Dragons', '   '], color: ['#c0392b'] },
    doneMessage: (draft) => teamCreatedMessage(asTeamDraft(draft).name.trim()),
    settleDone: async (w, draft) => {
      const body = teamBody(asTeamDraft(draft));
      const team: Team = { id: 6, ...body, member_count: 0 };
      w.store.push(team);
      await act(() => w.fx.resolve('createTeam', { team, message: teamCreatedMessage(team.name) }));
    },
    failure: { message: 'Failed to create team.', call: 'createTeam' },
    calls: (w, draft) => expect(w.fx.calls('createTeam')).toEqual([[CLAN_ID, EVENT_ID, teamBody(asTeamDraft(draft))]]),
  },
  {
    name: 'edit team',
    title: 'Edit Team',
    confirmLabel: 'Update Team',
    processingText: 'Updating team...',
    validate: untypedRule(validateTeamDraft),
    open: { type: 'confirm.open', subject: { teamId: BLUE.id, name: BLUE.name }, draft: { ...editTeamDraft(BLUE) } },
    trigger: (w) => click(w, `Edit ${w.store[0].name}`),
    fields: { name: ['', 'Green Goblins'], color: ['#1e8449'] },
    doneMessage: (draft) => teamUpdatedMessage(asTeamDraft(draft).name.trim()),
    settleDone: async (w, draft) => {
      const team: Team = { ...BLUE, ...teamBody(asTeamDraft(draft)) };
      w.store.splice(0, 1, team);
      await act(() => w.fx.resolve('updateTeam', { team, message: teamUpdatedMessage(team.name) }));
    },
    failure: { message: 'Permission denied. You are not authorized to manage this clan.', call: 'updateTeam' },
    calls: (w, draft) => expect(w.fx.calls('updateTeam')).toEqual([[CLAN_ID, EVENT_ID, BLUE.id, teamBody(asTeamDraft(draft))]]),
  },
  {
    name: 'delete team',
    title: 'Delete Team',
    confirmLabel: 'Delete Team',
    processingText: 'Deleting team...',
    open: { type: 'confirm.open', subject: { teamId: BLUE.id, name: BLUE.name } },
    trigger: (w) => click(w, `Delete ${BLUE.name}`),
    doneMessage: () => teamDeletedMessage(BLUE.name),
    settleDone: async (w) => {
      w.store.splice(0, 1);
      await act(() => w.fx.resolve('deleteTeam', { ok: true, message: teamDeletedMessage(BLUE.name) }));
    },
    failure: { message: 'Failed to delete team.', call: 'deleteTeam' },
    calls: (w) => expect(w.fx.calls('deleteTeam')).toEqual([[CLAN_ID, EVENT_ID, BLUE.id]]),
  },
];

/** The modal as the path generator sees it: submit only while the button is enabled (name not blank). */
function modelOf(use: Use): ConfirmModelUse {
  return {
    validate: use.validate,
    open: use.open,
    changes: (s) => fieldChanges(s, use.fields ?? {}),
    canSubmit: (s) => !(use.fields ? String(s.context.draft.name ?? '').trim() === '' : false),
    doneMessage: use.doneMessage,
    failureMessage: use.failure.message,
  };
}

function assertions(use: Use, w: World): Record<ConfirmStateNode, (s: Snap) => Promise<void>> {
  return {
    closed: async () => {
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => {
        const names = screen.queryAllByRole('rowheader').map((th) => th.textContent);
        expect(names).toEqual(w.store.map((t) => t.name));
      });
      if (w.store.length === 0) screen.getByText('No teams created for this event. Click "Create New Team" to start!');
      for (const t of w.store) screen.getByText(`${t.member_count} Members`);
    },
    confirming: async (s) => {
      const d = await screen.findByRole('dialog');
      within(d).getByRole('heading', { name: use.title });
      const rule = use.validate?.(s.context.draft) ?? null;
      if (use.fields) {
        const name = String(s.context.draft.name ?? '');
        expect((within(d).getByLabelText(LABELS.name) as HTMLInputElement).value).toBe(name);
        expect((within(d).getByLabelText(LABELS.color) as HTMLInputElement).value).toBe(String(s.context.draft.color));
        // Create and update are disabled while the name is blank (product-spec section 5 Teams).
        expect(within(d).getByRole('button', { name: use.confirmLabel }).hasAttribute('disabled')).toBe(name.trim() === '');
        if (rule) expect(within(d).getByTestId('team-form-error').textContent).toBe(rule);
        else expect(within(d).queryByTestId('team-form-error')).toBeNull();
      } else {
        within(d).getByText(BLUE.name);
      }
      const alerts = within(d).queryAllByRole('alert').map((a) => a.textContent);
      expect(alerts).toEqual([rule, s.context.error].filter(Boolean));
    },
    processing: () => expectProcessing(use),
    succeeded: async (s) => {
      await expectSucceededDialog(s, { retryHidden: false });
      use.calls(w, s.context.draft);
      await waitFor(() => expect(w.loads()).toBe(2));
    },
    failed: (s) => expectFailed(s, w),
  };
}

function executors(use: Use, w: World) {
  return {
    ...commonExecutors(w, () => use.trigger(w)),
    'confirm.change': async ({ event }) => {
      if (event.type !== 'confirm.change') return;
      const input = within(dialog()).getByLabelText(LABELS[event.field as FieldName]) as HTMLInputElement;
      await w.user.clear(input);
      const text = event.field === 'color' ? String(event.value).slice(1) : String(event.value);
      if (text) await w.user.type(input, text);
      // The hex input is debounced (100 ms); leaving it sends the colour at once.
      if (event.field === 'color') await w.user.tab();
    },
    'confirm.submit': async () => w.user.click(within(dialog()).getByRole('button', { name: use.confirmLabel })),
    'xstate.done.actor.performAction': async ({ state }) => use.settleDone(w, state.context.draft),
    'xstate.error.actor.performAction': async () => act(() => w.fx.reject(use.failure.call, api(use.failure.message, 403))),
  } satisfies Record<ModelEvent['type'], Executor>;
}

async function renderView(): Promise<World> {
  const fx = new FakeEffects();
  const store: Team[] = [{ ...BLUE }];
  let loads = 0;
  const unused = () => Promise.reject(new Error('not used here'));
  const effects: TeamsEffects = {
    fetchTeams: async (clanId, eventId) => {
      expect([clanId, eventId]).toEqual([CLAN_ID, EVENT_ID]);
      loads += 1;
      return store.map((t) => ({ ...t }));
    },
    createTeam: fx.fn('createTeam'),
    updateTeam: fx.fn('updateTeam'),
    deleteTeam: fx.fn('deleteTeam'),
    fetchTeamMembers: unused,
    addTeamMember: unused,
    updateTeamMemberRole: unused,
    removeTeamMember: unused,
  };
  render(<EventTeamsView clanId={CLAN_ID} eventId={EVENT_ID} eventName="Spring Bingo" onBack={() => {}} effects={effects} />);
  await screen.findByRole('rowheader', { name: BLUE.name });
  return { fx, user: userEvent.setup(), store, loads: () => loads };
}

const short = (path: ConfirmPath) => pathName(path, (event) => `${event.field}=${JSON.stringify(event.value)}`);

describe('confirmAction chart through the Event Teams view', () => {
  afterEach(cleanup);

  const all = USES.map((use) => ({ use, paths: pathsOf(modelOf(use)) }));

  it('reaches every state node for every modal, and every node has an assertion (guard)', () => {
    const w = { fx: new FakeEffects(), user: userEvent.setup(), store: [], loads: () => 0 };
    expectChartStateNodes();
    for (const { use, paths } of all) expectStateNodesCovered(use.name, paths, assertions(use, w));
  });

  it("walks through 'Team name is required.' and a colour change that is saved (guard)", () => {
    const rules = new Set(all.flatMap(({ use, paths }) => paths.flatMap((p) => p.steps.map((st) => use.validate?.(st.state.context.draft) ?? null))));
    expect(rules.has(TEAM_NAME_REQUIRED)).toBe(true);
    const savedColours = all.flatMap(({ paths }) => paths.flatMap((p) => p.steps.filter((st) => st.state.matches('succeeded')).map((st) => st.state.context.draft.color)));
    expect(savedColours).toContain('#c0392b');
    expect(savedColours).toContain('#000000');
  });

  for (const { use, paths } of all) {
    describe(use.name, () => {
      for (const path of paths) {
        it(short(path) || 'opens on closed', async () => {
          const w = await renderView();
          await walkPath(path, executors(use, w) as Record<string, Executor>, assertions(use, w));
        });
      }
    });
  }
});
