// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { PROOF_MESSAGES, type Submission, type TaskState } from '../../contract/submission';
import { proofSubmissionMachine, type ProofSubmissionEvent, type UploadProofInput } from '../../machines/proofSubmission.machine';
import { ProofControls, type ProofEffects, type ProofTask } from '../../src/features/play/ProofPanel';
import { deferred, FakeEffects, type Deferred } from '../support/effects';
import { modelTests, type ModelExecutor } from '../support/chartModel';

/**
 * Model-based test of the proofSubmission chart (the 'Submit Proof' dialog of docs/server.md
 * §9 and the denial on the team's task panel) through the rendered ProofControls and Radix
 * dialog: paths generated from the real chart with the one harness; each step caused through the
 * screen — the button, a pasted PNG (a ClipboardEvent with the file), a text file chosen in the
 * file input (refused), the note box, Remove image, Send Again, Send Proof / Try Again, Escape, the
 * team's task turning 'denied' on the panel, and the fake server answering the latest-submission
 * reads and the upload (with a progress report) — and every state asserted on the screen: the
 * task the dialog is for, the denial's reason as text on the panel and in the dialog.
 */

type Snap = SnapshotFrom<typeof proofSubmissionMachine>;
type ModelEvent =
  | ProofSubmissionEvent
  | { type: 'xstate.done.actor.readLatest'; output: Submission | null }
  | { type: 'xstate.error.actor.readLatest'; error: Error }
  | { type: 'xstate.done.actor.loadLatest'; output: Submission | null }
  | { type: 'xstate.error.actor.loadLatest'; error: Error }
  | { type: 'xstate.done.actor.uploadProof'; output: Submission }
  | { type: 'xstate.error.actor.uploadProof'; error: Error };

/** When the referee denied it, as the paths are generated; each answer stamps it again (`answerRead`). */
const REVIEWED_AT = new Date(Date.now() - 90_000).toISOString();
/** How long before a read's answer the referee denied the proof: the panel says '1 min ago'. */
const DENIED_AGO_MS = 90_000;
const TASK: ProofTask = { square: 41, tier: 'HARD', description: 'Get a <b>Dragon</b> med helm' };

/** A file as the path generator tells events apart: by its name (a File stringifies to `{}`). */
const named = (file: File) => Object.assign(file, { toJSON: () => file.name });
const PNG = named(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'screenshot.png', { type: 'image/png' }));
const TEXT = named(new File(['not an image'], 'notes.txt', { type: 'text/plain' }));
const NOTE = 'Got it <b>first</b> try';
const REASON = 'Wrong <i>item</i>: that is a <script>x</script> helm';
const SERVER_ERROR = PROOF_MESSAGES.tooLarge;

function submission(status: Submission['status'], reason: string | null): Submission {
  return {
    id: 9, game_id: 3, team_id: 5, team_name: 'Blue Wizards', team_color: '#2a5db0', square_index: 41,
    task_description: 'Get a Dragon med helm', task_difficulty: 'HARD',
    submitted_by: { user_id: 2, username: 'bob', ign: 'Woox' }, note: '', image_url: '/api/submissions/9/image', thumb_url: '/api/submissions/9/thumb',
    status, reviewer: status === 'denied' ? { user_id: 1, username: 'alice' } : null, reason, created_at: '2026-01-01T10:00:00.000Z', reviewed_at: status === 'denied' ? REVIEWED_AT : null,
    source: 'upload', evidence: null, auto: false,
  };
}
const DENIED = submission('denied', REASON);
const SENT = submission('pending', null);

const chosen = (file: File): ModelEvent => ({ type: 'image.chosen', file });
const denied: ModelEvent = { type: 'task.stateChanged', state: 'denied' };
const reads: ModelEvent[] = [
  { type: 'xstate.done.actor.readLatest', output: null },
  { type: 'xstate.done.actor.readLatest', output: DENIED },
  { type: 'xstate.error.actor.readLatest', error: new Error('') },
];

/** Events in a state (a function of the state, so a new event is never silently left out). */
function eventsOf(s: Snap): ModelEvent[] {
  const cancel: ModelEvent = { type: 'proof.cancel' };
  const note: ModelEvent = { type: 'note.change', note: NOTE };
  if (s.matches({ idle: 'reading' })) return [...reads, { type: 'proof.open' }, denied];
  if (s.matches({ idle: 'settled' })) return [{ type: 'proof.open' }, denied];
  switch (s.value as string) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadLatest', output: null },
        { type: 'xstate.done.actor.loadLatest', output: DENIED },
        { type: 'xstate.error.actor.loadLatest', error: new Error('') },
        cancel,
      ];
    case 'denied':
      return [{ type: 'proof.sendAgain' }, cancel];
    case 'choosing':
      return [chosen(PNG), chosen(TEXT), note, cancel];
    case 'previewing':
      return [chosen(PNG), chosen(TEXT), { type: 'image.clear' }, note, { type: 'proof.send' }, cancel];
    case 'uploading':
      return [
        { type: 'upload.progressed', loaded: 512, total: 1024 },
        { type: 'xstate.done.actor.uploadProof', output: SENT },
        { type: 'xstate.error.actor.uploadProof', error: new Error(SERVER_ERROR) },
      ];
    case 'failed':
      return [chosen(PNG), chosen(TEXT), { type: 'image.clear' }, note, { type: 'proof.send' }, cancel];
    default:
      return [cancel];
  }
}

/**
 * State value, what the dialog holds, the step's event and the state it left: each edge gets its
 * own path (a cancel from choosing, previewing or failed; an image chosen over a preview; a resend
 * after a failure). The latest submission tells states apart only while closed (the panel shows
 * it); the dialog reads it again.
 */
const serializeState = (s: Snap, event?: ModelEvent, prev?: Snap) =>
  JSON.stringify([
    s.value,
    event ? prev?.value ?? null : null,
    s.matches('idle') ? s.context.latest?.status ?? null : null,
    !!s.context.image,
    s.context.note !== '',
    s.context.error,
    s.context.progress?.loaded ?? null,
    event?.type ?? null,
    event?.type === 'image.chosen' ? event.file.name : null,
  ]);

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** The latest-submission reads, newest last (a read the chart left is never answered). */
  reads: Deferred<Submission | null>[];
  /** The team's task state the panel holds. */
  taskState: TaskState;
  setTaskState: (state: TaskState) => void;
}

const dialog = () => screen.getByTestId('proof-dialog');
const lastUpload = (w: World) => w.fx.calls('uploadProof').at(-1)![1] as UploadProofInput;
/** Answers the newest read of the latest submission. */
const answerRead = async (w: World, ok: boolean, value: unknown) => {
  await waitFor(() => expect(w.reads.length).toBeGreaterThan(0));
  // A denial is stamped a minute and a half before this answer, not before the file started: the
  // panel's '1 min ago' then holds however long the earlier paths took.
  const answer = (value as Submission | null)?.status === 'denied' ? { ...(value as Submission), reviewed_at: new Date(Date.now() - DENIED_AGO_MS).toISOString() } : value;
  await act(async () => (ok ? w.reads.at(-1)!.resolve(answer as Submission | null) : w.reads.at(-1)!.reject(answer)));
};

const EXECUTORS = {
  'proof.open': async (w) => w.user.click(screen.getByRole('button', { name: /^(Submit Proof|Send Proof Again)$/ })),
  'task.stateChanged': async (w) => {
    // The game moves the task on (a new submission) and a referee denies it again.
    if (w.taskState === 'denied') act(() => w.setTaskState('submitted'));
    act(() => w.setTaskState('denied'));
  },
  'xstate.done.actor.readLatest': async (w, { event }) => answerRead(w, true, (event as { output: Submission | null }).output),
  'xstate.error.actor.readLatest': async (w) => answerRead(w, false, new Error('Network error.')),
  'xstate.done.actor.loadLatest': async (w, { event }) => answerRead(w, true, (event as { output: Submission | null }).output),
  'xstate.error.actor.loadLatest': async (w) => answerRead(w, false, new Error('Network error.')),
  'proof.sendAgain': async (w) => w.user.click(screen.getByRole('button', { name: 'Send Again' })),
  'image.chosen': async (w, { event }) => {
    const file = (event as { file: File }).file;
    if (file === PNG) fireEvent.paste(dialog(), { clipboardData: { files: [file], items: [] } });
    else await w.user.upload(screen.getByTestId('proof-file') as HTMLInputElement, file);
  },
  'image.clear': async (w) => w.user.click(screen.getByRole('button', { name: 'Remove image' })),
  'note.change': async () => {
    fireEvent.change(screen.getByLabelText('Note (optional)'), { target: { value: NOTE } });
  },
  'proof.send': async (w) => w.user.click(screen.getByRole('button', { name: /^(Send Proof|Try Again)$/ })),
  'upload.progressed': async (w, { event }) => {
    const { loaded, total } = event as { loaded: number; total: number };
    act(() => lastUpload(w).onProgress(loaded, total));
  },
  'xstate.done.actor.uploadProof': async (w) => act(() => w.fx.resolve('uploadProof', SENT)),
  'xstate.error.actor.uploadProof': async (w) => act(() => w.fx.reject('uploadProof', new Error(SERVER_ERROR))),
  'proof.cancel': async (w) => w.user.keyboard('{Escape}'),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

const noteShown = (s: Snap) => expect((screen.getByLabelText('Note (optional)') as HTMLTextAreaElement).value).toBe(s.context.note);
const errorShown = (s: Snap) => {
  if (s.context.error) expect(screen.getByTestId('proof-error').textContent).toBe(s.context.error);
  else expect(screen.queryByTestId('proof-error')).toBeNull();
};
/** Every step of the dialog names the task it is for; the description is text. */
const taskShown = () => {
  const task = within(dialog()).getByTestId('proof-task');
  expect(task.textContent).toBe(`For square 41 (Hard): ${TASK.description}`);
  expect(task.querySelector('b')).toBeNull();
};
/** The panel's denial: shown while the team's task is denied and the latest submission is that denial. */
const denialShown = (s: Snap, w: World) => {
  const denial = screen.queryByTestId('proof-denial');
  if (w.taskState === 'denied' && s.context.latest?.status === 'denied') {
    expect(denial!.querySelector('[role="alert"]')!.textContent).toBe(`Denied by alice 1 min ago: ${REASON}`);
    expect(denial!.querySelector('i, script')).toBeNull();
    expect(within(denial!).getByRole('img').getAttribute('src')).toBe(DENIED.thumb_url);
  } else expect(denial).toBeNull();
};

const idleShown = async (s: Snap, w: World) => {
  await waitFor(() => expect(screen.queryByTestId('proof-dialog')).toBeNull());
  expect(screen.getByRole('button', { name: w.taskState === 'denied' ? 'Send Proof Again' : 'Submit Proof' })).toBeTruthy();
  denialShown(s, w);
};

modelTests<Snap, ModelEvent, World>({
  name: 'proofSubmission',
  machine: proofSubmissionMachine,
  inputs: [{ teamId: 5 }],
  events: eventsOf,
  serialize: serializeState,
  // Each cancel and resend adds a path; the ones a longer path starts with are left out.
  dropPrefixPaths: true,
  label: (e) => (e.type === 'image.chosen' ? `chosen(${e.file.name})` : e.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$2.$1')),
  executors: EXECUTORS,
  assertions: {
    idle: idleShown,
    'idle.reading': async (s, w) => {
      await waitFor(() => expect(w.reads.length).toBeGreaterThan(0));
      denialShown(s, w);
    },
    'idle.settled': idleShown,
    loading: async () => {
      expect(dialog().dataset.step).toBe('loading');
      expect(screen.getByText('Loading...')).toBeTruthy();
      taskShown();
    },
    denied: async () => {
      // The reason is shown as text: its markup is not parsed.
      const notice = screen.getByTestId('proof-denied');
      expect(notice.textContent).toBe(`Your last proof for square 41 was denied by alice: ${REASON}`);
      expect(notice.querySelector('i, script')).toBeNull();
      expect(within(dialog()).getByRole('button', { name: /^View full size/ })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Send Again' })).toBeTruthy();
      taskShown();
    },
    choosing: async (s) => {
      expect(dialog().dataset.step).toBe('choosing');
      expect(screen.getByText('Paste a screenshot (Ctrl+V), drop an image here, or choose a file.')).toBeTruthy();
      expect(screen.queryByTestId('proof-preview')).toBeNull();
      expect((screen.getByRole('button', { name: 'Send Proof' }) as HTMLButtonElement).disabled).toBe(true);
      noteShown(s);
      errorShown(s);
      taskShown();
      if (s.context.error) expect(s.context.error).toBe(PROOF_MESSAGES.notImage);
    },
    previewing: async (s) => {
      expect(dialog().dataset.step).toBe('previewing');
      expect(screen.getByTestId('proof-preview')).toBeTruthy();
      expect(within(dialog()).getByText(/^screenshot\.png · \d+ KiB$/)).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Send Proof' }) as HTMLButtonElement).disabled).toBe(false);
      noteShown(s);
      errorShown(s);
      taskShown();
    },
    uploading: async (s) => {
      const bar = screen.getByTestId('proof-progress') as HTMLProgressElement;
      const percent = s.context.progress ? Math.round((s.context.progress.loaded / s.context.progress.total) * 100) : 0;
      expect(bar.value).toBe(percent);
      expect(screen.getByText(`Uploading... ${percent}%`)).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    },
    failed: async (s) => {
      expect(screen.getByTestId('proof-error').textContent).toBe(SERVER_ERROR);
      expect((screen.getByRole('button', { name: 'Try Again' }) as HTMLButtonElement).disabled).toBe(false);
      noteShown(s);
      taskShown();
    },
    succeeded: async () => {
      expect(screen.getByTestId('proof-sent').textContent).toBe('Proof sent for square 41. A referee will review it soon.');
    },
  },
  render: () => {
    const fx = new FakeEffects();
    const w: World = { fx, user: userEvent.setup({ applyAccept: false }), reads: [], taskState: 'open', setTaskState: () => {} };
    const effects: ProofEffects = {
      loadLatest: () => {
        const d = deferred<Submission | null>();
        w.reads.push(d);
        return d.promise;
      },
      uploadProof: (gameId, input) => fx.fn('uploadProof')(gameId, input),
    };
    function Host() {
      const [taskState, setTaskState] = useState<TaskState>('open');
      w.taskState = taskState;
      w.setTaskState = setTaskState;
      return <ProofControls gameId={3} teamId={5} effects={effects} taskState={taskState} square={41} task={TASK} canOpen />;
    }
    render(<Host />);
    return w;
  },
});
