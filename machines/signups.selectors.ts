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
/** The Wise Old Man progress, or null until a fetch was started (the server answers 0 of 0 before any). */
export const selectWom = (s: S) => (s.context.wom && (s.context.wom.total > 0 || s.context.wom.errors.length > 0) ? s.context.wom : null);
export const selectMessage = (s: S) => s.context.message;
export const selectPhase = (s: S) => s.value as string;
