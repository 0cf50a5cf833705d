import type { SnapshotFrom } from 'xstate';
import type { joinRequestsMachine } from './joinRequests.machine';

type S = SnapshotFrom<typeof joinRequestsMachine>;

/** The count the clan page shows: the live one when heard, else the rows loaded. */
export const selectPendingCount = (s: S): number => s.context.pending ?? s.context.items.length;
