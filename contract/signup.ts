import * as v from 'valibot';

// ---------------------------------------------------------------------------------------------
// Sign-ups, free agents, balanced teams and the captains' draft (docs/server.md §16): the shapes
// on the wire, shared by the server (server/signups/, server/draft/) and the client.
// ---------------------------------------------------------------------------------------------

/** Where a sign-up's score came from: set by hand, a CSV import, or Wise Old Man; null without a score. */
const ScoreSourceSchema = v.nullable(v.picklist(['manual', 'csv', 'wom']));

/**
 * A sign-up (docs/server.md §16): `team_id` is null for a free agent; `score` is the number
 * balancing uses (0..1,000,000) or null; times are ISO strings.
 */
export const SignupSchema = v.object({
  id: v.number(),
  event_id: v.number(),
  user_id: v.number(),
  username: v.string(),
  /** To the user and to managers of a clan they share, else null (docs/server.md §18). */
  discord_id: v.nullable(v.string()),
  osrs_ign_id: v.number(),
  ign: v.string(),
  wants_leader: v.boolean(),
  /** note, score and score_source: to the sign-up's owner and the clan's managers, null to other members (docs/server.md §18). */
  note: v.nullable(v.string()),
  score: v.nullable(v.number()),
  score_source: ScoreSourceSchema,
  team_id: v.nullable(v.number()),
  created_at: v.string(),
});
/** A sign-up as the API answers it. */
export type Signup = v.InferOutput<typeof SignupSchema>;

/** The captains' draft's status (docs/server.md §16). */
const DraftStatusSchema = v.picklist(['running', 'paused', 'done']);

/**
 * The socket's `draft_state` (docs/server.md §16): the snake `order` of team ids, whose turn
 * (`on_the_clock`, null when paused or done) until `deadline` (ISO time or null), the picks so
 * far (`auto` when the clock picked) and the free agents still in the `pool`.
 */
export const DraftStateSchema = v.object({
  event_id: v.number(),
  status: DraftStatusSchema,
  round: v.number(),
  order: v.array(v.number()),
  captains: v.array(v.object({ team_id: v.number(), signup_id: v.number() })),
  on_the_clock: v.nullable(v.number()),
  deadline: v.nullable(v.string()),
  picks: v.array(v.object({ team_id: v.number(), signup_id: v.number(), at: v.string(), auto: v.boolean() })),
  pool: v.array(v.number()),
});
/** A `draft_state` message. */
export type DraftState = v.InferOutput<typeof DraftStateSchema>;
