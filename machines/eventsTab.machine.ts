import { assign, setup } from 'xstate';
import { loadErrorText } from './listLoader';
import { missingPromise } from './shared';
import type { ClanEvent } from '../contract/event';

/** The views of the Events tab sub-navigation (product-spec section 2 Events tab). */
export type EventsView = 'list' | 'teams' | 'game' | 'gameTasks';

export interface EventsTabContext {
  /** true: 'View Past Events' is on (events whose end is in the past). */
  past: boolean;
  events: ClanEvent[];
  /** The load failure text shown above the table. */
  error: string | null;
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

/**
 * The Events tab of clan management (product-spec section 2 Events tab, section 4 Event status):
 * the event list (upcoming or past, loaded by the `loadEvents` actor, reloaded after a schedule,
 * edit or delete and whenever the list is shown again) and the sub-navigation to the Manage
 * Teams, Manage Game and Manage Game Tasks views of one event. Each time one of these views is
 * entered the list is refreshed in the background, so the sub-navigation sees a game that was
 * created or deleted meanwhile (Manage Game Tasks shows only with a game_id).
 */
export const eventsTabMachine = setup({
  types: {
    context: {} as EventsTabContext,
    events: {} as EventsTabEvent,
  },
  actors: {
    loadEvents: missingPromise<ClanEvent[], LoadEventsInput>('eventsTab', 'loadEvents'),
  },
  actions: {
    togglePast: assign(({ context }) => ({ past: !context.past, events: [] as ClanEvent[], error: null })),
    assignEvents: assign(({ context }, events: ClanEvent[]) => ({
      events,
      error: null,
      selectedEvent: events.find((e) => e.id === context.selectedEvent?.id) ?? context.selectedEvent,
    })),
    assignLoadError: assign((_, error: unknown) => ({ error: loadErrorText(error, 'Failed to fetch events.') })),
    selectEvent: assign(({ context }, eventId: number) => ({
      selectedEvent: context.events.find((e) => e.id === eventId) ?? (context.selectedEvent?.id === eventId ? context.selectedEvent : null),
    })),
  },
}).createMachine({
  id: 'eventsTab',
  context: { past: false, events: [], error: null, selectedEvent: null },
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
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadEvents',
            src: 'loadEvents',
            input: ({ context }) => ({ past: context.past }),
            onDone: { target: 'ready', actions: { type: 'assignEvents', params: ({ event }) => event.output } },
            onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
          },
        },
        ready: {},
        failed: {},
      },
    },
    eventView: {
      tags: ['eventView'],
      initial: 'teams',
      // A failed background refresh keeps the list it had (onError: {}); the list view shows load errors.
      states: {
        teams: { invoke: { id: 'refreshEvents', src: 'loadEvents', input: ({ context }) => ({ past: context.past }), onDone: { actions: { type: 'assignEvents', params: ({ event }) => event.output } }, onError: {} } },
        game: {
          invoke: { id: 'refreshEvents', src: 'loadEvents', input: ({ context }) => ({ past: context.past }), onDone: { actions: { type: 'assignEvents', params: ({ event }) => event.output } }, onError: {} },
          // A game created or deleted in the view: refresh, so 'Manage Game Tasks' follows at once.
          on: { 'events.reload': { target: 'game', reenter: true } },
        },
        gameTasks: { invoke: { id: 'refreshEvents', src: 'loadEvents', input: ({ context }) => ({ past: context.past }), onDone: { actions: { type: 'assignEvents', params: ({ event }) => event.output } }, onError: {} } },
      },
    },
  },
});
