import type { SnapshotFrom } from 'xstate';
import type { dinkPostsMachine } from './dinkPosts.machine';

type S = SnapshotFrom<typeof dinkPostsMachine>;

/** Named selectors of the dinkPosts chart. */
export const selectDinkPosts = (s: S) => s.context.items;
export const selectDinkPostsError = (s: S) => s.context.error;
export const isDinkPostsFirstLoad = (s: S) => s.matches('loading');
export const isDinkPostsReloading = (s: S) => s.matches('reloading');
export const hasDinkPostsLoaded = (s: S) => s.matches('loaded') || s.matches('reloading');
