import * as v from 'valibot';
import { GAME_STATUSES } from './game/status';
import { WinnerSchema } from './gameApi';

/**
 * The story of a game (docs/server.md §12): GET /api/public/game/{gameId}/history and its
 * CSV export, public like the spectator view. Field names are the documented, exactly. The history is
 * the current round's: a reset starts a new round (new dice seed, no moves).
 */

/** The game of a history: names, size, status, winners and the dice (docs/game-rules.md §9). */
const HistoryGameSchema = v.object({
  id: v.number(),
  event_name: v.string(),
  clan_name: v.string(),
  board_size: v.number(),
  status: v.picklist(GAME_STATUSES),
  winners: v.nullable(v.array(WinnerSchema)),
  /** Lowercase hex SHA-256 of the round's dice seed, known from the start. */
  dice_commitment: v.string(),
  /** The seed in lowercase hex once the game is finished, else null. */
  dice_seed: v.nullable(v.string()),
});
export type HistoryGame = v.InferOutput<typeof HistoryGameSchema>;

/** A team of the game, by team id. */
const HistoryTeamSchema = v.object({ team_id: v.number(), name: v.string(), color: v.string() });
export type HistoryTeam = v.InferOutput<typeof HistoryTeamSchema>;

/** Kinds of a move. */
const MOVE_KINDS = ['roll', 'revert'] as const;
export type MoveKind = (typeof MOVE_KINDS)[number];

/**
 * One applied move, oldest first: `at` ISO time; `from` the square before it, `to` the square
 * after it. A roll has roll_index k (1, 2, ... in the round, over all teams), its die, the
 * `landing` square the die reached (capped at the board size) and `via` 'snake' or 'ladder' when
 * one started there (else null). A revert has roll_index, die, landing and via null and goes
 * from the team's square back to the one before it.
 */
const MoveSchema = v.object({
  at: v.string(),
  team_id: v.number(),
  kind: v.picklist(MOVE_KINDS),
  roll_index: v.nullable(v.number()),
  die: v.nullable(v.number()),
  from: v.number(),
  landing: v.nullable(v.number()),
  to: v.number(),
  via: v.nullable(v.picklist(['snake', 'ladder'])),
});
export type Move = v.InferOutput<typeof MoveSchema>;

/** Decisions of a referee review (docs/server.md §9 review body). */
const REVIEW_DECISIONS = ['approve', 'deny'] as const;

/** A referee's decision on a team's proof, oldest first (only for games with proof_required). */
const HistoryReviewSchema = v.object({
  at: v.string(),
  team_id: v.number(),
  square_index: v.number(),
  decision: v.picklist(REVIEW_DECISIONS),
});
export type HistoryReview = v.InferOutput<typeof HistoryReviewSchema>;

/**
 * A substitute task drawn by relief (docs/game-rules.md §15), oldest first: the team, its relief
 * number k, the square, when, the candidates' task ids in the order drawn from, and the task drawn.
 */
const HistoryReliefSchema = v.object({
  at: v.string(),
  team_id: v.number(),
  k: v.number(),
  square_index: v.number(),
  candidate_ids: v.array(v.number()),
  task_id: v.number(),
  description: v.string(),
});
export type HistoryRelief = v.InferOutput<typeof HistoryReliefSchema>;

/** GET /api/public/game/{gameId}/history answer (docs/server.md §12; `reliefs`, §15: absent from older servers). */
export const GameHistorySchema = v.object({
  game: HistoryGameSchema,
  teams: v.array(HistoryTeamSchema),
  moves: v.array(MoveSchema),
  reviews: v.array(HistoryReviewSchema),
  reliefs: v.optional(v.array(HistoryReliefSchema)),
});
export type GameHistory = v.InferOutput<typeof GameHistorySchema>;

/** Header row of GET /api/public/game/{gameId}/history.csv (docs/server.md §12), in order. */
export const HISTORY_CSV_COLUMNS = ['at', 'team', 'kind', 'roll_index', 'die', 'from', 'landing', 'to', 'via'] as const;

/** Path of the history JSON under the API base (no leading slash, as the ky client takes it). */
export function historyApiPath(gameId: number): string {
  return `public/game/${gameId}/history`;
}

/** Absolute URL path of the CSV export (for a download link). */
export function historyCsvPath(gameId: number): string {
  return `/api/public/game/${gameId}/history.csv`;
}
