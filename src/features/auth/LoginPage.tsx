import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { SessionContext } from '../../base/session';
import {
  selectDevLogin, selectDiscordLogin, selectIsBusy, selectIsSignedOut, selectNotice, selectSessionError, selectSigningIn, selectUser,
} from '../../../machines/session.selectors';
import { discordLoginUrl } from '../../api/session';
import { Avatar } from '../../ui/Avatar';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { loginStatusText } from './messages';
import { returnPathOf } from './returnPath';
import { DISCORD_NOT_CONFIGURED } from '../../../contract/user';

/**
 * The login page at / (docs/client.md §2): title, status message (the documented, or
 * one pointing to development sign-in when that is the only way in: loginStatusText), Discord log-in
 * button (disabled, with the reason, when the server's auth status says Discord is not
 * configured), development sign-in when the server offers it; when already authorised, the avatar,
 * Discord ID, IGNs and Logout. Both sign-ins return to the page asked for while signed out (the
 * navigation state's `from`, see LoggedInLayout), else to /dashboard.
 */
export function LoginPage() {
  const returnTo = returnPathOf(useLocation().state);
  const session = SessionContext.useActorRef();
  const user = SessionContext.useSelector(selectUser);
  const signedOut = SessionContext.useSelector(selectIsSignedOut);
  const busy = SessionContext.useSelector(selectIsBusy);
  const notice = SessionContext.useSelector(selectNotice);
  const error = SessionContext.useSelector(selectSessionError);
  const devEnabled = SessionContext.useSelector(selectDevLogin);
  const discordEnabled = SessionContext.useSelector(selectDiscordLogin);

  return (
    <section className="hero">
      <div className="hero__card panel">
        <h1 className="hero__title">Clan Snakes &amp; Ladders</h1>
        <p className="hero__tagline">Run your clan&apos;s board-game events: teams, tasks from your clan&apos;s pool, live dice rolls and spectators.</p>
        {busy && <Spinner text="Checking your session..." />}
        {signedOut && (
          <>
            {error && <Notice tone="error">{error}</Notice>}
            <Notice tone={notice === 'expired' ? 'warning' : 'info'} testId="login-status">
              {loginStatusText(notice === 'expired', discordEnabled, devEnabled)}
            </Notice>
            {discordEnabled ? (
              <>
                <a className="btn btn--discord btn--large" href={discordLoginUrl(returnTo)}>
                  Log in with Discord
                </a>
                {devEnabled && <DevLoginForm returnTo={returnTo} />}
              </>
            ) : (
              <>
                {/* The way in that works comes first, right under the text pointing to it. */}
                {devEnabled && <DevLoginForm returnTo={returnTo} />}
                <div className="login__discord-off">
                  <button type="button" className="btn btn--discord" disabled aria-describedby="discord-off-reason">
                    Log in with Discord
                  </button>
                  <p id="discord-off-reason" className="field__hint">{DISCORD_NOT_CONFIGURED}</p>
                </div>
              </>
            )}
          </>
        )}
        {user && !signedOut && !busy && (
          <div className="authorised">
            <Avatar url={user.avatar_url} username={user.username} size={64} />
            <dl className="authorised__facts">
              <dt>Signed in as</dt>
              <dd>{user.username}</dd>
              <dt>Discord ID</dt>
              <dd>{user.discord_id}</dd>
              <dt>IGNs</dt>
              <dd>{user.igns.length ? user.igns.map((i) => i.ign).join(', ') : 'None linked yet'}</dd>
            </dl>
            <div className="row">
              <Link className="btn btn--primary" to={user.igns.length ? '/dashboard' : '/onboarding'}>
                {user.igns.length ? 'Go to Dashboard' : 'Continue Setup'}
              </Link>
              <button type="button" className="btn" onClick={() => session.send({ type: 'session.logout' })}>
                Logout
              </button>
            </div>
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * Development sign-in (docs/server.md §2): a name, then the session chart's
 * `session.devLogin`; /loading follows the chart to `returnTo` (the asked page or the dashboard) or
 * onboarding.
 */
function DevLoginForm({ returnTo }: { returnTo: string }) {
  const session = SessionContext.useActorRef();
  const signingIn = SessionContext.useSelector(selectSigningIn);
  const [name, setName] = useState('');
  const navigate = useNavigate();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    session.send({ type: 'session.devLogin', username: name.trim() });
    navigate('/loading', { state: { message: 'Signing you in...', redirectTo: returnTo } });
  };
  return (
    <form className="devlogin" onSubmit={submit} aria-label="Development sign-in">
      <p className="devlogin__label">Development sign-in (no Discord client is configured on this server)</p>
      <div className="row">
        <label className="sr-only" htmlFor="dev-username">Username</label>
        <input id="dev-username" className="input" placeholder="Any username" value={name} maxLength={32} onChange={(e) => setName(e.target.value)} />
        <button className="btn btn--primary" type="submit" disabled={signingIn || !name.trim()}>
          {signingIn ? 'Signing in...' : 'Dev Sign-in'}
        </button>
      </div>
    </form>
  );
}
