import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';

/** Gap between the anchor and the floating list, in CSS pixels. */
const GAP_PX = 2;
/** Tallest the floating list grows before it scrolls, in CSS pixels. */
const MAX_LIST_PX = 240;
/** Space kept free between the list and the viewport's edge, in CSS pixels. */
const EDGE_PX = 8;

/**
 * Fixed-position style for a list floating under (or, with more room there, over) `anchor`, in
 * viewport pixels: same left edge and width as the anchor, at most 240 px tall and never past the
 * viewport. Recomputed on every scroll (of any ancestor: capture phase) and resize while `open`.
 * Rendered in a portal with this style, the list escapes every scroll box between the anchor and
 * the page, so it is never clipped by a table's overflow.
 */
export function useAnchoredPosition(anchor: RefObject<HTMLElement | null>, open: boolean): CSSProperties | undefined {
  const [style, setStyle] = useState<CSSProperties>();
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const el = anchor.current;
      if (!el) return;
      const r = el.getBoundingClientRect();
      const below = window.innerHeight - r.bottom - GAP_PX - EDGE_PX;
      const above = r.top - GAP_PX - EDGE_PX;
      const downwards = below >= Math.min(MAX_LIST_PX, above);
      const room = Math.max(0, Math.min(MAX_LIST_PX, downwards ? below : above));
      setStyle({
        position: 'fixed',
        left: r.left,
        width: r.width,
        maxHeight: room,
        ...(downwards ? { top: r.bottom + GAP_PX } : { bottom: window.innerHeight - r.top + GAP_PX }),
      });
    };
    place();
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [anchor, open]);
  return open ? style : undefined;
}
