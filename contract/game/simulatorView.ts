import type { BoardSimulation, HoursPerTier, SimBoard } from './forecast';
import { DEFAULT_HOURS_PER_TIER } from './forecast';
import { TIERS, type Tier } from './tiers';
import { countsFromSettings, validateSettings, type GameSettings } from './settings';
import { generateConnections, layoutSquares } from './generate';
import { seededRandom } from './random';

/**
 * The board simulator as Manage Game shows it (docs/game-rules.md §14): the hours per tier as typed,
 * their rule, and what goes to the worker. Pure, shared by the boardSimulator chart and its screen.
 */

/** The most hours a task tier may be given in the form. */
const MAX_TIER_HOURS = 1_000;

/** The form's message for hours out of 0..1,000 (or not a number). */
export const SIMULATOR_MESSAGES = {
  hours: (tier: string) => `Hours for a ${tier} task must be a number from 0 to 1,000.`,
} as const;

/** The hours per tier as typed, by tier. */
export type HoursDraft = Record<Tier, string>;

/** The defaults (easy 0.5, medium 1.5, hard 4, elite 8, master 16) as the form shows them. */
export const DEFAULT_HOURS_DRAFT: HoursDraft = Object.fromEntries(TIERS.map((t) => [t, String(DEFAULT_HOURS_PER_TIER[t])])) as HoursDraft;

/** The hours of the draft, or the first tier's message whose hours are not a number in 0..1,000. */
export function checkHoursDraft(draft: HoursDraft): { ok: true; hours: HoursPerTier } | { ok: false; error: string; tier: Tier } {
  const hours: Record<string, number> = {};
  for (const tier of TIERS) {
    const text = draft[tier].trim();
    const n = Number(text);
    if (text === '' || !Number.isFinite(n) || n < 0 || n > MAX_TIER_HOURS) return { ok: false, error: SIMULATOR_MESSAGES.hours(tier.toLowerCase()), tier };
    hours[tier] = n;
  }
  return { ok: true, hours };
}

/** What the simulator runs on: the board, the tier of each square (index 0 unused) and the event's hours (null: no end). */
export interface SimulatorBoard {
  board: SimBoard;
  tiers: (string | null)[];
  available_hours: number | null;
}

/** One simulation asked of the worker. */
export interface SimulationRequest extends SimulatorBoard {
  hours_per_tier: HoursPerTier;
  runs: number;
}

/** The hours between an event's start and end (ISO times), or null without an end or with a bad time. */
export function eventHours(start: string | null | undefined, end: string | null | undefined): number | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms > 0 ? ms / 3_600_000 : null;
}

/** The `top` squares landed on most (square, share of all landings), most first; squares 1 and N left out. */
export function mostLanded(result: BoardSimulation, top = 5): { square: number; share: number }[] {
  const n = result.landings.length - 1;
  const total = result.landings.reduce((a, b) => a + b, 0) || 1;
  return result.landings
    .map((count, square) => ({ square, share: count / total }))
    .filter((x) => x.square > 1 && x.square < n)
    .sort((a, b) => b.share - a.share || a.square - b.square)
    .slice(0, top);
}

/** The simulator's board of a game: its size, snakes and ladders, and each square's tier. */
export function simulatorBoardOfGame(
  game: { board_size: number; board_connections: readonly { start: number; end: number }[]; board_squares: readonly { square_index: number; task_difficulty: string | null }[] },
  availableHours: number | null,
): SimulatorBoard {
  const tiers: (string | null)[] = new Array(game.board_size + 1).fill(null);
  for (const sq of game.board_squares) if (sq.square_index >= 1 && sq.square_index <= game.board_size) tiers[sq.square_index] = sq.task_difficulty;
  return { board: { board_size: game.board_size, connections: game.board_connections.map((c) => ({ start: c.start, end: c.end })) }, tiers, available_hours: availableHours };
}

/**
 * A sample board of settings not deployed yet (the setup form): snakes and ladders placed as the
 * server would (generateConnections, seeded so the same settings give the same sample) and the tiers
 * laid out (layoutSquares). Null when the settings cannot make a board.
 */
export function sampleBoardOfSettings(settings: GameSettings, availableHours: number | null): SimulatorBoard | null {
  if (validateSettings(settings) !== null) return null;
  try {
    const connections = generateConnections(settings, seededRandom(settings.board_size * 1009 + settings.num_snakes * 31 + settings.num_ladders));
    const squares = layoutSquares({ board_size: settings.board_size, counts: countsFromSettings(settings), connections });
    return simulatorBoardOfGame({ board_size: settings.board_size, board_connections: connections, board_squares: squares }, availableHours);
  } catch {
    return null;
  }
}
