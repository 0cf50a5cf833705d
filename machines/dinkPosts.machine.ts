import type { DinkPost } from '../contract/dink';
import { polledListLoader } from './listLoader';

export type DinkPostsEvent = { type: 'posts.reload' };

/** How often the Dink panel reads the recent posts again while it is open (ms). */
export const DINK_POSTS_POLL_MS = 10_000;

/**
 * The recent Dink posts of an event (docs/client.md §7 Dink panel; docs/server.md §13 `GET
 * .../dink/recent`): the list-loader chart over `loadPosts`, `loading` → `loaded`; every
 * DINK_POSTS_POLL_MS it reads them again in `reloading` while the list stays (the posts carry no
 * socket event, so the panel polls while it is open); a failed reload keeps the list with the
 * error beside it and keeps polling; `posts.reload` reads them at once.
 */
export const dinkPostsMachine = polledListLoader<DinkPost, 'loadPosts', 'posts.reload'>({
  id: 'dinkPosts',
  actor: 'loadPosts',
  reload: 'posts.reload',
  fallback: 'Failed to load the recent Dink posts.',
  pollInterval: DINK_POSTS_POLL_MS,
});
