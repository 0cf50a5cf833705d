import { Link, NavLink } from 'react-router-dom';
import { SessionContext } from '../../app/session';
import { selectIsReady } from '../../../machines/session.selectors';
import { AvatarMenu } from './AvatarMenu';

/**
 * The top bar of both layouts (product-spec section 2): the brand, a Spectate button (public
 * layout), and the avatar menu once signed in.
 */
export function Navbar({ variant }: { variant: 'public' | 'loggedIn' }) {
  const ready = SessionContext.useSelector(selectIsReady);
  return (
    <header className="navbar">
      <Link to={ready ? '/dashboard' : '/'} className="navbar__brand">
        <span className="navbar__logo" aria-hidden="true">🐍🪜</span>
        <span>Clan Snakes &amp; Ladders</span>
      </Link>
      <nav className="navbar__links" aria-label="Main">
        {variant === 'public' ? (
          <NavLink to="/games/spectate" className="btn btn--ghost">Spectate</NavLink>
        ) : (
          <>
            <NavLink to="/dashboard" className="navbar__link">Dashboard</NavLink>
            <NavLink to="/games" end className="navbar__link">My Games</NavLink>
          </>
        )}
        {ready && <AvatarMenu />}
      </nav>
    </header>
  );
}
