import { Outlet } from 'react-router-dom';
import { Navbar } from './Navbar';

/** The public layout (docs/client.md §1): navbar with Spectate, then the page. */
export function PublicLayout() {
  return (
    <div className="shell">
      <Navbar variant="public" />
      <main className="page">
        <Outlet />
      </main>
    </div>
  );
}
