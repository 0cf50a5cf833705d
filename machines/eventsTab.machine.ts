import { assign, setup } from 'xstate';
import { listLoad, type ListContext } from './listLoader';
import { missingPromise } from './shared';
import type { ClanEvent } from '../contract/event';
import { errorText } from '../contract/errorText';

/** The views of the Events tab sub-navigation (docs/client.md §6, §13). */
export type EventsView = 'list' | 'teams' | 'game' | 'gameTasks' | 'signups';

/** The event list (`items`, the load failure text `error`) and what the tab adds to it. */
export interface EventsTabContext extends ListContext<ClanEvent> {
  /** true: 'View Past Events' is on (events whose end is in the past). */
  past: boolean;
  /** Id of the event the teams / game / game tasks views act on (from a row, or from the URL). */
  eventId: number | null;
  /** That event once known (from the list, then kept fresh by `loadEvent` on entering each view). */
  selectedEvent: ClanEvent | null;
  /** Why that event could not be loaded (shown only while it is not known), or null. */
  eventError: string | null;
}

export type EventsTabEvent =
  | { type: 'events.togglePast' }
  | { type: 'events.reload' }
  | { type: 'view.list' }
  | { type: 'view.teams'; eventId: number }
  | { type: 'view.game'; eventId: number }
  | { type: 'view.gameTasks'; eventId: number }
  | { type: 'view.signups'; eventId: number };

/** Input of the `loadEvents` actor: which list to load. */
export interface LoadEventsInput {
  past: boolean;
}

/** Input of the `loadEvent` actor: the one event a view acts on, past or upcoming. */
export interface LoadEventInput {
  eventId: number;
}

/** The list-loader load step of the event list: which list from `past`; a load keeps the selected event fresh. */
const eventList = listLoad<ClanEvent, EventsTabContext, 'loadEvents', LoadEventsInput>({
  id: 'eventsTab',
  actor: 'loadEvents',
  fallback: 'Failed to fetch events.',
  input: (context) => ({ past: context.past }),
  onLoaded: (context, events) => ({ selectedEvent: events.find((e) => e.id === context.selectedEvent?.id) ?? context.selectedEvent }),
});

/** Failure text of `loadEvent` when the error carries none. */
const EVENT_LOAD_FAILED = 'Failed to fetch the event.';

/** The background load of the viewed event on entering a view (a failure keeps the event it had). */
const loadSelectedEvent = {
  id: 'loadEvent',
  src: 'loadEvent',
  input: ({ context }: { context: EventsTabContext }) => ({ eventId: context.eventId ?? 0 }),
  onDone: { actions: { type: 'assignEvent', params: ({ event }: { event: { output: ClanEvent } }) => event.output } },
  onError: { actions: { type: 'assignEventError', params: ({ event }: { event: { error: unknown } }) => event.error } },
} as const;

/** `events.reload` in a view of one event: load the event again (the last failure is cleared). */
const reloadEvent = (view: 'teams' | 'game' | 'gameTasks' | 'signups') => ({ target: view, reenter: true, actions: 'clearEventError' }) as const;

/**
 * The Events tab of clan management (docs/client.md §6; docs/game-rules.md §12):
 * the event list (upcoming or past, loaded by the `loadEvents` actor, reloaded after a schedule,
 * edit or delete and whenever the list is shown again) and the sub-navigation to the Manage
 * Teams, Manage Game, Manage Game Tasks and Sign-ups (docs/client.md §13) views of one event. Each time one of these views is
 * entered its event is loaded again (`loadEvent`), so the sub-navigation sees a game that was
 * created or deleted meanwhile (Manage Game Tasks shows only with a game_id), and a view opened
 * from its URL (reload, bookmark, Back) finds its event, past or upcoming; `events.reload` in a
 * view loads it again (retry). The list region is the list-loader chart's load step
 * (`listLoad`): `loading` → `loaded` or `failed`.
 */
export const eventsTabMachine = setup({
  types: {
    context: {} as EventsTabContext,
    events: {} as EventsTabEvent,
  },
  actors: { ...eventList.actors, loadEvent: missingPromise<ClanEvent, LoadEventInput>('eventsTab', 'loadEvent') },
  actions: {
    togglePast: assign(({ context }) => ({ past: !context.past, items: [] as ClanEvent[], error: null })),
    assignItems: assign(({ context }, events: ClanEvent[]) => eventList.loaded(context, events)),
    assignError: assign((_, error: unknown) => eventList.failed(error)),
    selectEvent: assign(({ context }, eventId: number) => ({
      eventId,
      // The selected event is the freshest copy (every list load and event load updates it).
      selectedEvent: context.selectedEvent?.id === eventId ? context.selectedEvent : (context.items.find((e) => e.id === eventId) ?? null),
      eventError: null,
    })),
    assignEvent: assign((_, event: ClanEvent) => ({ selectedEvent: event, eventError: null })),
    assignEventError: assign((_, error: unknown) => ({ eventError: errorText(error, EVENT_LOAD_FAILED) })),
    clearEventError: assign({ eventError: null }),
  },
}).createMachine({
  id: 'eventsTab',
  context: { past: false, items: [], error: null, eventId: null, selectedEvent: null, eventError: null },
  initial: 'list',
  on: {
    'view.list': '.list',
    'view.teams': { target: '.eventView.teams', actions: { type: 'selectEvent', params: ({ event }) => event.eventId } },
    'view.game': { target: '.eventView.game', actions: { type: 'selectEvent', params: ({ event }) => event.eventId } },
    'view.gameTasks': { target: '.eventView.gameTasks', actions: { type: 'selectEvent', params: ({ event }) => event.eventId } },
    'view.signups': { target: '.eventView.signups', actions: { type: 'selectEvent', params: ({ event }) => event.eventId } },
  },
  states: {
    list: {
      initial: 'loading',
      on: {
        'events.togglePast': { target: '.loading', actions: 'togglePast' },
        'events.reload': '.loading',
      },
      states: {
        loading: { tags: ['busy'], invoke: eventList.load() },
        loaded: {},
        failed: {},
      },
    },
    eventView: {
      tags: ['eventView'],
      initial: 'teams',
      // `events.reload` loads the event again: a retry, or (game view) a game created or deleted
      // there, so 'Manage Game Tasks' follows at once.
      states: {
        teams: { invoke: loadSelectedEvent, on: { 'events.reload': reloadEvent('teams') } },
        game: { invoke: loadSelectedEvent, on: { 'events.reload': reloadEvent('game') } },
        gameTasks: { invoke: loadSelectedEvent, on: { 'events.reload': reloadEvent('gameTasks') } },
        // Opening or closing sign-ups there reloads the event (`events.reload`), so the view shows it.
        signups: { invoke: loadSelectedEvent, on: { 'events.reload': reloadEvent('signups') } },
      },
    },
  },
});
