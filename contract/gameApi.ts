import * as v from 'valibot';
import { CONFIG_MESSAGES, ConnectionSchema } from './game/connection';
import { GAME_STATUSES } from './game/status';
import { TierSchema } from './game/tiers';
import { GameSettingsSchema } from './game/settings';
import { TaskStateSchema } from './submission';
import { AutoRuleShapeSchema } from './dink';
import { TaskOverrideSchema } from './game/relief';
import { TeamProgressSchema } from './progress';

/**
 * Payloads of the game and game-tasks calls (docs/game-rules.md §12; docs/server.md
 * §3; docs/server.md §3, §5, §6). The settings body is `GameSettingsSchema` of
 * contract/game/settings.ts, re-exported here so every game payload has one import.
 */
export { GameSettingsSchema };

/** Largest id both databases store in an integer column (PostgreSQL int4). */
const MAX_ID = 2_147_483_647;

/** A positive integer id in a body; `message` for anything else. */
const BodyId = (message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(MAX_ID, message));

// ---------------------------------------------------------------------------------------------
// The game (docs/game-rules.md §12)
// ---------------------------------------------------------------------------------------------

/** One board square (docs/game-rules.md §12): task_id and difficulty null on Start, Finish, Snake, Ladder; description '' for an Unassigned square. */
export const BoardSquareSchema = v.object({
  id: v.number(),
  square_index: v.number(),
  task_id: v.nullable(v.number()),
  task_description: v.string(),
  task_difficulty: v.nullable(TierSchema),
  /** The square's task's Dink rule (docs/server.md §13), null when it has none; older answers lack it. */
  auto_rule: v.optional(AutoRuleShapeSchema, null),
});
export type BoardSquare = v.InferOutput<typeof BoardSquareSchema>;

/**
 * A team's progress in a game (docs/game-rules.md §12); positions are squares 1..N,
 * history oldest first. task_state and square_since (ISO time the team arrived on its square) are
 * docs/server.md §9.
 */
export const TeamStateSchema = v.object({
  team_id: v.number(),
  team_name: v.string(),
  team_color: v.string(),
  current_position: v.number(),
  revert_count: v.number(),
  position_history: v.array(v.number()),
  task_state: TaskStateSchema,
  square_since: v.string(),
  /** The substitute task relief gave the team for its current square, else null (docs/server.md §15; the server always sends it, older answers lack it). */
  task_override: v.optional(v.nullable(TaskOverrideSchema)),
  /** New tasks relief gave the team in this game (docs/server.md §15); optional: an older server leaves it out (the client then keeps the one it holds). */
  relief_count: v.optional(v.number()),
  /** The team total of the task on its square, null when that task's rule has none (docs/server.md §17; the server always sends it, older answers lack it). */
  progress: v.optional(v.nullable(TeamProgressSchema)),
});
export type TeamState = v.InferOutput<typeof TeamStateSchema>;

/** A team state as spectators see it: no revert_count (docs/server.md §3). */
const PublicTeamStateSchema = v.omit(TeamStateSchema, ['revert_count']);

/**
 * One of the viewer's IGNs on a team of the game's event (docs/game-rules.md
 * §12): id is the team id, role 'Leader' or 'Member', player_ign the IGN, name/color the team's.
 */
const UserTeamSchema = v.object({
  id: v.number(),
  osrs_ign_id: v.number(),
  user_id: v.number(),
  role: v.string(),
  player_ign: v.string(),
  name: v.string(),
  color: v.string(),
});
export type UserTeam = v.InferOutput<typeof UserTeamSchema>;

/**
 * A game log entry (docs/game-rules.md §12): team_name 'Server' and team_color null
 * for system messages; timestamp ISO. The entry of a roll also carries `roll_index` (k, the roll's
 * number in the round) and `die` (docs/game-rules.md §9); other entries have neither.
 */
export const LogEntrySchema = v.object({
  id: v.number(),
  timestamp: v.string(),
  team_name: v.string(),
  team_color: v.nullable(v.string()),
  message: v.string(),
  roll_index: v.optional(v.number()),
  die: v.optional(v.number()),
});
export type LogEntry = v.InferOutput<typeof LogEntrySchema>;

/** A winning team (docs/server.md §5). */
export const WinnerSchema = v.object({ name: v.string(), color: v.string() });
export type Winner = v.InferOutput<typeof WinnerSchema>;

/** Log entries carried by a game: the last 100, newest first (docs/client.md §12). */
export const GAME_LOG_LIMIT = 100;

const gameEntries = {
  id: v.number(),
  clan_id: v.number(),
  clan_name: v.string(),
  event_id: v.number(),
  event_name: v.string(),
  event_type: v.string(),
  status: v.picklist(GAME_STATUSES),
  board_size: v.number(),
  num_snakes: v.number(),
  num_ladders: v.number(),
  max_reverts_allowed: v.number(),
  num_easy_tasks: v.number(),
  num_medium_tasks: v.number(),
  num_hard_tasks: v.number(),
  num_elite_tasks: v.number(),
  num_master_tasks: v.number(),
  /** A roll waits for an approved proof of the team's task (docs/server.md §9). */
  proof_required: v.boolean(),
  /** Hours on a square before its team may ask for a substitute task, null when relief is off (docs/server.md §15). */
  relief_after_hours: v.optional(v.nullable(v.number()), null),
  /** Substitute tasks a team may get in this game (docs/server.md §15). */
  relief_max_per_team: v.optional(v.number(), 2),
  /** Snakes first, then ladders. */
  board_connections: v.array(ConnectionSchema),
  /** Squares 1..N in order. */
  board_squares: v.array(BoardSquareSchema),
  /** Last GAME_LOG_LIMIT entries, newest first. */
  log_entries: v.array(LogEntrySchema),
  /** null until a team reaches the last square. */
  winners: v.nullable(v.array(WinnerSchema)),
  /** Grows by one with every applied change (docs/server.md §6). */
  version: v.number(),
  /** Lowercase hex SHA-256 of the round's dice seed, from creation on (docs/game-rules.md §9). */
  dice_commitment: v.string(),
  /** The round's dice seed in lowercase hex once the game is finished, else null. */
  dice_seed: v.nullable(v.string()),
  created_at: v.string(),
};

/**
 * The game as members see it (GET .../game/{gameId}, docs/game-rules.md §12): settings,
 * board, team states ordered by team id, the viewer's own team entries, the log and winners.
 */
export const GameSchema = v.object({
  ...gameEntries,
  team_states: v.array(TeamStateSchema),
  user_teams: v.array(UserTeamSchema),
});
export type Game = v.InferOutput<typeof GameSchema>;

/** The game as spectators see it: no user_teams and no revert counts (docs/server.md §3). */
export const PublicGameSchema = v.object({
  ...gameEntries,
  team_states: v.array(PublicTeamStateSchema),
});
export type PublicGame = v.InferOutput<typeof PublicGameSchema>;

/** GET .../game/{gameId} answer. */
export const GameAnswerSchema = v.object({ game: GameSchema });

/** GET /api/public/game/{gameId} answer. */
export const PublicGameAnswerSchema = v.object({ game: PublicGameSchema });
export type PublicGameAnswer = v.InferOutput<typeof PublicGameAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Game calls (docs/server.md §3)
// ---------------------------------------------------------------------------------------------

/** Success messages (docs/client.md §11). */
export const GAME_MESSAGES = {
  created: 'Game created successfully! Snakes and ladders board is ready.',
  randomized: 'Board re-randomized successfully using the current settings.',
  boardUpdated: 'Board configurations updated successfully.',
  reset: 'Game reset successfully. All team positions and histories have been cleared.',
  deleted: 'Game deleted. The event is now awaiting a new game setup.',
  reordered: 'Board order updated and saved successfully!',
  swapped: 'Tasks swapped successfully!',
  assigned: (squareIndex: number) => `Task on Square ${squareIndex} assigned successfully!`,
} as const;

/** Refusals of the game-tasks calls (docs/game-rules.md §13; docs/client.md §7). */
export const GAME_TASK_MESSAGES = {
  special: 'Cannot swap tasks with Start, Finish, Ladder, or Snake squares.',
  acrossTiers: 'You can only re-order squares within their own Difficulty Tier column. Drag-and-swap is not supported across columns.',
  cannotAssign: 'Cannot Assign Task',
} as const;

/** POST .../game/ answer: the new game's id and GAME_MESSAGES.created. */
export const GameCreatedAnswerSchema = v.object({ game: v.object({ id: v.number() }), message: v.string() });
export type GameCreatedAnswer = v.InferOutput<typeof GameCreatedAnswerSchema>;

/** PUT .../game/{gameId} (randomize) answer: the whole game and GAME_MESSAGES.randomized. */
export const GameRandomizedAnswerSchema = v.object({ game: GameSchema, message: v.string() });
export type GameRandomizedAnswer = v.InferOutput<typeof GameRandomizedAnswerSchema>;

/** `{ok: true, message}` answers (board, reset, delete, reorder, swap, assign). */
export const OkMessageAnswerSchema = v.object({ ok: v.literal(true), message: v.string() });
export type OkMessageAnswer = v.InferOutput<typeof OkMessageAnswerSchema>;

/** A [start, end] pair of the manual board editor (docs/game-rules.md §12). */
const ConfigNumber = v.number(CONFIG_MESSAGES.badEntry);
const ConfigPairSchema = v.strictTuple([ConfigNumber, ConfigNumber], CONFIG_MESSAGES.badEntry);
const ConfigListSchema = v.array(ConfigPairSchema, CONFIG_MESSAGES.notArray);

/**
 * PUT .../game/{gameId}/board body: snakes_config and ladders_config, lists of [start, end] pairs
 * of numbers (shape only, with the documented messages; validateBoard checks the board rules).
 */
export const BoardBodySchema = v.object(
  { snakes_config: ConfigListSchema, ladders_config: ConfigListSchema },
  'Request body must be a JSON object with snakes_config and ladders_config.',
);
export type BoardBody = v.InferOutput<typeof BoardBodySchema>;

/** PUT .../game/{gameId}/status body: a status string; statusChangeError decides ('in-progress' or 'paused'). */
export const StatusBodySchema = v.object(
  { status: v.string("Status must be 'in-progress' or 'paused'.") },
  "Request body must be a JSON object with a status of 'in-progress' or 'paused'.",
);

/** PUT .../game/{gameId}/status answer: the new status. */
export const StatusAnswerSchema = v.object({ ok: v.literal(true), status: v.picklist(GAME_STATUSES) });
export type StatusAnswer = v.InferOutput<typeof StatusAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Game tasks calls (docs/server.md §3)
// ---------------------------------------------------------------------------------------------

/** GET .../game/{gameId}/tasks answer: every square, ordered by square_index. */
/** GET .../game/{gameId}/tasks: the squares, and whether the game is finished (its board is then a record: read-only). */
export const SquaresAnswerSchema = v.object({ squares: v.array(BoardSquareSchema), finished: v.boolean() });
export type SquaresAnswer = v.InferOutput<typeof SquaresAnswerSchema>;

/** Most squares a board has (and so the most a reorder may list). */
const MAX_SQUARES = 225;

/**
 * POST .../game/{gameId}/tasks/reorder body: `squares: [{id, square_index}]` — the square `id`'s
 * task moves to square `square_index`; the listed positions must be a permutation of the listed
 * squares' own positions, all inside one tier.
 */
export const ReorderBodySchema = v.object(
  {
    squares: v.pipe(
      v.array(
        v.object(
          { id: BodyId('Each square needs a positive integer id.'), square_index: BodyId('Each square needs a positive integer square_index.') },
          'Each entry must be an object {id, square_index}.',
        ),
        'squares must be a list of {id, square_index}.',
      ),
      v.minLength(1, 'squares must list at least one square.'),
      v.maxLength(MAX_SQUARES, `squares may list at most ${MAX_SQUARES} squares.`),
    ),
  },
  'Request body must be a JSON object with squares.',
);
export type ReorderBody = v.InferOutput<typeof ReorderBodySchema>;

/** POST .../game/{gameId}/tasks/swap body: two board square ids of the same game. */
export const SwapBodySchema = v.object(
  { square1_id: BodyId('square1_id must be a square id.'), square2_id: BodyId('square2_id must be a square id.') },
  'Request body must be a JSON object with square1_id and square2_id.',
);

/** PUT .../game/{gameId}/tasks/{squareId} body: a pool task id. */
export const AssignBodySchema = v.object(
  { task_id: BodyId('A task must be selected.') },
  'Request body must be a JSON object with task_id.',
);

/** A pool task that may be put on a square. */
const AvailableTaskSchema = v.object({ id: v.number(), description: v.string(), difficulty: TierSchema });
export type AvailableTask = v.InferOutput<typeof AvailableTaskSchema>;

/** GET .../game/{gameId}/tasks/{squareId}/available answer: pool tasks of the square's tier not on the board, by description. */
export const AvailableTasksAnswerSchema = v.object({ available_tasks: v.array(AvailableTaskSchema) });
