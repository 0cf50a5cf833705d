import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import type { ClanEventsDesk } from '../../../contract/clanDesk';
import type { ClanEvent } from '../../../contract/event';
import { eventTakesSignups } from '../../../contract/signupApi';
import type { ClanMembership } from '../../../contract/user';
import { clanEventsMachine } from '../../../machines/clanEvents.machine';
import { selectClanEvents, selectClanEventsError, selectClanEventsLoading } from '../../../machines/clanEvents.selectors';
import { LoadFailed } from '../../ui/LoadFailed';
import { clanManagePath, draftPath } from '../../base/paths';

/** How many events of one clan the widget lists (the soonest); 'All events' leads to the rest. */
const EVENTS_SHOWN = 3;

/** An event start in the viewer's local time, as the event list shows it (docs/client.md §6). */
function localStart(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

/**
 * The Clan Events widget of the dashboard (docs/client.md §1, §13, §14), for every member of a
 * clan whatever their role: per clan, its soonest upcoming or live events (the clanEvents chart
 * over `loadEvents`), each linking to its Sign-ups view, with 'Sign up' while sign-ups are taken
 * (open, before the close time, before the game is in progress: docs/server.md §16) and 'Draft
 * live now' while its captains' draft runs; 'All events' opens the clan's event list. A failed
 * load says so with Retry. `clans` are the viewer's memberships; the parent gives a new widget
 * (a React key) when they change.
 */
export function ClanEventsWidget({ clans, loadEvents }: { clans: readonly ClanMembership[]; loadEvents: (clans: readonly ClanMembership[]) => Promise<ClanEventsDesk[]> }) {
  const logic = useMemo(() => clanEventsMachine.provide({ actors: { loadClanEvents: fromPromise(() => loadEvents(clans)) } }), [clans, loadEvents]);
  const chart = useActorRef(logic);
  const desks = useSelector(chart, selectClanEvents);
  const loading = useSelector(chart, selectClanEventsLoading);
  const error = useSelector(chart, selectClanEventsError);
  const now = Date.now();
  return (
    <article className="widget panel clan-events" data-testid="clan-events" aria-labelledby="clan-events-title">
      <h2 id="clan-events-title">Clan Events</h2>
      <p>Your clans&apos; coming events: sign up, and join the captains&apos; draft while it runs.</p>
      {loading ? (
        <p className="muted my-games__note">Loading your clans&apos; events...</p>
      ) : error ? (
        <LoadFailed error={error} onRetry={() => chart.send({ type: 'clanEvents.reload' })} />
      ) : (
        desks.map((desk) => (
          <section key={desk.clanId} className="clan-events__clan" aria-labelledby={`clan-events-${desk.clanId}`} data-testid={`clan-events-${desk.clanId}`}>
            <div className="clan-events__head">
              <h3 id={`clan-events-${desk.clanId}`}>{desk.name}</h3>
              <Link to={clanManagePath(desk.clanId, { tab: 'events', events: { view: 'list' } })} aria-label={`All events of ${desk.name}`}>
                All events
              </Link>
            </div>
            {desk.events.length === 0 ? (
              <p className="muted my-games__note">No upcoming events.</p>
            ) : (
              <ul className="my-games clan-events__list">
                {desk.events.slice(0, EVENTS_SHOWN).map((e) => (
                  <EventItem key={e.id} clanId={desk.clanId} event={e} now={now} />
                ))}
              </ul>
            )}
          </section>
        ))
      )}
    </article>
  );
}

/** One event of the widget: its name (to its Sign-ups view) and start, 'Sign up' and 'Draft live now' where they apply. */
function EventItem({ clanId, event, now }: { clanId: number; event: ClanEvent; now: number }) {
  const signups = clanManagePath(clanId, { tab: 'events', events: { view: 'signups', eventId: event.id } });
  return (
    <li className="clan-events__item">
      <Link className="my-games__link" to={signups}>
        {event.name}
      </Link>
      <time className="muted clan-events__when" dateTime={event.start_datetime}>
        {localStart(event.start_datetime)}
      </time>
      <span className="clan-events__actions">
        {eventTakesSignups(event, now) && (
          <Link className="btn btn--small btn--primary" to={signups} aria-label={`Sign up for ${event.name}`}>
            Sign up
          </Link>
        )}
        {event.draft_status === 'running' && (
          <Link className="btn btn--small btn--primary" to={draftPath(clanId, event.id)} aria-label={`Draft live now: ${event.name}`}>
            Draft live now
          </Link>
        )}
      </span>
    </li>
  );
}
