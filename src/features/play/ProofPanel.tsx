import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState, type ClipboardEvent, type DragEvent, type FormEvent, type ReactNode } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { PROOF_NOTE_MAX, PROOF_IMAGE_TYPES, timeOnSquare, type Submission, type TaskState } from '../../../contract/submission';
import { denialText, proofImageOf } from '../../../contract/proofView';
import { TIER_LABELS, type Tier } from '../../../contract/game/tiers';
import type { UserTeam } from '../../../contract/gameApi';
import { proofSubmissionMachine, type UploadProofInput } from '../../../machines/proofSubmission.machine';
import * as psel from '../../../machines/proofSubmission.selectors';
import * as sel from '../../../machines/gamePlay.selectors';
import { Notice } from '../../ui/Notice';
import { TaskStateBadge } from './TaskStateBadge';
import { useNow } from '../../base/useNow';
import { DialogButtons, Modal } from '../../ui/Modal';
import { Lightbox, LightboxThumb, useLightbox, type LightboxRef } from '../../ui/Lightbox';
import { hasScreenshot, NoScreenshot } from '../dink/NoScreenshot';
import type { GamePlayRef } from './gamePlayRef';
import { autoRuleText, DINK_SENDS_PROOF, WOM_CHECKS_PROOF } from '../dink/dinkTexts';
import { isWomRuleType } from '../../../contract/dink';
import type { Task } from '../../../contract/task';
import { currentTaskOf, RELIEF_VIEW_TEXTS } from '../../../contract/game/reliefView';
import type { ProgressCheckOutcome } from '../../../machines/progressCheck.machine';
import { ProgressCheck } from './ProgressCheck';
// Team Positions takes 'Check now' for a manager from this module (GamePanels.tsx), loaded with it.
export { ProgressCheck };
import { ProgressBar } from './ProgressBar';
import { isWomCheckable } from '../../../contract/progress';

/**
 * Whether a board square's task carries a Dink auto rule (docs/server.md §13): read from the
 * square's `auto_rule` when the game shape carries it (null or absent: no rule).
 */
function hasAutoRule(square: object | null): boolean {
  return ruleOf(square) !== null;
}

/** A board square's auto rule, or null when it has none or the game shape does not carry it. */
function ruleOf(square: object | null): Task['auto_rule'] {
  return square && 'auto_rule' in square && square.auto_rule ? (square.auto_rule as Task['auto_rule']) : null;
}

/** The proof calls of the play screen, replaceable in tests (docs/server.md §9). */
export interface ProofEffects {
  /** The team's latest submission, or null (GET .../game/{gameId}/submissions, newest first). */
  loadLatest: (gameId: number, teamId: number) => Promise<Submission | null>;
  /** Uploads the proof; reports progress; raises an Error with the server's text. */
  uploadProof: (gameId: number, input: UploadProofInput) => Promise<Submission>;
  /** 'Check now' on a Wise Old Man team total (docs/server.md §17); absent: no button. */
  checkProgress?: (gameId: number, teamId: number) => Promise<ProgressCheckOutcome>;
}

type ProofRef = ActorRefFrom<typeof proofSubmissionMachine>;

/**
 * The viewer's teams' current tasks on the play screen (docs/server.md §9), one card per
 * team the viewer plays on: square, tier and task text, the task state and when the team reached
 * the square (ticking), after a denial who denied it, when, and why (with the denied screenshot),
 * and 'Submit Proof' while the task is open or denied (every member of the team may send it).
 * A team total (docs/server.md §17) shows as the team's bar (ProgressBar: have / need, each
 * player's share, the IGNs not counted), live, with 'Check now' for a Wise Old Man total. Without `effects` (no proof calls) the cards show without the button and the denial.
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

/** The task a proof is for: its square, tier and text (the square's task, docs/server.md §9). */
export interface ProofTask {
  square: number;
  tier: Tier | null;
  description: string;
}

function TeamTaskCard({ actor, team, effects }: { actor: GamePlayRef; team: UserTeam; effects?: ProofEffects }) {
  const state = useSelector(actor, (s) => s.context.game?.team_states.find((t) => t.team_id === team.id) ?? null);
  const square = useSelector(actor, (s) => (state ? s.context.game?.board_squares[state.current_position - 1] ?? null : null));
  const proofRequired = useSelector(actor, (s) => s.context.game?.proof_required ?? false);
  const playable = useSelector(actor, (s) => s.matches({ live: { play: 'inProgress' } }) || s.matches({ live: { play: 'paused' } }));
  const gameId = useSelector(actor, (s) => s.context.game?.id ?? null);
  const inProgress = useSelector(actor, sel.selectIsPlayable);
  const now = useNow();
  // A substitute from relief (task_override) stands in for the square's task, for proof too (docs/game-rules.md §15).
  const current = useMemo(() => (state ? currentTaskOf(state, square) : null), [state, square]);
  const task = useMemo<ProofTask | null>(
    () => (state && current ? { square: state.current_position, tier: current.tier, description: current.description } : null),
    [state, current],
  );
  if (!state) return null;
  const canSend = playable && (state.task_state === 'open' || state.task_state === 'denied');
  const hasTask = state.task_state !== 'none' && task;
  const waiting = state.task_state !== 'none' && state.task_state !== 'approved';
  const rule = (
    <>
      {proofRequired && waiting && <p className="muted team-task__rule">A referee must approve the proof before the Leader can roll again.</p>}
      {hasTask && waiting && !current?.substitute && hasAutoRule(square) && (
        <p className="team-task__dink" data-testid="dink-sends">
          {isWomRuleType(ruleOf(square)!.type) ? WOM_CHECKS_PROOF : DINK_SENDS_PROOF}
        </p>
      )}
    </>
  );
  return (
    <section className="panel team-task" aria-labelledby={`team-task-${team.id}`} data-testid="team-task" data-team={state.team_name}>
      <h2 id={`team-task-${team.id}`} className="game-panel__title">
        <span className="team-positions__swatch" style={{ background: state.team_color || '#cccccc' }} aria-hidden="true" /> {state.team_name}: current task
      </h2>
      <p className="team-task__where">
        <strong>Square {state.current_position}</strong>
        {hasTask && task.tier && <span className="team-task__tier"> · {TIER_LABELS[task.tier]}</span>}
      </p>
      {hasTask && current?.substitute && <p className="team-task__substitute" data-testid="task-substitute">{RELIEF_VIEW_TEXTS.substitute}</p>}
      {hasTask ? <p className="team-task__text" data-testid="team-task-text">{task.description}</p> : <p className="muted">No task on this square.</p>}
      {hasTask && !current?.substitute && ruleOf(square)?.team_total != null && (
        <p className="team-task__total" data-testid="team-total-rule">
          {autoRuleText(ruleOf(square)!)}
        </p>
      )}
      {hasTask && state.progress && <ProgressBar progress={state.progress} teamName={state.team_name} />}
      {hasTask && inProgress && state.progress && isWomCheckable(state, ruleOf(square)) && effects?.checkProgress && gameId !== null && (
        <ProgressCheck teamId={team.id} teamName={state.team_name} checkedAt={state.progress.updated_at} check={(teamId) => effects.checkProgress!(gameId, teamId)} />
      )}
      <p className="team-task__state">
        <TaskStateBadge state={state.task_state} /> <span className="muted" data-testid="time-on-square">{timeOnSquare(state.current_position, state.square_since, now)}</span>
      </p>
      {effects && gameId !== null ? (
        <ProofControls gameId={gameId} teamId={team.id} effects={effects} taskState={state.task_state} square={state.current_position} task={hasTask ? task : null} canOpen={canSend}>
          {rule}
        </ProofControls>
      ) : (
        rule
      )}
    </section>
  );
}

/**
 * A team's proof on its task card (docs/server.md §9), with the proofSubmission chart of
 * the team (its calls provided from `effects`) and a lightbox for the screenshots: after a denial
 * on this square ('denied' `taskState`), 'Denied by {referee} {2 min ago}: {reason}' as text and
 * the denied screenshot; then `children`; 'Submit Proof' ('Send Proof Again' after a denial;
 * hidden unless `canOpen`) and its dialog, which names `task`. The dialog stays mounted when the
 * button hides, so a sent proof (the team's state turns 'submitted') still shows its success.
 */
export function ProofControls({
  gameId,
  teamId,
  effects,
  taskState,
  square,
  task,
  canOpen,
  children,
}: {
  gameId: number;
  teamId: number;
  effects: ProofEffects;
  taskState: TaskState;
  /** The square the team stands on (a denial elsewhere is an old one). */
  square: number;
  task: ProofTask | null;
  canOpen: boolean;
  children?: ReactNode;
}) {
  const proof = useActorRef(
    proofSubmissionMachine.provide({
      actors: {
        loadLatest: fromPromise(({ input }) => effects.loadLatest(gameId, input.teamId)),
        uploadProof: fromPromise(({ input }) => effects.uploadProof(gameId, input)),
      },
    }),
    { input: { teamId } },
  );
  const lightbox = useLightbox();
  const latest = useSelector(proof, psel.selectLatestProof);
  const now = useNow();
  useEffect(() => {
    proof.send({ type: 'task.stateChanged', state: taskState });
  }, [proof, taskState, square]);
  const denial = taskState === 'denied' && latest?.status === 'denied' && latest.square_index === square ? latest : null;
  const denied = useMemo(() => (denial && hasScreenshot(denial) ? [proofImageOf(denial)] : []), [denial]);
  return (
    <>
      {denial && (
        <div className="team-task__denial" data-testid="proof-denial">
          <Notice tone="error">{denialText(denial, now)}</Notice>
          {hasScreenshot(denial) ? <LightboxThumb lightbox={lightbox} images={denied} index={0} thumb={denial.thumb_url} /> : <NoScreenshot evidence={denial.evidence} testId="proof-no-screenshot" />}
        </div>
      )}
      {children}
      {canOpen && (
        <button type="button" className="btn btn--primary" onClick={() => proof.send({ type: 'proof.open' })}>
          {taskState === 'denied' ? 'Send Proof Again' : 'Submit Proof'}
        </button>
      )}
      <ProofDialog proof={proof} task={task} lightbox={lightbox} />
      <Lightbox lightbox={lightbox} />
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
 * closes except while uploading), naming the task it is for (square, tier, text): after a denial
 * the reason, the denied screenshot (opening `lightbox`) and 'Send Again'; then an image by
 * paste (Ctrl+V of a screenshot anywhere in the dialog), drop or file choice, its preview, an
 * optional note (at most 500 characters), the upload's progress bar, and the server's errors.
 */
function ProofDialog({ proof, task, lightbox }: { proof: ProofRef; task: ProofTask | null; lightbox: LightboxRef }) {
  const open = useSelector(proof, psel.isProofDialogOpen);
  const step = useSelector(proof, psel.selectProofStep);
  const image = useSelector(proof, psel.selectProofImage);
  const note = useSelector(proof, psel.selectProofNote);
  const error = useSelector(proof, psel.selectProofError);
  const progress = useSelector(proof, psel.selectProofProgress);
  const latest = useSelector(proof, psel.selectLatestProof);
  const canSend = useSelector(proof, psel.canSendProof);
  const canClose = useSelector(proof, psel.canCloseProof);
  const denied = useMemo(() => (latest?.status === 'denied' && hasScreenshot(latest) ? [proofImageOf(latest)] : []), [latest]);
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
          {task && (
            <p className="proof-dialog__task" data-testid="proof-task">
              For square {task.square}
              {task.tier && ` (${TIER_LABELS[task.tier]})`}: {task.description}
            </p>
          )}
          {step === 'loading' && <p className="muted" role="status">Loading...</p>}
          {step === 'denied' && latest && (
            <div className="form">
              <Notice tone="error" testId="proof-denied">
                Your last proof for square {latest.square_index} was denied{latest.reviewer ? ` by ${latest.reviewer.username}` : ''}: {latest.reason ?? ''}
              </Notice>
              {latest.status === 'denied' && (hasScreenshot(latest) ? <LightboxThumb lightbox={lightbox} images={denied} index={0} thumb={latest.thumb_url} /> : <NoScreenshot evidence={latest.evidence} testId="proof-no-screenshot" />)}
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
