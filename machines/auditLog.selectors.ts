import type { SnapshotFrom } from 'xstate';
import type { AuditEntry } from '../contract/audit';
import type { auditLogMachine } from './auditLog.machine';

type S = SnapshotFrom<typeof auditLogMachine>;

/** The History's rows, newest first. */
export const selectAuditEntries = (s: S): AuditEntry[] => s.context.items;
/** The last failure text (a first load's, or a 'Load more''s beside the rows), or null. */
export const selectAuditError = (s: S): string | null => s.context.error;
/** The first page is loading (nothing to show yet). */
export const isAuditFirstLoad = (s: S): boolean => s.matches('loading');
/** The first page failed (Retry instead of rows). */
export const hasAuditFailed = (s: S): boolean => s.matches('failed');
/** An older page is loading (the rows stay; 'Load more' reads 'Loading...'). */
export const isAuditLoadingMore = (s: S): boolean => s.matches('loadingMore');
/** The rows are shown (loaded, or loading more). */
export const hasAuditLoaded = (s: S): boolean => s.matches('loaded') || s.matches('loadingMore');
/** 'Load more' is offered: the last page was full. */
export const canLoadMoreAudit = (s: S): boolean => s.context.hasMore && hasAuditLoaded(s);
