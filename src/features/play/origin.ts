/**
 * Navigation state that marks the game play screen as opened from clan management (product-spec
 * section 2: "Navigation into it from clan management carries the origin as Clan Management,
 * /clans/manage/{clanId}"). Link with `<Link to={gamePath} state={CLAN_MANAGEMENT_ORIGIN}>`.
 */
export const CLAN_MANAGEMENT_ORIGIN = { origin: 'Clan Management' } as const;

/** The game play route of a game. */
export function gamePlayPath(clanId: number, eventId: number, gameId: number): string {
  return `/games/clan/${clanId}/events/${eventId}/game/${gameId}`;
}

/**
 * The breadcrumb's previous page of the play screen: 'Clan Management' → /clans/manage/{clanId}
 * when the location state carries that origin (either form above), else 'Game Lobby' → /games.
 * The link is built from the route's clanId, never from the state.
 */
export function previousPageOf(state: unknown, clanId: string | undefined): { to: string; label: string } {
  const s = typeof state === 'object' && state !== null ? (state as { origin?: unknown; from?: { label?: unknown } | null }) : {};
  // Either form marks it: { origin: 'Clan Management' } or { from: { label: 'Clan Management', to } }.
  const fromClanManagement = s.origin === 'Clan Management' || (typeof s.from === 'object' && s.from !== null && s.from.label === 'Clan Management');
  if (fromClanManagement && clanId) return { to: `/clans/manage/${clanId}`, label: 'Clan Management' };
  return { to: '/games', label: 'Game Lobby' };
}
