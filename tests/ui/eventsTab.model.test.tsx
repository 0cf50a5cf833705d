// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { deferred, type Deferred } from '../support/effects';
import { eventsTabMachine, type EventsTabEvent, type LoadEventInput } from '../../machines/eventsTab.machine';
import { eventStatus, type ClanEvent } from '../../contract/event';
import { MEMBER_EVENTS_NOTE, type EventsEffects } from '../../src/features/events/EventsTab';
import { clanManagePath } from '../../src/base/paths';
import { ApiRequestError } from '../../src/api/client';
import { renderEventsTab } from '../support/eventsTab';

// The game views have their own tests; here they are stand-ins that show the props they get.
vi.mock('../../src/features/game/EventGameView', () => ({
  EventGameView: ({ eventId, gameId }: { eventId: number; gameId: number | null }) => <p>Game view of event {eventId}, game {String(gameId)}</p>,
}));
vi.mock('../../src/features/signups/SignupsView', () => ({
  SignupsView: ({ event }: { event: { id: number } }) => <p>Sign-ups of event {event.id}</p>,
  liveSignupsEffects: {},
}));
vi.mock('../../src/features/game/GameTasksView', () => ({
  GameTasksView: ({ eventId, gameId }: { eventId: number; gameId: number | null }) => <p>Game tasks of event {eventId}, game {String(gameId)}</p>,
}));

/**
 * Model-based test of the eventsTab chart (docs/client.md §6; docs/game-rules.md §12)
 * through the rendered Events tab: loading and failing, the past / upcoming toggle, the table with
 * the status derived from time and the actions menu (Edit hidden once Completed), and the
 * sub-navigation to Manage Teams, Manage Game, Manage Game Tasks (only with a game_id) and Sign-ups, with
 * the event loaded again on entering each view. The tab is rendered at its URL in a router: the
 * buttons navigate and the chart follows the URL; a view opened from its URL (reload, bookmark,
 * Back) of an event the list does not hold waits for its event ('Loading event...') or shows why
 * it could not be loaded, with Retry.
 */

type Snap = SnapshotFrom<typeof eventsTabMachine>;
type Synthetic =
  | { type: 'xstate.done.actor.loadEvents'; output: ClanEvent[] }
  | { type: 'xstate.error.actor.loadEvents'; error: Error }
  | { type: 'xstate.done.actor.loadEvent'; output: ClanEvent }
  | { type: 'xstate.error.actor.loadEvent'; error: Error };
type ModelEvent = EventsTabEvent | Synthetic;

const CLAN_ID = 7;
const base = { type: 'Snakes and Ladders', team_count: 0, game_id: null } as const;
const UPCOMING: ClanEvent[] = [
  { ...base, id: 1, name: 'Spring Bingo', start_datetime: '2099-03-01T18:00:00.000Z', end_datetime: null, team_count: 2 },
  { ...base, id: 2, name: 'Live Ladder', start_datetime: '2020-01-01T00:00:00.000Z', end_datetime: '2099-12-31T00:00:00.000Z', game_id: 42 },
];
const PAST: ClanEvent[] = [{ ...base, id: 3, name: 'Old Race', start_datetime: '2020-01-01T00:00:00.000Z', end_datetime: '2020-01-02T00:00:00.000Z', game_id: 9 }];
const LOAD_FAILED = 'Network error fetching events.';
const EVENT_FAILED = 'Event not found.';
/** An event opened from its URL that the upcoming list does not hold. */
const DEEP_LINKED = PAST[0];
const NEW_GAME_ID = 77;
const listFor = (past: boolean) => (past ? PAST : UPCOMING);

/** Events a person or the fake server can cause in a state. */
function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  if (s.matches({ list: 'loading' })) {
    const load: ModelEvent[] = [
      { type: 'xstate.done.actor.loadEvents', output: listFor(c.past) },
      { type: 'xstate.error.actor.loadEvents', error: new Error(LOAD_FAILED) },
    ];
    // The first load: the URL may name a view of an event instead (reload, bookmark, Back).
    const deepLinks: ModelEvent[] = [
      { type: 'view.game', eventId: DEEP_LINKED.id },
      { type: 'view.teams', eventId: DEEP_LINKED.id },
      { type: 'view.gameTasks', eventId: DEEP_LINKED.id },
      { type: 'view.signups', eventId: DEEP_LINKED.id },
    ];
    return c.items.length === 0 && !c.past && c.eventId === null ? [...load, ...deepLinks] : load;
  }
  if (s.matches({ list: 'failed' })) return [{ type: 'events.reload' }, { type: 'events.togglePast' }];
  if (s.matches({ list: 'loaded' })) {
    return [{ type: 'events.togglePast' }, ...c.items.flatMap((e): ModelEvent[] => [{ type: 'view.teams', eventId: e.id }, { type: 'view.game', eventId: e.id }, { type: 'view.signups', eventId: e.id }])];
  }
  // A view of an event not known yet (opened from its URL): its load answers or fails (then Retry).
  const selected = c.selectedEvent;
  if (!selected) {
    if (c.eventError) return [{ type: 'events.reload' }, { type: 'view.list' }];
    return [
      { type: 'xstate.done.actor.loadEvent', output: [...UPCOMING, ...PAST].find((e) => e.id === c.eventId)! },
      { type: 'xstate.error.actor.loadEvent', error: new Error(EVENT_FAILED) },
    ];
  }
  // A deep-linked Manage Teams or Manage Game Tasks ends once its event shows: the sub-navigation
  // from a known event is driven from the deep-linked Manage Game and from the list.
  if (c.items.length === 0 && !s.matches({ eventView: 'game' })) return [];
  // A view of a known event: the sub-navigation, and the background load of the event, which may
  // report a game created meanwhile (then Manage Game Tasks appears).
  // (The current view's own button is its URL already: the chart is not told again.)
  const list: ModelEvent[] = [{ type: 'view.list' }, { type: 'view.teams', eventId: selected.id }, { type: 'view.game', eventId: selected.id }, { type: 'view.signups', eventId: selected.id }];
  if (selected.game_id) list.push({ type: 'view.gameTasks', eventId: selected.id });
  else list.push({ type: 'xstate.done.actor.loadEvent', output: { ...selected, game_id: NEW_GAME_ID } });
  const current = s.matches({ eventView: 'teams' }) ? 'view.teams' : s.matches({ eventView: 'game' }) ? 'view.game' : s.matches({ eventView: 'signups' }) ? 'view.signups' : 'view.gameTasks';
  return list.filter((e) => e.type !== current);
}

/** The context the screen shows; a view's Retry is told apart (it waits again like the first load did). */
const serializeState = (s: Snap, event?: ModelEvent) =>
  JSON.stringify([
    s.value, s.context.past, s.context.items.map((e) => [e.id, e.game_id]), s.context.eventId,
    s.context.selectedEvent?.id ?? null, s.context.selectedEvent?.game_id ?? null, s.context.error, s.context.eventError,
    s.matches('eventView') && event?.type === 'events.reload',
  ]);

/**
 * A fake call (the list, or one event): every call waits for the test; the newest call is the
 * one the chart listens to (a load of a view left earlier has been stopped), so it is the one settled.
 */
class FakeCall<T> {
  private calls: Deferred<T>[] = [];
  fetch = (clanId: number, what: unknown): Promise<T> => {
    expect(clanId).toBe(CLAN_ID);
    expect(['boolean', 'number']).toContain(typeof what);
    const d = deferred<T>();
    this.calls.push(d);
    return d.promise;
  };
  async settle(how: 'resolve' | 'reject', value: unknown): Promise<void> {
    await vi.waitFor(() => expect(this.calls.length).toBeGreaterThan(0));
    const d = this.calls.at(-1)!;
    this.calls = [];
    if (how === 'resolve') d.resolve(value as T);
    else d.reject(value);
  }
}

interface World {
  list: FakeCall<ClanEvent[]>;
  event: FakeCall<ClanEvent>;
  user: ReturnType<typeof userEvent.setup>;
  router: ReturnType<typeof renderEventsTab>['router'];
}

const nav = () => screen.getByRole('navigation', { name: 'Event management' });
const current = () => within(nav()).getByRole('button', { current: 'page' }).textContent;

/** The sub-navigation of a view of one event; false (after checking the wait or the failure) while the event is not known. */
function assertSubNav(s: Snap, label: string): boolean {
  if (!s.context.selectedEvent) {
    if (s.context.eventError) {
      expect(screen.getByRole('alert').textContent).toBe(s.context.eventError);
      screen.getByRole('button', { name: 'Retry' });
    } else screen.getByText('Loading event...');
    expect(within(nav()).getByRole('button', { name: 'Manage Game' }).hasAttribute('disabled')).toBe(true);
    return false;
  }
  expect(current()).toBe(label);
  const tasks = within(nav()).queryByRole('button', { name: 'Manage Game Tasks' });
  if (s.context.selectedEvent!.game_id) expect(tasks).not.toBeNull();
  else expect(tasks).toBeNull();
  within(nav()).getByText(`Event: ${s.context.selectedEvent!.name}`);
  return true;
}

const ASSERTIONS: Record<string, (s: Snap, w: World) => Promise<void>> = {
    list: async (s, w) => {
      expect(current()).toBe('Event List');
      expect(w.router.state.location.pathname).toBe(`/clans/manage/${CLAN_ID}/events`);
      screen.getByRole('heading', { name: s.context.past ? 'Past Events' : 'Upcoming Events' });
      screen.getByRole('button', { name: s.context.past ? 'View Upcoming Events' : 'View Past Events' });
      screen.getByRole('button', { name: 'Create New Event' });
    },
    'list.loading': async (s) => {
      if (s.context.items.length === 0) screen.getByText('Loading events...');
      else expect(screen.getAllByRole('rowheader').map((r) => r.textContent)).toEqual(s.context.items.map((e) => e.name));
    },
    'list.loaded': async (s, w) => {
      const now = Date.now();
      await waitFor(() => expect(screen.queryAllByRole('rowheader').map((r) => r.textContent)).toEqual(s.context.items.map((e) => e.name)));
      for (const e of s.context.items) {
        const row = screen.getByRole('rowheader', { name: e.name }).closest('tr')!;
        const cells = within(row).getAllByRole('cell');
        expect(within(cells[1]).getByText(eventStatus(e, now)).className).toContain(`badge--${eventStatus(e, now).toLowerCase()}`);
        expect(cells[2].textContent).toBe(String(e.team_count));
        expect(cells[3].textContent).toBe(e.game_id ? 'Created' : 'Not set up');
        // The actions menu: Edit Event Details is hidden once the event is Completed; Copy event is always there (docs/client.md §6).
        within(row).getByRole('button', { name: `More actions for ${e.name}` }).focus();
        await w.user.keyboard('{Enter}');
        const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
        expect(items).toEqual(eventStatus(e, now) === 'Completed' ? ['Copy event', 'Delete Event'] : ['Edit Event Details', 'Copy event', 'Delete Event']);
        await w.user.keyboard('{Escape}');
        await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      }
      if (s.context.items.length === 0) screen.getByText(s.context.past ? 'No past events.' : /No upcoming events/);
    },
    'list.failed': async (s) => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(s.context.error));
      screen.getByRole('button', { name: 'Retry' });
    },
    eventView: async (s, w) => {
      expect(screen.queryByRole('button', { name: 'Create New Event' })).toBeNull();
      expect(w.router.state.location.pathname).toMatch(new RegExp(`^/clans/manage/${CLAN_ID}/events/${s.context.eventId}/(teams|game|tasks|signups)$`));
    },
    'eventView.teams': async (s) => {
      if (!assertSubNav(s, 'Manage Teams')) return;
      screen.getByText('Managing: Teams List');
      screen.getByText('Loading teams...');
      screen.getByRole('button', { name: 'Back to Events' });
    },
    'eventView.game': async (s, w) => {
      expect(w.router.state.location.pathname).toBe(`/clans/manage/${CLAN_ID}/events/${s.context.eventId}/game`);
      if (!assertSubNav(s, 'Manage Game')) return;
      screen.getByText(`Game view of event ${s.context.selectedEvent!.id}, game ${String(s.context.selectedEvent!.game_id)}`);
    },
    'eventView.signups': async (s, w) => {
      expect(w.router.state.location.pathname).toBe(`/clans/manage/${CLAN_ID}/events/${s.context.eventId}/signups`);
      if (!assertSubNav(s, 'Sign-ups')) return;
      screen.getByText(`Sign-ups of event ${s.context.selectedEvent!.id}`);
    },
    'eventView.gameTasks': async (s) => {
      if (!assertSubNav(s, 'Manage Game Tasks')) return;
      screen.getByText(`Game tasks of event ${s.context.selectedEvent!.id}, game ${String(s.context.selectedEvent!.game_id)}`);
    },
};

type Executor = ModelExecutor<World, Snap, ModelEvent>;

const settle = (w: World, how: 'resolve' | 'reject', value: unknown) => act(() => w.list.settle(how, value));
const settleEvent = (w: World, how: 'resolve' | 'reject', value: unknown) => act(() => w.event.settle(how, value));
const rowButton = (eventId: number, label: string) => {
  const e = [...UPCOMING, ...PAST].find((x) => x.id === eventId)!;
  return within(screen.getByRole('rowheader', { name: e.name }).closest('tr')!).getByRole('button', { name: label });
};
/** From the list the row's button, from a view of one event the sub-navigation; before the list is there, the URL. */
const open =
  (label: string): Executor =>
  async (w, { event, prev }) => {
    if (!('eventId' in event)) return;
    if (prev.matches({ list: 'loading' }) && prev.context.items.length === 0) {
      const view = event.type === 'view.teams' ? 'teams' : event.type === 'view.game' ? 'game' : event.type === 'view.signups' ? 'signups' : 'gameTasks';
      await act(() => w.router.navigate(clanManagePath(CLAN_ID, { tab: 'events', events: { view, eventId: event.eventId } })));
    } else if (prev.matches('list')) await w.user.click(rowButton(event.eventId, label));
    else await w.user.click(within(nav()).getByRole('button', { name: label }));
  };

const EXECUTORS = {
  'xstate.done.actor.loadEvents': async (w, { event }) => settle(w, 'resolve', 'output' in event ? event.output : null),
  'xstate.error.actor.loadEvents': async (w) => settle(w, 'reject', new ApiRequestError(LOAD_FAILED, 0)),
  'xstate.done.actor.loadEvent': async (w, { event }) => settleEvent(w, 'resolve', 'output' in event ? event.output : null),
  'xstate.error.actor.loadEvent': async (w) => settleEvent(w, 'reject', new ApiRequestError(EVENT_FAILED, 404)),
  'events.reload': async (w) => w.user.click(screen.getByRole('button', { name: 'Retry' })),
  'events.togglePast': async (w) => w.user.click(screen.getByRole('button', { name: /View (Past|Upcoming) Events/ })),
  'view.list': async (w) => w.user.click(within(nav()).getByRole('button', { name: 'Event List' })),
  'view.teams': open('Manage Teams'),
  'view.game': open('Manage Game'),
  'view.gameTasks': open('Manage Game Tasks'),
  'view.signups': open('Sign-ups'),
} satisfies Record<ModelEvent['type'], Executor>;

function renderTab(isManager = true): World {
  const list = new FakeCall<ClanEvent[]>();
  const event = new FakeCall<ClanEvent>();
  const never = () => new Promise<never>(() => {});
  const effects: EventsEffects = {
    fetchEvents: list.fetch,
    fetchEvent: event.fetch,
    scheduleEvent: never,
    updateEvent: never,
    deleteEvent: never,
    teams: {
      fetchTeams: never,
      createTeam: never,
      updateTeam: never,
      deleteTeam: never,
      fetchTeamMembers: never,
      addTeamMember: never,
      updateTeamMemberRole: never,
      removeTeamMember: never,
    },
  };
  const { router } = renderEventsTab(CLAN_ID, effects, isManager);
  return { list, event, router, user: userEvent.setup() };
}

modelTests<Snap, ModelEvent, World>({
  name: 'eventsTab',
  machine: eventsTabMachine,
  events: eventsFor,
  serialize: serializeState,
  dropPrefixPaths: true,
  executors: EXECUTORS,
  assertions: ASSERTIONS,
  render: () => renderTab(),
  label: (event) => ('eventId' in event ? `${event.type}(${event.eventId})` : event.type.replace('xstate.', '').replace('.actor', '')),
  guards: (paths) => {
    // Both statuses with and without Edit are shown; a game created meanwhile opens Manage Game Tasks.
    const seen = paths.flatMap((p) => p.steps.map((st) => st.state));
    expect(seen.some((s) => s.matches({ eventView: 'gameTasks' }) && s.context.selectedEvent?.game_id === NEW_GAME_ID)).toBe(true);
    expect(seen.some((s) => s.matches({ list: 'loaded' }) && s.context.items.some((e) => eventStatus(e, Date.now()) === 'Completed'))).toBe(true);
    expect(seen.some((s) => s.matches({ list: 'loaded' }) && s.context.items.some((e) => eventStatus(e, Date.now()) === 'Live'))).toBe(true);
    // A view opened from its URL (each of the three): waits, fails with Retry, and shows the past event once loaded.
    for (const view of ['teams', 'game', 'gameTasks', 'signups'] as const) {
      expect(seen.some((s) => s.matches({ eventView: view }) && !s.context.selectedEvent && s.context.eventError === EVENT_FAILED), view).toBe(true);
      expect(seen.some((s) => s.matches({ eventView: view }) && s.context.selectedEvent?.id === DEEP_LINKED.id), view).toBe(true);
    }
  },
});

describe('Events tab beside its chart', () => {
  afterEach(cleanup);

  it("shows a Member the events with a note, not the actions the server would refuse", async () => {
    const w = renderTab(false);
    await w.list.settle('resolve', UPCOMING);
    await screen.findByRole('rowheader', { name: UPCOMING[0].name });
    expect(screen.getByTestId('member-events-note').textContent).toBe(MEMBER_EVENTS_NOTE);
    for (const name of ['Create New Event', 'Manage Teams', 'Manage Game', `More actions for ${UPCOMING[0].name}`]) {
      expect(screen.queryByRole('button', { name }), name).toBeNull();
    }
    expect(screen.queryByRole('navigation', { name: 'Event management' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    screen.getByRole('button', { name: 'View Past Events' });
  });

  it('keeps the event it has when loading it again fails', async () => {
    let eventLoads = 0;
    const actor = createActor(
      eventsTabMachine.provide({
        actors: {
          loadEvents: fromPromise(async () => UPCOMING),
          loadEvent: fromPromise<ClanEvent, LoadEventInput>(async () => {
            eventLoads += 1;
            throw new Error('down');
          }),
        },
      }),
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ list: 'loaded' })).toBe(true));
    actor.send({ type: 'view.teams', eventId: 1 });
    await vi.waitFor(() => expect(actor.getSnapshot().context.eventError).toBe('down'));
    expect(eventLoads).toBe(1);
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().context.selectedEvent).toEqual(UPCOMING[0]);
    actor.stop();
  });
});
