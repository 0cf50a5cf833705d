import { adoptCspNonce } from './base/cspNonce';
import { warmTimeFormat } from './base/timeFormat';
import { revealApp } from './base/firstDrawing';
import { nextTask } from './base/nextTask';
import { registerServiceWorkerAfterLoad } from './base/serviceWorker';
import './styles.css';

adoptCspNonce();
// The service worker of web push (public/sw.js), registered after the page's load.
registerServiceWorkerAfterLoad();
// A game page's Live Game Log formats times: its locale data loads in a worker from the start (src/base/timeFormat.ts).
if (window.location.pathname.startsWith('/games/')) warmTimeFormat();

// A spectator page served with the game's first drawing keeps it on screen until the app's own
// board is drawn (src/base/firstDrawing.ts); should the app never get there, it shows after
// FIRST_DRAWING_MAX_MS anyway.
const FIRST_DRAWING_MAX_MS = 15_000;
setTimeout(revealApp, FIRST_DRAWING_MAX_MS);

/**
 * The app's code is evaluated in steps, each a task of its own, so that no step is a long task on a
 * slow phone: React's DOM renderer, the router library, the session (xstate, valibot, ky), then the
 * routes' screens; then the first page's code starts loading and the first render starts as a transition, which
 * React splits into short slices (src/app/mount.tsx). Each step's chunk is preloaded by index.html
 * (vite.config.ts stagedEntry), so the steps wait on no request. The static loading shell of
 * index.html (or a spectator page's first drawing) shows until then.
 */
async function start(): Promise<void> {
  await import('react-dom/client');
  await nextTask();
  await import('./app/routerLibrary');
  await nextTask();
  await import('./base/session');
  await nextTask();
  const mount = await import('./app/mount');
  await nextTask();
  await mount.mountApp(nextTask);
}

void start();
