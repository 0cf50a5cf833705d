import type { SnapshotFrom } from 'xstate';
import type { clanInvitesMachine } from './clanInvites.machine';

type S = SnapshotFrom<typeof clanInvitesMachine>;

/** Named selectors of the clanInvites chart (the list itself through src/ui/useListView). */
export const selectInviteMessage = (s: S) => s.context.message;
/** Copy is offered while the list is shown and nothing runs (derived with `can`). */
export const canCopyInvite = (s: S) => s.can({ type: 'invite.copy', url: '' });
