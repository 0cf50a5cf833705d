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

/** A box in window coordinates (px). */
interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The smallest box holding `a` and `b`; null when either is missing. */
function union(a: Box | null, b: Box | null): Box | null {
  if (!a || !b) return null;
  return { top: Math.min(a.top, b.top), bottom: Math.max(a.bottom, b.bottom), left: Math.min(a.left, b.left), right: Math.max(a.right, b.right) };
}

/** The window box of `el`, or null without one (missing, or not laid out). */
function rectOf(el: Element | null | undefined): Box | null {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.height === 0 && r.width === 0 ? null : { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
}

/** The box around the cells of `squares` inside `board` (window coordinates), or null when none is drawn. */
function boxOf(board: Element, squares: readonly number[]): Box | null {
  let box: Box | null = null;
  for (const square of squares) {
    const r = rectOf(board.querySelector(`[data-square="${square}"]`));
    box = box ? union(box, r) ?? box : r;
  }
  return box;
}

/** How the board is brought into view: smooth scrolling or not, the bars that may cover it, what to keep beside it. */
export interface FollowOptions {
  /** Scroll smoothly (only when the viewer has not asked for reduced motion). */
  smooth: boolean;
  /** Sticky or fixed bars that may cover the board (a CSS selector): the navigation bar, a phone's action panel. */
  covers: string;
  /** What to keep in view with the board when it fits (a CSS selector inside `board`): the roll strip with the die. */
  keep?: string;
}

/**
 * Brings the board squares `squares` (elements `[data-square]` inside `board`) into view, the way
 * the roll moment follows the moving pawn: inside a zoomed board's own scrolling frame first,
 * then in the window, keeping clear of the sticky or fixed bars matching `covers` (the navigation
 * bar, a phone's sticky action panel). In the window it shows the first of these that fits
 * between the bars: the whole board frame with `keep` (the die above it), the squares with `keep`,
 * the squares, the last square (where the pawn ends). Nothing moves when that is already fully
 * visible, so a pawn walking in view never shakes the page. With no `squares`, only the whole
 * board with `keep` is tried. Scrolls to a position (not by an amount), so a second call while a
 * smooth scroll runs aims at the same place instead of adding to it. Returns the window's scrollY
 * it scrolls to (px), or null when the window does not move.
 */
export function keepSquaresInView(board: Element, squares: readonly number[], { smooth, covers, keep }: FollowOptions): number | null {
  const behavior: ScrollBehavior = smooth ? 'smooth' : 'auto';
  const last = squares.slice(-1);
  const frame = board.querySelector<HTMLElement>('.board__scroll');
  if (squares.length > 0 && frame && (frame.scrollHeight > frame.clientHeight || frame.scrollWidth > frame.clientWidth)) {
    const f = frame.getBoundingClientRect();
    let r = boxOf(board, squares);
    if (r && (r.bottom - r.top > f.height || r.right - r.left > f.width)) r = boxOf(board, last);
    if (r) {
      const left = scrollDelta(r.left, r.right, f.left, f.right);
      const top = scrollDelta(r.top, r.bottom, f.top, f.bottom);
      if (left !== 0 || top !== 0) frame.scrollTo({ left: frame.scrollLeft + left, top: frame.scrollTop + top, behavior });
    }
  }
  const band = visibleBand(covers);
  const room = band.bottom - band.top - 2 * MARGIN;
  const kept = keep ? rectOf(board.querySelector(keep)) : null;
  const around = boxOf(board, squares);
  const candidates = [union(kept, rectOf(frame)), union(kept, around), around, boxOf(board, last)];
  const r = candidates.find((c): c is Box => c !== null && c.bottom - c.top <= room);
  if (!r) return null;
  const top = scrollDelta(r.top, r.bottom, band.top, band.bottom);
  if (top === 0) return null;
  window.scrollTo({ top: window.scrollY + top, behavior });
  return window.scrollY + top;
}

/**
 * Keeps `board` clear of the bars matching `bars` as they grow: when one, sticky or fixed, grows
 * (a phone's Game Action panel gaining the proof rule's refusal, the relief line or a message after
 * a roll) and now covers the bottom of the board, which the growth alone covered (it was above the
 * bar's old top), the window scrolls so the board (with `keep`) shows above the bar again, as
 * keepSquaresInView does. A growth that comes while that scroll still runs (the panel often grows
 * twice in a row: a message, then its relief line) is followed too: mid-scroll the board is not yet
 * where the first growth sent it, so "it was clear before" cannot be read from the page then. A
 * board the viewer has scrolled away from is left alone (a scroll that has ended, ours or the
 * viewer's, ends the following). The bars are the elements matching `bars` when called (a bar that
 * is sticky only at times is watched all the while). Returns the function that stops watching;
 * does nothing where ResizeObserver is missing.
 */
export function keepClearOfGrowingBars(board: Element, bars: string, options: FollowOptions): () => void {
  if (typeof ResizeObserver === 'undefined') return () => {};
  const heights = new Map<Element, number>();
  // The window scrollY our last scroll is heading to while it runs; null once a scroll has ended.
  let aim: number | null = null;
  const ended = () => (aim = null);
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const bar = entry.target.getBoundingClientRect();
      const before = heights.get(entry.target);
      heights.set(entry.target, bar.height);
      if (before === undefined || bar.height <= before) continue;
      const position = getComputedStyle(entry.target).position;
      if (position !== 'sticky' && position !== 'fixed') continue;
      const frame = rectOf(board.querySelector('.board__scroll'));
      if (aim !== null && Math.abs(window.scrollY - aim) <= 1) aim = null;
      if (frame && frame.bottom > bar.top && (aim !== null || frame.bottom <= bar.top + (bar.height - before) + 1)) aim = keepSquaresInView(board, [], options) ?? aim;
    }
  });
  for (const el of document.querySelectorAll(bars)) observer.observe(el);
  document.addEventListener('scrollend', ended);
  return () => {
    observer.disconnect();
    document.removeEventListener('scrollend', ended);
  };
}
