import type { SnapshotFrom } from 'xstate';
import type { clanRoleMachine } from './clanRole.machine';

type S = SnapshotFrom<typeof clanRoleMachine>;

// Named selectors of the clanRole chart for `useSelector` (docs/architecture.md §3).

/** A clan action runs: the tabs are disabled and the pending message shows (docs/client.md §1). */
export const isActionPending = (s: S) => s.hasTag('pending');
/** A confirmation dialog of the chart is open. */
export const isConfirmOpen = (s: S) => s.hasTag('confirming');
/** The action being confirmed or run (kind, target member, viewer), or null. */
export const selectRequest = (s: S) => s.context.request;
/** The current action message (text and tone), or null once cleared. */
export const selectActionMessage = (s: S) => s.context.message;
/** The action message is fading out (4 s after it appeared). */
export const isMessageFading = (s: S) => s.matches({ message: 'fading' });
