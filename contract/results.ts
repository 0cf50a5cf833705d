import type { GameHistory, HistoryTeam, Move } from './history';
import type { PublicGame } from './gameApi';
import { standingsOf, type Standing as GameStanding } from './game/standings';
import { countTeamMoves, moveRoles, type MoveRole } from './game/counts';

/**
 * The story of a game, computed from its history (docs/server.md §12): the replay frames, the race series, per-team statistics and the final standings. Pure
 * functions of a GameHistory; times are ISO strings in, milliseconds out.
 */

/** Positions of every team (team id → square 1..N). */
export type Positions = Readonly<Record<number, number>>;

/** One frame of the replay: every team's square after the frame's move (frame 0: before any move). */
export interface ReplayFrame {
  /** 0 for the start, i for the state after moves[i - 1]. */
  index: number;
  positions: Positions;
  /** The move that led here (null for frame 0). */
  move: Move | null;
  /** What that move is in contract/game/counts terms: a roll (reverted later or not) or a revert (and the roll it undid); null for frame 0. */
  role: MoveRole | null;
  /** For a revert, the roll it undid (null otherwise). */
  undone: Move | null;
}

/**
 * The replay frames of a history: frames.length = moves.length + 1; frame 0 has every team on
 * square 1; frame i is frame i - 1 with the team of moves[i - 1] on that move's `to`, and that
 * move's role (contract/game/counts moveRoles). A move of a team not in `teams` is still applied
 * (its team just has no name).
 */
export function replayFrames(history: Pick<GameHistory, 'teams' | 'moves'>): ReplayFrame[] {
  let positions: Record<number, number> = Object.fromEntries(history.teams.map((t) => [t.team_id, 1]));
  const roles = moveRoles(history.moves);
  const frames: ReplayFrame[] = [{ index: 0, positions, move: null, role: null, undone: null }];
  history.moves.forEach((move, i) => {
    positions = { ...positions, [move.team_id]: move.to };
    const role = roles[i];
    const undone = role.kind === 'revert' && role.undoes !== null ? history.moves[role.undoes] : null;
    frames.push({ index: i + 1, positions, move, role, undone });
  });
  return frames;
}

/** The race chart's data: one x value per frame (ms since epoch) and one series of squares per team. */
export interface RaceSeries {
  /** Milliseconds since the epoch of each frame: frame 0 takes the first move's time. */
  times: number[];
  /** One line per team, in `teams` order: its square at each frame. */
  series: { team: HistoryTeam; positions: number[] }[];
}

/** Milliseconds of an ISO time (NaN-safe: an unreadable time counts as 0). */
function msOf(iso: string): number {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : 0;
}

/**
 * Positions over time per team (the race chart): every team's square at every frame, with the
 * frame's time. Times never go backwards (a move logged earlier than the one before it takes the
 * time before it), so a chart's x axis is sorted. A history without moves has one frame.
 */
export function raceSeries(history: Pick<GameHistory, 'teams' | 'moves'>): RaceSeries {
  const frames = replayFrames(history);
  const times: number[] = [];
  for (const f of frames) {
    const t = f.move ? msOf(f.move.at) : history.moves.length ? msOf(history.moves[0].at) : 0;
    times.push(Math.max(t, times.at(-1) ?? t));
  }
  return {
    times,
    series: history.teams.map((team) => ({ team, positions: frames.map((f) => f.positions[team.team_id] ?? 1) })),
  };
}

/** Median and longest of a set of durations (ms); both null when there are none. */
export interface DurationSummary {
  count: number;
  median: number | null;
  longest: number | null;
}

/** The median (mean of the middle two for an even count) and the longest of `durations` (ms). */
export function summarize(durations: readonly number[]): DurationSummary {
  if (durations.length === 0) return { count: 0, median: null, longest: null };
  const sorted = [...durations].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { count: sorted.length, median, longest: sorted[sorted.length - 1] };
}

/** One team's numbers on the results page; rolls, reverts and turns as contract/game/counts defines them. */
export interface TeamStats {
  team: HistoryTeam;
  /** Every roll, reverted ones included. */
  rolls: number;
  /** Reverts, each undoing one roll. */
  reverts: number;
  /** Rolls that stand (rolls - reverts). */
  turns: number;
  /** Sixes, snakes and ladders among all rolls (a reverted roll was still thrown and taken). */
  sixes: number;
  snakes: number;
  ladders: number;
  /**
   * Time per square (ms): each stay from the team's arrival on a square (its move there) to its
   * next move (roll or revert). The first stay on square 1 (no arrival time) and the stay the team
   * is still on are not counted.
   */
  timePerSquare: DurationSummary;
  /**
   * Time to approval (ms), games with proof only: from the team's arrival on a square to the
   * referee's approval of its proof there (the first approval of each stay).
   */
  timeToApproval: DurationSummary;
}

/**
 * Per-team statistics of a history, in `teams` order: rolls, reverts and turns (contract/game/counts
 * countTeamMoves), sixes (die 6), snakes and ladders taken (via), time per square and time to
 * approval (see TeamStats).
 */
export function teamStats(history: Pick<GameHistory, 'teams' | 'moves' | 'reviews'>): TeamStats[] {
  return history.teams.map((team) => {
    const moves = history.moves.filter((m) => m.team_id === team.team_id);
    const rolls = moves.filter((m) => m.kind === 'roll');
    const stays: number[] = [];
    for (let i = 0; i + 1 < moves.length; i += 1) stays.push(Math.max(0, msOf(moves[i + 1].at) - msOf(moves[i].at)));
    const approvals: number[] = [];
    const reviews = history.reviews.filter((r) => r.team_id === team.team_id && r.decision === 'approve');
    const counted = new Set<number>();
    for (const review of reviews) {
      const at = msOf(review.at);
      // The stay the review belongs to: the team's last move at or before it, onto that square.
      let stay = -1;
      for (let i = 0; i < moves.length && msOf(moves[i].at) <= at; i += 1) stay = i;
      if (stay < 0 || moves[stay].to !== review.square_index || counted.has(stay)) continue;
      counted.add(stay);
      approvals.push(Math.max(0, at - msOf(moves[stay].at)));
    }
    return {
      team,
      ...countTeamMoves(moves, team.team_id),
      sixes: rolls.filter((m) => m.die === 6).length,
      snakes: rolls.filter((m) => m.via === 'snake').length,
      ladders: rolls.filter((m) => m.via === 'ladder').length,
      timePerSquare: summarize(stays),
      timeToApproval: summarize(approvals),
    };
  });
}

/** One row of the final standings: contract standingsOf's row with the history's team. */
export interface Standing extends GameStanding {
  team: HistoryTeam;
}

/**
 * Final standings from a history, ranked by contract standingsOf (one ranking for the game
 * screen's podium and the results page): the winners first (in the game's order, matched by team
 * name), then the other teams by square after their last move, highest first; a tie goes to the
 * team that reached its square first (the `at` of its last move), then to the lower team id.
 * Before any move every team is on square 1.
 */
export function standings(history: Pick<GameHistory, 'game' | 'teams' | 'moves'>): Standing[] {
  const last = new Map<number, Move>();
  for (const m of history.moves) last.set(m.team_id, m);
  const teams = new Map(history.teams.map((t) => [t.team_id, t]));
  const ranked = standingsOf(
    history.teams.map((t) => ({
      team_id: t.team_id,
      team_name: t.name,
      team_color: t.color,
      current_position: last.get(t.team_id)?.to ?? 1,
      square_since: last.get(t.team_id)?.at,
    })),
    history.game.winners,
  );
  return ranked.map((s) => ({ ...s, team: teams.get(s.team_id)! }));
}

/**
 * How a move reads in the replay: 'Red rolled a 4: square 3 → 7, up a ladder to 21.', with
 * ' Reverted later.' for a roll a revert undid (`role`); a revert names the roll it undid
 * (`undone`): 'Red reverted roll 12 (a 4): square 21 → 3.'.
 */
export function moveText(move: Move, teamName: string, role: MoveRole | null = null, undone: Move | null = null): string {
  if (move.kind === 'revert') {
    const which = undone ? ` roll ${undone.roll_index ?? '?'} (a ${undone.die ?? '?'})` : '';
    return `${teamName} reverted${which}: square ${move.from} → ${move.to}.`;
  }
  const via = move.via === 'ladder' ? `, up a ladder to ${move.to}` : move.via === 'snake' ? `, down a snake to ${move.to}` : '';
  const reverted = role?.kind === 'roll' && role.revertedBy !== null ? ' Reverted later.' : '';
  return `${teamName} rolled a ${move.die ?? '?'}: square ${move.from} → ${move.landing ?? move.to}${via}.${reverted}`;
}

/**
 * Whether a game of this status has results to show: once it has started (in-progress, paused,
 * finished or completed). A PENDING or READY game has no move yet (a reset empties the history).
 */
export function hasResults(status: string): boolean {
  return status !== 'PENDING' && status !== 'READY';
}

/**
 * What the results page loads: the history (docs/server.md §12) and the public game
 * (docs/server.md §3) for the board the replay moves the pawns on.
 */
export interface ResultsData {
  history: GameHistory;
  board: Pick<PublicGame, 'board_size' | 'board_squares' | 'board_connections' | 'event_type'>;
}
