import * as v from 'valibot';
import { IdParamSchema } from '../../../contract/common';
import { clanManagePath } from '../clan/clanPaths';

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
