// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
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
  replaceText,
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
import {
  EVENT_END_BEFORE_START,
  EVENT_REQUIRED,
  eventDeletedMessage,
  eventScheduledMessage,
  eventUpdatedMessage,
  type ClanEvent,
} from '../../contract/event';
import { EventsTab, type EventsEffects } from '../../src/features/events/EventsTab';
import { validateEventDraft } from '../../src/features/events/EventFormFields';
import { asEventDraft, editEventDraft, eventBody, newEventDraft } from '../../src/features/events/eventForm';
import { ApiRequestError } from '../../src/api/client';

/**
 * Model-based test of the confirmAction chart (product-spec section 4 "Modal flows") through the
 * rendered Events tab, for its three modals: schedule, edit and delete an event (product-spec
 * sections 2 Events tab, 5 Events, 8). Paths come from the chart with each modal's form rule as
 * the `isDraftValid` guard; the executors click and type, the fake server is settled by the test.
 */

const CLAN_ID = 7;
const EXISTING: ClanEvent = {
  id: 1,
  name: 'Spring Bingo',
  type: 'Snakes and Ladders',
  start_datetime: '2099-01-10T18:00:00.000Z',
  end_datetime: '2099-01-11T18:00:00.000Z',
  game_id: null,
  team_count: 2,
};

/** Central-time notes of the values typed below (America/Chicago is UTC-6 in winter). */
const NOTES: Record<string, string> = {
  '2099-03-01T18:00': 'Central Time (America/Chicago): Sun, Mar 1, 2099, 12:00 PM CST',
  '2099-03-01T17:00': 'Central Time (America/Chicago): Sun, Mar 1, 2099, 11:00 AM CST',
  '2099-03-02T18:00': 'Central Time (America/Chicago): Mon, Mar 2, 2099, 12:00 PM CST',
  '2099-01-10T18:00': 'Central Time (America/Chicago): Sat, Jan 10, 2099, 12:00 PM CST',
  '2099-01-10T17:00': 'Central Time (America/Chicago): Sat, Jan 10, 2099, 11:00 AM CST',
  '2099-01-11T18:00': 'Central Time (America/Chicago): Sun, Jan 11, 2099, 12:00 PM CST',
  '2099-01-12T18:00': 'Central Time (America/Chicago): Mon, Jan 12, 2099, 12:00 PM CST',
};

interface World extends ConfirmWorld {
  /** What the fake server holds; fetchEvents answers it at once. */
  store: ClanEvent[];
}

type FieldName = 'name' | 'start' | 'end';
const LABELS: Record<FieldName, string> = { name: 'Event Name', start: 'Start Date/Time (UTC)', end: 'End Date/Time (UTC, optional)' };

/** One modal of the Events tab. */
interface Use {
  name: string;
  title: string;
  confirmLabel: string;
  processingText: string;
  validate?: (draft: Record<string, unknown>) => string | null;
  open: ConfirmModelUse['open'];
  trigger: (w: World) => Promise<void>;
  /** Values a person types in each field. */
  fields?: Record<FieldName, string[]>;
  doneMessage: (draft: Record<string, unknown>) => string;
  settleDone: (w: World, draft: Record<string, unknown>) => Promise<void>;
  failure: { message: string; call: string };
  /** The calls expected once the action succeeded. */
  calls: (w: World, draft: Record<string, unknown>) => void;
}

const api = (message: string, status = 500) => new ApiRequestError(message, status);

/** Opens the row's actions menu by keyboard (Radix) and picks an item. */
async function rowMenu(w: World, item: string) {
  const name = w.store[0].name;
  screen.getByRole('button', { name: `More actions for ${name}` }).focus();
  await w.user.keyboard('{Enter}');
  await w.user.click(await screen.findByRole('menuitem', { name: item }));
}

const USES: Use[] = [
  {
    name: 'schedule event',
    title: 'Schedule New Event',
    confirmLabel: 'Schedule Event',
    processingText: 'Scheduling event...',
    validate: untypedRule(validateEventDraft),
    open: { type: 'confirm.open', draft: { ...newEventDraft() } },
    trigger: (w) => w.user.click(screen.getByRole('button', { name: 'Create New Event' })),
    fields: { name: ['Summer Ladder'], start: ['2099-03-01T18:00'], end: ['2099-03-01T17:00', '2099-03-02T18:00'] },
    doneMessage: () => eventScheduledMessage(),
    settleDone: async (w, draft) => {
      const body = eventBody(asEventDraft(draft));
      const event: ClanEvent = { ...EXISTING, id: 2, name: body.name, start_datetime: body.start_datetime, end_datetime: body.end_datetime ?? null, team_count: 0 };
      w.store.push(event);
      await act(() => w.fx.resolve('scheduleEvent', { message: eventScheduledMessage(), event }));
    },
    failure: { message: 'Failed to schedule event due to server error.', call: 'scheduleEvent' },
    calls: (w, draft) => expect(w.fx.calls('scheduleEvent')).toEqual([[CLAN_ID, eventBody(asEventDraft(draft))]]),
  },
  {
    name: 'edit event',
    title: 'Edit Event Details',
    confirmLabel: 'Save Changes',
    processingText: 'Saving event...',
    validate: untypedRule(validateEventDraft),
    open: { type: 'confirm.open', subject: { eventId: 1, name: 'Spring Bingo' }, draft: { ...editEventDraft(EXISTING) } },
    trigger: (w) => rowMenu(w, 'Edit Event Details'),
    fields: { name: ['', 'Renamed Bingo'], start: [], end: ['2099-01-10T17:00', ''] },
    doneMessage: (draft) => eventUpdatedMessage(asEventDraft(draft).name.trim()),
    settleDone: async (w, draft) => {
      const body = eventBody(asEventDraft(draft));
      const event: ClanEvent = { ...EXISTING, name: body.name, end_datetime: body.end_datetime ?? null };
      w.store.splice(0, 1, event);
      await act(() => w.fx.resolve('updateEvent', { message: eventUpdatedMessage(body.name), event }));
    },
    failure: { message: "Permission denied. You are not authorized to manage this clan.", call: 'updateEvent' },
    calls: (w, draft) => expect(w.fx.calls('updateEvent')).toEqual([[CLAN_ID, 1, eventBody(asEventDraft(draft))]]),
  },
  {
    name: 'delete event',
    title: 'Delete Event',
    confirmLabel: 'Delete Event',
    processingText: 'Deleting event...',
    open: { type: 'confirm.open', subject: { eventId: 1, name: 'Spring Bingo' } },
    trigger: (w) => rowMenu(w, 'Delete Event'),
    doneMessage: () => eventDeletedMessage('Spring Bingo'),
    settleDone: async (w) => {
      w.store.splice(0, 1);
      await act(() => w.fx.resolve('deleteEvent', { message: eventDeletedMessage('Spring Bingo') }));
    },
    failure: { message: 'Failed to delete event due to server error.', call: 'deleteEvent' },
    calls: (w) => expect(w.fx.calls('deleteEvent')).toEqual([[CLAN_ID, 1]]),
  },
];

/**
 * The modal as the path generator sees it: fields are filled top to bottom (a field is offered once
 * the fields above it are filled); submit only while the button is enabled (the form rule holds).
 */
function modelOf(use: Use): ConfirmModelUse {
  return {
    validate: use.validate,
    open: use.open,
    changes: (s) => fieldChanges(s, use.fields ?? {}, true),
    canSubmit: (s) => !use.validate || use.validate(s.context.draft) === null,
    doneMessage: use.doneMessage,
    failureMessage: use.failure.message,
  };
}

/** What the screen shows in each state node of the chart. */
function assertions(use: Use, w: World): Record<ConfirmStateNode, (s: Snap) => Promise<void>> {
  return {
    closed: async () => {
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      // The table shows what the server holds (reloaded after a success).
      await waitFor(() => {
        const names = screen.queryAllByRole('rowheader').map((th) => th.textContent);
        expect(names).toEqual(w.store.map((e) => e.name));
      });
    },
    confirming: async (s) => {
      const d = await screen.findByRole('dialog');
      within(d).getByRole('heading', { name: use.title });
      const rule = use.validate?.(s.context.draft) ?? null;
      expect(within(d).getByRole('button', { name: use.confirmLabel }).hasAttribute('disabled')).toBe(rule !== null);
      if (use.fields) {
        for (const field of ['name', 'start', 'end'] as const) {
          expect((within(d).getByLabelText(LABELS[field]) as HTMLInputElement).value).toBe(String(s.context.draft[field] ?? ''));
        }
        const start = String(s.context.draft.start ?? '');
        const end = String(s.context.draft.end ?? '');
        expect(within(d).getByTestId('start-central-note').textContent).toBe(start ? NOTES[start] : 'Enter the time in UTC; its Central Time is shown here.');
        if (end) expect(within(d).getByTestId('end-central-note').textContent).toBe(NOTES[end]);
        else expect(within(d).queryByTestId('end-central-note')).toBeNull();
        if (rule) expect(within(d).getByTestId('event-form-error').textContent).toBe(rule);
        else expect(within(d).queryByTestId('event-form-error')).toBeNull();
      }
      const alerts = within(d).queryAllByRole('alert').map((a) => a.textContent);
      expect(alerts).toEqual([rule, s.context.error].filter(Boolean));
    },
    processing: () => expectProcessing(use),
    succeeded: async (s) => {
      await expectSucceededDialog(s, { retryHidden: true });
      use.calls(w, s.context.draft);
      // The event list is loaded again on success.
      await waitFor(() => expect(w.loads()).toBe(2));
    },
    failed: (s) => expectFailed(s, w),
  };
}

/** How each event is caused through the tab. */
function executors(use: Use, w: World) {
  return {
    ...commonExecutors(w, () => use.trigger(w)),
    'confirm.change': async ({ event }) => {
      if (event.type !== 'confirm.change') return;
      const input = within(dialog()).getByLabelText(LABELS[event.field as FieldName]) as HTMLInputElement;
      if (event.field === 'name') {
        await replaceText(w, input, event.value);
      } else {
        // jsdom has no date-time picker to type into: set the value as the picker would.
        fireEvent.change(input, { target: { value: String(event.value) } });
      }
    },
    'confirm.submit': async () => {
      const button = within(dialog()).getByRole('button', { name: use.confirmLabel });
      expect(button.hasAttribute('disabled')).toBe(false);
      await w.user.click(button);
    },
    'xstate.done.actor.performAction': async ({ state }) => use.settleDone(w, state.context.draft),
    'xstate.error.actor.performAction': async () => act(() => w.fx.reject(use.failure.call, api(use.failure.message, 403))),
  } satisfies Record<ModelEvent['type'], Executor>;
}

async function renderTab(): Promise<World> {
  const fx = new FakeEffects();
  const store: ClanEvent[] = [{ ...EXISTING }];
  let loads = 0;
  const unused = () => Promise.reject(new Error('not used here'));
  const effects: EventsEffects = {
    fetchEvents: async (clanId, past) => {
      expect([clanId, past]).toEqual([CLAN_ID, false]);
      loads += 1;
      return store.map((e) => ({ ...e }));
    },
    scheduleEvent: fx.fn('scheduleEvent'),
    updateEvent: fx.fn('updateEvent'),
    deleteEvent: fx.fn('deleteEvent'),
    teams: {
      fetchTeams: unused,
      createTeam: unused,
      updateTeam: unused,
      deleteTeam: unused,
      fetchTeamMembers: unused,
      addTeamMember: unused,
      updateTeamMemberRole: unused,
      removeTeamMember: unused,
    },
  };
  render(<EventsTab clanId={CLAN_ID} isManager effects={effects} />);
  await screen.findByRole('rowheader', { name: EXISTING.name });
  return { fx, user: userEvent.setup(), store, loads: () => loads };
}

const short = (path: ConfirmPath) => pathName(path, (event) => `${event.field}=${JSON.stringify(event.value)}`);

describe('confirmAction chart through the Events tab', () => {
  afterEach(cleanup);

  const all = USES.map((use) => ({ use, paths: pathsOf(modelOf(use)) }));

  it('reaches every state node for every modal, and every node has an assertion (guard)', () => {
    const w = { fx: new FakeEffects(), user: userEvent.setup(), store: [], loads: () => 0 };
    expectChartStateNodes();
    for (const { use, paths } of all) expectStateNodesCovered(use.name, paths, assertions(use, w));
  });

  it('walks through the spec form messages and both end-time outcomes (guard)', () => {
    const rules = new Set(all.flatMap(({ use, paths }) => paths.flatMap((p) => p.steps.map((st) => use.validate?.(st.state.context.draft) ?? null))));
    for (const text of [EVENT_REQUIRED, EVENT_END_BEFORE_START, null]) expect(rules.has(text)).toBe(true);
    const successes = all.flatMap(({ paths }) => paths.filter((p) => p.state.matches('succeeded') || p.steps.some((st) => st.state.matches('succeeded'))));
    expect(successes.some((p) => p.steps.some((st) => st.state.context.draft.end))).toBe(true);
    expect(successes.some((p) => p.steps.some((st) => st.state.matches('succeeded') && !st.state.context.draft.end && st.state.context.draft.start))).toBe(true);
  });

  for (const { use, paths } of all) {
    describe(use.name, () => {
      for (const path of paths) {
        it(short(path) || 'opens on closed', async () => {
          const w = await renderTab();
          await walkPath(path, executors(use, w) as Record<string, Executor>, assertions(use, w));
        });
      }
    });
  }
});
