import { Component, StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useLocation, useRoutes } from './routerLibrary';
import { SessionProvider } from '../base/session';
import { preloadPage, routes } from './routes';

/**
 * What a render error anywhere in the routes shows instead of the page: react-router's own default
 * error page (its heading and the error's message), which its data router showed before the app
 * rendered its routes with useRoutes (src/app/routes.tsx). The next navigation clears it.
 */
class RouteErrorBoundary extends Component<{ location: string; children: ReactNode }, { failed: unknown[] | null; location: string }> {
  override state = { failed: null as unknown[] | null, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { failed: [error] };
  }

  static getDerivedStateFromProps(props: { location: string }, state: { failed: unknown[] | null; location: string }) {
    return props.location === state.location ? null : { failed: null, location: props.location };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const [error] = this.state.failed;
    return (
      <>
        <h2>Unexpected Application Error!</h2>
        <h3>{error instanceof Error ? error.message : JSON.stringify(error)}</h3>
      </>
    );
  }
}

/** The route table of src/app/routes.tsx at the browser's location. */
function AppRoutes() {
  const location = useLocation();
  return <RouteErrorBoundary location={location.key}>{useRoutes(routes)}</RouteErrorBoundary>;
}

/**
 * Starts the first page's code (preloadPage) and renders the app's routes (docs/client.md §1) in a
 * browser router into #root as a transition, which React splits into short slices; `between` runs
 * between the two (src/main.tsx passes a yield to the browser), so starting the loads and starting
 * the render are tasks of their own.
 */
// src/main.tsx imports this module dynamically, one step of the first load.
// ts-unused-exports:disable-next-line
export async function mountApp(between: () => Promise<void>): Promise<void> {
  preloadPage(window.location.pathname);
  await between();
  startTransition(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <SessionProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </SessionProvider>
      </StrictMode>,
    );
  });
}
