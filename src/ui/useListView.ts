import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import { hasListLoaded, isListFirstLoad, isListReloading, selectListError, selectListItems, type ListSnapshot } from '../../machines/listLoader.selectors';

/** What a list panel shows of its listLoader chart (machines/listLoader.selectors.ts). */
export interface ListView<TItem> {
  items: TItem[];
  /** The failure text of the last load, or null. */
  error: string | null;
  firstLoad: boolean;
  loaded: boolean;
  reloading: boolean;
}

/**
 * A list panel's view of its running listLoader chart `list` (docs/client.md §11): the rows, the
 * last failure, and whether it is loading for the first time, has loaded, or is reloading.
 */
export function useListView<TItem>(list: Pick<AnyActorRef, 'subscribe'> & { getSnapshot(): ListSnapshot<TItem> }): ListView<TItem> {
  return {
    items: useSelector(list, selectListItems<TItem>),
    error: useSelector(list, selectListError),
    firstLoad: useSelector(list, isListFirstLoad),
    loaded: useSelector(list, hasListLoaded),
    reloading: useSelector(list, isListReloading),
  };
}
