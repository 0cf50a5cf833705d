import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { SessionContext } from '../../base/session';
import { authFailedText } from './messages';

/**
 * /auth-callback (docs/client.md §2): reads auth, error and path. On error
 * goes to /loading with the failure text (then the login page); on auth=success with a path goes
 * to /loading redirecting there; otherwise to /onboarding.
 */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const session = SessionContext.useActorRef();
  const error = params.get('error');
  const auth = params.get('auth');
  const path = params.get('path');
  const success = !error && auth === 'success';
  useEffect(() => {
    // The sign-in just set a cookie: have the session chart look again.
    if (success) session.send({ type: 'session.check' });
  }, [success, session]);
  if (error) return <Navigate to="/loading" replace state={{ message: authFailedText(error), redirectTo: '/' }} />;
  if (success && path) return <Navigate to="/loading" replace state={{ message: 'Signed in. Loading your account...', redirectTo: path }} />;
  return <Navigate to="/onboarding" replace />;
}
