import { commitmentOf, diceRoller, isDiceHex } from './game/dice';
import type { GameHistory, HistoryGame, HistoryTeam } from './history';
import { countMoves, moveRoles, type MoveCounts } from './game/counts';
import { reliefIndex } from './game/relief';

/**
 * What the 'Verify dice' view shows (docs/game-rules.md §9), computed from a game's history
 * in the browser with the shared die derivation (contract/game/dice.ts), so nothing on the page
 * takes the server's word for a die.
 */

/** One roll checked: the die the history claims, the die the seed gives (null until the seed is known), and whether they agree. */
export interface RollCheck {
  roll_index: number | null;
  at: string;
  team: HistoryTeam;
  /** The die the history states. */
  die: number | null;
  /** The die recomputed from the revealed seed; null while the seed is sealed or unusable. */
  expected: number | null;
  from: number;
  to: number;
  /** A revert undid this roll later (contract/game/counts): its die is still checked, it just does not stand. */
  reverted: boolean;
  /** 'verified': seed matches the commitment and the die is the seed's; 'failed': it is not; 'pending': no seed yet. */
  result: 'verified' | 'failed' | 'pending';
}

/**
 * One relief draw checked (docs/game-rules.md §15): the substitute the history names, and the
 * candidate the seed picks for relief k of the team (null until the seed is known or when the
 * candidates cannot be drawn from: none, or not in task id order).
 */
export interface ReliefCheck {
  at: string;
  team: HistoryTeam;
  k: number;
  square: number;
  description: string;
  candidates: number;
  task_id: number;
  expected_task_id: number | null;
  result: 'verified' | 'failed' | 'pending';
}

/**
 * The outcome of checking a history:
 * - `sealed`: the game is not finished, the seed is not revealed yet; only the commitment is known;
 * - `checked`: the seed is revealed; `commitmentMatches` says whether its SHA-256 is the commitment.
 */
export interface DiceReport {
  game: HistoryGame;
  phase: 'sealed' | 'checked';
  commitment: string;
  seed: string | null;
  /** null while sealed. */
  commitmentMatches: boolean | null;
  rolls: RollCheck[];
  /** Every relief draw, checked like the rolls (none when relief was never used). */
  reliefs: ReliefCheck[];
  /** Relief draws marked failed (0 while sealed). */
  reliefsFailed: number;
  /** Rolls, reverts and turns of the history (contract/game/counts): rolls.length is counts.rolls. */
  counts: MoveCounts;
  /** Rolls marked verified and failed (both 0 while sealed). */
  verified: number;
  failed: number;
}

/** A team of the history by id; a placeholder when the team has left the game since. */
function teamOf(history: GameHistory, teamId: number): HistoryTeam {
  return history.teams.find((t) => t.team_id === teamId) ?? { team_id: teamId, name: `Team ${teamId}`, color: '#888888' };
}

/**
 * Checks every roll of `history` (docs/game-rules.md §9): when the seed is revealed, its
 * SHA-256 must equal the commitment, and each roll's die must equal dieFor(seed, game id,
 * roll_index); a roll is verified only when both hold. Each relief draw (docs/game-rules.md §15)
 * is verified when the commitment holds and the candidate reliefIndex(seed, game, team, k, count)
 * picks from the candidates in task id order is the task drawn. A seed that is not 64 lowercase hex
 * characters never matches. Reverts are not rolls and are not listed (they take no roll index);
 * a roll a revert undid is listed, marked `reverted`. Never throws for bad data.
 */
export async function verifyHistory(history: GameHistory): Promise<DiceReport> {
  const { game } = history;
  const roles = moveRoles(history.moves);
  const moves = history.moves.flatMap((m, i) => {
    const role = roles[i];
    return role.kind === 'roll' ? [{ ...m, reverted: role.revertedBy !== null }] : [];
  });
  const seed = game.dice_seed;
  let commitmentMatches: boolean | null = null;
  let roller: Awaited<ReturnType<typeof diceRoller>> | null = null;
  if (seed !== null) {
    commitmentMatches = isDiceHex(seed) && (await commitmentOf(seed)) === game.dice_commitment;
    if (isDiceHex(seed)) roller = await diceRoller(seed);
  }
  const rolls: RollCheck[] = [];
  for (const m of moves) {
    const usable = roller !== null && m.roll_index !== null && Number.isSafeInteger(m.roll_index) && m.roll_index > 0;
    const expected = usable ? await roller!.die(game.id, m.roll_index!) : null;
    const result = seed === null ? 'pending' : commitmentMatches && expected !== null && m.die === expected ? 'verified' : 'failed';
    rolls.push({ roll_index: m.roll_index, at: m.at, team: teamOf(history, m.team_id), die: m.die, expected, from: m.from, to: m.to, reverted: m.reverted, result });
  }
  const reliefs: ReliefCheck[] = [];
  for (const r of history.reliefs ?? []) {
    const ids = r.candidate_ids;
    // The candidates are drawn from in task id order (docs/game-rules.md §15): any other list is not the rule's.
    const ordered = ids.length > 0 && ids.every((id, i) => i === 0 || ids[i - 1] < id);
    const usable = seed !== null && isDiceHex(seed) && ordered && Number.isSafeInteger(r.k) && r.k > 0;
    const expected = usable ? ids[await reliefIndex(seed!, game.id, r.team_id, r.k, ids.length)] : null;
    const result = seed === null ? 'pending' : commitmentMatches && expected !== null && expected === r.task_id ? 'verified' : 'failed';
    reliefs.push({ at: r.at, team: teamOf(history, r.team_id), k: r.k, square: r.square_index, description: r.description, candidates: ids.length, task_id: r.task_id, expected_task_id: expected, result });
  }
  return {
    game,
    phase: seed === null ? 'sealed' : 'checked',
    commitment: game.dice_commitment,
    seed,
    commitmentMatches,
    rolls,
    counts: countMoves(history.moves),
    verified: rolls.filter((r) => r.result === 'verified').length,
    failed: rolls.filter((r) => r.result === 'failed').length,
    reliefs,
    reliefsFailed: reliefs.filter((r) => r.result === 'failed').length,
  };
}
