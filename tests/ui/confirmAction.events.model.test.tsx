// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { FakeEffects, teamsEffects } from '../support/effects';
import { renderEventsTab } from '../support/eventsTab';
import { dialog, expectAlerts, expectClosedRows, expectFailed, expectProcessing, expectSucceeded, failing, fieldChanges, modalExecutors, modalSuite, modalTexts, replaceText, rulesReached, touchedRule, untypedRule } from '../support/confirmActionModel';
import type { ConfirmExecutor as Executor, ConfirmModelUse, ConfirmStateNode, ConfirmSnap as Snap, ConfirmWorld, ModalUse } from '../support/confirmActionModel';
import {
  EVENT_END_BEFORE_START,
  EVENT_REQUIRED,
  eventDeletedMessage,
  eventScheduledMessage,
  eventUpdatedMessage,
  type ClanEvent,
} from '../../contract/event';
import type { EventsEffects } from '../../src/features/events/EventsTab';
import { validateEventDraft } from '../../src/features/events/EventFormFields';
import { EVENT_FORM_TEXTS, asEventDraft, editEventDraft, eventBody, newEventDraft } from '../../src/features/events/eventForm';

/**
 * Model-based test of the confirmAction chart (docs/flows.md §3) through the
 * rendered Events tab, for its three modals: schedule, edit and delete an event (docs/client.md §6,
 * §11). Paths come from the chart with each modal's form rule as
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

/** One modal of the Events tab, with the values a person types in each field. */
interface Use extends ModalUse<World> {
  fields?: Record<FieldName, string[]>;
}

/** Opens the row's actions menu by keyboard (Radix) and picks an item. */
async function rowMenu(w: World, item: string) {
  const name = w.store[0].name;
  screen.getByRole('button', { name: `More actions for ${name}` }).focus();
  await w.user.keyboard('{Enter}');
  await w.user.click(await screen.findByRole('menuitem', { name: item }));
}

const USES: Use[] = [
  {
    ...modalTexts('schedule event', 'Schedule New Event', 'Schedule Event', 'Scheduling event...'),
    validate: untypedRule(validateEventDraft),
    open: { type: 'confirm.open', draft: { ...newEventDraft() } },
    trigger: (w) => w.user.click(screen.getByRole('button', { name: 'Create New Event' })),
    fields: { name: ['Summer Ladder'], start: ['2099-03-01T18:00'], end: ['2099-03-01T17:00', '2099-03-02T18:00'] },
    done: {
      message: () => eventScheduledMessage(),
      settle: async (w, draft) => {
      const body = eventBody(asEventDraft(draft));
      const event: ClanEvent = { ...EXISTING, id: 2, name: body.name, start_datetime: body.start_datetime, end_datetime: body.end_datetime ?? null, team_count: 0 };
      w.store.push(event);
        await act(() => w.fx.resolve('scheduleEvent', { message: eventScheduledMessage(), event }));
      },
    },
    failure: failing('scheduleEvent', 'Failed to schedule event due to server error.'),
    calls: (w, draft) => expect(w.fx.calls('scheduleEvent')).toEqual([[CLAN_ID, eventBody(asEventDraft(draft))]]),
  },
  {
    ...modalTexts('edit event', 'Edit Event Details', 'Save Changes', 'Saving event...'),
    validate: untypedRule(validateEventDraft),
    open: { type: 'confirm.open', subject: { eventId: 1, name: 'Spring Bingo' }, draft: { ...editEventDraft(EXISTING) } },
    trigger: (w) => rowMenu(w, 'Edit Event Details'),
    fields: { name: ['', 'Renamed Bingo'], start: [], end: ['2099-01-10T17:00', ''] },
    done: {
      message: (draft) => eventUpdatedMessage(asEventDraft(draft).name.trim()),
      settle: async (w, draft) => {
      const body = eventBody(asEventDraft(draft));
      const event: ClanEvent = { ...EXISTING, name: body.name, end_datetime: body.end_datetime ?? null };
      w.store.splice(0, 1, event);
        await act(() => w.fx.resolve('updateEvent', { message: eventUpdatedMessage(body.name), event }));
      },
    },
    failure: failing('updateEvent', 'Permission denied. You are not authorized to manage this clan.'),
    calls: (w, draft) => expect(w.fx.calls('updateEvent')).toEqual([[CLAN_ID, 1, eventBody(asEventDraft(draft))]]),
  },
  {
    ...modalTexts('delete event', 'Delete Event', 'Delete Event', 'Deleting event...'),
    open: { type: 'confirm.open', subject: { eventId: 1, name: 'Spring Bingo' } },
    trigger: (w) => rowMenu(w, 'Delete Event'),
    done: {
      message: () => eventDeletedMessage('Spring Bingo'),
      settle: async (w) => {
        w.store.splice(0, 1);
        await act(() => w.fx.resolve('deleteEvent', { message: eventDeletedMessage('Spring Bingo') }));
      },
    },
    failure: failing('deleteEvent', 'Failed to delete event due to server error.'),
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
    doneMessage: use.done.message,
    failureMessage: use.failure.message,
  };
}

/** What the screen shows in each state node of the chart. */
function assertions(use: Use, w: World): Record<ConfirmStateNode, (s: Snap) => Promise<void>> {
  return {
    closed: () => expectClosedRows(() => w.store.map((e) => e.name)),
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
      }
      // The rule's message waits until a field was touched; the button says it at once.
      const shown = use.fields ? touchedRule(rule, s, use.open) : rule;
      if (shown) expect(within(d).getByTestId('event-form-error').textContent).toBe(shown);
      else expect(within(d).queryByTestId('event-form-error')).toBeNull();
      expectAlerts(d, shown, s);
    },
    processing: () => expectProcessing(use),
    // The event list is loaded again on success.
    succeeded: (s) => expectSucceeded(use, w, s, true),
    failed: (s) => expectFailed(s, w),
  };
}

/** How each event is caused through the tab: a date-time field is set as its picker would (jsdom has none to type into). */
function executors(use: Use, w: World): Record<string, Executor> {
  return modalExecutors(use, w, async ({ event }) => {
    if (event.type !== 'confirm.change') return;
    const input = within(dialog()).getByLabelText(LABELS[event.field as FieldName]) as HTMLInputElement;
    if (event.field === 'name') await replaceText(w, input, event.value);
    else fireEvent.change(input, { target: { value: String(event.value) } });
  });
}

async function renderTab(): Promise<World> {
  const fx = new FakeEffects();
  const store: ClanEvent[] = [{ ...EXISTING }];
  let loads = 0;
  const effects: EventsEffects = {
    fetchEvents: async (clanId, past) => {
      expect([clanId, past]).toEqual([CLAN_ID, false]);
      loads += 1;
      return store.map((e) => ({ ...e }));
    },
    fetchEvent: async () => {
      throw new Error('the modals never open a view of one event');
    },
    scheduleEvent: fx.fn('scheduleEvent'),
    updateEvent: fx.fn('updateEvent'),
    deleteEvent: fx.fn('deleteEvent'),
    teams: teamsEffects(),
  };
  renderEventsTab(CLAN_ID, effects);
  await screen.findByRole('rowheader', { name: EXISTING.name });
  return { fx, user: userEvent.setup(), store, loads: () => loads };
}

modalSuite('confirmAction chart through the Events tab', USES, {
  model: modelOf,
  assertions,
  executors,
  render: renderTab,
  idle: () => ({ fx: new FakeEffects(), user: userEvent.setup(), store: [], loads: () => 0 }),
  guard: {
    name: 'walks through the spec form messages and both end-time outcomes (guard)',
    check: (all) => {
      const rules = rulesReached(all);
      for (const text of [EVENT_REQUIRED, EVENT_END_BEFORE_START, null]) expect(rules.has(text)).toBe(true);
      const successes = all.flatMap(({ paths }) => paths.filter((p) => p.state.matches('succeeded') || p.steps.some((st) => st.state.matches('succeeded'))));
      expect(successes.some((p) => p.steps.some((st) => st.state.context.draft.end))).toBe(true);
      expect(successes.some((p) => p.steps.some((st) => st.state.matches('succeeded') && !st.state.context.draft.end && st.state.context.draft.start))).toBe(true);
    },
  },
});

describe('sign-ups in the schedule form (docs/server.md §16: create takes signups_open and signups_close_at)', () => {
  afterEach(cleanup);

  it('schedules an event with sign-ups open until a close time; the edit form leaves sign-ups alone', async () => {
    const w = await renderTab();
    await w.user.click(screen.getByRole('button', { name: 'Create New Event' }));
    const d = await screen.findByRole('dialog');
    await replaceText(w, within(d).getByLabelText(LABELS.name), 'Summer Ladder');
    fireEvent.change(within(d).getByLabelText(LABELS.start), { target: { value: '2099-03-01T18:00' } });
    expect(within(d).queryByLabelText(EVENT_FORM_TEXTS.signupsClose)).toBeNull();
    await w.user.click(within(d).getByLabelText(EVENT_FORM_TEXTS.signupsOpen));
    fireEvent.change(within(d).getByLabelText(EVENT_FORM_TEXTS.signupsClose), { target: { value: '2099-02-28T18:00' } });
    await w.user.click(within(d).getByRole('button', { name: 'Schedule Event' }));
    expect(w.fx.calls('scheduleEvent')).toEqual([
      [CLAN_ID, { name: 'Summer Ladder', type: 'Snakes and Ladders', start_datetime: '2099-03-01T18:00:00.000Z', end_datetime: null, signups_open: true, signups_close_at: '2099-02-28T18:00:00.000Z' }],
    ]);
    expect(eventBody(newEventDraft())).toMatchObject({ signups_open: false });
    expect(eventBody(editEventDraft(EXISTING))).not.toHaveProperty('signups_open');
  });
});
