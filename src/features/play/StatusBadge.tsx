import { boardSide } from '../../../contract/game/board';
import { statusClass, statusLabel } from '../../../contract/game/status';

/**
 * A game status badge (docs/client.md §4 and "Game play screen"): the status's
 * label (contract statusLabel: 'Ready', 'In progress', ...), styled by its class name and
 * `data-status` (the wire value lowercased, spaces → hyphens: contract statusClass). In a file
 * of its own, with boardSizeText, so the lists and the dashboard (in the app's main chunk) do not
 * pull the game screen's panels into every page's first load.
 */
export function StatusBadge({ status }: { status: string }) {
  const cls = statusClass(status);
  return (
    <span className={`status-badge status-badge--${cls}`} data-status={cls}>
      {statusLabel(status)}
    </span>
  );
}

/** Board size as shown in headers and lists: '100 squares (10x10)'. */
export function boardSizeText(boardSize: number): string {
  const side = boardSide(boardSize);
  return `${boardSize} squares (${side}x${side})`;
}
