import { useActorRef, useSelector } from '@xstate/react';
import { Navigate, useLocation } from 'react-router-dom';
import { SessionContext } from '../../base/session';
import { loadingPauseMachine } from '../../../machines/loadingPause.machine';
import { isPauseOver } from '../../../machines/loadingPause.selectors';
import { selectIsBusy, selectIsReady, selectNeedsOnboarding } from '../../../machines/session.selectors';
import { Spinner } from '../../ui/Spinner';
import { DEFAULT_RETURN_PATH, safeReturnPath } from '../../../contract/user';

/**
 * /loading (docs/client.md §1): shows the navigation state's message, then goes to its
 * redirectTo path once the session has settled: to /onboarding when the user has no IGN (which
 * then returns to redirectTo), to /
 * when signed out (a failed sign-in), else to redirectTo when it is a path on this site (else
 * /dashboard).
 */
export function LoadingPage() {
  const location = useLocation();
  const state = (location.state ?? {}) as { message?: string; redirectTo?: string };
  const busy = SessionContext.useSelector(selectIsBusy);
  const ready = SessionContext.useSelector(selectIsReady);
  const needsOnboarding = SessionContext.useSelector(selectNeedsOnboarding);
  const shown = useSelector(useActorRef(loadingPauseMachine), isPauseOver);
  if (shown && !busy) {
    // Onboarding returns to the asked page (an invite link, docs/client.md §15) once the IGNs are linked.
    if (needsOnboarding) return <Navigate to="/onboarding" replace state={{ from: safeReturnPath(state.redirectTo) ?? DEFAULT_RETURN_PATH }} />;
    if (!ready) return <Navigate to="/" replace />;
    return <Navigate to={safeReturnPath(state.redirectTo) ?? DEFAULT_RETURN_PATH} replace />;
  }
  return (
    <section className="panel panel--narrow center">
      <Spinner text={state.message ?? 'Loading...'} />
    </section>
  );
}
