import { stringify } from 'csv-stringify/sync';
import { HISTORY_CSV_COLUMNS, type GameHistory } from '../../contract/history';

/** First characters that make a spreadsheet read a cell as a formula (docs/server.md §12). */
const FORMULA_START = /^[=+\-@]/;

/** A cell as text, with ' in front when it would start a formula (so no formula runs in a spreadsheet). */
function inertCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * The CSV export of a history (docs/server.md §12): header
 * `at,team,kind,roll_index,die,from,landing,to,via` (the spec's, unchanged), then one row per move
 * and one per relief draw (kind `relief`, §15: from and to the team's square, `via` the substitute
 * task drawn, blank roll_index, die and landing), oldest first (a relief at the same moment as a
 * move after it); the team by name (its id when the team is gone), empty cells for what a revert has not; every cell made
 * inert (inertCell) and quoted as RFC 4180 needs by csv-stringify. Lines end with CRLF. Its
 * `kind` column is the one contract/game/counts counts by: rows of kind roll are the game's rolls
 * (reverted ones included, each with its roll_index), rows of kind revert its reverts, so a
 * spreadsheet's tally agrees with every screen.
 */
export function historyCsv(history: GameHistory): string {
  const names = new Map(history.teams.map((t) => [t.team_id, t.name]));
  const team = (id: number) => names.get(id) ?? String(id);
  const moves = history.moves.map((m) => ({ at: m.at, cells: [m.at, team(m.team_id), m.kind, m.roll_index, m.die, m.from, m.landing, m.to, m.via] }));
  const reliefs = (history.reliefs ?? []).map((r) => ({
    at: r.at,
    cells: [r.at, team(r.team_id), 'relief', null, null, r.square_index, null, r.square_index, r.description],
  }));
  // A stable sort keeps each list's own order; moves and reliefs interleave by time.
  const rows = [...moves, ...reliefs].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).map((r) => r.cells.map(inertCell));
  return stringify(rows, { header: true, columns: [...HISTORY_CSV_COLUMNS], record_delimiter: 'windows' });
}
