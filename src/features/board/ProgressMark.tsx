import { memo } from 'react';
import { CELL } from '../../../contract/game/boardGeometry';

/** Distance of the first frame's line from the cell's edge, and between the frames of teams sharing a square (user units). */
const FRAME_INSET = 6;
const FRAME_STEP = 8;
/** Corner radius of a frame, as the square's own (BoardView's rect, rx 8). */
const FRAME_RADIUS = 8;
/** Frames drawn on one square at most; further teams there keep their bar in Team Positions. */
export const MAX_FRAMES = 3;

/**
 * The outline of ring `ring` of the cell at (`x`, `y`) as a path: a rounded square starting at the
 * top edge's left end and running clockwise, so a frame filled to a share reads like a bar along
 * the top, then down the right side and so on.
 */
function framePath(x: number, y: number, ring: number): string {
  const d = FRAME_INSET + ring * FRAME_STEP;
  const r = FRAME_RADIUS;
  const [x0, y0, x1, y1] = [x + d, y + d, x + CELL - d, y + CELL - d];
  return `M${x0 + r} ${y0}H${x1 - r}A${r} ${r} 0 0 1 ${x1} ${y0 + r}V${y1 - r}A${r} ${r} 0 0 1 ${x1 - r} ${y1}H${x0 + r}A${r} ${r} 0 0 1 ${x0} ${y1 - r}V${y0 + r}A${r} ${r} 0 0 1 ${x0 + r} ${y0}Z`;
}

/**
 * A team's total on the board (docs/client.md §9; docs/server.md §17): a thin frame around the cell
 * at (`x`, `y`) where the team stands, its track faint and its length filled to `share` (0..1) in
 * the team's `color`, `ring` 0 outermost (teams sharing a square nest inward). It is an image with
 * `label` as its accessible name (contract/progress.ts progressLabel: '{team}: team total 300 /
 * 500 items', as the bar in Team Positions says it). Primitive props only, so a game update that
 * leaves the total alone leaves the frame alone (memo); pointer events pass to the square below.
 */
export const ProgressMark = memo(function ProgressMark({ x, y, ring, share, color, label, teamId, square }: { x: number; y: number; ring: number; share: number; color: string; label: string; teamId: number; square: number }) {
  const d = framePath(x, y, ring);
  const filled = Math.round(Math.max(0, Math.min(1, share)) * 1000) / 10;
  return (
    <g className="board__progress-mark" role="img" aria-label={label} data-testid="board-progress" data-team={teamId} data-progress-square={square} data-share={filled}>
      <path className="board__progress-track" d={d} pathLength={100} />
      <path className="board__progress-fill" d={d} pathLength={100} stroke={color} strokeDasharray={`${filled} 100`} />
    </g>
  );
});
