import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { eventsTabMachine, type EventsTabEvent } from '../../../machines/eventsTab.machine';
import * as sel from '../../../machines/eventsTab.selectors';
import { eventCopiedMessage, eventStatus, type ClanEvent } from '../../../contract/event';
import * as eventsApi from '../../api/events';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { CrudModals, NO_ROW, type CrudFlows, type CrudTexts, type NamedRow } from '../../ui/CrudModals';
import { LoadFailed } from '../../ui/LoadFailed';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { EventTeamsView } from '../teams/EventTeamsView';
import { liveTeamsEffects, type TeamsEffects } from '../teams/teamsEffects';
import { EventGameView } from '../game/EventGameView';
import { GameTasksView } from '../game/GameTasksView';
import { Link } from 'react-router-dom';
import { draftPath, useClanNavigate, type EventsRoute } from '../../base/paths';
import { EVENT_FORM, validateEventDraft } from './EventFormFields';
import { copyEventBody, copyEventDraft, editEventDraft, eventBody, formatLocalDateTime, newEventDraft, type EventDraft } from './eventForm';
import { liveDiscordEffects } from '../discord/DiscordPanel';
import { liveDinkEffects } from '../dink/DinkPanel';
import { SignupsView, liveSignupsEffects, type SignupViewer, type SignupsEffects } from '../signups/SignupsView';
import { DataTable } from '../../ui/DataTable';

/** The calls the Events tab makes (docs/server.md §3), replaceable in tests. */
export interface EventsEffects {
  fetchEvents: typeof eventsApi.fetchEvents;
  fetchEvent: typeof eventsApi.fetchEvent;
  scheduleEvent: typeof eventsApi.scheduleEvent;
  updateEvent: typeof eventsApi.updateEvent;
  deleteEvent: typeof eventsApi.deleteEvent;
  /** POST .../copy (docs/server.md §18 "The next event"); the real one when left out. */
  copyEvent?: typeof eventsApi.copyEvent;
  teams: TeamsEffects;
  /** The Sign-ups view's calls (docs/client.md §13); the real ones when left out. */
  signups?: SignupsEffects;
}

/** The real calls. */
const liveEventsEffects: EventsEffects = {
  fetchEvents: eventsApi.fetchEvents,
  fetchEvent: eventsApi.fetchEvent,
  scheduleEvent: eventsApi.scheduleEvent,
  updateEvent: eventsApi.updateEvent,
  deleteEvent: eventsApi.deleteEvent,
  copyEvent: eventsApi.copyEvent,
  teams: liveTeamsEffects,
};

/** The Copy event modal (docs/client.md §6 'Copy event'): the next run of an event. */
const COPY_MODAL = { title: 'Copy Event', confirmLabel: 'Copy Event', processingText: 'Copying event...' } as const;

/** The schedule, edit and delete modals of the Events tab (docs/client.md §6: Modals). */
const EVENT_MODALS: CrudTexts = {
  create: { title: 'Schedule New Event', confirmLabel: 'Schedule Event', processingText: 'Scheduling event...' },
  edit: { title: 'Edit Event Details', confirmLabel: 'Save Changes', processingText: 'Saving event...' },
  remove: { title: 'Delete Event', confirmLabel: 'Delete Event', processingText: 'Deleting event...' },
  deleteQuestion: (name) => <>Are you sure you want to delete the event {name}? Its teams and game are deleted with it. This cannot be undone.</>,
};

type TabRef = ReturnType<typeof useActorRef<typeof eventsTabMachine>>;

/** The chart event that shows a route's view. */
function viewEvent(route: EventsRoute): EventsTabEvent {
  if (route.view === 'list') return { type: 'view.list' };
  const eventId = route.eventId;
  switch (route.view) {
    case 'teams':
      return { type: 'view.teams', eventId };
    case 'game':
      return { type: 'view.game', eventId };
    case 'gameTasks':
      return { type: 'view.gameTasks', eventId };
    case 'signups':
      return { type: 'view.signups', eventId };
  }
}

/** Whether the chart already shows the route's view (of the route's event). */
function showsRoute(tab: TabRef, route: EventsRoute): boolean {
  const s = tab.getSnapshot();
  return sel.selectView(s) === route.view && (route.view === 'list' || s.context.eventId === route.eventId);
}

/** The note members see instead of the event actions they cannot take (the server would refuse them: docs/game-rules.md §11). */
export const MEMBER_EVENTS_NOTE = 'Only Clan Admins and the Owner can schedule events and manage their teams and games.';

/**
 * The Events tab of clan management (docs/client.md §6, §11; docs/game-rules.md
 * §12): 'Create New Event', the past / upcoming toggle, the event table with status derived from
 * time, row buttons and actions menu, the schedule / edit / delete modals, and the sub-navigation
 * to the Manage Teams, Manage Game and Manage Game Tasks views. Shown to everyone who reaches the
 * manage screen; the server enforces permissions (docs/game-rules.md §11), and a non-manager sees the list
 * with MEMBER_EVENTS_NOTE instead of the actions the server would refuse. Each view is a URL
 * (`route`, from src/base/paths.ts): the buttons navigate, and the chart follows the route, so Back,
 * reload and bookmarks show the same view. `effects` replaces the calls in tests.
 */
export function EventsTab({
  clanId,
  isManager,
  route,
  viewer = null,
  effects = liveEventsEffects,
}: {
  clanId: number;
  isManager: boolean;
  route: EventsRoute;
  /** The signed-in user (id and IGNs) for signing up; null when unknown. */
  viewer?: SignupViewer | null;
  effects?: EventsEffects;
}) {
  const logic = useMemo(
    () =>
      eventsTabMachine.provide({
        actors: {
          loadEvents: fromPromise(({ input }) => effects.fetchEvents(clanId, input.past)),
          loadEvent: fromPromise(({ input }) => effects.fetchEvent(clanId, input.eventId)),
        },
      }),
    [clanId, effects],
  );
  const tab = useActorRef(logic);
  const view = useSelector(tab, sel.selectView);
  const selected = useSelector(tab, sel.selectSelectedEvent);
  const eventError = useSelector(tab, sel.selectEventError);
  const reload = () => tab.send({ type: 'events.reload' });
  const goTo = useClanNavigate(clanId);
  const go = (to: EventsRoute) => goTo({ tab: 'events', events: to });

  // The URL is where the view is: the chart follows each new route (a click, Back, a deep link).
  // A route is its view and event id (a new but equal route object is not a new route).
  const routeEventId = route.view === 'list' ? null : route.eventId;
  useEffect(() => {
    if (!showsRoute(tab, route)) tab.send(viewEvent(route));
  }, [tab, route.view, routeEventId]);

  const schedule = useConfirmAction<EventDraft, Nothing>({
    closed: { draft: newEventDraft(), subject: {} },
    perform: async ({ draft }) => ({ message: (await effects.scheduleEvent(clanId, eventBody(draft))).message }),
    validate: validateEventDraft,
    onSucceeded: reload,
  });
  const edit = useConfirmAction<EventDraft, NamedRow>({
    closed: { draft: newEventDraft(), subject: NO_ROW },
    perform: async ({ draft, subject }) => ({ message: (await effects.updateEvent(clanId, subject.id, eventBody(draft))).message }),
    validate: validateEventDraft,
    onSucceeded: reload,
  });
  const remove = useConfirmAction<Nothing, NamedRow>({
    closed: { draft: {}, subject: NO_ROW },
    perform: async ({ subject }) => ({ message: (await effects.deleteEvent(clanId, subject.id)).message }),
    onSucceeded: reload,
  });
  const copy = useConfirmAction<EventDraft, NamedRow>({
    closed: { draft: newEventDraft(), subject: NO_ROW },
    perform: async ({ draft, subject }) => {
      const copied = await (effects.copyEvent ?? eventsApi.copyEvent)(clanId, subject.id, copyEventBody(draft));
      return { message: eventCopiedMessage(copied.name) };
    },
    validate: validateEventDraft,
    onSucceeded: reload,
  });

  const back = () => go({ view: 'list' });
  return (
    <section className="events-tab" data-manager={isManager}>
      {isManager && <SubNav go={go} view={view} selected={selected} />}
      {view === 'list' && <EventList clanId={clanId} tab={tab} go={go} isManager={isManager} create={schedule} edit={edit} remove={remove} copy={copy} />}
      {view !== 'list' && !selected && (eventError ? <LoadFailed error={eventError} onRetry={reload} /> : <Spinner text="Loading event..." />)}
      {view === 'teams' && selected && (
        <EventTeamsView clanId={clanId} eventId={selected.id} eventName={selected.name} onBack={back} effects={effects.teams} />
      )}
      {view === 'game' && selected && <EventGameView clanId={clanId} eventId={selected.id} gameId={selected.game_id} onBack={back} onGameChanged={reload} discord={liveDiscordEffects} dink={liveDinkEffects} eventTimes={selected} />}
      {view === 'gameTasks' && selected && <GameTasksView clanId={clanId} eventId={selected.id} gameId={selected.game_id} onBack={back} />}
      {view === 'signups' && selected && (
        <SignupsView key={selected.id} clanId={clanId} event={selected} isManager={isManager} viewer={viewer} onBack={back} onEventChanged={reload} effects={effects.signups ?? liveSignupsEffects} />
      )}
      {isManager && <CrudModals texts={EVENT_MODALS} form={EVENT_FORM} create={schedule} edit={edit} remove={remove} />}
      {isManager && <CopyEventModal copy={copy} />}
    </section>
  );
}

/** Sub-navigation (docs/client.md §1, §13): Event List, Manage Teams, Manage Game, Manage Game Tasks with a game, and Sign-ups. */
function SubNav({ go, view, selected }: { go: (to: EventsRoute) => void; view: string; selected: ClanEvent | null }) {
  const item = (label: string, active: boolean, onClick: (() => void) | null) => (
    <button
      type="button"
      className={active ? 'subnav__item subnav__item--active' : 'subnav__item'}
      aria-current={active ? 'page' : undefined}
      disabled={!onClick}
      onClick={onClick ?? undefined}
    >
      {label}
    </button>
  );
  const id = selected?.id;
  return (
    <nav className="subnav" aria-label="Event management">
      {item('Event List', view === 'list', () => go({ view: 'list' }))}
      {item('Manage Teams', view === 'teams', id ? () => go({ view: 'teams', eventId: id }) : null)}
      {item('Manage Game', view === 'game', id ? () => go({ view: 'game', eventId: id }) : null)}
      {selected?.game_id ? item('Manage Game Tasks', view === 'gameTasks', () => go({ view: 'gameTasks', eventId: selected.id })) : null}
      {item('Sign-ups', view === 'signups', id ? () => go({ view: 'signups', eventId: id }) : null)}
      {selected && view !== 'list' && <span className="subnav__event">Event: {selected.name}</span>}
    </nav>
  );
}

/** The copy flow of the event rows (a confirmAction use acting on one event). */
type CopyFlow = { copy: ConfirmActionRef<EventDraft, NamedRow> };

/**
 * The Copy event modal (docs/client.md §6; docs/server.md §18 "The next event"): what a copy
 * takes along, the event form's fields for the new name and times (its rule and messages) and
 * 'Copy teams too'; confirm, 'Copying event...', then the banner's message.
 */
function CopyEventModal({ copy }: CopyFlow) {
  const blocked = useSelector(copy, EVENT_FORM.blocked ?? (() => false));
  const name = useSelector(copy, (s) => s.context.subject.name);
  const Fields = EVENT_FORM.Fields;
  return (
    <ConfirmDialog actor={copy} {...COPY_MODAL} submitDisabled={blocked}>
      <p>
        A new event with the game board of <strong>{name}</strong>: its settings, rules, snakes, ladders and the task on every square, with no progress and new
        dice.
      </p>
      <Fields actor={copy} />
    </ConfirmDialog>
  );
}

function EventList({ clanId, tab, go, isManager, create, edit, remove, copy }: { clanId: number; tab: TabRef; go: (to: EventsRoute) => void; isManager: boolean } & CrudFlows<EventDraft> & CopyFlow) {
  const past = useSelector(tab, sel.selectPast);
  const events = useSelector(tab, sel.selectEvents);
  const loading = useSelector(tab, sel.selectEventsLoading);
  const failed = useSelector(tab, sel.selectEventsFailed);
  const error = useSelector(tab, sel.selectEventsError);
  const now = Date.now();
  return (
    <div className="events-list">
      <div className="toolbar">
        <h2 className="toolbar__title">{past ? 'Past Events' : 'Upcoming Events'}</h2>
        {isManager && (
          <button type="button" className="btn btn--primary" onClick={() => create.send({ type: 'confirm.open', draft: { ...newEventDraft() } })}>
            Create New Event
          </button>
        )}
        <button type="button" className="btn" aria-pressed={past} onClick={() => tab.send({ type: 'events.togglePast' })}>
          {past ? 'View Upcoming Events' : 'View Past Events'}
        </button>
      </div>
      {!isManager && <Notice tone="info" testId="member-events-note">{MEMBER_EVENTS_NOTE}</Notice>}
      {failed && error && <LoadFailed error={error} onRetry={() => tab.send({ type: 'events.reload' })} />}
      {loading && events.length === 0 ? (
        <Spinner text="Loading events..." />
      ) : (
        <DataTable className="table events-table cards-sm" columns={['Event Name', 'Date & Time', 'Status', 'Teams', 'Game', isManager ? 'Actions' : 'Sign-ups & Draft']} busy={loading}>
          {events.length === 0 && !failed ? (
            <tr>
              <td colSpan={6} className="table__empty">
                {past ? 'No past events.' : isManager ? 'No upcoming events. Click "Create New Event" to schedule one.' : 'No upcoming events.'}
              </td>
            </tr>
          ) : (
            events.map((e) => <EventRow key={e.id} clanId={clanId} event={e} now={now} go={go} isManager={isManager} edit={edit} remove={remove} copy={copy} />)
          )}
        </DataTable>
      )}
    </div>
  );
}

function EventRow({ clanId, event, now, go, isManager, edit, remove, copy }: { clanId: number; event: ClanEvent; now: number; go: (to: EventsRoute) => void; isManager: boolean } & Omit<CrudFlows<EventDraft>, 'create'> & CopyFlow) {
  const status = eventStatus(event, now);
  return (
    <tr>
      <th scope="row" className="events-table__name">{event.name}</th>
      <td data-label="Date & Time">
        <span>
          <time dateTime={event.start_datetime}>{formatLocalDateTime(event.start_datetime)}</time>
          {event.end_datetime && (
            <span className="events-table__end">
              {' '}to <time dateTime={event.end_datetime}>{formatLocalDateTime(event.end_datetime)}</time>
            </span>
          )}
        </span>
      </td>
      <td data-label="Status">
        <span className={`badge badge--${status.toLowerCase()}`}>{status}</span>
      </td>
      <td data-label="Teams">{event.team_count}</td>
      <td data-label="Game">{event.game_id ? 'Created' : 'Not set up'}</td>
      <td className="cards-sm__actions">
        <div className="row">
          <button type="button" className="btn btn--small" onClick={() => go({ view: 'signups', eventId: event.id })}>
            Sign-ups
          </button>
          <DraftLink clanId={clanId} event={event} />
          {isManager && (
            <>
              <button type="button" className="btn btn--small" onClick={() => go({ view: 'teams', eventId: event.id })}>
                Manage Teams
              </button>
              <button type="button" className="btn btn--small" onClick={() => go({ view: 'game', eventId: event.id })}>
                Manage Game
              </button>
              <DropdownMenu.Root>
                <DropdownMenu.Trigger className="btn btn--small btn--icon" aria-label={`More actions for ${event.name}`}>
                  ⋯
                </DropdownMenu.Trigger>
                <DropdownMenu.Portal>
                  <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
                    {status !== 'Completed' && (
                      <DropdownMenu.Item
                        className="menu__item"
                        onSelect={() => edit.send({ type: 'confirm.open', subject: { id: event.id, name: event.name }, draft: { ...editEventDraft(event) } })}
                      >
                        Edit Event Details
                      </DropdownMenu.Item>
                    )}
                    <DropdownMenu.Item
                      className="menu__item"
                      onSelect={() => copy.send({ type: 'confirm.open', subject: { id: event.id, name: event.name }, draft: { ...copyEventDraft(event) } })}
                    >
                      Copy event
                    </DropdownMenu.Item>
                    <DropdownMenu.Item
                      className="menu__item menu__item--danger"
                      onSelect={() => remove.send({ type: 'confirm.open', subject: { id: event.id, name: event.name } })}
                    >
                      Delete Event
                    </DropdownMenu.Item>
                  </DropdownMenu.Content>
                </DropdownMenu.Portal>
              </DropdownMenu.Root>
            </>
          )}
        </div>
      </td>
    </tr>
  );
}

/**
 * The captains' draft room of an event, for every member (docs/client.md §14), beside Sign-ups in
 * the row's actions: 'Draft', or 'Draft live now' (highlighted) while the event's draft runs.
 */
function DraftLink({ clanId, event }: { clanId: number; event: ClanEvent }) {
  const live = event.draft_status === 'running';
  return (
    <Link className={live ? 'btn btn--small btn--primary' : 'btn btn--small'} to={draftPath(clanId, event.id)} aria-label={live ? `Draft live now: draft room of ${event.name}` : `Draft room of ${event.name}`}>
      {live ? 'Draft live now' : 'Draft'}
    </Link>
  );
}
