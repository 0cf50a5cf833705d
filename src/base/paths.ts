import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import * as v from 'valibot';
import { IdParamSchema } from '../../contract/common';
import type { EventsView } from '../../machines/eventsTab.machine';

/**
 * Paths of the pages other screens link to, one builder per page, so a link to a page is built in
 * one place (the route table, src/app/routes.tsx, holds the matching pattern): the public game
 * pages, the game play screen and where its breadcrumb leads back to, and the views of clan
 * management.
 */

/** The 'Verify dice' view of a game: /games/{gameId}/verify. */
export function verifyPath(gameId: number): string {
  return `/games/${gameId}/verify`;
}

/** The results page of a game (standings, race chart, statistics, replay, CSV): /games/{gameId}/results. */
export function resultsPath(gameId: number): string {
  return `/games/${gameId}/results`;
}

/** The captains' draft room of an event (docs/client.md §14): /clans/{clanId}/events/{eventId}/draft. */
export function draftPath(clanId: number, eventId: number): string {
  return `/clans/${clanId}/events/${eventId}/draft`;
}

/** The tabs of clan management (docs/client.md §1; Reviews: docs/server.md §9; History: docs/server.md §18). */
export type ClanTab = 'members' | 'events' | 'tasks' | 'reviews' | 'history';

/** Where the Events tab is: the event list, or one event's teams, game or game tasks view. */
export type EventsRoute = { view: 'list' } | { view: Exclude<EventsView, 'list'>; eventId: number };

/** A clan management view, as its URL names it. */
export type ClanView = { tab: Exclude<ClanTab, 'events'> } | { tab: 'events'; events: EventsRoute };

/** The view of /clans/manage/{clanId} with nothing after it. */
const DEFAULT_CLAN_VIEW: ClanView = { tab: 'members' };

/** URL segment of each event view (the chart's `gameTasks` reads `tasks` in the URL). */
const EVENT_VIEW_SEGMENTS: Record<Exclude<EventsView, 'list'>, string> = { teams: 'teams', game: 'game', gameTasks: 'tasks', signups: 'signups' };

/**
 * The path of a clan management view: /clans/manage/{clanId}/members, /events,
 * /events/{eventId}/teams, /events/{eventId}/game, /events/{eventId}/tasks, /events/{eventId}/signups, /tasks, /reviews, /history.
 */
export function clanManagePath(clanId: number | string, view: ClanView = DEFAULT_CLAN_VIEW): string {
  const base = `/clans/manage/${clanId}/${view.tab}`;
  if (view.tab !== 'events' || view.events.view === 'list') return base;
  return `${base}/${view.events.eventId}/${EVENT_VIEW_SEGMENTS[view.events.view]}`;
}

/**
 * The view named by what follows /clans/manage/{clanId}/ (the route's splat): '' is the default
 * (Members); an unknown path or an event id that is not a positive integer is null.
 */
export function parseClanView(rest: string | undefined): ClanView | null {
  const parts = (rest ?? '').split('/').filter(Boolean);
  if (parts.length === 0) return DEFAULT_CLAN_VIEW;
  const [tab, eventId, segment, ...more] = parts;
  if (more.length > 0) return null;
  if (tab === 'members' || tab === 'tasks' || tab === 'reviews' || tab === 'history') return eventId === undefined ? { tab } : null;
  if (tab !== 'events') return null;
  if (eventId === undefined) return { tab, events: { view: 'list' } };
  const view = (Object.keys(EVENT_VIEW_SEGMENTS) as Exclude<EventsView, 'list'>[]).find((v) => EVENT_VIEW_SEGMENTS[v] === segment);
  const id = v.safeParse(IdParamSchema, eventId);
  if (!view || !id.success) return null;
  return { tab, events: { view, eventId: id.output } };
}

/**
 * Goes to a view of clan `clanId`: a new history entry (so Back returns), except when that view
 * is already shown (a second click on the current tab adds no entry to step back through).
 */
export function useClanNavigate(clanId: number): (view: ClanView) => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(
    (view: ClanView) => {
      const path = clanManagePath(clanId, view);
      void navigate(path, { replace: path === pathname });
    },
    [navigate, pathname, clanId],
  );
}

/**
 * Navigation state that marks the game play screen as opened from clan management (docs/client.md
 * §1: "Navigation into it from clan management carries the origin as Clan Management,
 * /clans/manage/{clanId}"), here from the Manage Game view of the event, so the breadcrumb goes
 * back to that view. Link with `<Link to={gamePath} state={CLAN_MANAGEMENT_ORIGIN}>`.
 */
export const CLAN_MANAGEMENT_ORIGIN = { origin: 'Clan Management', view: 'game' } as const;

/** The game play route of a game. */
export function gamePlayPath(clanId: number, eventId: number, gameId: number): string {
  return `/games/clan/${clanId}/events/${eventId}/game/${gameId}`;
}

/**
 * The breadcrumb's previous page of the play screen: 'Clan Management' when the location state
 * carries that origin (either form below), else 'Game Lobby' → /games. Clan Management leads to
 * the Manage Game view of the route's event (/clans/manage/{clanId}/events/{eventId}/game) when
 * the state says it came from there ({ origin, view: 'game' }), else to /clans/manage/{clanId}.
 * The link is built from the route's ids, never from the state.
 */
export function previousPageOf(state: unknown, clanId: string | undefined, eventId?: string): { to: string; label: string } {
  const s = typeof state === 'object' && state !== null ? (state as { origin?: unknown; view?: unknown; from?: { label?: unknown } | null }) : {};
  // Either form marks it: { origin: 'Clan Management' } or { from: { label: 'Clan Management', to } }.
  const fromClanManagement = s.origin === 'Clan Management' || (typeof s.from === 'object' && s.from !== null && s.from.label === 'Clan Management');
  if (!fromClanManagement || !clanId) return { to: '/games', label: 'Game Lobby' };
  const event = v.safeParse(IdParamSchema, eventId);
  const to = s.view === 'game' && event.success ? clanManagePath(clanId, { tab: 'events', events: { view: 'game', eventId: event.output } }) : `/clans/manage/${clanId}`;
  return { to, label: 'Clan Management' };
}
