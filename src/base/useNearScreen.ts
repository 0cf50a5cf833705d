import { useEffect, useState } from 'react';

/** How close to the screen (px, above or below it) an element counts as near it. */
const NEAR_PX = 100;

/**
 * True once `el` (from a callback ref, so a later-mounted element is seen) has come within NEAR_PX of the screen (IntersectionObserver),
 * and from then on; true at once where the browser has no IntersectionObserver. What only draws
 * for the eye (a chart further down a phone's page) waits for it instead of taking the main thread
 * during the page's first load.
 */
export function useNearScreen(el: Element | null): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || !el) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        setNear(true);
      },
      { rootMargin: `${NEAR_PX}px 0px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, el]);
  return near;
}
