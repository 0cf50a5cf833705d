import { ApiRequestError, request, withNetworkMessage } from './client';
import { CHECK_WAIT_S, WomCheckAnswerSchema } from '../../contract/womCheck';
import type { ProgressCheckOutcome } from '../../machines/progressCheck.machine';
import {
  AvailableTasksAnswerSchema,
  GameAnswerSchema,
  GameCreatedAnswerSchema,
  GameRandomizedAnswerSchema,
  OkMessageAnswerSchema,
  SquaresAnswerSchema,
  StatusAnswerSchema,
  type AvailableTask,
  type BoardBody,
  type SquaresAnswer,
  type Game,
  type GameCreatedAnswer,
  type GameRandomizedAnswer,
  type OkMessageAnswer,
  type StatusAnswer,
} from '../../contract/gameApi';
import type { GameSettings, GameSettingsBody } from '../../contract/game/settings';
import type { BoardFile } from '../../contract/game/boardFile';
import * as v from 'valibot';
import type { RequestableStatus } from '../../contract/game/status';
import type { ReliefSettings } from '../../contract/game/settingsDraft';

/**
 * The game and game-task calls of docs/server.md §3 ("Game", "Game tasks"), one function per
 * endpoint, answers parsed with the contract/gameApi.ts schemas. Every function raises
 * ApiRequestError with the server's `error` text, or the docs/client.md §11 fallback when it has none.
 */

/** Path of an event's game calls: clan/{clanId}/events/{eventId}/game (prefix /api from the client). */
const gamePath = (clanId: number, eventId: number) => `clan/${clanId}/events/${eventId}/game`;

/** Section 8 fallback for the network failures of game data and status calls. */
const NETWORK_GAME_DATA = 'Network error fetching game data.';
const NETWORK_GAME_STATUS = 'Network error managing game status.';

/**
 * GET /api/clan/{clanId}/events/{eventId}/game/{gameId} → the game (contract GameSchema).
 * Fallbacks 'Failed to fetch game data.' and 'Network error fetching game data.'
 */
export async function fetchGame(clanId: number, eventId: number, gameId: number): Promise<Game> {
  const answer = await withNetworkMessage(
    request(GameAnswerSchema, (h) => h.get(`${gamePath(clanId, eventId)}/${gameId}`), 'Failed to fetch game data.'),
    NETWORK_GAME_DATA,
  );
  return answer.game;
}

/**
 * POST /api/clan/{clanId}/events/{eventId}/game/ with the game settings, and optionally `board`, a
 * board file the game is built from (docs/server.md §18 "The next event") →
 * {game: {id}, message: 'Game created successfully! Snakes and ladders board is ready.'}.
 * 409 when the event already has a game; 400 with the reason a board file does not fit.
 * Fallback 'Failed to create game.'
 */
export function createGame(clanId: number, eventId: number, settings: GameSettings | GameSettingsBody | (GameSettingsBody & { board: BoardFile })): Promise<GameCreatedAnswer> {
  return request(GameCreatedAnswerSchema, (h) => h.post(`${gamePath(clanId, eventId)}/`, { json: settings }), 'Failed to create game.');
}

/**
 * The address of GET .../game/{gameId}/board.json (docs/server.md §18 "The next event"): the
 * server answers the board file as an attachment, so a plain link downloads it with the session's
 * cookie and no script.
 */
export function boardFileUrl(clanId: number, eventId: number, gameId: number): string {
  return `/api/${gamePath(clanId, eventId)}/${gameId}/board.json`;
}

/**
 * PUT /api/clan/{clanId}/events/{eventId}/game/{gameId} with the settings: a new board (snakes,
 * ladders and tasks) from these settings; team positions and status are kept →
 * {game, message: 'Board re-randomized successfully using the current settings.'}.
 * Fallback 'Failed to randomize/update game.'
 */
export function randomizeGame(clanId: number, eventId: number, gameId: number, settings: GameSettings): Promise<GameRandomizedAnswer> {
  return request(
    GameRandomizedAnswerSchema,
    (h) => h.put(`${gamePath(clanId, eventId)}/${gameId}`, { json: settings }),
    'Failed to randomize/update game.',
  );
}

/**
 * PUT .../game/{gameId}/board {snakes_config, ladders_config} (lists of [start, end] squares) →
 * {ok, message: 'Board configurations updated successfully.'}; a 400 names the pair that breaks a
 * board rule. Fallback 'Failed to update board configuration via API.'
 */
export function saveBoard(clanId: number, eventId: number, gameId: number, body: BoardBody): Promise<OkMessageAnswer> {
  return request(
    OkMessageAnswerSchema,
    (h) => h.put(`${gamePath(clanId, eventId)}/${gameId}/board`, { json: body }),
    'Failed to update board configuration via API.',
  );
}

/**
 * PUT .../game/{gameId}/status {status: 'in-progress' | 'paused'} → {ok, status} (the new server
 * status). `action` names the control for the fallback 'Failed to {action} game.'; network
 * failures give 'Network error managing game status.'
 */
export function changeGameStatus(
  clanId: number,
  eventId: number,
  gameId: number,
  status: RequestableStatus,
  action: string,
): Promise<StatusAnswer> {
  return withNetworkMessage(
    request(StatusAnswerSchema, (h) => h.put(`${gamePath(clanId, eventId)}/${gameId}/status`, { json: { status } }), `Failed to ${action} game.`),
    NETWORK_GAME_STATUS,
  );
}

/**
 * PUT .../game/{gameId}/reset (no body): positions, histories, revert counts and the log cleared,
 * board kept, status READY → {ok, message}. Fallback 'Failed to reset game.'
 */
export function resetGame(clanId: number, eventId: number, gameId: number): Promise<OkMessageAnswer> {
  return request(OkMessageAnswerSchema, (h) => h.put(`${gamePath(clanId, eventId)}/${gameId}/reset`), 'Failed to reset game.');
}

/**
 * DELETE .../game/{gameId} → {ok, message: 'Game deleted. The event is now awaiting a new game
 * setup.'}; the event's game_id becomes null. Fallback 'Failed to delete game.'
 */
export function deleteGame(clanId: number, eventId: number, gameId: number): Promise<OkMessageAnswer> {
  return request(OkMessageAnswerSchema, (h) => h.delete(`${gamePath(clanId, eventId)}/${gameId}`), 'Failed to delete game.');
}

/**
 * GET .../game/{gameId}/tasks → every board square (id, square_index, task_id, task_description,
 * task_difficulty) by square_index, and whether the game is finished. Fallback 'Failed to fetch game data.'
 */
export function fetchGameSquares(clanId: number, eventId: number, gameId: number): Promise<SquaresAnswer> {
  return request(SquaresAnswerSchema, (h) => h.get(`${gamePath(clanId, eventId)}/${gameId}/tasks`), 'Failed to fetch game data.');
}

/**
 * POST .../game/{gameId}/tasks/reorder {squares: [{id, square_index}]} → {ok, message: 'Board order
 * updated and saved successfully!'} (defined by the docs; the drag path uses swap).
 */
function reorderGameSquares(
  clanId: number,
  eventId: number,
  gameId: number,
  squares: { id: number; square_index: number }[],
): Promise<OkMessageAnswer> {
  return request(OkMessageAnswerSchema, (h) => h.post(`${gamePath(clanId, eventId)}/${gameId}/tasks/reorder`, { json: { squares } }), 'Failed to save board order.');
}

/**
 * POST .../game/{gameId}/tasks/swap {square1_id, square2_id}: the two squares' tasks change places
 * → {ok, message: 'Tasks swapped successfully!'}; 400 across tiers or with Start, Finish, Snake or
 * Ladder squares. Fallback 'Failed to swap tasks.'
 */
export function swapGameSquares(clanId: number, eventId: number, gameId: number, square1Id: number, square2Id: number): Promise<OkMessageAnswer> {
  return request(
    OkMessageAnswerSchema,
    (h) => h.post(`${gamePath(clanId, eventId)}/${gameId}/tasks/swap`, { json: { square1_id: square1Id, square2_id: square2Id } }),
    'Failed to swap tasks.',
  );
}

/**
 * PUT .../game/{gameId}/tasks/{squareId} {task_id}: puts a pool task of the square's tier on it →
 * {ok, message: 'Task on Square {n} assigned successfully!'}. Fallback 'Failed to assign task.'
 */
export function assignSquareTask(clanId: number, eventId: number, gameId: number, squareId: number, taskId: number): Promise<OkMessageAnswer> {
  return request(
    OkMessageAnswerSchema,
    (h) => h.put(`${gamePath(clanId, eventId)}/${gameId}/tasks/${squareId}`, { json: { task_id: taskId } }),
    'Failed to assign task.',
  );
}

/**
 * GET .../game/{gameId}/tasks/{squareId}/available → the pool tasks of the square's tier that are
 * not on the board, by description; 400 'Cannot Assign Task' for a square without a tier.
 */
export async function fetchAvailableTasks(clanId: number, eventId: number, gameId: number, squareId: number): Promise<AvailableTask[]> {
  const answer = await request(
    AvailableTasksAnswerSchema,
    (h) => h.get(`${gamePath(clanId, eventId)}/${gameId}/tasks/${squareId}/available`),
    'Failed to fetch swap options.',
  );
  return answer.available_tasks;
}

/**
 * PUT /api/clan/{clanId}/events/{eventId}/game/{gameId}/rules {relief_after_hours,
 * relief_max_per_team} (docs/server.md §15, managers): changes the relief settings (null hours =
 * off) without touching the board. Answers the settings now in force (the answer's game, else the
 * ones sent). Fallback 'Failed to change the game rules.'
 */
export async function saveGameRelief(clanId: number, eventId: number, gameId: number, relief: ReliefSettings): Promise<ReliefSettings> {
  const answer = await request(
    v.looseObject({ game: v.optional(v.looseObject({ relief_after_hours: v.optional(v.nullable(v.number())), relief_max_per_team: v.optional(v.number()) })) }),
    (h) => h.put(`${gamePath(clanId, eventId)}/${gameId}/rules`, { json: relief }),
    'Failed to change the game rules.',
  );
  return {
    relief_after_hours: answer.game?.relief_after_hours !== undefined ? answer.game.relief_after_hours : relief.relief_after_hours,
    relief_max_per_team: answer.game?.relief_max_per_team ?? relief.relief_max_per_team,
  };
}

/**
 * PUT /api/clan/{clanId}/events/{eventId}/game/{gameId}/rules {proof_required} (docs/server.md
 * §9, managers): changes the proof rule without touching the board. Answers the rule now
 * in force (the answer's game.proof_required, else the one sent). Fallback 'Failed to change the game rules.'
 */
export async function saveGameRules(clanId: number, eventId: number, gameId: number, proofRequired: boolean): Promise<{ proofRequired: boolean }> {
  const answer = await request(
    v.looseObject({ game: v.optional(v.looseObject({ proof_required: v.optional(v.boolean()) })), proof_required: v.optional(v.boolean()) }),
    (h) => h.put(`${gamePath(clanId, eventId)}/${gameId}/rules`, { json: { proof_required: proofRequired } }),
    'Failed to change the game rules.',
  );
  return { proofRequired: answer.game?.proof_required ?? answer.proof_required ?? proofRequired };
}

/**
 * POST /api/clan/{clanId}/events/{eventId}/game/{gameId}/teams/{teamId}/progress/check ('Check
 * now', docs/server.md §17): asks for a Wise Old Man check of the team's total. An accepted ask
 * (202) resolves with its `retry_after` and no refusal; a 429 ('Progress was checked {n} s ago; try
 * again in {m} s.') resolves with its Retry-After (CHECK_WAIT_S when absent) and the server's text,
 * so the button waits either way. Any other failure raises ApiRequestError with the server's text.
 */
export async function checkTeamProgress(clanId: number, eventId: number, gameId: number, teamId: number): Promise<ProgressCheckOutcome> {
  try {
    const answer = await request(WomCheckAnswerSchema, (h) => h.post(`${gamePath(clanId, eventId)}/${gameId}/teams/${teamId}/progress/check`), 'Failed to ask for a check.');
    return { waitS: answer.retry_after, refusal: null };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 429) return { waitS: err.retryAfter ?? CHECK_WAIT_S, refusal: err.message };
    throw err;
  }
}
