// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { PROOF_MESSAGES, type Submission } from '../../contract/submission';
import { proofSubmissionMachine, type ProofSubmissionEvent, type UploadProofInput } from '../../machines/proofSubmission.machine';
import { ProofButton, type ProofEffects } from '../../src/features/play/ProofPanel';
import { FakeEffects } from '../support/effects';
import { modelPaths } from '../support/graph';

/**
 * Model-based test of the proofSubmission chart (the 'Submit Proof' dialog of server-contract
 * section 8) through the rendered button and Radix dialog: shortest paths generated from the real
 * chart with @xstate/graph; each step caused through the screen — the button, a pasted PNG (a
 * ClipboardEvent with the file), a text file chosen in the file input (refused), the note box,
 * Remove image, Send Again, Send Proof / Try Again, Escape, and the fake server answering the
 * latest-submission read and the upload (with a progress report) — and every state asserted on
 * the screen.
 */

type Snap = SnapshotFrom<typeof proofSubmissionMachine>;
type ModelEvent =
  | ProofSubmissionEvent
  | { type: 'xstate.done.actor.loadLatest'; output: Submission | null }
  | { type: 'xstate.error.actor.loadLatest'; error: Error }
  | { type: 'xstate.done.actor.uploadProof'; output: Submission }
  | { type: 'xstate.error.actor.uploadProof'; error: Error };

const PNG = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'screenshot.png', { type: 'image/png' });
const TEXT = new File(['not an image'], 'notes.txt', { type: 'text/plain' });
const NOTE = 'Got it <b>first</b> try';
const REASON = 'Wrong <i>item</i>: that is a <script>x</script> helm';
const SERVER_ERROR = PROOF_MESSAGES.tooLarge;

function submission(status: Submission['status'], reason: string | null): Submission {
  return {
    id: 9, game_id: 3, team_id: 5, team_name: 'Blue Wizards', team_color: '#2a5db0', square_index: 41,
    task_description: 'Get a Dragon med helm', task_difficulty: 'HARD',
    submitted_by: { user_id: 2, username: 'bob', ign: 'Woox' }, note: '', image_url: '/api/submissions/9/image', thumb_url: '/api/submissions/9/thumb',
    status, reviewer: status === 'denied' ? { user_id: 1, username: 'alice' } : null, reason, created_at: '2026-01-01T10:00:00.000Z', reviewed_at: null,
  };
}
const DENIED = submission('denied', REASON);
const SENT = submission('pending', null);

const STATE_NODES = ['idle', 'loading', 'denied', 'choosing', 'previewing', 'uploading', 'failed', 'succeeded'] as const;
type StateNode = (typeof STATE_NODES)[number];

const chosen = (file: File): ModelEvent => ({ type: 'image.chosen', file });
/** Events in a state (a function of the state, so a new event is never silently left out). */
function eventsOf(s: Snap): ModelEvent[] {
  const cancel: ModelEvent = { type: 'proof.cancel' };
  const note: ModelEvent = { type: 'note.change', note: NOTE };
  switch (s.value as StateNode) {
    case 'idle':
      return [{ type: 'proof.open' }];
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
    case 'succeeded':
      return [cancel];
  }
}

/** State value, what the dialog holds, and the step's event: each edge gets its own path. */
const serializeState = (s: Snap, event?: ModelEvent) =>
  JSON.stringify([s.value, !!s.context.image, s.context.note !== '', s.context.error, s.context.progress?.loaded ?? null, event?.type ?? null, event?.type === 'image.chosen' ? event.file.name : null]);

/** Files stringify to `{}`: events are told apart by the file's name. */
const serializeEvent = (e: ModelEvent) => JSON.stringify(e.type === 'image.chosen' ? { type: e.type, file: e.file.name } : e);

const paths = modelPaths<Snap, ModelEvent>(proofSubmissionMachine, { events: eventsOf, serializeState, serializeEvent, input: { teamId: 5 } });

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}
type Executor = (w: World, e: ModelEvent) => Promise<void>;

const dialog = () => screen.getByTestId('proof-dialog');
const lastUpload = (w: World) => w.fx.calls('uploadProof').at(-1)![1] as UploadProofInput;

const EXECUTORS = {
  'proof.open': async (w) => w.user.click(screen.getByRole('button', { name: 'Submit Proof' })),
  'xstate.done.actor.loadLatest': async (w, e) => act(() => w.fx.resolve('loadLatest', (e as { output: Submission | null }).output)),
  'xstate.error.actor.loadLatest': async (w) => act(() => w.fx.reject('loadLatest', new Error('Network error.'))),
  'proof.sendAgain': async (w) => w.user.click(screen.getByRole('button', { name: 'Send Again' })),
  'image.chosen': async (w, e) => {
    const file = (e as { file: File }).file;
    if (file === PNG) fireEvent.paste(dialog(), { clipboardData: { files: [file], items: [] } });
    else await w.user.upload(screen.getByTestId('proof-file') as HTMLInputElement, file);
  },
  'image.clear': async (w) => w.user.click(screen.getByRole('button', { name: 'Remove image' })),
  'note.change': async () => {
    fireEvent.change(screen.getByLabelText('Note (optional)'), { target: { value: NOTE } });
  },
  'proof.send': async (w) => w.user.click(screen.getByRole('button', { name: /^(Send Proof|Try Again)$/ })),
  'upload.progressed': async (w, e) => {
    const { loaded, total } = e as { loaded: number; total: number };
    act(() => lastUpload(w).onProgress(loaded, total));
  },
  'xstate.done.actor.uploadProof': async (w) => act(() => w.fx.resolve('uploadProof', SENT)),
  'xstate.error.actor.uploadProof': async (w) => act(() => w.fx.reject('uploadProof', new Error(SERVER_ERROR))),
  'proof.cancel': async (w) => w.user.keyboard('{Escape}'),
} satisfies Record<ModelEvent['type'], Executor>;

const noteShown = (s: Snap) => expect((screen.getByLabelText('Note (optional)') as HTMLTextAreaElement).value).toBe(s.context.note);
const errorShown = (s: Snap) => {
  if (s.context.error) expect(screen.getByTestId('proof-error').textContent).toBe(s.context.error);
  else expect(screen.queryByTestId('proof-error')).toBeNull();
};

const ASSERTIONS: Record<StateNode, (s: Snap) => Promise<void>> = {
  idle: async () => {
    await waitFor(() => expect(screen.queryByTestId('proof-dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Submit Proof' })).toBeTruthy();
  },
  loading: async () => {
    expect(dialog().dataset.step).toBe('loading');
    expect(screen.getByText('Loading...')).toBeTruthy();
  },
  denied: async () => {
    // The reason is shown as text: its markup is not parsed.
    const notice = screen.getByTestId('proof-denied');
    expect(notice.textContent).toBe(`Your last proof for square 41 was denied by alice: ${REASON}`);
    expect(notice.querySelector('i, script')).toBeNull();
    expect(screen.getByRole('button', { name: 'Send Again' })).toBeTruthy();
  },
  choosing: async (s) => {
    expect(dialog().dataset.step).toBe('choosing');
    expect(screen.getByText('Paste a screenshot (Ctrl+V), drop an image here, or choose a file.')).toBeTruthy();
    expect(screen.queryByTestId('proof-preview')).toBeNull();
    expect((screen.getByRole('button', { name: 'Send Proof' }) as HTMLButtonElement).disabled).toBe(true);
    noteShown(s);
    errorShown(s);
    if (s.context.error) expect(s.context.error).toBe(PROOF_MESSAGES.notImage);
  },
  previewing: async (s) => {
    expect(dialog().dataset.step).toBe('previewing');
    expect(screen.getByTestId('proof-preview').textContent).toContain('screenshot.png');
    expect((screen.getByRole('button', { name: 'Send Proof' }) as HTMLButtonElement).disabled).toBe(false);
    noteShown(s);
    errorShown(s);
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
  },
  succeeded: async () => {
    expect(screen.getByTestId('proof-sent').textContent).toBe('Proof sent for square 41. A referee will review it soon.');
  },
};

describe('proofSubmission chart through the Submit Proof dialog', () => {
  afterEach(cleanup);

  it('reaches and asserts every state node, and covers both upload outcomes (guard)', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => st.state.value as string)));
    expect([...reached].sort()).toEqual([...STATE_NODES].sort());
    expect(Object.keys(ASSERTIONS).sort()).toEqual(Object.keys(proofSubmissionMachine.root.states).sort());
    const types = new Set<string>(paths.flatMap((p) => p.steps.map((st) => st.event.type)));
    for (const t of Object.keys(EXECUTORS)) expect(types.has(t), t).toBe(true);
  });

  for (const path of paths) {
    const name = path.steps
      .slice(1)
      .map(({ event }) => (event.type === 'image.chosen' ? `chosen(${event.file.name})` : event.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$2.$1')))
      .join(' → ');
    it(name || 'initial', async () => {
      const fx = new FakeEffects();
      const effects: ProofEffects = {
        loadLatest: (gameId, teamId) => fx.fn('loadLatest')(gameId, teamId),
        uploadProof: (gameId, input) => fx.fn('uploadProof')(gameId, input),
      };
      render(<ProofButton gameId={3} teamId={5} effects={effects} denied={false} />);
      const w: World = { fx, user: userEvent.setup({ applyAccept: false }) };
      await path.test({
        events: Object.fromEntries(Object.entries(EXECUTORS).map(([type, run]) => [type, (step: { event: ModelEvent }) => (run as Executor)(w, step.event)])) as never,
        states: ASSERTIONS as never,
      });
    });
  }
});
