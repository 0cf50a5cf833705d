import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState, type ClipboardEvent, type DragEvent, type FormEvent } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { PROOF_NOTE_MAX, PROOF_IMAGE_TYPES, timeOnSquare, type Submission, type TaskState } from '../../../contract/submission';
import { TASK_STATE_LABELS } from '../../../contract/proofView';
import { TIER_LABELS } from '../../../contract/game/tiers';
import type { UserTeam } from '../../../contract/gameApi';
import { proofSubmissionMachine, type UploadProofInput } from '../../../machines/proofSubmission.machine';
import * as psel from '../../../machines/proofSubmission.selectors';
import * as sel from '../../../machines/gamePlay.selectors';
import { Notice } from '../../ui/Notice';
import { TaskStateBadge, useNow } from './TaskStateBadge';
import { DialogButtons, Modal } from '../../ui/Modal';
import type { GamePlayRef } from './GamePanels';

/** The proof calls of the play screen, replaceable in tests (server-contract section 8). */
export interface ProofEffects {
  /** The team's latest submission, or null (GET .../game/{gameId}/submissions, newest first). */
  loadLatest: (gameId: number, teamId: number) => Promise<Submission | null>;
  /** Uploads the proof; reports progress; raises an Error with the server's text. */
  uploadProof: (gameId: number, input: UploadProofInput) => Promise<Submission>;
}

type ProofRef = ActorRefFrom<typeof proofSubmissionMachine>;

/**
 * The viewer's teams' current tasks on the play screen (server-contract section 8), one card per
 * team the viewer plays on: square, tier and task text, the task state, the time on the square
 * (ticking), and 'Submit Proof' while the task is open or denied (every member of the team may
 * send it). Without `effects` (no proof calls) the cards show without the button.
 */
export function TeamTasks({ actor, effects }: { actor: GamePlayRef; effects?: ProofEffects }) {
  const mine = useSelector(actor, sel.selectUserTeams);
  const teams = useMemo(() => mine.filter((t, i) => mine.findIndex((m) => m.id === t.id) === i), [mine]);
  if (teams.length === 0) return null;
  return (
    <>
      {teams.map((t) => (
        <TeamTaskCard key={t.id} actor={actor} team={t} effects={effects} />
      ))}
    </>
  );
}

function TeamTaskCard({ actor, team, effects }: { actor: GamePlayRef; team: UserTeam; effects?: ProofEffects }) {
  const state = useSelector(actor, (s) => s.context.game?.team_states.find((t) => t.team_id === team.id) ?? null);
  const square = useSelector(actor, (s) => (state ? s.context.game?.board_squares[state.current_position - 1] ?? null : null));
  const proofRequired = useSelector(actor, (s) => s.context.game?.proof_required ?? false);
  const playable = useSelector(actor, (s) => s.matches({ live: { play: 'inProgress' } }) || s.matches({ live: { play: 'paused' } }));
  const gameId = useSelector(actor, (s) => s.context.game?.id ?? null);
  const now = useNow();
  if (!state) return null;
  const canSend = playable && (state.task_state === 'open' || state.task_state === 'denied');
  const hasTask = state.task_state !== 'none' && square && square.task_difficulty;
  return (
    <section className="panel team-task" aria-labelledby={`team-task-${team.id}`} data-testid="team-task" data-team={state.team_name}>
      <h2 id={`team-task-${team.id}`} className="game-panel__title">
        <span className="team-positions__swatch" style={{ background: state.team_color || '#cccccc' }} aria-hidden="true" /> {state.team_name}: current task
      </h2>
      <p className="team-task__where">
        <strong>Square {state.current_position}</strong>
        {hasTask && <span className="team-task__tier"> · {TIER_LABELS[square.task_difficulty!]}</span>}
      </p>
      {hasTask ? <p className="team-task__text">{square.task_description}</p> : <p className="muted">No task on this square.</p>}
      <p className="team-task__state">
        <TaskStateBadge state={state.task_state} /> <span className="muted" data-testid="time-on-square">{timeOnSquare(state.current_position, state.square_since, now)}</span>
      </p>
      {proofRequired && state.task_state !== 'none' && state.task_state !== 'approved' && (
        <p className="muted team-task__rule">A referee must approve the proof before the Leader can roll again.</p>
      )}
      {effects && gameId !== null && <ProofButton gameId={gameId} teamId={team.id} effects={effects} denied={state.task_state === 'denied'} canOpen={canSend} />}
    </section>
  );
}

/**
 * 'Submit Proof' ('Send Proof Again' after a denial; hidden unless `canOpen`) with its dialog: the
 * proofSubmission chart of one team, its calls provided from `effects`. The dialog stays mounted
 * when the button hides, so a sent proof (the team's state turns 'submitted') still shows its success.
 */
export function ProofButton({ gameId, teamId, effects, denied, canOpen = true }: { gameId: number; teamId: number; effects: ProofEffects; denied: boolean; canOpen?: boolean }) {
  const proof = useActorRef(
    proofSubmissionMachine.provide({
      actors: {
        loadLatest: fromPromise(({ input }) => effects.loadLatest(gameId, input.teamId)),
        uploadProof: fromPromise(({ input }) => effects.uploadProof(gameId, input)),
      },
    }),
    { input: { teamId } },
  );
  return (
    <>
      {canOpen && (
        <button type="button" className="btn btn--primary" onClick={() => proof.send({ type: 'proof.open' })}>
          {denied ? 'Send Proof Again' : 'Submit Proof'}
        </button>
      )}
      <ProofDialog proof={proof} />
    </>
  );
}

/** The first image file of a paste or drop, or null. */
function imageOf(list: DataTransfer | null): File | null {
  if (!list) return null;
  const files = Array.from(list.files ?? []);
  if (files.length > 0) return files[0];
  for (const item of Array.from(list.items ?? [])) {
    if (item.kind === 'file') {
      const f = item.getAsFile();
      if (f) return f;
    }
  }
  return null;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${Math.max(1, Math.round(n / 1024))} KiB`;
}

/**
 * The 'Submit Proof' dialog, opened by the proofSubmission chart (Radix Dialog: focus trap, Esc
 * closes except while uploading): after a denial the reason and 'Send Again'; then an image by
 * paste (Ctrl+V of a screenshot anywhere in the dialog), drop or file choice, its preview, an
 * optional note (at most 500 characters), the upload's progress bar, and the server's errors.
 */
function ProofDialog({ proof }: { proof: ProofRef }) {
  const open = useSelector(proof, psel.isProofDialogOpen);
  const step = useSelector(proof, psel.selectProofStep);
  const image = useSelector(proof, psel.selectProofImage);
  const note = useSelector(proof, psel.selectProofNote);
  const error = useSelector(proof, psel.selectProofError);
  const progress = useSelector(proof, psel.selectProofProgress);
  const latest = useSelector(proof, psel.selectLatestProof);
  const canSend = useSelector(proof, psel.canSendProof);
  const canClose = useSelector(proof, psel.canCloseProof);
  const preview = useMemo(() => (image && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(image) : null), [image]);
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);
  const [dragging, setDragging] = useState(false);

  const choose = (file: File | null) => file && proof.send({ type: 'image.chosen', file });
  const onPaste = (e: ClipboardEvent) => {
    const file = imageOf(e.clipboardData);
    if (file) {
      e.preventDefault();
      choose(file);
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    choose(imageOf(e.dataTransfer));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    proof.send({ type: 'proof.send' });
  };
  const close = () => proof.send({ type: 'proof.cancel' });
  const takesImage = step === 'choosing' || step === 'previewing' || step === 'failed';
  const percent = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;

  return (
    <Modal open={open} onClose={() => canClose && close()} title="Submit Proof" className="dialog panel proof-dialog" testId="proof-dialog" step={step} onPaste={onPaste}>
          {step === 'loading' && <p className="muted" role="status">Loading...</p>}
          {step === 'denied' && latest && (
            <div className="form">
              <Notice tone="error" testId="proof-denied">
                Your last proof for square {latest.square_index} was denied{latest.reviewer ? ` by ${latest.reviewer.username}` : ''}: {latest.reason ?? ''}
              </Notice>
              <a href={latest.image_url} target="_blank" rel="noopener noreferrer" title="Open the denied screenshot">
                <img className="proof-drop__preview" src={latest.thumb_url} alt={`The denied proof for square ${latest.square_index}`} />
              </a>
              <div className="row dialog__actions">
                <button type="button" className="btn" onClick={close}>
                  Cancel
                </button>
                <button type="button" className="btn btn--primary" autoFocus onClick={() => proof.send({ type: 'proof.sendAgain' })}>
                  Send Again
                </button>
              </div>
            </div>
          )}
          {(takesImage || step === 'uploading') && (
            <form className="form" onSubmit={submit}>
              <div
                className={dragging ? 'proof-drop proof-drop--over' : 'proof-drop'}
                data-testid="proof-drop"
                onDragOver={(e) => {
                  e.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={onDrop}
              >
                {image && preview ? (
                  <img className="proof-drop__preview" src={preview} alt="Preview of the proof image" data-testid="proof-preview" />
                ) : image ? (
                  <p data-testid="proof-preview">{image.name}</p>
                ) : (
                  <p className="proof-drop__hint">Paste a screenshot (Ctrl+V), drop an image here, or choose a file.</p>
                )}
                {image && (
                  <p className="muted proof-drop__name">
                    {image.name || 'Pasted image'} · {formatBytes(image.size)}
                  </p>
                )}
                <label className="btn btn--small proof-drop__choose">
                  {image ? 'Choose another image' : 'Choose image'}
                  <input
                    className="visually-hidden"
                    type="file"
                    accept={PROOF_IMAGE_TYPES.join(',')}
                    disabled={step === 'uploading'}
                    data-testid="proof-file"
                    onChange={(e) => {
                      choose(e.target.files?.[0] ?? null);
                      e.target.value = '';
                    }}
                  />
                </label>
              </div>
              <div className="field">
                <label className="field__label" htmlFor="proof-note">Note (optional)</label>
                <textarea
                  id="proof-note"
                  className="input"
                  rows={3}
                  maxLength={PROOF_NOTE_MAX}
                  value={note}
                  disabled={step === 'uploading'}
                  onChange={(e) => proof.send({ type: 'note.change', note: e.target.value })}
                />
                <span className="field__hint">
                  {note.length}/{PROOF_NOTE_MAX}
                </span>
              </div>
              {step === 'uploading' && (
                <div className="proof-progress" role="status">
                  <progress max={100} value={percent} aria-label="Upload progress" data-testid="proof-progress" />
                  <span className="muted"> Uploading... {percent}%</span>
                </div>
              )}
              {error && <Notice tone="error" testId="proof-error">{error}</Notice>}
              <DialogButtons
                onCancel={close}
                cancelDisabled={!canClose}
                submitLabel={step === 'failed' ? 'Try Again' : 'Send Proof'}
                submitDisabled={!canSend}
                extra={
                  image && step !== 'uploading' ? (
                    <button type="button" className="btn" onClick={() => proof.send({ type: 'image.clear' })}>
                      Remove image
                    </button>
                  ) : null
                }
              />
            </form>
          )}
          {step === 'succeeded' && (
            <div className="form">
              <Notice tone="success" testId="proof-sent">
                Proof sent for square {latest?.square_index}. A referee will review it soon.
              </Notice>
              <DialogButtons onCancel={close} cancelLabel="Close" />
            </div>
          )}
    </Modal>
  );
}
