/**
 * Paths of the public game pages that other screens link to: one builder per page,
 * so links to a page are built in one place (the route table, src/app/routes.tsx, holds the
 * matching pattern).
 */

/** The 'Verify dice' view of a game: /games/{gameId}/verify. */
export function verifyPath(gameId: number): string {
  return `/games/${gameId}/verify`;
}

/** The results page of a game (standings, race chart, statistics, replay, CSV): /games/{gameId}/results. */
export function resultsPath(gameId: number): string {
  return `/games/${gameId}/results`;
}
