// ---------------------------------------------------------------------------------------------
// Balanced teams from sign-ups (docs/game-rules.md §16): a pure, deterministic function shared
// by the server (the proposal and its check before applying) and the client (showing totals).
// ---------------------------------------------------------------------------------------------

/** What balancing reads of a sign-up: its id, its score (null = unknown) and 'I would lead a team'. */
export interface BalanceSignup {
  id: number;
  score: number | null;
  wants_leader: boolean;
}

/** A team slot to fill: an existing team (its id) or one to create (id null), with its name. */
export interface BalanceSlot {
  team_id: number | null;
  name: string;
}

/** One team of a proposal: its members (sign-up ids, highest score first), its leader and its total. */
export interface BalancedTeam {
  team_id: number | null;
  name: string;
  leader_signup_id: number | null;
  signup_ids: number[];
  total_score: number;
}

/** A proposal: the teams in slot order and the spread (largest team total minus smallest). */
export interface BalanceProposal {
  teams: BalancedTeam[];
  spread: number;
}

/**
 * The median of the known scores (the mean of the two middle ones for an even count); 0 when
 * none is known. Null scores count as this (docs/game-rules.md §16).
 */
export function medianScore(scores: readonly (number | null)[]): number {
  const known = scores.filter((s): s is number => s !== null).sort((a, b) => a - b);
  if (known.length === 0) return 0;
  const mid = Math.floor(known.length / 2);
  return known.length % 2 === 1 ? known[mid] : (known[mid - 1] + known[mid]) / 2;
}

/** Totals are rounded to 1e-6 so equal inputs give equal numbers on every platform. */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** A change smaller than this does not count as lowering the spread (float noise). */
const EPSILON = 1e-9;

/** Index of the team a sign-up goes to at sorted position `i` of a snake over `n` teams: 0..n-1, n-1..0, ... */
export function snakeTeam(i: number, n: number): number {
  const round = Math.floor(i / n);
  const pos = i % n;
  return round % 2 === 0 ? pos : n - 1 - pos;
}

/** The largest and smallest of `totals` with the (first) index of each. */
function extremes(totals: readonly number[]): { max: number; maxAt: number; min: number; minAt: number } {
  let max = -Infinity;
  let min = Infinity;
  let maxAt = 0;
  let minAt = 0;
  totals.forEach((t, i) => {
    if (t > max) {
      max = t;
      maxAt = i;
    }
    if (t < min) {
      min = t;
      minAt = i;
    }
  });
  return { max, maxAt, min, minAt };
}

/** The spread of `totals` with two of them replaced (i by a, j by b). */
function spreadWith(totals: readonly number[], i: number, a: number, j: number, b: number): number {
  let max = -Infinity;
  let min = Infinity;
  for (let k = 0; k < totals.length; k++) {
    const t = k === i ? a : k === j ? b : totals[k];
    if (t > max) max = t;
    if (t < min) min = t;
  }
  return max - min;
}

/** The first index in ascending `values` whose value is at least `x` (values.length when none). */
function lowerBound(values: readonly number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Balances `signups` over `slots` (docs/game-rules.md §16), deterministically: null scores count
 * as the median of the known ones; sign-ups sorted by score, highest first (ties by id); dealt in
 * a snake order (1..n, n..1, ...); then, while it lowers the spread, the one swap between the
 * team with the largest total and the team with the smallest that lowers the spread most (ties:
 * the first found). Team sizes differ by at most one and the spread is never above the snake's.
 * Each team's leader is its highest-scored member who would lead, or null. Every sign-up is placed
 * once. `slots` must not be empty.
 */
export function balanceTeams(signups: readonly BalanceSignup[], slots: readonly BalanceSlot[]): BalanceProposal {
  const n = slots.length;
  if (n === 0) throw new Error('balanceTeams needs at least one team');
  const median = medianScore(signups.map((s) => s.score));
  const sorted = signups
    .map((s) => ({ id: s.id, score: s.score ?? median, wants_leader: s.wants_leader }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
  const members: (typeof sorted)[] = slots.map(() => []);
  sorted.forEach((s, i) => members[snakeTeam(i, n)].push(s));
  const totals = members.map((m) => m.reduce((sum, s) => sum + s.score, 0));

  // Each pass keeps the two extreme teams' members sorted by score (ascending) for the search.
  const cap = Math.max(1, sorted.length) * 4;
  for (let pass = 0; pass < cap && n > 1; pass++) {
    const { max, maxAt, min, minAt } = extremes(totals);
    const spread = max - min;
    if (spread <= EPSILON || maxAt === minAt) break;
    const low = members[minAt].map((s) => s.score).sort((a, b) => a - b);
    const lowIds = [...members[minAt]].sort((a, b) => a.score - b.score || a.id - b.id);
    let best: { spread: number; a: number; b: number } | null = null;
    const half = (max - min) / 2;
    members[maxAt].forEach((a, ai) => {
      // Moving d = a - b from the high team to the low one; d near half the gap is best.
      const at = lowerBound(low, a.score - half);
      for (const bi of [at - 1, at]) {
        if (bi < 0 || bi >= low.length) continue;
        const d = a.score - low[bi];
        if (d <= EPSILON) continue;
        const next = spreadWith(totals, maxAt, max - d, minAt, min + d);
        if (next < spread - EPSILON && (best === null || next < best.spread - EPSILON)) best = { spread: next, a: ai, b: bi };
      }
    });
    if (best === null) break;
    const chosen: { spread: number; a: number; b: number } = best;
    const a = members[maxAt][chosen.a];
    const b = lowIds[chosen.b];
    members[maxAt][chosen.a] = b;
    members[minAt][members[minAt].indexOf(b)] = a;
    totals[maxAt] = max - a.score + b.score;
    totals[minAt] = min - b.score + a.score;
  }

  const teams = slots.map((slot, i): BalancedTeam => {
    const list = [...members[i]].sort((a, b) => b.score - a.score || a.id - b.id);
    const leader = list.find((s) => s.wants_leader);
    return {
      team_id: slot.team_id,
      name: slot.name,
      leader_signup_id: leader ? leader.id : null,
      signup_ids: list.map((s) => s.id),
      total_score: round(list.reduce((sum, s) => sum + s.score, 0)),
    };
  });
  return { teams, spread: spreadOf(teams) };
}

/** The spread of a proposal's teams: largest total minus smallest (0 for one team or none). */
function spreadOf(teams: readonly { total_score: number }[]): number {
  if (teams.length === 0) return 0;
  const totals = teams.map((t) => t.total_score);
  return round(Math.max(...totals) - Math.min(...totals));
}

/**
 * The spread of the plain snake order, without swaps (the bound balanceTeams never exceeds;
 * docs/game-rules.md §16).
 */
export function snakeSpread(signups: readonly BalanceSignup[], teamCount: number): number {
  const median = medianScore(signups.map((s) => s.score));
  const sorted = signups.map((s) => ({ id: s.id, score: s.score ?? median })).sort((a, b) => b.score - a.score || a.id - b.id);
  const totals = Array.from({ length: teamCount }, () => 0);
  sorted.forEach((s, i) => (totals[snakeTeam(i, teamCount)] += s.score));
  return spreadOf(totals.map((t) => ({ total_score: round(t) })));
}
