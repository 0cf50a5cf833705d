// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { assign, type SnapshotFrom } from 'xstate';
import { TestModel, getShortestPaths, type TestPath } from '../support/graph';
import { FakeEffects } from '../support/effects';
import { confirmActionMachine, type ConfirmActionEvent } from '../../machines/confirmAction.machine';
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

type Snap = SnapshotFrom<typeof confirmActionMachine>;
type Done = { type: 'xstate.done.actor.performAction'; output: { message: string } };
type Failed = { type: 'xstate.error.actor.performAction'; error: Error };
type ModelEvent = ConfirmActionEvent | Done | Failed;

const CLAN_ID = 7;
const EVENT_ID = 3;
const BLUE: Team = { id: 5, name: 'Blue Wizards', color: '#2a5db0', member_count: 2 };

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** What the fake server holds; fetchTeams answers it at once. */
  store: Team[];
  loads: () => number;
}

type FieldName = 'name' | 'color';
const LABELS: Record<FieldName, string> = { name: 'Team Name', color: 'Team Colour (hex)' };

interface Use {
  name: string;
  title: string;
  confirmLabel: string;
  processingText: string;
  validate?: (draft: Record<string, unknown>) => string | null;
  open: Extract<ConfirmActionEvent, { type: 'confirm.open' }>;
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
    validate: validateTeamDraft,
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
    validate: validateTeamDraft,
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

function chartOf(use: Use) {
  return confirmActionMachine.provide({
    guards: { isDraftValid: ({ context }) => !use.validate || use.validate(context.draft) === null },
    actions: { assignValidationError: assign(({ context }) => ({ error: use.validate?.(context.draft) ?? null })) },
  });
}

/** Events a person (or the fake server) can cause; submit only while the button is enabled (name not blank). */
function eventsFor(use: Use) {
  return (s: Snap): ModelEvent[] => {
    if (s.matches('closed')) return [use.open];
    if (s.matches('confirming')) {
      const changes: ModelEvent[] = [];
      for (const [field, values] of Object.entries(use.fields ?? {}) as [FieldName, string[]][]) {
        const now = String(s.context.draft[field] ?? '');
        for (const value of values) if (value !== now) changes.push({ type: 'confirm.change', field, value });
      }
      const blank = use.fields ? String(s.context.draft.name ?? '').trim() === '' : false;
      return [...changes, ...(blank ? [] : [{ type: 'confirm.submit' } as const]), { type: 'confirm.cancel' }];
    }
    if (s.matches('processing')) {
      return [
        { type: 'xstate.done.actor.performAction', output: { message: use.doneMessage(s.context.draft) } },
        { type: 'xstate.error.actor.performAction', error: new Error(use.failure.message) },
      ];
    }
    if (s.matches('succeeded')) return [{ type: 'confirm.close' }, { type: 'confirm.cancel' }];
    return [{ type: 'confirm.retry' }, { type: 'confirm.close' }, { type: 'confirm.cancel' }];
  };
}

/** States are told apart by value, draft and server error; a return to `closed` keeps its edge. */
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

function assertions(use: Use, w: World): Record<(typeof STATE_NODES)[number], (s: Snap) => Promise<void>> {
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
      use.calls(w, s.context.draft);
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

function executors(use: Use, w: World) {
  return {
    'confirm.open': async () => use.trigger(w),
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
    'confirm.cancel': async () => {
      const cancel = within(dialog()).queryByRole('button', { name: 'Cancel' });
      if (cancel) await w.user.click(cancel);
      else await w.user.keyboard('{Escape}');
    },
    'confirm.retry': async () => w.user.click(within(dialog()).getByRole('button', { name: 'Retry' })),
    'confirm.close': async () => w.user.click(within(dialog()).getByRole('button', { name: 'Close' })),
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

const short = (path: TestPath<Snap, ModelEvent>) =>
  path.steps
    .slice(1)
    .map(({ event }) => (event.type === 'confirm.change' ? `${event.field}=${JSON.stringify(event.value)}` : event.type.replace('xstate.', '').replace('.actor.performAction', '')))
    .join(' → ');

describe('confirmAction chart through the Event Teams view', () => {
  afterEach(cleanup);

  const all = USES.map((use) => ({ use, paths: pathsOf(use) }));

  it('reaches every state node for every modal, and every node has an assertion (guard)', () => {
    const w = { fx: new FakeEffects(), user: userEvent.setup(), store: [], loads: () => 0 };
    expect(Object.keys(confirmActionMachine.states).sort()).toEqual([...STATE_NODES].sort());
    for (const { use, paths } of all) {
      const reached = new Set<string>();
      for (const p of paths) for (const st of p.steps) for (const key of STATE_NODES) if (st.state.matches(key)) reached.add(key);
      expect([...reached].sort(), use.name).toEqual([...STATE_NODES].sort());
      expect(Object.keys(assertions(use, w)).sort()).toEqual([...STATE_NODES].sort());
    }
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
          const exec = executors(use, w) as Record<string, Executor>;
          const check = assertions(use, w);
          for (const step of path.steps) {
            if ((step.event.type as string) !== 'xstate.init') await exec[step.event.type](step);
            const key = STATE_NODES.find((k) => step.state.matches(k))!;
            await check[key](step.state);
          }
        });
      }
    });
  }
});
