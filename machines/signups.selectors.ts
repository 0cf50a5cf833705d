import type { SnapshotFrom } from 'xstate';
import type { signupsMachine } from './signups.machine';

type S = SnapshotFrom<typeof signupsMachine>;

/** Named selectors of the signups chart. */
export const selectSignups = (s: S) => s.context.items;
export const selectSignupsError = (s: S) => s.context.error;
export const selectFirstLoad = (s: S) => s.matches('loading') && s.context.items.length === 0;
export const selectLoadFailed = (s: S) => s.matches('failed');
export const selectBusy = (s: S) => s.hasTag('busy');
export const selectProposal = (s: S) => s.context.proposal;
export const selectProposing = (s: S) => s.matches('proposing');
export const selectApplying = (s: S) => s.matches('applying');
export const selectWom = (s: S) => s.context.wom;
export const selectMessage = (s: S) => s.context.message;
export const selectPhase = (s: S) => s.value as string;
