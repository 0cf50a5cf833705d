import { assign, setup } from 'xstate';
import type { Submission, TaskState } from '../contract/submission';
import { PROOF_VIEW_TEXTS, proofImageProblem, proofNoteProblem } from '../contract/proofView';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';

/** Which team the dialog sends proof for. */
export interface ProofSubmissionInput {
  teamId: number;
}

/** What the upload actor gets: the team, the image, the note, and where to report progress. */
export interface UploadProofInput {
  teamId: number;
  image: File;
  note: string;
  onProgress: (loaded: number, total: number) => void;
}

export interface ProofSubmissionContext {
  teamId: number;
  /**
   * The team's latest submission: read while the dialog is closed and again when it opens (the
   * task panel shows a denial's reason); the sent one after a success.
   */
  latest: Submission | null;
  image: File | null;
  note: string;
  /** Bytes sent of the total while uploading, or null before the first report. */
  progress: { loaded: number; total: number } | null;
  /** Why the chosen file was refused, or the server's refusal of the upload. */
  error: string | null;
}

export type ProofSubmissionEvent =
  | { type: 'proof.open' }
  | { type: 'proof.cancel' }
  | { type: 'proof.sendAgain' }
  /** An image pasted, dropped or chosen. */
  | { type: 'image.chosen'; file: File }
  | { type: 'image.clear' }
  | { type: 'note.change'; note: string }
  | { type: 'proof.send' }
  /** A fact from the game: the team's task state (sent by the task panel whenever it changes). */
  | { type: 'task.stateChanged'; state: TaskState }
  /** A fact from the upload: bytes sent so far. */
  | { type: 'upload.progressed'; loaded: number; total: number };

/**
 * The 'Submit Proof' dialog of the game play screen (docs/server.md §9): `proof.open`
 * reads the team's latest submission (`loadLatest`); after a denial the dialog shows the reason
 * and 'Send Again' (`denied`), otherwise it asks for an image (`choosing`: paste, drop or file
 * choice; a file that is not a PNG, JPEG, WebP or GIF or is over 8 MiB is refused at once),
 * shows it with an optional note (`previewing`), and `proof.send` uploads it (`uploading`, with
 * the progress the `uploadProof` actor reports) → `succeeded`, or `failed` with the server's
 * error (send again, or choose another image). `proof.cancel` closes it (not while uploading).
 * While closed it reads the latest submission (idle.reading: at the start, after the dialog
 * closes, and on a `task.stateChanged` to `denied`), so the task panel can say who denied the
 * proof, when, and why.
 */
export const proofSubmissionMachine = setup({
  types: {
    context: {} as ProofSubmissionContext,
    events: {} as ProofSubmissionEvent,
    input: {} as ProofSubmissionInput,
  },
  actors: {
    loadLatest: missingPromise<Submission | null, { teamId: number }>('proofSubmission', 'loadLatest'),
    uploadProof: missingPromise<Submission, UploadProofInput>('proofSubmission', 'uploadProof'),
  },
  guards: {
    isDenied: (_, latest: Submission | null) => latest?.status === 'denied',
    isDeniedTask: (_, state: TaskState) => state === 'denied',
    isAcceptableImage: (_, file: File) => proofImageProblem(file) === null,
    isNoteValid: ({ context }) => proofNoteProblem(context.note) === null,
  },
  actions: {
    clearDraft: assign({ image: null, note: '', progress: null, error: null }),
    assignLatest: assign((_, latest: Submission | null) => ({ latest })),
    assignImage: assign((_, image: File) => ({ image, error: null })),
    refuseImage: assign((_, file: File) => ({ error: proofImageProblem(file) })),
    clearImage: assign({ image: null, error: null }),
    assignNote: assign((_, note: string) => ({ note })),
    assignProgress: assign((_, progress: { loaded: number; total: number }) => ({ progress })),
    startUpload: assign({ progress: null, error: null }),
    assignUploadError: assign((_, error: unknown) => ({ error: errorText(error, PROOF_VIEW_TEXTS.uploadFailed) })),
  },
}).createMachine({
  id: 'proofSubmission',
  context: ({ input }) => ({ teamId: input.teamId, latest: null, image: null, note: '', progress: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      entry: 'clearDraft',
      on: {
        'proof.open': 'loading',
        'task.stateChanged': { guard: { type: 'isDeniedTask', params: ({ event }) => event.state }, target: '.reading' },
      },
      initial: 'reading',
      states: {
        reading: {
          invoke: {
            id: 'readLatest',
            src: 'loadLatest',
            input: ({ context }) => ({ teamId: context.teamId }),
            onDone: { target: 'settled', actions: { type: 'assignLatest', params: ({ event }) => event.output } },
            // The panel then shows the state without the reason; the dialog reads it again.
            onError: 'settled',
          },
        },
        settled: {},
      },
    },
    loading: {
      tags: ['modalOpen', 'busy'],
      invoke: {
        id: 'loadLatest',
        src: 'loadLatest',
        input: ({ context }) => ({ teamId: context.teamId }),
        onDone: [
          { guard: { type: 'isDenied', params: ({ event }) => event.output }, target: 'denied', actions: { type: 'assignLatest', params: ({ event }) => event.output } },
          { target: 'choosing', actions: { type: 'assignLatest', params: ({ event }) => event.output } },
        ],
        // Without the latest submission the dialog still takes an image.
        onError: 'choosing',
      },
      on: { 'proof.cancel': 'idle' },
    },
    denied: {
      tags: ['modalOpen'],
      on: { 'proof.sendAgain': 'choosing', 'proof.cancel': 'idle' },
    },
    choosing: {
      tags: ['modalOpen'],
      on: {
        'image.chosen': [
          { guard: { type: 'isAcceptableImage', params: ({ event }) => event.file }, target: 'previewing', actions: { type: 'assignImage', params: ({ event }) => event.file } },
          { actions: { type: 'refuseImage', params: ({ event }) => event.file } },
        ],
        'note.change': { actions: { type: 'assignNote', params: ({ event }) => event.note } },
        'proof.cancel': 'idle',
      },
    },
    previewing: {
      tags: ['modalOpen'],
      on: {
        'image.chosen': [
          { guard: { type: 'isAcceptableImage', params: ({ event }) => event.file }, actions: { type: 'assignImage', params: ({ event }) => event.file } },
          { target: 'choosing', actions: ['clearImage', { type: 'refuseImage', params: ({ event }) => event.file }] },
        ],
        'image.clear': { target: 'choosing', actions: 'clearImage' },
        'note.change': { actions: { type: 'assignNote', params: ({ event }) => event.note } },
        'proof.send': { guard: 'isNoteValid', target: 'uploading' },
        'proof.cancel': 'idle',
      },
    },
    uploading: {
      tags: ['modalOpen', 'busy'],
      entry: 'startUpload',
      invoke: {
        id: 'uploadProof',
        src: 'uploadProof',
        input: ({ context, self }) => ({
          teamId: context.teamId,
          image: context.image!,
          note: context.note,
          onProgress: (loaded: number, total: number) => self.send({ type: 'upload.progressed', loaded, total }),
        }),
        onDone: { target: 'succeeded', actions: { type: 'assignLatest', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignUploadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
      on: { 'upload.progressed': { actions: { type: 'assignProgress', params: ({ event }) => ({ loaded: event.loaded, total: event.total }) } } },
    },
    failed: {
      tags: ['modalOpen'],
      on: {
        'image.chosen': [
          { guard: { type: 'isAcceptableImage', params: ({ event }) => event.file }, target: 'previewing', actions: { type: 'assignImage', params: ({ event }) => event.file } },
          { target: 'choosing', actions: ['clearImage', { type: 'refuseImage', params: ({ event }) => event.file }] },
        ],
        'proof.send': { guard: 'isNoteValid', target: 'uploading' },
        'image.clear': { target: 'choosing', actions: 'clearImage' },
        'note.change': { actions: { type: 'assignNote', params: ({ event }) => event.note } },
        'proof.cancel': 'idle',
      },
    },
    succeeded: {
      tags: ['modalOpen'],
      on: { 'proof.cancel': 'idle' },
    },
  },
});
