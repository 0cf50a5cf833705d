/**
 * Final standings of a game: who stands where when the game ends,
 * for the podium. Pure: runs in the browser and in Node.
 */

/** A team as standings need it (a members' or public TeamState fits). */
export interface StandingTeam {
  team_id: number;
  team_name: string;
  team_color: string;
  current_position: number;
  /** ISO time the team arrived on its square (docs/server.md §9); an earlier arrival ranks first among ties. */
  square_since?: string;
}

/** One place in the standings. */
export interface Standing {
  /** 1-based place; every team has its own place (ties are broken, see standingsOf). */
  place: number;
  team_id: number;
  team_name: string;
  team_color: string;
  /** Square the team stands on. */
  position: number;
  /** True for a team named in the game's winners. */
  winner: boolean;
}

/**
 * The standings of a game: the winners first (in the order the game lists them, matched by team
 * name), then every other team by square, furthest first; ties on a square go to the team that
 * arrived there first (earlier `square_since`; a missing or invalid time counts as last), then to
 * the lower team id. Places are 1..teams.length. `winners` null or empty means no winner yet.
 */
export function standingsOf(teams: readonly StandingTeam[], winners: readonly { name: string }[] | null): Standing[] {
  const winnerOrder = new Map((winners ?? []).map((w, i) => [w.name, i]));
  const arrival = (t: StandingTeam) => {
    const ms = t.square_since ? Date.parse(t.square_since) : Number.NaN;
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  const ordered = [...teams].sort((a, b) => {
    const wa = winnerOrder.get(a.team_name);
    const wb = winnerOrder.get(b.team_name);
    if (wa !== undefined || wb !== undefined) {
      if (wa === undefined) return 1;
      if (wb === undefined) return -1;
      if (wa !== wb) return wa - wb;
    }
    if (a.current_position !== b.current_position) return b.current_position - a.current_position;
    const ta = arrival(a);
    const tb = arrival(b);
    if (ta !== tb) return ta < tb ? -1 : 1;
    return a.team_id - b.team_id;
  });
  return ordered.map((t, i) => ({
    place: i + 1,
    team_id: t.team_id,
    team_name: t.team_name,
    team_color: t.team_color,
    position: t.current_position,
    winner: winnerOrder.has(t.team_name),
  }));
}
