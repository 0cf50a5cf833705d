import * as v from 'valibot';
import { jsonBodySchema } from './common';
import { DraftStateSchema, SignupSchema, type DraftState } from './signup';

// ---------------------------------------------------------------------------------------------
// The captains' draft (docs/server.md §16, "Captains' draft"): the start body, the socket
// payloads, the refusal texts, and the snake order both the server and the draft room compute.
// ---------------------------------------------------------------------------------------------

/** Fewest and most captains (one per team). */
export const DRAFT_CAPTAINS_MIN = 2;
export const DRAFT_CAPTAINS_MAX = 20;
/** Seconds a captain has per pick: the range and the default. */
export const PICK_SECONDS_MIN = 15;
export const PICK_SECONDS_MAX = 600;
export const PICK_SECONDS_DEFAULT = 60;

const id = (what: string) =>
  v.pipe(v.number(`${what} must be a number.`), v.integer(`${what} must be a whole number.`), v.minValue(1, `${what} is invalid.`), v.maxValue(2147483647, `${what} is invalid.`));

const CAPTAINS_TEXT = `Choose ${DRAFT_CAPTAINS_MIN} to ${DRAFT_CAPTAINS_MAX} captains (one per team).`;
const PICK_SECONDS_TEXT = `pick_seconds must be a whole number from ${PICK_SECONDS_MIN} to ${PICK_SECONDS_MAX}.`;

/**
 * POST .../draft body: `captain_signup_ids` (2..20 distinct sign-up ids, the first round's order)
 * and `pick_seconds` (15..600, default 60).
 */
export const StartDraftBodySchema = jsonBodySchema({
  captain_signup_ids: v.pipe(
    v.array(id('A captain sign-up id'), CAPTAINS_TEXT),
    v.minLength(DRAFT_CAPTAINS_MIN, CAPTAINS_TEXT),
    v.maxLength(DRAFT_CAPTAINS_MAX, CAPTAINS_TEXT),
    v.check((ids) => new Set(ids).size === ids.length, 'Each captain can be chosen only once.'),
  ),
  pick_seconds: v.optional(
    v.pipe(v.number(PICK_SECONDS_TEXT), v.integer(PICK_SECONDS_TEXT), v.minValue(PICK_SECONDS_MIN, PICK_SECONDS_TEXT), v.maxValue(PICK_SECONDS_MAX, PICK_SECONDS_TEXT)),
    PICK_SECONDS_DEFAULT,
  ),
});
export type StartDraftBody = v.InferOutput<typeof StartDraftBodySchema>;

/** The answer of every draft change. */
export const DraftAnswerSchema = v.object({ draft_state: v.nullable(DraftStateSchema) });
export type DraftAnswer = v.InferOutput<typeof DraftAnswerSchema>;

/**
 * The answer of GET .../draft: the event's name (the room's heading; the server always sends it),
 * the draft (null without one) and the event's sign-ups, which name its ids.
 */
export const DraftRoomAnswerSchema = v.object({ event_name: v.optional(v.string()), draft_state: v.nullable(DraftStateSchema), signups: v.array(SignupSchema) });
export type DraftRoomAnswer = v.InferOutput<typeof DraftRoomAnswerSchema>;

/** join_draft / leave_draft payload. */
export const JoinDraftSchema = v.object({ event_id: id('event_id') });
export type JoinDraft = v.InferOutput<typeof JoinDraftSchema>;

/** draft_pick payload: the free agent the captain on the clock picks. */
export const DraftPickSchema = v.object({ event_id: id('event_id'), signup_id: id('signup_id') });
export type DraftPick = v.InferOutput<typeof DraftPickSchema>;

/** Refusals of the draft, over HTTP and as `action_error`. */
export const DRAFT_MESSAGES = {
  noDraft: 'There is no draft for this event.',
  alreadyRunning: 'A draft is already under way for this event.',
  over: 'The draft is over.',
  paused: 'The draft is paused.',
  notPaused: 'The draft is not paused.',
  alreadyPaused: 'The draft is already paused.',
  noPicks: 'No pick to undo.',
  notYourTurn: 'It is not your turn to pick.',
  notInPool: 'That player is not in the pool.',
  signIn: 'You must be signed in.',
  notMember: 'You are not a member of this clan.',
  eventNotFound: 'Event not found.',
  gameStarted: 'The game of this event has started: teams can no longer be drafted.',
  captainNotFound: (signupId: number) => `Sign-up ID ${signupId} not found.`,
  captainSameTeam: 'Two captains are on the same team.',
  poolEmpty: 'There are no free agents to draft.',
  teamGone: 'The team on the clock was deleted: undo a pick or end the draft.',
  captainLeft: (signupId: number) => `Sign-up ID ${signupId} belongs to someone who is no longer a member of this clan.`,
  playerLeft: 'That player is no longer a member of this clan.',
} as const;

/**
 * The team whose turn pick number `pickNo` (0-based) is, in a snake over `order` (round 1 in
 * order, round 2 reversed, ...), and that pick's round (1-based).
 */
export function snakeTurn(order: readonly number[], pickNo: number): { team_id: number; round: number } {
  const n = order.length;
  const round = Math.floor(pickNo / n) + 1;
  const at = pickNo % n;
  return { team_id: round % 2 === 1 ? order[at] : order[n - 1 - at], round };
}

/** Milliseconds left on the clock of `state` at `now` (0 when run out, null without a clock). */
export function clockLeftMs(state: Pick<DraftState, 'deadline'>, now: number): number | null {
  if (state.deadline === null) return null;
  return Math.max(0, Date.parse(state.deadline) - now);
}
