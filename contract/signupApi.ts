import * as v from 'valibot';
import { ID_MAX, jsonBodySchema } from './common';
import { typedTextSchema } from './text';
import { SignupSchema } from './signup';

// ---------------------------------------------------------------------------------------------
// Sign-ups, scores and balanced teams on the wire (docs/server.md §16): bodies, answers and the
// texts the server answers with, shared by server/signups/ and the client.
// ---------------------------------------------------------------------------------------------

/** Largest score balancing takes (docs/server.md §16). */
export const SCORE_MAX = 1_000_000;
/** Longest sign-up note, in characters after the text rule. */
export const SIGNUP_NOTE_MAX = 300;
/** Most data rows a score CSV may have. */
export const SCORE_CSV_MAX_ROWS = 5_000;
/** Fewest teams a balance may ask for (0, asking for none, fills the event's existing teams). */
const BALANCE_TEAMS_MIN = 2;
/** Most teams a balance may ask for. */
export const BALANCE_TEAMS_MAX = 20;

/** The texts of docs/server.md §16. */
export const SIGNUP_MESSAGES = {
  already: 'You are already signed up for this event.',
  closed: 'Sign-ups for this event are closed.',
  onTeam: 'This IGN is already on a team of this event.',
  notYourIgn: 'You can only sign up with one of your own IGNs.',
  ignNotFound: 'IGN not found.',
  notFound: (id: number) => `Sign-up ID ${id} not found.`,
  badScore: `Score must be a number from 0 to ${SCORE_MAX.toLocaleString('en-US')}, or null.`,
  badIgnId: 'Choose one of your IGNs (osrs_ign_id).',
  badWantsLeader: 'wants_leader must be true or false.',
  noteRequired: 'Note must be text.',
  noteTooLong: `Note must be at most ${SIGNUP_NOTE_MAX} characters.`,
  badMetric: "Metric must be one of 'ehb', 'ehp', 'ehb+ehp' or 'overall_level'.",
  csvHeader: 'The CSV header row must name an ign column and a score column.',
  csvNoRows: 'The CSV file has a header but no score rows.',
  csvTooManyRows: `The CSV file has more than ${SCORE_CSV_MAX_ROWS.toLocaleString('en-US')} rows.`,
  csvNul: 'The CSV file must not contain NUL bytes.',
  csvUnknownIgn: 'No sign-up of this event has this IGN.',
  csvBadScore: `Score must be a plain decimal number from 0 to ${SCORE_MAX.toLocaleString('en-US')}, such as 1250 or 87.5.`,
  womUnknown: 'Wise Old Man does not know this player.',
  womBadName: 'This is not a valid OSRS name (1 to 12 letters, digits, spaces, - or _), so Wise Old Man was not asked.',
  womFailed: (status: number | string) => `Wise Old Man answered ${status}.`,
  womNoValue: 'Wise Old Man has no value of this metric for this player.',
  badTeamCount: `team_count must be 0 or a whole number from ${BALANCE_TEAMS_MIN} to ${BALANCE_TEAMS_MAX}.`,
  noTeams: 'This event has no teams to fill. Ask for a number of teams instead.',
  noFreeAgents: 'There are no free agents to place on teams.',
  gameRunning: 'The game of this event is in progress; teams cannot be balanced now.',
  stale: 'The sign-ups changed since this proposal was made. Balance again.',
  leftClan: (id: number) => `Sign-up ID ${id} belongs to someone who is no longer a member of this clan. Balance again.`,
  badProposal: 'Send the proposal as the balance answered it.',
  leaderNotOnTeam: "A team's leader_signup_id must be one of that team's signup_ids (or null).",
  openedTitle: 'Sign-ups open',
  closedTitle: 'Sign-ups closed',
} as const;

/** A score: a finite number 0..SCORE_MAX, or null (no score). */
const ScoreSchema = v.nullable(
  v.pipe(v.number(SIGNUP_MESSAGES.badScore), v.finite(SIGNUP_MESSAGES.badScore), v.minValue(0, SIGNUP_MESSAGES.badScore), v.maxValue(SCORE_MAX, SIGNUP_MESSAGES.badScore)),
);

const IgnIdSchema = v.pipe(v.number(SIGNUP_MESSAGES.badIgnId), v.integer(SIGNUP_MESSAGES.badIgnId), v.minValue(1, SIGNUP_MESSAGES.badIgnId), v.maxValue(ID_MAX, SIGNUP_MESSAGES.badIgnId));

/** A sign-up's note: the multi-line text rule (contract/text.ts), 0..300 characters. */
const NoteSchema = typedTextSchema({ label: 'Note', field: 'note', multiline: true, required: SIGNUP_MESSAGES.noteRequired, min: 0, max: SIGNUP_NOTE_MAX, tooLong: SIGNUP_MESSAGES.noteTooLong });

/** POST .../signups body (docs/server.md §16): one of the caller's IGNs, 'I would lead a team' (default false), a note (default ''). */
export const SignupBodySchema = jsonBodySchema({
  osrs_ign_id: v.optional(IgnIdSchema, 0),
  wants_leader: v.optional(v.boolean(SIGNUP_MESSAGES.badWantsLeader), false),
  note: v.optional(NoteSchema, ''),
});
export type SignupBody = v.InferInput<typeof SignupBodySchema>;

/** PUT .../signups/{id} body: `{score}` (a finite number 0..1,000,000 or null). */
export const ScoreBodySchema = jsonBodySchema({ score: v.optional(ScoreSchema, undefined) });

/** The Wise Old Man numbers a score may be made of. */
export const WOM_METRICS = ['ehb', 'ehp', 'ehb+ehp', 'overall_level'] as const;
export type WomMetric = (typeof WOM_METRICS)[number];

/** POST .../signups/scores/wom body: `{metric}`. */
export const WomBodySchema = jsonBodySchema({ metric: v.picklist(WOM_METRICS, SIGNUP_MESSAGES.badMetric) });

/** A sign-up as the Sign-ups view lists it: with the name of the team it is on (null for a free agent). */
export type ListedSignup = v.InferOutput<typeof SignupSchema> & { team_name: string | null };

/** One sign-up answer: `{signup}`. */
export const SignupAnswerSchema = v.object({ signup: SignupSchema });
/** GET .../signups answer: `{signups}`, oldest first. */
export const SignupListSchema = v.object({ signups: v.array(SignupSchema) });

/** POST .../signups/scores answer: rows updated and the refused ones (`row` = line in the file, header = 1). */
export const ScoreImportAnswerSchema = v.object({
  updated_count: v.number(),
  errors: v.array(v.object({ row: v.number(), ign: v.string(), message: v.string() })),
});
export type ScoreImportAnswer = v.InferOutput<typeof ScoreImportAnswerSchema>;

/** GET .../signups/scores/wom answer: the look-ups of the last fetch (`done` counts errors too). */
export const WomProgressSchema = v.object({
  total: v.number(),
  done: v.number(),
  errors: v.array(v.object({ ign: v.string(), error: v.string() })),
});
export type WomProgress = v.InferOutput<typeof WomProgressSchema>;

/** POST .../teams/balance body: `{team_count}` 2..20, or 0 for the event's existing teams. */
export const BalanceBodySchema = jsonBodySchema({
  team_count: v.pipe(
    v.number(SIGNUP_MESSAGES.badTeamCount),
    v.integer(SIGNUP_MESSAGES.badTeamCount),
    v.check((n) => n === 0 || (n >= BALANCE_TEAMS_MIN && n <= BALANCE_TEAMS_MAX), SIGNUP_MESSAGES.badTeamCount),
  ),
});

const IdListSchema = v.pipe(v.array(v.pipe(v.number(), v.integer())), v.maxLength(10_000));

/** A proposal as the balance answers it and apply takes it back (docs/server.md §16). */
const ProposalSchema = v.object({
  teams: v.pipe(
    v.array(
      v.object({
        team_id: v.nullable(v.pipe(v.number(), v.integer())),
        name: v.pipe(v.string(), v.maxLength(100)),
        leader_signup_id: v.nullable(v.pipe(v.number(), v.integer())),
        signup_ids: IdListSchema,
        total_score: v.number(),
      }),
    ),
    v.minLength(1),
    v.maxLength(BALANCE_TEAMS_MAX),
  ),
  spread: v.number(),
});

/** POST .../teams/balance answer: `{proposal}`. */
export const BalanceAnswerSchema = v.object({ proposal: ProposalSchema });
export type BalanceAnswer = v.InferOutput<typeof BalanceAnswerSchema>;

/** POST .../teams/balance/apply body: `{proposal}` exactly as balance answered it. */
export const ApplyBodySchema = v.object({ proposal: v.pipe(v.unknown(), v.check((p) => v.is(ProposalSchema, p), SIGNUP_MESSAGES.badProposal), v.transform((p) => p as v.InferOutput<typeof ProposalSchema>)) }, SIGNUP_MESSAGES.badProposal);

/** POST .../teams/balance/apply answer: the teams made and the sign-ups placed. */
export const ApplyAnswerSchema = v.object({ created_team_ids: v.array(v.number()), placed_count: v.number() });

/** The game statuses in which sign-ups are taken and teams may be balanced (before play starts). */
const BEFORE_PLAY = new Set(['PENDING', 'READY']);

/**
 * True when sign-ups are taken at `now` (ms) (docs/server.md §16): open, before the close time
 * (when set) and before the event's game is in progress (no game, or PENDING / READY).
 */
export function signupsAccepted(event: { signups_open: boolean; signups_close_at: string | null }, gameStatus: string | null, now: number): boolean {
  if (!event.signups_open) return false;
  if (event.signups_close_at !== null && Date.parse(event.signups_close_at) <= now) return false;
  return gameStatus === null || BEFORE_PLAY.has(gameStatus);
}

/**
 * signupsAccepted for an event as the events list answers it (docs/server.md §16): its open flag,
 * close time and game status; an answer without `game_status` (an older one) counts a finished
 * game as such. What the client shows, so a closed event offers no Sign Up the server would refuse.
 */
export function eventTakesSignups(
  event: { signups_open?: boolean; signups_close_at?: string | null; game_status?: string | null; game_finished?: boolean },
  now: number,
): boolean {
  const gameStatus = event.game_status ?? (event.game_finished ? 'finished' : null);
  return signupsAccepted({ signups_open: event.signups_open ?? false, signups_close_at: event.signups_close_at ?? null }, gameStatus, now);
}

/** True when teams may be balanced: no game, or one that has not started (PENDING, READY). */
export function beforePlay(gameStatus: string | null): boolean {
  return gameStatus === null || BEFORE_PLAY.has(gameStatus);
}
