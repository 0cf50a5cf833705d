import { Outlet, useLocation } from 'react-router-dom';

/**
 * /games (product-spec section 2 Games lobby, title Game Lobby). The lobby shows only when the
 * path ends in /games; the nested spectate-auth child renders through the outlet.
 * Issue #6 fills the tables.
 */
export function GamesLobbyPage() {
  const location = useLocation();
  if (!/\/games\/?$/.test(location.pathname)) return <Outlet />;
  return (
    <section className="panel placeholder">
      <h1>Game Lobby</h1>
      <p className="muted">Your active and finished games will be listed here.</p>
    </section>
  );
}
