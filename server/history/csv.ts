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
 * `at,team,kind,roll_index,die,from,landing,to,via`, then one row per move, oldest first; the team
 * by name (its id when the team is gone), empty cells for what a revert has not; every cell made
 * inert (inertCell) and quoted as RFC 4180 needs by csv-stringify. Lines end with CRLF. Its
 * `kind` column is the one contract/game/counts counts by: rows of kind roll are the game's rolls
 * (reverted ones included, each with its roll_index), rows of kind revert its reverts, so a
 * spreadsheet's tally agrees with every screen.
 */
export function historyCsv(history: GameHistory): string {
  const names = new Map(history.teams.map((t) => [t.team_id, t.name]));
  const rows = history.moves.map((m) =>
    [m.at, names.get(m.team_id) ?? String(m.team_id), m.kind, m.roll_index, m.die, m.from, m.landing, m.to, m.via].map(inertCell));
  return stringify(rows, { header: true, columns: [...HISTORY_CSV_COLUMNS], record_delimiter: 'windows' });
}
