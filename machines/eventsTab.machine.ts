import { assign, setup } from 'xstate';
import { listLoad, type ListContext } from './listLoader';
import type { ClanEvent } from '../contract/event';

/** The views of the Events tab sub-navigation (product-spec section 2 Events tab). */
export type EventsView = 'list' | 'teams' | 'game' | 'gameTasks';

/** The event list (`items`, the load failure text `error`) and what the tab adds to it. */
export interface EventsTabContext extends ListContext<ClanEvent> {
  /** true: 'View Past Events' is on (events whose end is in the past). */
  past: boolean;
  /** The event the teams / game / game tasks views act on (kept fresh by every list load). */
  selectedEvent: ClanEvent | null;
}

export type EventsTabEvent =
  | { type: 'events.togglePast' }
  | { type: 'events.reload' }
  | { type: 'view.list' }
  | { type: 'view.teams'; eventId: number }
  | { type: 'view.game'; eventId: number }
  | { type: 'view.gameTasks'; eventId: number };

/** Input of the `loadEvents` actor: which list to load. */
export interface LoadEventsInput {
  past: boolean;
}

/** The list-loader load step of the event list: which list from `past`; a load keeps the selected event fresh. */
const eventList = listLoad<ClanEvent, EventsTabContext, 'loadEvents', LoadEventsInput>({
  id: 'eventsTab',
  actor: 'loadEvents',
  fallback: 'Failed to fetch events.',
  input: (context) => ({ past: context.past }),
  onLoaded: (context, events) => ({ selectedEvent: events.find((e) => e.id === context.selectedEvent?.id) ?? context.selectedEvent }),
});

/**
 * The Events tab of clan management (product-spec section 2 Events tab, section 4 Event status):
 * the event list (upcoming or past, loaded by the `loadEvents` actor, reloaded after a schedule,
 * edit or delete and whenever the list is shown again) and the sub-navigation to the Manage
 * Teams, Manage Game and Manage Game Tasks views of one event. Each time one of these views is
 * entered the list is refreshed in the background, so the sub-navigation sees a game that was
 * created or deleted meanwhile (Manage Game Tasks shows only with a game_id). The list region is
 * the list-loader chart's load step (`listLoad`): `loading` → `loaded` or `failed`.
 */
export const eventsTabMachine = setup({
  types: {
    context: {} as EventsTabContext,
    events: {} as EventsTabEvent,
  },
  actors: eventList.actors,
  actions: {
    togglePast: assign(({ context }) => ({ past: !context.past, items: [] as ClanEvent[], error: null })),
    assignItems: assign(({ context }, events: ClanEvent[]) => eventList.loaded(context, events)),
    assignError: assign((_, error: unknown) => eventList.failed(error)),
    selectEvent: assign(({ context }, eventId: number) => ({
      selectedEvent: context.items.find((e) => e.id === eventId) ?? (context.selectedEvent?.id === eventId ? context.selectedEvent : null),
    })),
  },
}).createMachine({
  id: 'eventsTab',
  context: { past: false, items: [], error: null, selectedEvent: null },
  initial: 'list',
  on: {
    'view.list': '.list',
    'view.teams': { target: '.eventView.teams', actions: { type: 'selectEvent', params: ({ event }) => event.eventId } },
    'view.game': { target: '.eventView.game', actions: { type: 'selectEvent', params: ({ event }) => event.eventId } },
    'view.gameTasks': { target: '.eventView.gameTasks', actions: { type: 'selectEvent', params: ({ event }) => event.eventId } },
  },
  states: {
    list: {
      initial: 'loading',
      on: {
        'events.togglePast': { target: '.loading', actions: 'togglePast' },
        'events.reload': '.loading',
      },
      states: {
        loading: { tags: ['busy'], invoke: eventList.load('failed') },
        loaded: {},
        failed: {},
      },
    },
    eventView: {
      tags: ['eventView'],
      initial: 'teams',
      // A failed background refresh keeps the list it had (onError: {}); the list view shows load errors.
      states: {
        teams: { invoke: eventList.refresh('refreshEvents') },
        game: {
          invoke: eventList.refresh('refreshEvents'),
          // A game created or deleted in the view: refresh, so 'Manage Game Tasks' follows at once.
          on: { 'events.reload': { target: 'game', reenter: true } },
        },
        gameTasks: { invoke: eventList.refresh('refreshEvents') },
      },
    },
  },
});
