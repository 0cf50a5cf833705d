import type { SnapshotFrom } from 'xstate';
import type { diceVerifyMachine } from './diceVerify.machine';

type S = SnapshotFrom<typeof diceVerifyMachine>;

/** Named selectors of the diceVerify chart. */
export const selectIsChecking = (s: S) => s.hasTag('busy');
export const selectVerifyError = (s: S) => (s.matches('failed') ? s.context.error : null);
/** The report of the last check (kept on screen while checking again; none after a failure). */
export const selectReport = (s: S) => s.context.report;
