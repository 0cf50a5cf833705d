import type { SnapshotFrom } from 'xstate';
import type { proofSubmissionMachine } from './proofSubmission.machine';

type S = SnapshotFrom<typeof proofSubmissionMachine>;

/** Which step of the proof dialog shows. */
export type ProofStep = 'idle' | 'loading' | 'denied' | 'choosing' | 'previewing' | 'uploading' | 'failed' | 'succeeded';

/** Named selectors of the proofSubmission chart. */
export const selectProofStep = (s: S) => (typeof s.value === 'string' ? s.value : 'idle') as ProofStep;
export const isProofDialogOpen = (s: S) => s.hasTag('modalOpen');
export const selectProofImage = (s: S) => s.context.image;
export const selectProofNote = (s: S) => s.context.note;
export const selectProofError = (s: S) => s.context.error;
export const selectProofProgress = (s: S) => s.context.progress;
export const selectLatestProof = (s: S) => s.context.latest;
/** Send may be pressed: an image is chosen, the note fits, nothing runs (derived with `can`). */
export const canSendProof = (s: S) => s.can({ type: 'proof.send' });
/** The dialog may be closed (not while the image is uploading). */
export const canCloseProof = (s: S) => s.can({ type: 'proof.cancel' });
