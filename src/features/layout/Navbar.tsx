import { lazy, Suspense } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { SessionContext } from '../../base/session';
import { sameClans, selectIsReady, selectManagedClans } from '../../../machines/session.selectors';

/** The avatar menu (Radix dropdown) loads once someone is signed in, so the landing page does without it. */
const AvatarMenu = lazy(() => import('./AvatarMenu').then((m) => ({ default: m.AvatarMenu })));
/** The pending-proof count (its chart and socket) loads for managers only. */
const PendingProofsBadge = lazy(() => import('./PendingProofsBadge').then((m) => ({ default: m.PendingProofsBadge })));

/**
 * The top bar of both layouts (docs/client.md §1): the brand, a Spectate button (public
 * layout), and once signed in the avatar menu and, for a manager of a clan, the count of proofs
 * waiting for review (docs/server.md §9), on every page. The count starts again when the
 * managed clans change (a new chart for the new rooms).
 */
export function Navbar({ variant }: { variant: 'public' | 'loggedIn' }) {
  const ready = SessionContext.useSelector(selectIsReady);
  const managed = SessionContext.useSelector(selectManagedClans, sameClans);
  const managedIds = managed.map((m) => m.clan_id);
  return (
    <header className="navbar">
      <Link to={ready ? '/dashboard' : '/'} className="navbar__brand">
        <svg className="navbar__logo" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
          <rect x="1" y="1" width="30" height="30" rx="6" fill="#d4aa3a" stroke="#7a5c12" strokeWidth="2" />
          <path d="M10 6v20M20 6v20M10 10h10M10 16h10M10 22h10" stroke="#3a2708" strokeWidth="2.4" strokeLinecap="round" />
          <path d="M26 7c-6 2 2 6-4 9s2 6-5 9" fill="none" stroke="#2f6b2a" strokeWidth="2.6" strokeLinecap="round" />
        </svg>
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
        {ready && managedIds.length > 0 && (
          <Suspense fallback={null}>
            <PendingProofsBadge key={managedIds.join(',')} clanIds={managedIds} />
          </Suspense>
        )}
        {ready && (
          <Suspense fallback={null}>
            <AvatarMenu />
          </Suspense>
        )}
      </nav>
    </header>
  );
}
