import { Link } from 'react-router-dom';
import { SessionContext } from '../../app/session';
import { selectIsRefreshing, selectUser } from '../../../machines/session.selectors';
import { Avatar } from '../../ui/Avatar';

/**
 * /dashboard (product-spec section 1): a welcome header and three widgets: My Profile, My Games,
 * Spectate Live Games.
 */
export function DashboardPage() {
  const user = SessionContext.useSelector(selectUser);
  const refreshing = SessionContext.useSelector(selectIsRefreshing);
  const session = SessionContext.useActorRef();
  if (!user) return null;
  const clans = user.clan_memberships_list;
  return (
    <div className="dashboard">
      <header className="welcome panel">
        <Avatar url={user.avatar_url} username={user.username} size={56} />
        <div>
          <h1 className="welcome__title">Welcome, {user.username}!</h1>
          <p className="muted">
            Playing as {user.igns.map((i) => i.ign).join(', ')}
            {clans.length > 0 && <> · {clans.map((c) => `${c.name} (${c.role})`).join(', ')}</>}
          </p>
        </div>
      </header>
      <div className="widgets">
        <article className="widget panel">
          <h2>My Profile</h2>
          <p>Update your linked IGNs, manage your clans and view your stats.</p>
          <ul className="stats">
            <li><strong>{user.igns.length}</strong> IGN{user.igns.length === 1 ? '' : 's'} linked</li>
            <li><strong>{clans.length}</strong> clan{clans.length === 1 ? '' : 's'}</li>
          </ul>
          <div className="row widget__actions">
            <Link className="btn btn--primary" to="/profile">Open Profile</Link>
            <button type="button" className="btn" disabled={refreshing} onClick={() => session.send({ type: 'session.refresh' })}>
              {refreshing ? 'Refreshing...' : 'Refresh stats'}
            </button>
          </div>
        </article>
        <article className="widget panel">
          <h2>My Games</h2>
          <p>Your current games and their status: roll for your team when you lead it.</p>
          <Link className="btn btn--primary" to="/games">Open Game Lobby</Link>
        </article>
        <article className="widget panel">
          <h2>Spectate Live Games</h2>
          <p>Watch any clan&apos;s live board, rolls and log as they happen.</p>
          <Link className="btn btn--primary" to="/games/spectate-auth">Spectate</Link>
        </article>
      </div>
    </div>
  );
}
