import type { SnapshotFrom } from 'xstate';
import type { invitePageMachine } from './invitePage.machine';

type S = SnapshotFrom<typeof invitePageMachine>;

/** Named selectors of the invitePage chart; first, which part of the /invite/{code} page shows: the chart's state (typed as its state names). */
export const selectInvitePhase = (s: S) => s.value;
export const selectInvitePreview = (s: S) => s.context.invite;
export const selectInviteMembership = (s: S) => s.context.membership;
export const selectInviteError = (s: S) => s.context.error;
/** 'Join {clan}' is pressable where the chart takes it (derived with `can`). */
export const canJoinInvite = (s: S) => s.can({ type: 'invite.join' });
