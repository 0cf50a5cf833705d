import type { WomMetricLists } from '../../../contract/dink';

/**
 * Wise Old Man's metric names for the task editor (docs/server.md §17 Rules), from the official
 * @wise-old-man/utils package, loaded with import() the first time an XP or KC rule is edited:
 * the package does not tree-shake (its enums and API client come whole), so it lives in a chunk
 * of its own and never in the app's first chunks or the spectator page. The server checks the
 * same lists (server/tasks/womMetrics.ts).
 */
let loaded: WomMetricLists | null = null;
let loading: Promise<WomMetricLists> | null = null;

/** The lists once loaded (skills for XP; bosses and activities for KC), else null. */
export function loadedWomMetricLists(): WomMetricLists | null {
  return loaded;
}

/** Loads the lists (once; a failed load may be tried again). */
export function loadWomMetricLists(): Promise<WomMetricLists> {
  loading ??= import('@wise-old-man/utils').then(
    (m) => (loaded = { skills: [...m.SKILLS], killables: [...m.BOSSES, ...m.ACTIVITIES] }),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
