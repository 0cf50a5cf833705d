import { setup } from 'xstate';

/** Milliseconds the /loading message stays up before the page moves on, so it can be read. */
const LOADING_PAUSE_DELAYS = { messageRead: 1500 } as const;

/**
 * The /loading page's pause (docs/client.md §1): `reading` for the named delay `messageRead`,
 * then `read`; the page moves on once the pause is over and the session has settled.
 */
export const loadingPauseMachine = setup({
  delays: { messageRead: LOADING_PAUSE_DELAYS.messageRead },
}).createMachine({
  id: 'loadingPause',
  initial: 'reading',
  states: {
    reading: { after: { messageRead: 'read' } },
    read: { type: 'final' },
  },
});
