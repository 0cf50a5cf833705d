import { boardSide } from '../../../contract/game/board';
import { statusClass } from '../../../contract/game/status';

/**
 * A game status badge (product-spec sections 2 "Games lobby" and "Game play screen"): the status
 * text, styled by its class name (lowercased, spaces → hyphens: contract statusClass). In a file
 * of its own, with boardSizeText, so the lists and the dashboard (in the app's main chunk) do not
 * pull the game screen's panels into every page's first load (issue #14).
 */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`status-badge status-badge--${statusClass(status)}`}>{status}</span>;
}

/** Board size as shown in headers and lists: '100 squares (10x10)'. */
export function boardSizeText(boardSize: number): string {
  const side = boardSide(boardSize);
  return `${boardSize} squares (${side}x${side})`;
}
