import type { SnapshotFrom } from 'xstate';
import type { loadingPauseMachine } from './loadingPause.machine';

type S = SnapshotFrom<typeof loadingPauseMachine>;

/** The /loading message has been up long enough. */
export const isPauseOver = (s: S) => s.matches('read');
