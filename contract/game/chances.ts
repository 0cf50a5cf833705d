import type { ChancePoint } from '../forecastView';
import { forecastGame, type SimBoard } from './forecast';

/** The chances over a whole game: the board, the teams and their squares after each move (frame 0: the start). */
export interface ChancesRequest {
  board: SimBoard;
  teamIds: number[];
  frames: Readonly<Record<number, number>>[];
  /** Simulated continuations per frame. */
  runs: number;
}

/**
 * Each team's chance to win after every move of a game (docs/game-rules.md §14): a forecast
 * (contract forecastGame, `runs` continuations seeded from the board and the frame's squares, so the
 * same squares give the same chances wherever they come in a game) of the squares after each move;
 * point i is frame i (0: everyone on square 1).
 */
export function chancesOverGame(request: ChancesRequest): ChancePoint[] {
  return request.frames.map((positions, i) => {
    const teams = request.teamIds.map((team_id) => ({ team_id, position: Math.min(Math.max(positions[team_id] ?? 1, 1), request.board.board_size) }));
    const f = forecastGame({ board: request.board, teams, runs: request.runs });
    return { version: i, chances: f.teams.map((t) => ({ team_id: t.team_id, win_chance: t.win_chance })) };
  });
}
