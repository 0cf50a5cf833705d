// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { FakeEffects, teamsEffects } from '../support/effects';
import { dialog, expectAlerts, expectClosedRows, expectFailed, expectProcessing, expectSucceeded, failing, fieldChanges, modalExecutors, modalSuite, modalTexts, rulesReached, touchedRule, untypedRule } from '../support/confirmActionModel';
import type { ConfirmExecutor as Executor, ConfirmModelUse, ConfirmStateNode, ConfirmSnap as Snap, ConfirmWorld, ModalUse } from '../support/confirmActionModel';
import { TEAM_COLOR_PRESETS, TEAM_NAME_REQUIRED, teamCreatedMessage, teamSizeText, teamDeletedMessage, teamUpdatedMessage, type Team } from '../../contract/team';
import { EventTeamsView } from '../../src/features/teams/EventTeamsView';
import { validateTeamDraft } from '../../src/features/teams/TeamFormFields';
import { asTeamDraft, editTeamDraft, teamBody } from '../../src/features/teams/teamForm';

/**
 * Model-based test of the confirmAction chart (docs/flows.md §3) through the
 * rendered Event Teams view, for its three modals: Create New Team, Edit Team and the delete
 * confirmation (docs/client.md §6, §11). Paths come from the
 * chart with the team form rule as the `isDraftValid` guard; the executors click and type (the hex
 * colour through react-colorful's input, whose 100 ms debounce is flushed when it loses focus).
 */

const CLAN_ID = 7;
const EVENT_ID = 3;
const BLUE: Team = { id: 5, name: 'Blue Wizards', color: '#2a5db0', member_count: 2, discord_role_id: null };

interface World extends ConfirmWorld {
  /** What the fake server holds; fetchTeams answers it at once. */
  store: Team[];
}

type FieldName = 'name' | 'color';
const LABELS: Record<FieldName, string> = { name: 'Team Name', color: 'Team Colour (hex)' };

/** One modal of the Event Teams view, with the values a person types in each field. */
interface Use extends ModalUse<World> {
  fields?: Record<FieldName, string[]>;
}

/** The swatch the executors click (by its name) instead of typing a hex. */
const PICKED_PRESET = TEAM_COLOR_PRESETS[2];

const click = (w: World, name: string) => w.user.click(screen.getByRole('button', { name }));

const USES: Use[] = [
  {
    ...modalTexts('create team', 'Create New Team', 'Create Team', 'Creating team...'),
    validate: untypedRule(validateTeamDraft),
    // The event already has BLUE (not a preset colour): the form starts on the first preset.
    open: { type: 'confirm.open', draft: { name: '', color: TEAM_COLOR_PRESETS[0].hex } },
    trigger: (w) => click(w, 'Create New Team'),
    fields: { name: ['Red Dragons', '   '], color: ['#c0392b', PICKED_PRESET.hex] },
    done: {
      message: (draft) => teamCreatedMessage(asTeamDraft(draft).name.trim()),
      settle: async (w, draft) => {
        const team: Team = { id: 6, discord_role_id: null, ...teamBody(asTeamDraft(draft)), member_count: 0 };
        w.store.push(team);
        await act(() => w.fx.resolve('createTeam', { team, message: teamCreatedMessage(team.name) }));
      },
    },
    failure: failing('createTeam', 'Failed to create team.'),
    calls: (w, draft) => expect(w.fx.calls('createTeam')).toEqual([[CLAN_ID, EVENT_ID, teamBody(asTeamDraft(draft))]]),
  },
  {
    ...modalTexts('edit team', 'Edit Team', 'Update Team', 'Updating team...'),
    validate: untypedRule(validateTeamDraft),
    open: { type: 'confirm.open', subject: { teamId: BLUE.id, name: BLUE.name }, draft: { ...editTeamDraft(BLUE) } },
    trigger: (w) => click(w, `Edit ${w.store[0].name}`),
    fields: { name: ['', 'Green Goblins'], color: ['#1e8449'] },
    done: {
      message: (draft) => teamUpdatedMessage(asTeamDraft(draft).name.trim()),
      settle: async (w, draft) => {
        const team: Team = { ...BLUE, ...teamBody(asTeamDraft(draft)) };
        w.store.splice(0, 1, team);
        await act(() => w.fx.resolve('updateTeam', { team, message: teamUpdatedMessage(team.name) }));
      },
    },
    failure: failing('updateTeam', 'Permission denied. You are not authorized to manage this clan.'),
    calls: (w, draft) => expect(w.fx.calls('updateTeam')).toEqual([[CLAN_ID, EVENT_ID, BLUE.id, teamBody(asTeamDraft(draft))]]),
  },
  {
    ...modalTexts('delete team', 'Delete Team', 'Delete Team', 'Deleting team...'),
    open: { type: 'confirm.open', subject: { teamId: BLUE.id, name: BLUE.name } },
    trigger: (w) => click(w, `Delete ${BLUE.name}`),
    done: {
      message: () => teamDeletedMessage(BLUE.name),
      settle: async (w) => {
        w.store.splice(0, 1);
        await act(() => w.fx.resolve('deleteTeam', { ok: true, message: teamDeletedMessage(BLUE.name) }));
      },
    },
    failure: failing('deleteTeam', 'Failed to delete team.'),
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
    doneMessage: use.done.message,
    failureMessage: use.failure.message,
  };
}

function assertions(use: Use, w: World): Record<ConfirmStateNode, (s: Snap) => Promise<void>> {
  return {
    closed: async () => {
      await expectClosedRows(() => w.store.map((t) => t.name));
      if (w.store.length === 0) screen.getByText('No teams created for this event. Click "Create New Team" to start!');
      for (const t of w.store) screen.getByText(teamSizeText(t.member_count));
    },
    confirming: async (s) => {
      const d = await screen.findByRole('dialog');
      within(d).getByRole('heading', { name: use.title });
      const rule = use.validate?.(s.context.draft) ?? null;
      if (use.fields) {
        const name = String(s.context.draft.name ?? '');
        expect((within(d).getByLabelText(LABELS.name) as HTMLInputElement).value).toBe(name);
        // The colour field shows a typed colour once react-colorful's debounce has passed it on.
        await waitFor(() => expect((within(d).getByLabelText(LABELS.color) as HTMLInputElement).value).toBe(String(s.context.draft.color)));
        // Exactly the swatch of the draft's colour is pressed (none for a colour of its own).
        const pressed = within(d).queryAllByRole('button', { pressed: true }).map((b) => b.getAttribute('aria-label'));
        expect(pressed).toEqual(TEAM_COLOR_PRESETS.filter((p) => p.hex === s.context.draft.color).map((p) => p.name));
        // Create and update are disabled while the name is blank (docs/client.md §6).
        expect(within(d).getByRole('button', { name: use.confirmLabel }).hasAttribute('disabled')).toBe(name.trim() === '');
        // The rule's message waits until a field was touched, so an untouched form does not scold; the button says it at once.
        const shown = touchedRule(rule, s, use.open);
        if (shown) expect(within(d).getByTestId('team-form-error').textContent).toBe(shown);
        else expect(within(d).queryByTestId('team-form-error')).toBeNull();
        expectAlerts(d, shown, s);
      } else {
        within(d).getByText(BLUE.name);
        expectAlerts(d, rule, s);
      }
    },
    processing: () => expectProcessing(use),
    succeeded: (s) => expectSucceeded(use, w, s, false),
    failed: (s) => expectFailed(s, w),
  };
}

/** How each event is caused through the view: the hex colour through react-colorful's input, whose 100 ms debounce is flushed when it loses focus. */
function executors(use: Use, w: World): Record<string, Executor> {
  return modalExecutors(use, w, async ({ event }) => {
    if (event.type !== 'confirm.change') return;
    const preset = event.field === 'color' ? TEAM_COLOR_PRESETS.find((p) => p.hex === event.value) : undefined;
    if (preset) {
      await w.user.click(within(dialog()).getByRole('button', { name: preset.name }));
      return;
    }
    const input = within(dialog()).getByLabelText(LABELS[event.field as FieldName]) as HTMLInputElement;
    await w.user.clear(input);
    const text = event.field === 'color' ? String(event.value).slice(1) : String(event.value);
    if (text) await w.user.type(input, text);
    if (event.field === 'color') await w.user.tab();
  });
}

async function renderView(): Promise<World> {
  const fx = new FakeEffects();
  const store: Team[] = [{ ...BLUE }];
  let loads = 0;
  const effects = teamsEffects({
    fetchTeams: async (clanId, eventId) => {
      expect([clanId, eventId]).toEqual([CLAN_ID, EVENT_ID]);
      loads += 1;
      return store.map((t) => ({ ...t }));
    },
    createTeam: fx.fn('createTeam'),
    updateTeam: fx.fn('updateTeam'),
    deleteTeam: fx.fn('deleteTeam'),
  });
  render(<EventTeamsView clanId={CLAN_ID} eventId={EVENT_ID} eventName="Spring Bingo" onBack={() => {}} effects={effects} />);
  await screen.findByRole('rowheader', { name: BLUE.name });
  return { fx, user: userEvent.setup(), store, loads: () => loads };
}

modalSuite('confirmAction chart through the Event Teams view', USES, {
  model: modelOf,
  assertions,
  executors,
  render: renderView,
  idle: () => ({ fx: new FakeEffects(), user: userEvent.setup(), store: [], loads: () => 0 }),
  guard: {
    name: "walks through 'Team name is required.' and a colour change that is saved (guard)",
    check: (all) => {
      const rules = rulesReached(all);
      expect(rules.has(TEAM_NAME_REQUIRED)).toBe(true);
      const savedColours = all.flatMap(({ paths }) => paths.flatMap((p) => p.steps.filter((st) => st.state.matches('succeeded')).map((st) => st.state.context.draft.color)));
      expect(savedColours).toContain('#c0392b');
      expect(savedColours).toContain(TEAM_COLOR_PRESETS[0].hex);
      expect(savedColours).toContain(PICKED_PRESET.hex);
    },
  },
});
