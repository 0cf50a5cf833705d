/** The element-timing name of the first drawing's last element, its info text (server/http/firstDrawing.ts). */
const DRAWING_PAINTED = 'first-drawing';
/** The longest the app waits for that paint to be reported (ms). */
const PAINT_WAIT_MS = 2000;

/**
 * The entry of a page served with a first drawing (docs/client.md §9 "First drawing";
 * server/http/pagePreloads.ts withFirstDrawing): once the drawing is painted it copies the tags of
 * `<template id="after-first-paint">` (the app's script, its module preloads and the page's
 * preloads) into <head>, which starts the app. Tags are rebuilt with createElement, since a
 * script parsed inside a template never runs.
 */
function startApp(): void {
  const template = document.getElementById('after-first-paint');
  if (!(template instanceof HTMLTemplateElement)) return;
  for (const tag of Array.from(template.content.children)) {
    const copy = document.createElement(tag.tagName.toLowerCase());
    for (const attr of Array.from(tag.attributes)) copy.setAttribute(attr.name, attr.value);
    document.head.append(copy);
  }
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
