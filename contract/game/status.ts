/**
 * Game status strings as the server sends them (docs/game-rules.md §6).
 * 'completed' is an older spelling of 'finished' and is treated alike.
 */
export const GAME_STATUSES = ['PENDING', 'READY', 'in-progress', 'paused', 'finished', 'completed'] as const;

/** One server game status. */
export type GameStatus = (typeof GAME_STATUSES)[number];

/** Statuses a client may request through PUT .../status (docs/server.md §5). */
const REQUESTABLE_STATUSES = ['in-progress', 'paused'] as const;
export type RequestableStatus = (typeof REQUESTABLE_STATUSES)[number];

/** State of the gameStatus statechart for each server status (docs/architecture.md: mapped once, here). */
export type GameChartState = 'pending' | 'ready' | 'inProgress' | 'paused' | 'finished';

/** Lobby actions and the status each requests (docs/game-rules.md §6: Start sends resume). */
const GAME_ACTIONS = { start: 'in-progress', resume: 'in-progress', pause: 'paused' } as const;
type GameAction = keyof typeof GAME_ACTIONS;

/** Why a status change or action was refused; the server maps game_finished to 409, others to 400. */
export type GameStatusErrorCode = 'unknown_status' | 'unknown_action' | 'not_requestable' | 'game_finished' | 'not_allowed';

/** Messages of GameStatusError; unknownAction is verbatim from docs/game-rules.md §6. */
export const GAME_STATUS_MESSAGES = {
  unknownStatus: (status: string) => `Unknown game status: ${status}`,
  unknownAction: (action: string) => `Unknown game action: ${action}`,
  notRequestable: (status: string) => `Game status can only be set to 'in-progress' or 'paused', not '${status}'.`,
  finished: 'Game is finished. Its status can no longer change.',
  alreadyInStatus: (status: string) => `Game is already ${status}.`,
  notStarted: 'Game has not started yet, so it cannot be paused.',
  /** Success messages after a change (docs/game-rules.md §6). */
  paused: 'Game paused successfully. No turns can be processed.',
  resumed: 'Game resumed. Turns can now be processed.',
  /** Start Game on a new (PENDING or READY) game: it sends resume, but nothing was paused. */
  started: 'Game started. Turns can now be processed.',
} as const;

/** A refused status change or unknown status/action, with a code and a message. */
export class GameStatusError extends Error {
  constructor(
    readonly code: GameStatusErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'GameStatusError';
  }
}

/** Type guard: true when `value` is one of GAME_STATUSES (case-sensitive). */
export function isGameStatus(value: unknown): value is GameStatus {
  return typeof value === 'string' && (GAME_STATUSES as readonly string[]).includes(value);
}

const CHART_STATES: Record<GameStatus, GameChartState> = {
  PENDING: 'pending',
  READY: 'ready',
  'in-progress': 'inProgress',
  paused: 'paused',
  finished: 'finished',
  completed: 'finished',
};

/**
 * gameStatus chart state of a server status: PENDING → 'pending', READY → 'ready',
 * in-progress → 'inProgress', paused → 'paused', finished and completed → 'finished'.
 * Throws GameStatusError('unknown_status') for any other string.
 */
export function statusToChartState(status: GameStatus): GameChartState {
  if (!isGameStatus(status)) throw new GameStatusError('unknown_status', GAME_STATUS_MESSAGES.unknownStatus(String(status)));
  return CHART_STATES[status];
}

/** True unless the game is finished or completed: splits the lobby into active and former games. */
export function isActiveStatus(status: string): boolean {
  return status !== 'finished' && status !== 'completed';
}

/** True only while in-progress: rolling and reverting are offered then (docs/game-rules.md §6). */
export function isPlayableStatus(status: string): boolean {
  return status === 'in-progress';
}

/**
 * What a status badge says for each server status: one style of label on every page, whatever the
 * wire's spelling ('READY' → 'Ready', 'in-progress' → 'In progress'). The wire values are unchanged;
 * statusClass still names the badge's style.
 */
const STATUS_LABELS: Record<GameStatus, string> = {
  PENDING: 'Pending',
  READY: 'Ready',
  'in-progress': 'In progress',
  paused: 'Paused',
  finished: 'Finished',
  completed: 'Completed',
};

/** The visible label of a server game status (STATUS_LABELS); an unknown status is shown as sent. */
export function statusLabel(status: string): string {
  return isGameStatus(status) ? STATUS_LABELS[status] : status;
}

/** CSS class of a status in the lobby: lowercased, whitespace runs turned into hyphens ('In Progress' → 'in-progress'). */
export function statusClass(status: string): string {
  return status.trim().toLowerCase().replace(/\s+/g, '-');
}

/** Status of a new game (docs/server.md §5): READY with at least one team, else PENDING. */
export function initialGameStatus(teamCount: number): 'READY' | 'PENDING' {
  return teamCount > 0 ? 'READY' : 'PENDING';
}

/** Status a lobby action requests; throws GameStatusError('unknown_action', 'Unknown game action: {action}'). */
export function actionToStatus(action: string): RequestableStatus {
  if (!Object.prototype.hasOwnProperty.call(GAME_ACTIONS, action)) {
    throw new GameStatusError('unknown_action', GAME_STATUS_MESSAGES.unknownAction(action));
  }
  return GAME_ACTIONS[action as GameAction];
}

/**
 * Why `from` → `to` is refused, or null when allowed (docs/server.md §5):
 * `to` must be 'in-progress' or 'paused'; finished/completed accept nothing ('game_finished', 409);
 * PENDING, READY and paused may go to in-progress; in-progress may go to paused; all else 'not_allowed'.
 */
export function statusChangeError(from: string, to: string): GameStatusError | null {
  if (!isGameStatus(from)) return new GameStatusError('unknown_status', GAME_STATUS_MESSAGES.unknownStatus(from));
  if (to !== 'in-progress' && to !== 'paused') {
    return new GameStatusError('not_requestable', GAME_STATUS_MESSAGES.notRequestable(to));
  }
  if (!isActiveStatus(from)) return new GameStatusError('game_finished', GAME_STATUS_MESSAGES.finished);
  if (to === 'in-progress') {
    return from === 'in-progress' ? new GameStatusError('not_allowed', GAME_STATUS_MESSAGES.alreadyInStatus(to)) : null;
  }
  if (from === 'in-progress') return null;
  return new GameStatusError(
    'not_allowed',
    from === 'paused' ? GAME_STATUS_MESSAGES.alreadyInStatus(to) : GAME_STATUS_MESSAGES.notStarted,
  );
}

/** True when statusChangeError(from, to) is null. */
export function isStatusChangeAllowed(from: string, to: string): boolean {
  return statusChangeError(from, to) === null;
}
