// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { matchesKey, shortestPaths, stateKeysOf } from '../support/chartModel';
import type { TestPath } from '../support/graph';
import { deferred, type Deferred } from '../support/effects';
import { eventsTabMachine, type EventsTabEvent } from '../../machines/eventsTab.machine';
import { eventStatus, type ClanEvent } from '../../contract/event';
import { EventsTab, MEMBER_EVENTS_NOTE, type EventsEffects } from '../../src/features/events/EventsTab';
import { ApiRequestError } from '../../src/api/client';

// The game views have their own tests; here they are stand-ins that show the props they get.
vi.mock('../../src/features/game/EventGameView', () => ({
  EventGameView: ({ eventId, gameId }: { eventId: number; gameId: number | null }) => <p>Game view of event {eventId}, game {String(gameId)}</p>,
}));
vi.mock('../../src/features/game/GameTasksView', () => ({
  GameTasksView: ({ eventId, gameId }: { eventId: number; gameId: number | null }) => <p>Game tasks of event {eventId}, game {String(gameId)}</p>,
}));

/**
 * Model-based test of the eventsTab chart (product-spec sections 2 Events tab, 4 Event status)
 * through the rendered Events tab: loading and failing, the past / upcoming toggle, the table with
 * the status derived from time and the actions menu (Edit hidden once Completed), and the
 * sub-navigation to Manage Teams, Manage Game and Manage Game Tasks (only with a game_id), with
 * the list refreshed in the background on entering each view.
 */

type Snap = SnapshotFrom<typeof eventsTabMachine>;
type Synthetic =
  | { type: 'xstate.done.actor.loadEvents'; output: ClanEvent[] }
  | { type: 'xstate.error.actor.loadEvents'; error: Error }
  | { type: 'xstate.done.actor.refreshEvents'; output: ClanEvent[] };
type ModelEvent = EventsTabEvent | Synthetic;

const CLAN_ID = 7;
const base = { type: 'Snakes and Ladders', team_count: 0, game_id: null } as const;
const UPCOMING: ClanEvent[] = [
  { ...base, id: 1, name: 'Spring Bingo', start_datetime: '2099-03-01T18:00:00.000Z', end_datetime: null, team_count: 2 },
  { ...base, id: 2, name: 'Live Ladder', start_datetime: '2020-01-01T00:00:00.000Z', end_datetime: '2099-12-31T00:00:00.000Z', game_id: 42 },
];
const PAST: ClanEvent[] = [{ ...base, id: 3, name: 'Old Race', start_datetime: '2020-01-01T00:00:00.000Z', end_datetime: '2020-01-02T00:00:00.000Z', game_id: 9 }];
const LOAD_FAILED = 'Network error fetching events.';
const NEW_GAME_ID = 77;
const listFor = (past: boolean) => (past ? PAST : UPCOMING);

/** Events a person or the fake server can cause in a state. */
function eventsFor(s: Snap): ModelEvent[] {
  const c = s.context;
  if (s.matches({ list: 'loading' })) {
    return [
      { type: 'xstate.done.actor.loadEvents', output: listFor(c.past) },
      { type: 'xstate.error.actor.loadEvents', error: new Error(LOAD_FAILED) },
    ];
  }
  if (s.matches({ list: 'failed' })) return [{ type: 'events.reload' }, { type: 'events.togglePast' }];
  if (s.matches({ list: 'loaded' })) {
    return [{ type: 'events.togglePast' }, ...c.items.flatMap((e): ModelEvent[] => [{ type: 'view.teams', eventId: e.id }, { type: 'view.game', eventId: e.id }])];
  }
  // A view of one event: the sub-navigation, and the background refresh, which may report a game
  // created meanwhile for the selected event (then Manage Game Tasks appears).
  const selected = c.selectedEvent!;
  const list: ModelEvent[] = [{ type: 'view.list' }, { type: 'view.teams', eventId: selected.id }, { type: 'view.game', eventId: selected.id }];
  if (selected.game_id) list.push({ type: 'view.gameTasks', eventId: selected.id });
  else list.push({ type: 'xstate.done.actor.refreshEvents', output: c.items.map((e) => (e.id === selected.id ? { ...e, game_id: NEW_GAME_ID } : e)) });
  return list;
}

const serializeState = (s: Snap) =>
  JSON.stringify([s.value, s.context.past, s.context.items.map((e) => [e.id, e.game_id]), s.context.selectedEvent?.id ?? null, s.context.selectedEvent?.game_id ?? null, s.context.error]);

const paths = shortestPaths<Snap, ModelEvent>(eventsTabMachine, eventsFor, serializeState);


/**
 * The fake list call: every load waits for the test; the newest call is the one the chart
 * listens to (a refresh of a view left earlier has been stopped), so it is the one settled.
 */
class FakeEventList {
  private calls: Deferred<ClanEvent[]>[] = [];
  /** What the server holds (a settled load also answers a later list load with it). */
  fetch = (clanId: number, past: boolean): Promise<ClanEvent[]> => {
    expect(clanId).toBe(CLAN_ID);
    expect(typeof past).toBe('boolean');
    const d = deferred<ClanEvent[]>();
    this.calls.push(d);
    return d.promise;
  };
  async settle(how: 'resolve' | 'reject', value: unknown): Promise<void> {
    await vi.waitFor(() => expect(this.calls.length).toBeGreaterThan(0));
    const d = this.calls.at(-1)!;
    this.calls = [];
    if (how === 'resolve') d.resolve(value as ClanEvent[]);
    else d.reject(value);
  }
}

interface World {
  list: FakeEventList;
  user: ReturnType<typeof userEvent.setup>;
}

const nav = () => screen.getByRole('navigation', { name: 'Event management' });
const current = () => within(nav()).getByRole('button', { current: 'page' }).textContent;

/** The sub-navigation of a view of one event. */
function assertSubNav(s: Snap, label: string) {
  expect(current()).toBe(label);
  const tasks = within(nav()).queryByRole('button', { name: 'Manage Game Tasks' });
  if (s.context.selectedEvent!.game_id) expect(tasks).not.toBeNull();
  else expect(tasks).toBeNull();
  within(nav()).getByText(`Event: ${s.context.selectedEvent!.name}`);
}

function assertions(w: World): Record<string, (s: Snap) => Promise<void>> {
  return {
    list: async (s) => {
      expect(current()).toBe('Event List');
      screen.getByRole('heading', { name: s.context.past ? 'Past Events' : 'Upcoming Events' });
      screen.getByRole('button', { name: s.context.past ? 'View Upcoming Events' : 'View Past Events' });
      screen.getByRole('button', { name: 'Create New Event' });
    },
    'list.loading': async (s) => {
      if (s.context.items.length === 0) screen.getByText('Loading events...');
      else expect(screen.getAllByRole('rowheader').map((r) => r.textContent)).toEqual(s.context.items.map((e) => e.name));
    },
    'list.loaded': async (s) => {
      const now = Date.now();
      await waitFor(() => expect(screen.queryAllByRole('rowheader').map((r) => r.textContent)).toEqual(s.context.items.map((e) => e.name)));
      for (const e of s.context.items) {
        const row = screen.getByRole('rowheader', { name: e.name }).closest('tr')!;
        const cells = within(row).getAllByRole('cell');
        expect(within(cells[1]).getByText(eventStatus(e, now)).className).toContain(`badge--${eventStatus(e, now).toLowerCase()}`);
        expect(cells[2].textContent).toBe(String(e.team_count));
        expect(cells[3].textContent).toBe(e.game_id ? 'Created' : 'Not set up');
        // The actions menu: Edit Event Details is hidden once the event is Completed.
        within(row).getByRole('button', { name: `More actions for ${e.name}` }).focus();
        await w.user.keyboard('{Enter}');
        const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
        expect(items).toEqual(eventStatus(e, now) === 'Completed' ? ['Delete Event'] : ['Edit Event Details', 'Delete Event']);
        await w.user.keyboard('{Escape}');
        await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      }
      if (s.context.items.length === 0) screen.getByText(s.context.past ? 'No past events.' : /No upcoming events/);
    },
    'list.failed': async (s) => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(s.context.error));
      screen.getByRole('button', { name: 'Retry' });
    },
    eventView: async (s) => {
      expect(screen.queryByRole('button', { name: 'Create New Event' })).toBeNull();
      expect(s.context.selectedEvent).not.toBeNull();
    },
    'eventView.teams': async (s) => {
      assertSubNav(s, 'Manage Teams');
      screen.getByText('Managing: Teams List');
      screen.getByText('Loading teams...');
      screen.getByRole('button', { name: 'Back to Events' });
    },
    'eventView.game': async (s) => {
      assertSubNav(s, 'Manage Game');
      screen.getByText(`Game view of event ${s.context.selectedEvent!.id}, game ${String(s.context.selectedEvent!.game_id)}`);
    },
    'eventView.gameTasks': async (s) => {
      assertSubNav(s, 'Manage Game Tasks');
      screen.getByText(`Game tasks of event ${s.context.selectedEvent!.id}, game ${String(s.context.selectedEvent!.game_id)}`);
    },
  };
}

type Executor = (step: { event: ModelEvent; state: Snap }, prev: Snap) => Promise<void>;

function executors(w: World) {
  const settle = (how: 'resolve' | 'reject', value: unknown) => act(() => w.list.settle(how, value));
  const rowButton = (eventId: number, label: string) => {
    const e = [...UPCOMING, ...PAST].find((x) => x.id === eventId)!;
    return within(screen.getByRole('rowheader', { name: e.name }).closest('tr')!).getByRole('button', { name: label });
  };
  /** From the list the row's button, from a view of one event the sub-navigation. */
  const open = (label: string) => async ({ event }: { event: ModelEvent }, prev: Snap) => {
    if (!('eventId' in event)) return;
    if (prev.matches('list')) await w.user.click(rowButton(event.eventId, label));
    else await w.user.click(within(nav()).getByRole('button', { name: label }));
  };
  return {
    'xstate.done.actor.loadEvents': async ({ event }) => settle('resolve', 'output' in event ? event.output : null),
    'xstate.error.actor.loadEvents': async () => settle('reject', new ApiRequestError(LOAD_FAILED, 0)),
    'xstate.done.actor.refreshEvents': async ({ event }) => settle('resolve', 'output' in event ? event.output : null),
    'events.reload': async () => w.user.click(screen.getByRole('button', { name: 'Retry' })),
    'events.togglePast': async () => w.user.click(screen.getByRole('button', { name: /View (Past|Upcoming) Events/ })),
    'view.list': async () => w.user.click(within(nav()).getByRole('button', { name: 'Event List' })),
    'view.teams': open('Manage Teams'),
    'view.game': open('Manage Game'),
    'view.gameTasks': open('Manage Game Tasks'),
  } satisfies Record<ModelEvent['type'], Executor>;
}

function renderTab(isManager = true): World {
  const list = new FakeEventList();
  const never = () => new Promise<never>(() => {});
  const effects: EventsEffects = {
    fetchEvents: list.fetch,
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
  render(<EventsTab clanId={CLAN_ID} isManager={isManager} effects={effects} />);
  return { list, user: userEvent.setup() };
}

const short = (path: TestPath<Snap, ModelEvent>) =>
  path.steps
    .slice(1)
    .map(({ event }) => ('eventId' in event ? `${event.type}(${event.eventId})` : event.type.replace('xstate.', '').replace('.actor', '')))
    .join(' → ');

describe('eventsTab chart through the Events tab', () => {
  afterEach(cleanup);

  it('reaches every state node, every node has an assertion, and every event is driven (guard)', () => {
    const keys = stateKeysOf(eventsTabMachine);
    const w = { list: new FakeEventList(), user: userEvent.setup() };
    expect(Object.keys(assertions(w)).sort()).toEqual([...keys].sort());
    const reached = new Set<string>();
    const driven = new Set<string>();
    for (const p of paths)
      for (const st of p.steps) {
        for (const k of keys) if (matchesKey(st.state, k)) reached.add(k);
        driven.add(st.event.type);
      }
    expect([...reached].sort()).toEqual([...keys].sort());
    expect([...driven].filter((t) => t !== 'xstate.init').sort()).toEqual(Object.keys(executors(w)).sort());
    // Both statuses with and without Edit are shown; a game created meanwhile opens Manage Game Tasks.
    const seen = paths.flatMap((p) => p.steps.map((st) => st.state));
    expect(seen.some((s) => s.matches({ eventView: 'gameTasks' }) && s.context.selectedEvent?.game_id === NEW_GAME_ID)).toBe(true);
    expect(seen.some((s) => s.matches({ list: 'loaded' }) && s.context.items.some((e) => eventStatus(e, Date.now()) === 'Completed'))).toBe(true);
    expect(seen.some((s) => s.matches({ list: 'loaded' }) && s.context.items.some((e) => eventStatus(e, Date.now()) === 'Live'))).toBe(true);
  });

  it("shows a Member the events with a note, not the actions the server would refuse (issue 12 item 8)", async () => {
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

  it('keeps its list when a background refresh fails', async () => {
    let calls = 0;
    const actor = createActor(
      eventsTabMachine.provide({
        actors: { loadEvents: fromPromise(async () => (++calls === 1 ? UPCOMING : Promise.reject(new Error('down')))) },
      }),
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ list: 'loaded' })).toBe(true));
    actor.send({ type: 'view.teams', eventId: 1 });
    await vi.waitFor(() => expect(calls).toBe(2));
    await new Promise((r) => setTimeout(r, 10));
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().context.items).toEqual(UPCOMING);
    actor.stop();
  });

  for (const path of paths) {
    it(short(path) || 'starts loading', async () => {
      const w = renderTab();
      const exec = executors(w) as Record<string, Executor>;
      const check = assertions(w);
      const keys = stateKeysOf(eventsTabMachine);
      let prev = path.steps[0].state;
      for (const step of path.steps) {
        if ((step.event.type as string) !== 'xstate.init') await exec[step.event.type](step, prev);
        for (const k of keys) if (matchesKey(step.state, k)) await check[k](step.state);
        prev = step.state;
      }
    });
  }
});
