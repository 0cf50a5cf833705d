/**
 * Warms the browser's date formatting off the main thread: the first Intl.DateTimeFormat of a page
 * loads the locale's date data (35-225 ms on the main thread, measured in Chromium), and those
 * caches are shared by the whole renderer process, so after this worker has built and used one the
 * Live Game Log's own formatter costs under 1 ms. Answers one message when done, then is closed by
 * the page (src/base/timeFormat.ts).
 */
new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' }).format(0);
postMessage('warm');
