/** Load failure texts of the game views (docs/client.md §11). */
export const GAME_VIEW_MESSAGES = {
  loadFailed: 'Failed to load game details. It may not exist or the link is invalid.',
  publicLoadFailed: 'Failed to load game details. It may not exist or is no longer public.',
  notFound: 'Game not found.',
} as const;
