import type { ListContext } from './listLoader';

/**
 * A snapshot of a listLoader chart (states loading, loaded, reloading, failed). Method syntax so
 * that every listLoader chart's snapshot, whose matches() knows its own states, fits.
 */
export interface ListSnapshot<TItem> {
  context: ListContext<TItem>;
  matches(state: 'loading' | 'loaded' | 'reloading' | 'failed'): boolean;
}

/**
 * Named selectors of any listLoader chart that keeps its rows while reloading and shows the last
 * failure beside them (docs/client.md §11): the rows, the failure text, the first load (a spinner
 * instead of the rows), a reload under way, and whether the rows have come at least once.
 */
export const selectListItems = <TItem>(s: ListSnapshot<TItem>): TItem[] => s.context.items;
export const selectListError = (s: ListSnapshot<unknown>): string | null => s.context.error;
export const isListFirstLoad = (s: ListSnapshot<unknown>): boolean => s.matches('loading');
export const isListReloading = (s: ListSnapshot<unknown>): boolean => s.matches('reloading');
export const hasListLoaded = (s: ListSnapshot<unknown>): boolean => s.matches('loaded') || s.matches('reloading');
