/** The element-timing name of the first drawing's last element, its info text (server/http/firstDrawing.ts). */
const DRAWING_PAINTED = 'first-drawing';
/** The longest the app waits for that paint to be reported (ms). */
const PAINT_WAIT_MS = 2000;

/**
 * The entry of a page served with a first drawing (docs/client.md §9 "First drawing";
 * server/http/pagePreloads.ts withFirstDrawing): once the drawing is painted it inserts a copy of
 * `<template id="after-first-paint">` (the app's script, its module preloads and the page's
 * preloads) into <head>, which starts the app. A script parsed inside a template never runs, its
 * copy does; one inserted copy costs a third of the time of the same tags built one by one
 * (measured in Chromium).
 */
function startApp(): void {
  const template = document.getElementById('after-first-paint');
  if (!(template instanceof HTMLTemplateElement)) return;
  document.head.append(document.importNode(template.content, true));
  template.remove();
}

let started = false;
/** startApp once, in a task of its own. */
function startOnce(): void {
  if (started) return;
  started = true;
  setTimeout(startApp, 0);
}

// A long page may be painted in parts while it is parsed: where the browser reports element
// timing, the app starts when the drawing's info text (its last element) has been painted;
// elsewhere after the next frame, whose animation callback runs before that frame's paint.
if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('element')) {
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => (e as PerformanceEntry & { identifier?: string }).identifier === DRAWING_PAINTED)) {
      observer.disconnect();
      startOnce();
    }
  });
  observer.observe({ type: 'element', buffered: true });
  setTimeout(startOnce, PAINT_WAIT_MS);
} else {
  requestAnimationFrame(startOnce);
}
