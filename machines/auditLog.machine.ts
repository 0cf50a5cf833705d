import { assign, setup } from 'xstate';
import { AUDIT_PAGE_SIZE, type AuditEntry } from '../contract/audit';
import { listLoad, loadStep, type ListContext } from './listLoader';

/** The History's rows so far, and whether the last page was full (so an older page may follow). */
export interface AuditLogContext extends ListContext<AuditEntry> {
  hasMore: boolean;
}

export type AuditLogEvent =
  /** Retry after a failed first load. */
  | { type: 'auditLog.reload' }
  /** 'Load more': the page after the last row shown. */
  | { type: 'auditLog.loadMore' };

/** The first page: the list-loader load step over `loadAuditEntries`. */
const first = listLoad<AuditEntry, AuditLogContext, 'loadAuditEntries'>({
  id: 'auditLog',
  actor: 'loadAuditEntries',
  fallback: 'Failed to load the history.',
  onLoaded: (_, items) => ({ hasMore: items.length >= AUDIT_PAGE_SIZE }),
});

/** An older page: the same load step over `loadMoreAuditEntries`, given the last row's id; its rows are added below. */
const more = loadStep<AuditEntry[], AuditLogContext, 'loadMoreAuditEntries', number>({
  id: 'auditLog',
  actor: 'loadMoreAuditEntries',
  fallback: 'Failed to load the history.',
  input: (context) => context.items[context.items.length - 1].id,
  onLoaded: (context, page) => ({ items: [...context.items, ...page], hasMore: page.length >= AUDIT_PAGE_SIZE }),
}, 'appendItems');

/**
 * The clan page's History tab (docs/client.md §5 History; docs/server.md §18 "History"): the
 * first page loads (`loading`, tag `busy`) into `loaded` or `failed`; from `failed`
 * `auditLog.reload` loads again. In `loaded`, while the last page was full (`hasMore`),
 * `auditLog.loadMore` loads the page after the last row (`loadingMore`, tag `busy`; the rows stay)
 * and adds it below; a failed 'Load more' goes back to `loaded` with the error beside the rows,
 * so it can be tried again.
 */
export const auditLogMachine = setup({
  types: { context: {} as AuditLogContext, events: {} as AuditLogEvent },
  actors: { ...first.actors, ...more.actors },
  guards: {
    hasMore: ({ context }) => context.hasMore && context.items.length > 0,
  },
  actions: {
    assignItems: assign(({ context }, items: AuditEntry[]) => first.loaded(context, items)),
    appendItems: assign(({ context }, page: AuditEntry[]) => more.loaded(context, page)),
    assignError: assign((_, error: unknown) => first.failed(error)),
  },
}).createMachine({
  id: 'auditLog',
  context: { items: [], error: null, hasMore: false },
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: first.load() },
    loaded: { on: { 'auditLog.loadMore': { guard: 'hasMore', target: 'loadingMore' } } },
    loadingMore: { tags: ['busy'], invoke: more.load({ failed: 'loaded' }) },
    failed: { on: { 'auditLog.reload': 'loading' } },
  },
});
