import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from './routerLibrary';
import { SessionProvider } from '../base/session';
import { routes } from './routes';

/**
 * Creates the router (docs/client.md §1) and renders the app into #root as a transition, which
 * React splits into short slices; `between` runs between the two (src/main.tsx passes a yield to
 * the browser), so creating the router and starting the render are tasks of their own.
 */
// src/main.tsx imports this module dynamically, one step of the first load.
// ts-unused-exports:disable-next-line
export async function mountApp(between: () => Promise<void>): Promise<void> {
  const router = createBrowserRouter(routes);
  await between();
  startTransition(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </StrictMode>,
    );
  });
}
