import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** The phone and desktop viewports every page of a journey must fit (CSS pixels). */
export const PHONE = { width: 375, height: 812 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/**
 * Fails when `page` scrolls sideways: the document is wider than the viewport
 * (document.documentElement.scrollWidth > window.innerWidth). Call it once the page shows what it
 * is checked for. The message names `where`, the widths and up to five elements reaching past the
 * right edge, to find the culprit. A generic check: it knows nothing of the page.
 */
export async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const seen = await page.evaluate(() => {
    const width = window.innerWidth;
    const wide = [...document.body.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} (${Math.round(el.getBoundingClientRect().right)} px)`);
    return { scrollWidth: document.documentElement.scrollWidth, width, wide };
  });
  expect(seen.scrollWidth, `${where} at ${seen.width} px wide scrolls sideways; past the edge: ${seen.wide.join(', ')}`).toBeLessThanOrEqual(seen.width);
}

/**
 * Fails unless `target` is fully on screen and nothing covers it: its box lies inside the viewport
 * and the element hit at its centre (document.elementFromPoint) is the target or inside it, so no
 * ancestor's overflow clips it and a mouse click there reaches it.
 */
export async function expectFullyVisible(target: Locator, what: string): Promise<void> {
  const seen = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
      inside: r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight,
      box: `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)} in ${window.innerWidth}x${window.innerHeight}`,
      hitsTarget: hit !== null && el.contains(hit),
      hit: hit ? `${hit.tagName.toLowerCase()}.${String(hit.className)}` : 'nothing',
    };
  });
  expect(seen.inside, `${what}: box ${seen.box} is not inside the viewport`).toBe(true);
  expect(seen.hitsTarget, `${what}: the point at its centre shows ${seen.hit}, not it`).toBe(true);
}

/**
 * Fails unless the tab row `tablist` shows what it holds: its selected tab lies inside the row's
 * visible box, and when tabs are hidden past an end (the row scrolls sideways) that end shows its
 * cue (`.tabs__more--start` / `--end` beside the row).
 */
export async function expectTabsReachable(tablist: Locator, where: string): Promise<void> {
  const seen = await tablist.evaluate((row) => {
    const box = row.getBoundingClientRect();
    const selected = row.querySelector('[role="tab"][aria-selected="true"]')?.getBoundingClientRect();
    const cue = (end: string) => !!row.parentElement?.querySelector(`.tabs__more--${end}`);
    return {
      selectedInView: !!selected && selected.left >= box.left - 0.5 && selected.right <= box.right + 0.5,
      hiddenStart: row.scrollLeft > 2,
      hiddenEnd: row.scrollLeft + row.clientWidth < row.scrollWidth - 2,
      cueStart: cue('start'),
      cueEnd: cue('end'),
    };
  });
  expect(seen.selectedInView, `${where}: the selected tab is scrolled out of its row`).toBe(true);
  expect({ start: seen.cueStart, end: seen.cueEnd }, `${where}: an end of the tab row hides tabs without a cue, or shows a cue with nothing hidden`).toEqual({ start: seen.hiddenStart, end: seen.hiddenEnd });
}
