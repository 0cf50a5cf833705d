import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SessionProvider } from './base/session';
import { routes } from './app/routes';
import { adoptCspNonce } from './base/cspNonce';
import { warmTimeFormat } from './base/timeFormat';
import { revealApp } from './base/firstDrawing';
import './styles.css';

adoptCspNonce();
// A game page's Live Game Log formats times: its locale data loads in a worker from the start (src/base/timeFormat.ts).
if (window.location.pathname.startsWith('/games/')) warmTimeFormat();

// A spectator page served with the game's first drawing keeps it on screen until the app's own
// board is drawn (src/base/firstDrawing.ts); should the app never get there, it shows after
// FIRST_DRAWING_MAX_MS anyway.
const FIRST_DRAWING_MAX_MS = 15_000;
setTimeout(revealApp, FIRST_DRAWING_MAX_MS);

// The router and the first render start in a task of their own after the
// bundle's evaluation, and the first render is a transition that React splits into short slices,
// so neither adds to one long task on a slow phone. The static loading shell of index.html shows
// until then.
setTimeout(() => {
  const router = createBrowserRouter(routes);
  startTransition(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </StrictMode>,
    );
  });
}, 0);
