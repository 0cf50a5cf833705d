import * as v from 'valibot';
import { typedTextSchema } from './text';
import { TierSchema } from './game/tiers';
import { isSpecialDescription, UNASSIGNED_DESCRIPTION } from './game/connection';
import { EvidenceSchema, SUBMISSION_SOURCES } from './dink';
import { ReliefAfterHoursSchema, ReliefMaxPerTeamSchema } from './game/settings';
import { formatDuration } from './duration';

// ---------------------------------------------------------------------------------------------
// Task proof and referee review (docs/server.md §9): the task state a team carries on
// its square, proof submissions, reviews, and their texts. Shared by the server routes, the
// socket and the client's proof and review charts.
// ---------------------------------------------------------------------------------------------

/**
 * A team's task state on its square (docs/server.md §9): `none` no task (Start, blank),
 * `open` waiting, `submitted` proof waits for review, `denied` refused (may be sent again),
 * `approved` done.
 */
export const TASK_STATES = ['none', 'open', 'submitted', 'denied', 'approved'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const TaskStateSchema = v.picklist(TASK_STATES);

/**
 * True when a square carries a task to prove (docs/server.md §9): a tier and a task text.
 * Start, Finish, Snake and Ladder squares and Unassigned (blank) task squares carry none.
 */
export function hasTask(square: { task_description: string; task_difficulty: string | null } | undefined): boolean {
  if (!square || square.task_difficulty === null) return false;
  return !isSpecialDescription(square.task_description) && square.task_description !== UNASSIGNED_DESCRIPTION;
}

/**
 * The task state of a team that has just arrived on `square` (docs/server.md §9): after a
 * roll `open` when the square has a task, after a revert `approved` (the team rolled from there);
 * `none` when the square has no task, and after a winning roll (the game is over).
 */
export function arrivalState(square: { task_description: string; task_difficulty: string | null } | undefined, how: 'roll' | 'revert' | 'won'): TaskState {
  if (how === 'won' || !hasTask(square)) return 'none';
  return how === 'roll' ? 'open' : 'approved';
}

/** States in which a team may send proof (else 409). */
export const SUBMITTABLE_STATES: readonly TaskState[] = ['open', 'denied'];

/** States in which a Leader may roll when the game requires proof. */
const ROLLABLE_STATES: readonly TaskState[] = ['none', 'approved'];

/** True when a team in `state` may roll: always without proof_required, else only from `none` or `approved`. */
export function mayRoll(proofRequired: boolean, state: TaskState): boolean {
  return !proofRequired || ROLLABLE_STATES.includes(state);
}

/** A submission's review status. */
export const SUBMISSION_STATUSES = ['pending', 'approved', 'denied', 'withdrawn'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Largest image a submission may carry: 8 MiB (bytes); larger answers 413. */
export const PROOF_MAX_BYTES = 8 * 1024 * 1024;
/** Longest note (characters after the text rule). */
export const PROOF_NOTE_MAX = 500;
/** Longest deny reason (characters after the text rule). */
export const REVIEW_REASON_MAX = 300;
/** How long a review may be undone (ms): 5 minutes, while the team has not rolled since. */
export const REVIEW_UNDO_MS = 5 * 60 * 1000;
/** Image types a submission may carry, recognised by their bytes (MIME types). */
export const PROOF_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/**
 * The texts of docs/server.md §9. Texts the contract gives verbatim are marked; the rest are ours and the
 * client shows them as the server sends them.
 */
export const PROOF_MESSAGES = {
  /** Verbatim (docs/server.md §9): the roll gate's action_error. */
  rollGate: (square: number, team: string) =>
    `Complete the task on square ${square} first: a referee must approve its proof before ${team} can roll again.`,
  /** Verbatim (docs/server.md §9). */
  ownSubmission: 'You cannot review your own submission.',
  notOnTeam: 'Only players on this team can send its proof.',
  notPlaying: 'Proof can only be sent while the game is in progress or paused.',
  noTask: (square: number) => `Square ${square} has no task to prove.`,
  alreadySubmitted: (square: number) => `Proof for square ${square} is already waiting for review.`,
  alreadyApproved: (square: number) => `The task on square ${square} is already approved.`,
  tooLarge: 'The image is too large: at most 8 MiB.',
  notImage: 'The image must be a PNG, JPEG, WebP or GIF.',
  undecodable: 'The image could not be read. Send a PNG, JPEG, WebP or GIF screenshot.',
  imageRequired: 'Attach an image of the completed task.',
  teamRequired: 'team_id is required.',
  teamNotInGame: 'That team is not in this game.',
  notPending: 'This submission was already reviewed or withdrawn.',
  undoExpired: 'This review can no longer be undone: undo is possible for 5 minutes and until the team rolls.',
  notReviewed: 'This submission has not been reviewed.',
  decision: "decision must be 'approve' or 'deny'.",
  reasonRequired: 'A reason is required to deny a submission.',
  reasonTooLong: `Reason must be at most ${REVIEW_REASON_MAX} characters.`,
  noteTooLong: `Note must be at most ${PROOF_NOTE_MAX} characters.`,
  notFound: 'Submission not found.',
  /** GET /api/submissions/{id}/image or /thumb of a submission that has none (a Wise Old Man total, docs/server.md §17). */
  noImage: 'This submission has no image.',
  statusQuery: "status must be one of 'pending', 'approved', 'denied', 'withdrawn'.",
  rulesSaved: 'Game rules saved.',
} as const;

/** Log lines of docs/server.md §9, verbatim. */
export const PROOF_LOG = {
  sent: (team: string, square: number) => `${team} sent proof for square ${square}.`,
  approved: (referee: string, team: string) => `Approved by ${referee}: ${team} may roll.`,
  denied: (referee: string, reason: string) => `Denied by ${referee}: ${reason}`,
  undone: (referee: string) => `Review undone by ${referee}.`,
} as const;

/** The optional note of a submission: text rule, multi-line, at most 500 characters ('' allowed). */
export const ProofNoteSchema = typedTextSchema({
  label: 'Note',
  field: 'note',
  multiline: true,
  required: 'Note must be text.',
  min: 0,
  max: PROOF_NOTE_MAX,
  tooLong: PROOF_MESSAGES.noteTooLong,
});

/** A deny reason: text rule, multi-line, 1 to 300 characters. */
export const ReviewReasonSchema = typedTextSchema({
  label: 'Reason',
  field: 'reason',
  multiline: true,
  required: PROOF_MESSAGES.reasonRequired,
  max: REVIEW_REASON_MAX,
  tooLong: PROOF_MESSAGES.reasonTooLong,
});

/**
 * PUT .../submissions/{id}/review body: `{decision: 'approve'|'deny', reason}`; reason required
 * (1..300 characters) to deny, ignored (may be absent or null) to approve.
 */
export const ReviewBodySchema = v.variant(
  'decision',
  [
    v.object({ decision: v.literal('approve'), reason: v.optional(v.nullable(v.string()), null) }),
    v.object({
      decision: v.literal('deny'),
      // A missing or null reason is the same refusal as an empty one: 'A reason is required ...'.
      reason: v.pipe(v.optional(v.nullable(v.unknown()), null), v.transform((r) => r ?? ''), ReviewReasonSchema),
    }),
  ],
  PROOF_MESSAGES.decision,
);
export type ReviewBody = v.InferOutput<typeof ReviewBodySchema>;

/**
 * PUT .../game/{gameId}/rules body (managers; docs/server.md §9, docs/server.md §15): any subset of
 * proof_required, relief_after_hours (null = off, else 1..168) and relief_max_per_team (0..10);
 * absent fields keep their value.
 */
export const RulesBodySchema = v.object(
  {
    proof_required: v.optional(v.boolean('proof_required must be true or false.')),
    relief_after_hours: v.optional(ReliefAfterHoursSchema),
    relief_max_per_team: v.optional(ReliefMaxPerTeamSchema),
  },
  'Request body must be a JSON object with any of proof_required, relief_after_hours and relief_max_per_team.',
);
export type RulesBody = v.InferOutput<typeof RulesBodySchema>;

/** The rules of a game that PUT .../rules changes (docs/server.md §9, docs/server.md §15). */
export interface GameRules {
  proof_required: boolean;
  relief_after_hours: number | null;
  relief_max_per_team: number;
}

/** PUT .../game/{gameId}/rules answer: the rules now in force and the saved message. */
export const RulesAnswerSchema = v.object({
  ok: v.literal(true),
  proof_required: v.boolean(),
  relief_after_hours: v.nullable(v.number()),
  relief_max_per_team: v.number(),
  message: v.string(),
});

/**
 * A submission (docs/server.md §9); times ISO; image_url/thumb_url are same-origin paths, or
 * both null for a submission with no image at all (source 'wom', approved from a Wise Old Man
 * total, docs/server.md §17). `source` 'upload' (a member sent it), 'dink' (made from a Dink post,
 * docs/server.md §13) or 'wom', `evidence` what the Dink post or the Wise Old Man check said (null
 * for uploads), `auto` true when approved automatically (reviewer null), `screenshot` false when
 * there is no screenshot to show: a Dink submission whose post had none (or one that did not
 * decode; its image is a plain stand-in) and every 'wom' one, so screens show the evidence instead.
 * Every shape that carries a submission (REST answers, `submission_update`, the data export) is
 * this one.
 */
export const SubmissionSchema = v.object({
  id: v.number(),
  game_id: v.number(),
  team_id: v.number(),
  team_name: v.string(),
  team_color: v.string(),
  square_index: v.number(),
  task_description: v.string(),
  task_difficulty: v.nullable(TierSchema),
  submitted_by: v.object({ user_id: v.number(), username: v.string(), ign: v.string() }),
  note: v.string(),
  image_url: v.nullable(v.string()),
  thumb_url: v.nullable(v.string()),
  status: v.picklist(SUBMISSION_STATUSES),
  reviewer: v.nullable(v.object({ user_id: v.number(), username: v.string() })),
  reason: v.nullable(v.string()),
  created_at: v.string(),
  reviewed_at: v.nullable(v.string()),
  source: v.picklist(SUBMISSION_SOURCES),
  evidence: EvidenceSchema,
  auto: v.boolean(),
  /** Whether a screenshot was sent (absent: yes); the server always says. */
  screenshot: v.optional(v.boolean()),
});
export type Submission = v.InferOutput<typeof SubmissionSchema>;

/** `{submission}`: POST answer (201), review and undo answers, and the `submission_update` socket payload. */
export const SubmissionAnswerSchema = v.object({ submission: SubmissionSchema });
export type SubmissionAnswer = v.InferOutput<typeof SubmissionAnswerSchema>;

/** `{submissions}`: a game's submissions newest first, or the clan's referee queue oldest first. */
export const SubmissionListSchema = v.object({ submissions: v.array(SubmissionSchema) });
export type SubmissionList = v.InferOutput<typeof SubmissionListSchema>;

/** `join_reviews` payload: the clan whose managers room `clan:<id>:managers` to join (managers only). */
export const JoinReviewsSchema = v.object({
  clan_id: v.pipe(v.number('clan_id must be a number.'), v.integer('clan_id must be a whole number.'), v.minValue(1, 'clan_id is invalid.'), v.maxValue(2147483647, 'clan_id is invalid.')),
});
export type JoinReviews = v.InferOutput<typeof JoinReviewsSchema>;

/** The optional acknowledgement of join_reviews: whether the socket joined the managers room. */
export interface JoinReviewsAnswer {
  joined: boolean;
}

/** The managers room of a clan (docs/server.md §9). */
export const managersRoom = (clanId: number) => `clan:${clanId}:managers`;

/**
 * 'reached square 41, 2 h 14 min ago': when a team arrived on its square, from `since` (ISO) to
 * `now` (ms epoch), said as a moment in the past so it never reads as a penalty still running;
 * the comma keeps the square's number apart from the time's ('square 1, 1 min ago').
 */
export function timeOnSquare(square: number, since: string, now: number): string {
  return `reached square ${square}, ${formatAgo(now - Date.parse(since))}`;
}

/** How long ago something happened, `ms` milliseconds back: '2 h 14 min ago', 'just now' under a minute. */
export function formatAgo(ms: number): string {
  return ms < 60_000 ? 'just now' : `${formatDuration(ms, 'min')} ago`;
}
