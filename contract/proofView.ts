import type { HeldGame } from './socket';
import { leaderEntryOf } from './game/roles';
import { formatAgo, mayRoll, PROOF_IMAGE_TYPES, PROOF_MAX_BYTES, PROOF_MESSAGES, ProofNoteSchema, REVIEW_UNDO_MS, ReviewReasonSchema, type Submission, type TaskState } from './submission';
import * as v from 'valibot';

/**
 * Pure rules and texts of the client's proof and review screens (docs/server.md §9),
 * shared by the proofSubmission, reviewQueue and gamePlay charts and their components.
 */

/** How each task state reads on the game screens. */
export const TASK_STATE_LABELS: Readonly<Record<TaskState, string>> = {
  none: 'No task',
  open: 'Task open',
  submitted: 'Proof waiting for review',
  denied: 'Proof denied',
  approved: 'Task approved',
};

/** Texts of the proof dialog and the review queue that the contract does not fix. */
export const PROOF_VIEW_TEXTS = {
  /** A chosen file that is not an image the server takes (checked again by its bytes on the server). */
  notImage: PROOF_MESSAGES.notImage,
  tooLarge: PROOF_MESSAGES.tooLarge,
  uploadFailed: 'Failed to send the proof.',
  queueFailed: 'Failed to load the submissions waiting for review.',
  reviewFailed: 'Failed to review the submission.',
  undoFailed: 'Failed to undo the review.',
  emptyQueue: 'No submissions waiting for review.',
  /** In place of the image of a Dink proof whose post had no screenshot (docs/server.md §13). */
  noScreenshot: 'No screenshot was sent',
  /** In place of the image of a task approved from a Wise Old Man total, which has none (docs/server.md §17). */
  womNoImage: 'Checked with Wise Old Man: no screenshot',
} as const;

/** Why a chosen file cannot be sent (its type as the browser reports it, its size), or null. */
export function proofImageProblem(file: { type: string; size: number }): string | null {
  if (!(PROOF_IMAGE_TYPES as readonly string[]).includes(file.type)) return PROOF_VIEW_TEXTS.notImage;
  if (file.size > PROOF_MAX_BYTES) return PROOF_VIEW_TEXTS.tooLarge;
  return null;
}

/** The first message of a failed parse, or null. */
const problemOf = (result: v.SafeParseResult<v.GenericSchema>) => (result.success ? null : result.issues[0].message);

/** Why a typed note cannot be sent (the contract's note rule: text rule, at most 500 characters), or null. */
export function proofNoteProblem(note: string): string | null {
  return problemOf(v.safeParse(ProofNoteSchema, note));
}

/** Why a typed deny reason cannot be sent (the contract's reason rule: text rule, 1 to 300 characters), or null. */
export function denyReasonProblem(reason: string): string | null {
  return problemOf(v.safeParse(ReviewReasonSchema, reason));
}

/**
 * Why the viewer's led team may not roll now (docs/server.md §9's roll gate text), or
 * null when it may (no proof rule, or its task is done or absent).
 */
export function leaderRollGate(game: HeldGame | null): string | null {
  const entry = leaderEntryOf(game);
  const team = entry && game?.team_states.find((t) => t.team_id === entry.id);
  if (!game || !team) return null;
  return mayRoll(game.proof_required, team.task_state) ? null : PROOF_MESSAGES.rollGate(team.current_position, team.team_name);
}

/**
 * The referee queue after a `submission_update`: a pending submission is added (or replaced) in
 * place, oldest first; any other status leaves the queue.
 */
export function mergeQueue(queue: readonly Submission[], submission: Submission): Submission[] {
  const rest = queue.filter((s) => s.id !== submission.id);
  if (submission.status !== 'pending') return rest;
  return [...rest, submission].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
}

/** True while a review made at `reviewedAt` (ISO) may still be undone at `now` (ms): 5 minutes. */
export function isUndoable(reviewedAt: string | null, now: number): boolean {
  return reviewedAt !== null && now - Date.parse(reviewedAt) < REVIEW_UNDO_MS;
}

/**
 * A team's denial as its task panel says it: 'Denied by alice 2 min ago: {reason}' (the review's
 * time `reviewed_at` against `now`, ms). The reason is the referee's text, shown as text.
 */
export function denialText(submission: Pick<Submission, 'reviewer' | 'reviewed_at' | 'reason'>, now: number): string {
  const by = submission.reviewer ? ` by ${submission.reviewer.username}` : '';
  const when = submission.reviewed_at ? ` ${formatAgo(now - Date.parse(submission.reviewed_at))}` : '';
  return `Denied${by}${when}${submission.reason ? `: ${submission.reason}` : '.'}`;
}

/** One image of the lightbox: its address, its alternative text and the caption above it. */
export interface LightboxImage {
  src: string;
  alt: string;
  caption: string;
}

/** The lightbox's zoom levels (1 fits the image in the window), smallest first. */
export const LIGHTBOX_ZOOMS = [1, 1.5, 2, 3, 4] as const;

/**
 * A submission's full image for the lightbox (GET /api/submissions/{id}/image, docs/server.md
 * §9), captioned with the team, the square and the task; only for one that has an image (see
 * hasScreenshot in src/features/dink/NoScreenshot.tsx).
 */
export function proofImageOf(s: Pick<Submission, 'team_name' | 'square_index' | 'task_description'> & { image_url: string }): LightboxImage {
  return {
    src: s.image_url,
    alt: `Proof from ${s.team_name} for square ${s.square_index}`,
    caption: `${s.team_name} · Square ${s.square_index}: ${s.task_description}`,
  };
}
