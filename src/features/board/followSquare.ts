/** Room kept between the square and the edge of what is visible, in px. */
const MARGIN = 12;

/** The band of the window not covered by sticky or fixed bars matching `covers`: top and bottom in px from the window's top. */
function visibleBand(covers: string): { top: number; bottom: number } {
  let top = 0;
  let bottom = window.innerHeight;
  for (const el of document.querySelectorAll<HTMLElement>(covers)) {
    const position = getComputedStyle(el).position;
    if (position !== 'sticky' && position !== 'fixed') continue;
    const r = el.getBoundingClientRect();
    if (r.height === 0 || r.bottom <= 0 || r.top >= window.innerHeight) continue;
    // A bar in the upper half covers the top of the window, one in the lower half its bottom.
    if (r.top + r.height / 2 < window.innerHeight / 2) top = Math.max(top, r.bottom);
    else bottom = Math.min(bottom, r.top);
  }
  return { top, bottom };
}

/** How far to scroll (px) so that the span `from`..`to` lies inside `lo`..`hi`; 0 when it already does. */
function scrollDelta(from: number, to: number, lo: number, hi: number): number {
  if (from >= lo && to <= hi) return 0;
  if (to - from > hi - lo || from < lo) return from - lo - MARGIN;
  return to - hi + MARGIN;
}

/** The box around the cells of `squares` inside `board` (window coordinates), or null when none is drawn. */
function boxOf(board: Element, squares: readonly number[]): { top: number; bottom: number; left: number; right: number } | null {
  let box: { top: number; bottom: number; left: number; right: number } | null = null;
  for (const square of squares) {
    const cell = board.querySelector(`[data-square="${square}"]`);
    if (!cell) continue;
    const r = cell.getBoundingClientRect();
    box = box
      ? { top: Math.min(box.top, r.top), bottom: Math.max(box.bottom, r.bottom), left: Math.min(box.left, r.left), right: Math.max(box.right, r.right) }
      : { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  }
  return box;
}

/**
 * Brings the board squares `squares` (elements `[data-square]` inside `board`) into view, the way
 * the roll moment follows the moving pawn: inside a zoomed board's own scrolling frame first,
 * then in the window, keeping clear of the sticky or fixed bars matching `covers` (the navigation
 * bar, a phone's sticky action panel). When they do not fit together, the last one (where the
 * pawn ends) is shown. Nothing moves when they are already fully visible, so a pawn walking in
 * view never shakes the page. `smooth` scrolls smoothly (only when the viewer has not asked for
 * reduced motion).
 */
export function keepSquaresInView(board: Element, squares: readonly number[], { smooth, covers }: { smooth: boolean; covers: string }): void {
  const behavior: ScrollBehavior = smooth ? 'smooth' : 'auto';
  const last = squares.slice(-1);
  const frame = board.querySelector<HTMLElement>('.board__scroll');
  if (frame && (frame.scrollHeight > frame.clientHeight || frame.scrollWidth > frame.clientWidth)) {
    const f = frame.getBoundingClientRect();
    let r = boxOf(board, squares);
    if (r && (r.bottom - r.top > f.height || r.right - r.left > f.width)) r = boxOf(board, last);
    if (r) {
      const left = scrollDelta(r.left, r.right, f.left, f.right);
      const top = scrollDelta(r.top, r.bottom, f.top, f.bottom);
      if (left !== 0 || top !== 0) frame.scrollBy({ left, top, behavior });
    }
  }
  const band = visibleBand(covers);
  let r = boxOf(board, squares);
  if (r && r.bottom - r.top > band.bottom - band.top - 2 * MARGIN) r = boxOf(board, last);
  if (!r) return;
  const top = scrollDelta(r.top, r.bottom, band.top, band.bottom);
  if (top !== 0) window.scrollBy({ top, behavior });
}
