import * as v from 'valibot';
import { firstIssueMessage } from '../common';
import { AutoRuleFieldSchema, AutoRuleShapeSchema, type AutoRule } from '../dink';
import { TASK_BAD_DIFFICULTY, TaskDescriptionSchema } from '../task';
import { TIERS, type Tier } from './tiers';
import { countsFromSettings, GameSettingsFieldsSchema, GameSettingsSchema, SETTINGS_MESSAGES, validateSettings, type GameSettings, type GameSettingsBody } from './settings';
import { layoutSquares } from './generate';
import { configFromConnections, validateBoard } from './validate';
import { ConnectionSchema, type Connection } from './connection';

/*
 * The board file (docs/server.md §18 "The next event"): a game's board as JSON, downloaded from
 * GET .../game/{gameId}/board.json and given back as `board` in a game create body, so a clan can
 * run the same board again (in another event, or another clan). One shape, one rule: the server
 * checks a board with boardFileError and the setup form says the same reason before sending it.
 */

/** The one version of the board file this site writes and reads. */
export const BOARD_FILE_VERSION = 1;

/** Refusals of a board file, each saying what does not fit. */
export const BOARD_FILE_MESSAGES = {
  notObject: 'The board file must be a JSON object {version, settings, connections, squares}.',
  version: `The board file's version must be ${BOARD_FILE_VERSION}.`,
  connections: "The board file's connections must be a list of {type: 'snake' or 'ladder', start, end} with whole square numbers.",
  squares: "The board file's squares must be a list of {square_index, task} with task {description, difficulty, auto_rule} or null.",
  notJson: (detail: string) => `The board file is not valid JSON: ${detail}`,
  setting: (field: string, file: number, settings: number) => `The board file's ${field} is ${file}, but the game settings say ${settings}.`,
  squareCount: (count: number, size: number) => `The board file has ${count} squares; a board of ${size} squares needs ${size}.`,
  squareOrder: (index: number) => `Square ${index} is missing or out of order in the board file (squares go 1, 2, 3, ... in order).`,
  connectionCount: (kind: 'snakes' | 'ladders', count: number, wanted: number) => `The board file has ${count} ${kind}; the settings ask for ${wanted}.`,
  noTaskHere: (index: number, what: string) => `Square ${index} is ${what} and cannot hold a task.`,
  wrongTier: (index: number, tier: Tier, description: string, difficulty: Tier) =>
    `Square ${index} is in the ${tier} tier, but its task '${description}' is ${difficulty}.`,
  repeated: (index: number, first: number, description: string) =>
    `Square ${index} holds the same task as square ${first} ('${description}'): a task may be on the board once.`,
  /** 413 of a game create body over BOARD_FILE_MAX_BYTES. */
  tooLarge: 'The board file is larger than 1 MiB.',
} as const;

/** Largest game create body (settings with a board file), in bytes: 1 MiB (a 225-square board of 500-character tasks fits). */
export const BOARD_FILE_MAX_BYTES = 1024 * 1024;

const SquareIndexSchema = v.pipe(v.number(BOARD_FILE_MESSAGES.squares), v.integer(BOARD_FILE_MESSAGES.squares));

/** A square's task in a board file: the pool's description rule, a tier, and its auto rule or null (docs/server.md §13). */
const BoardFileTaskSchema = v.object(
  {
    description: TaskDescriptionSchema,
    difficulty: v.picklist(TIERS, TASK_BAD_DIFFICULTY),
    auto_rule: v.optional(AutoRuleFieldSchema, null),
  },
  BOARD_FILE_MESSAGES.squares,
);

/**
 * A board file's shape: `{version: 1, settings, connections: [{type, start, end}], squares:
 * [{square_index, task: {description, difficulty, auto_rule}|null}]}`; settings are the game
 * settings with their own rules (GameSettingsSchema, docs/game-rules.md §4). Whether the parts fit
 * each other and the game's settings is boardFileError's.
 */
export const BoardFileSchema = v.object(
  {
    version: v.literal(BOARD_FILE_VERSION, BOARD_FILE_MESSAGES.version),
    settings: GameSettingsSchema,
    connections: v.array(
      v.object(
        {
          type: v.picklist(['snake', 'ladder'], BOARD_FILE_MESSAGES.connections),
          start: v.pipe(v.number(BOARD_FILE_MESSAGES.connections), v.integer(BOARD_FILE_MESSAGES.connections)),
          end: v.pipe(v.number(BOARD_FILE_MESSAGES.connections), v.integer(BOARD_FILE_MESSAGES.connections)),
        },
        BOARD_FILE_MESSAGES.connections,
      ),
      BOARD_FILE_MESSAGES.connections,
    ),
    squares: v.array(
      v.object({ square_index: SquareIndexSchema, task: v.nullable(BoardFileTaskSchema) }, BOARD_FILE_MESSAGES.squares),
      BOARD_FILE_MESSAGES.squares,
    ),
  },
  BOARD_FILE_MESSAGES.notObject,
);
export type BoardFile = v.InferOutput<typeof BoardFileSchema>;

/** GET .../game/{gameId}/board.json answer as the server writes it (the shapes of BoardFileSchema, already checked). */
export const BoardFileAnswerSchema = v.object({
  version: v.literal(BOARD_FILE_VERSION),
  settings: GameSettingsFieldsSchema,
  connections: v.array(ConnectionSchema),
  squares: v.array(
    v.object({
      square_index: v.number(),
      task: v.nullable(v.object({ description: v.string(), difficulty: v.picklist(TIERS), auto_rule: AutoRuleShapeSchema })),
    }),
  ),
});

/**
 * The download's file name: the event name in lower-case letters, digits and dashes (at most 60)
 * then '-board.json', e.g. 'Winter Ladder' → 'winter-ladder-board.json'; 'game-{id}-board.json'
 * when the name has none of those. ASCII only, so the Content-Disposition header needs no encoding.
 */
export function boardFileName(eventName: string, gameId: number): string {
  const slug = eventName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
  return `${slug || `game-${gameId}`}-board.json`;
}

/** A task of a board file's square. */
export interface BoardFileTask {
  description: string;
  difficulty: Tier;
  auto_rule: AutoRule | null;
}

/** The settings fields that shape a board: a board file must agree with the game settings on each. */
const BOARD_SHAPING_FIELDS = [
  'board_size',
  'num_snakes',
  'num_ladders',
  'num_easy_tasks',
  'num_medium_tasks',
  'num_hard_tasks',
  'num_elite_tasks',
  'num_master_tasks',
] as const satisfies readonly (keyof GameSettings)[];

const SPECIAL_KIND_TEXT = { start: 'Start', finish: 'Finish', snake: 'where a snake starts', ladder: 'where a ladder starts' } as const;

/**
 * Why a parsed board file does not fit `settings` (the game create body's), or null when it fits
 * (docs/server.md §18 "The next event"). Checked in this order, the first failure answered:
 * each board-shaping setting equal to the file's own; N squares numbered 1..N in order; as many
 * snakes and ladders as the settings say; the snakes and ladders under the manual board's rules
 * (validateBoard: squares in range, not 1 or N, direction, rows, no square used twice, naming the
 * pair); no task on Start, Finish or a square where a snake or ladder starts; each task of its
 * square's tier (the tiers laid along the board by the counts, as layoutSquares does); no task
 * (description and difficulty) twice. Never throws.
 */
function boardFileError(board: BoardFile, settings: GameSettings): string | null {
  for (const field of BOARD_SHAPING_FIELDS) {
    if (board.settings[field] !== settings[field]) return BOARD_FILE_MESSAGES.setting(field, board.settings[field], settings[field]);
  }
  const n = settings.board_size;
  if (board.squares.length !== n) return BOARD_FILE_MESSAGES.squareCount(board.squares.length, n);
  const wrongIndex = board.squares.findIndex((s, i) => s.square_index !== i + 1);
  if (wrongIndex >= 0) return BOARD_FILE_MESSAGES.squareOrder(wrongIndex + 1);
  const { snakes_config: snakes, ladders_config: ladders } = configFromConnections(board.connections);
  if (snakes.length !== settings.num_snakes) return BOARD_FILE_MESSAGES.connectionCount('snakes', snakes.length, settings.num_snakes);
  if (ladders.length !== settings.num_ladders) return BOARD_FILE_MESSAGES.connectionCount('ladders', ladders.length, settings.num_ladders);
  const rule = validateBoard(n, snakes, ladders);
  if (rule !== null) return rule;
  const laid = layoutSquares({ board_size: n, counts: countsFromSettings(settings), connections: board.connections });
  const seen = new Map<string, number>();
  for (const square of laid) {
    const task = board.squares[square.square_index - 1].task;
    if (task === null) continue;
    if (square.kind !== 'task') return BOARD_FILE_MESSAGES.noTaskHere(square.square_index, SPECIAL_KIND_TEXT[square.kind]);
    if (square.task_difficulty !== null && task.difficulty !== square.task_difficulty) {
      return BOARD_FILE_MESSAGES.wrongTier(square.square_index, square.task_difficulty, task.description, task.difficulty);
    }
    const key = `${task.difficulty}\u0000${task.description}`;
    const first = seen.get(key);
    if (first !== undefined) return BOARD_FILE_MESSAGES.repeated(square.square_index, first, task.description);
    seen.set(key, square.square_index);
  }
  return null;
}

/** The board file's snakes and ladders, snakes first, in the file's order (the stored order of board_connections). */
export function boardFileConnections(board: BoardFile): Connection[] {
  return [...board.connections.filter((c) => c.type === 'snake'), ...board.connections.filter((c) => c.type === 'ladder')];
}

/**
 * POST /api/clan/{clanId}/events/{eventId}/game/ body (docs/server.md §3, §18 "The next event"):
 * the game settings (GameSettingsSchema's rules and messages) and optionally `board`, a board
 * file (BoardFileSchema) the game is built from instead of a random board; a board that does not
 * fit the settings is refused with boardFileError's reason.
 */
export const GameCreateBodySchema = v.pipe(
  v.object({ ...GameSettingsFieldsSchema.entries, board: v.optional(BoardFileSchema) }, SETTINGS_MESSAGES.required),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const message = validateSettings(dataset.value) ?? (dataset.value.board ? boardFileError(dataset.value.board, dataset.value) : null);
    if (message !== null) addIssue({ message });
  }),
);
export type GameCreateBody = v.InferOutput<typeof GameCreateBodySchema>;

/** Result of readBoardFile: the checked board and the settings body it carries, or why not. */
export type ReadBoardFile = { ok: true; board: BoardFile; settings: GameSettingsBody } | { ok: false; error: string };

/**
 * A board file as the setup form reads it (docs/client.md §7 "Start from a board file"): `text`
 * parsed as JSON, checked with BoardFileSchema, then with boardFileError against its own settings
 * (the form then takes those settings). Answers the first reason it is refused, in the server's
 * words. Never throws.
 */
export function readBoardFile(text: string): ReadBoardFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: BOARD_FILE_MESSAGES.notJson(error instanceof Error ? error.message : String(error)) };
  }
  const parsed = v.safeParse(BoardFileSchema, value);
  if (!parsed.success) return { ok: false, error: firstIssueMessage(parsed.issues) };
  const error = boardFileError(parsed.output, parsed.output.settings);
  return error === null ? { ok: true, board: parsed.output, settings: parsed.output.settings } : { ok: false, error };
}
