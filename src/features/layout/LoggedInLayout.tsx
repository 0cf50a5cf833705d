import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { SessionContext } from '../../base/session';
import { selectIsAuthenticated, selectIsSignedOut, selectNeedsOnboarding } from '../../../machines/session.selectors';
import { Navbar } from './Navbar';
import { Spinner } from '../../ui/Spinner';
import type { SignInState } from '../auth/returnPath';

/**
 * The logged-in layout (docs/client.md §1): a loader while the session is checked, a
 * redirect to / when signed out (carrying the asked page as `from`, so the sign-in returns there),
 * to /onboarding when the user has no IGN yet, else the page.
 */
export function LoggedInLayout() {
  const signedOut = SessionContext.useSelector(selectIsSignedOut);
  const needsOnboarding = SessionContext.useSelector(selectNeedsOnboarding);
  const authenticated = SessionContext.useSelector(selectIsAuthenticated);
  const location = useLocation();
  if (signedOut) return <Navigate to="/" replace state={{ from: location.pathname + location.search + location.hash } satisfies SignInState} />;
  if (needsOnboarding) return <Navigate to="/onboarding" replace />;
  return (
    <div className="shell">
      <Navbar variant="loggedIn" />
      <main className="page">{authenticated ? <Outlet /> : <Spinner text="Checking your session..." />}</main>
    </div>
  );
}
