import * as Tabs from '@radix-ui/react-tabs';
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** One tab of a TabList: its id (also naming its tab and panel elements) and its label. */
export interface TabItem<TId extends string> {
  id: TId;
  label: ReactNode;
}

/** Which ends of a horizontally scrolling box hide content: the cue shown at each end. */
interface Overflow {
  start: boolean;
  end: boolean;
}

/** Pixels of slack below which a scroll position counts as the end (sub-pixel widths). */
const END_SLACK_PX = 2;

/** What `box` hides to its left and right. */
function overflowOf(box: HTMLElement): Overflow {
  return { start: box.scrollLeft > END_SLACK_PX, end: box.scrollLeft + box.clientWidth < box.scrollWidth - END_SLACK_PX };
}

/** Scrolls `box` sideways just enough to show `el` whole (the page itself does not move). */
function revealInside(box: HTMLElement, el: HTMLElement): void {
  const left = el.offsetLeft;
  const right = left + el.offsetWidth;
  if (left < box.scrollLeft) box.scrollLeft = left;
  else if (right > box.scrollLeft + box.clientWidth) box.scrollLeft = right - box.clientWidth;
}

/**
 * A tablist on Radix Tabs (WAI-ARIA tabs pattern, automatic activation, roving tabindex): only the
 * selected tab is in the Tab order; Left and Right arrows (wrapping), Home and End move focus and
 * select. The selection is controlled (`selected`, `onSelect`), so the route can own it. Tab `id` t
 * is `${idPrefix}-tab-${t}` and controls `${idPrefix}-panel-${t}`: the page draws its one panel
 * itself, under ids it can name, instead of Radix's generated ones.
 * When the tabs are wider than the screen the row scrolls sideways: a fade with an arrow marks
 * each end that hides a tab (a click on it scrolls by most of a screen), and the selected tab is
 * scrolled into the row's view whenever it changes.
 */
export function TabList<TId extends string>({
  tabs,
  selected,
  onSelect,
  label,
  idPrefix,
  disabled = false,
}: {
  tabs: readonly TabItem<TId>[];
  selected: TId;
  onSelect: (id: TId) => void;
  label: string;
  idPrefix: string;
  disabled?: boolean;
}) {
  const refs = useRef(new Map<TId, HTMLButtonElement>());
  const box = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>({ start: false, end: false });
  const measure = useCallback(() => {
    const el = box.current;
    if (!el) return;
    const next = overflowOf(el);
    setOverflow((o) => (o.start === next.start && o.end === next.end ? o : next));
  }, []);
  useLayoutEffect(() => {
    // The row and every tab are watched: a tab label that grows (a count) can make the row overflow.
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const tab of refs.current.values()) observer.observe(tab);
    return () => observer.disconnect();
  }, [measure, tabs.length]);
  useLayoutEffect(() => {
    const tab = refs.current.get(selected);
    if (box.current && tab) revealInside(box.current, tab);
    measure();
  }, [selected, tabs.length, measure]);
  // Radix reports a pressed tab twice in one event (its focus, then its mouse-down): the second
  // report would push the same route again, so one pick per tab per event reaches `onSelect`.
  const picked = useRef<string | null>(null);
  const choose = (value: string) => {
    const tab = tabs.find((t) => t.id === value);
    if (!tab || picked.current === value) return;
    picked.current = value;
    queueMicrotask(() => {
      picked.current = null;
    });
    onSelect(tab.id);
  };
  const scrollBy = (direction: 1 | -1) => box.current?.scrollBy?.({ left: direction * box.current.clientWidth * 0.8, behavior: 'smooth' });
  return (
    <Tabs.Root className="tabs-scroller" value={selected} onValueChange={choose} activationMode="automatic">
      <Tabs.List className="tabs" aria-label={label} ref={box} onScroll={measure} loop>
        {tabs.map((t) => (
          <Tabs.Trigger
            key={t.id}
            value={t.id}
            ref={(el) => {
              if (el) refs.current.set(t.id, el);
              else refs.current.delete(t.id);
            }}
            id={`${idPrefix}-tab-${t.id}`}
            aria-controls={`${idPrefix}-panel-${t.id}`}
            className={selected === t.id ? 'tab tab--active' : 'tab'}
            disabled={disabled}
          >
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {overflow.start && (
        <span className="tabs__more tabs__more--start" aria-hidden="true" data-testid="tabs-more-start" onClick={() => scrollBy(-1)}>
          ‹
        </span>
      )}
      {overflow.end && (
        <span className="tabs__more tabs__more--end" aria-hidden="true" data-testid="tabs-more-end" onClick={() => scrollBy(1)}>
          ›
        </span>
      )}
    </Tabs.Root>
  );
}
