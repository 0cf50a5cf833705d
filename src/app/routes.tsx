import { Navigate, type RouteObject } from 'react-router-dom';
import { LoggedInLayout } from '../features/layout/LoggedInLayout';
import { PublicLayout } from '../features/layout/PublicLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { AuthCallbackPage } from '../features/auth/AuthCallbackPage';
import { LoadingPage } from '../features/auth/LoadingPage';
import { OnboardingPage } from '../features/onboarding/OnboardingPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { GamesLobbyPage } from '../features/lobby/GamesLobbyPage';
import { SpectateListPage } from '../features/spectate/SpectateListPage';
import { Spinner } from '../ui/Spinner';

/** What a lazily loaded page shows while its code arrives on the first load (inside its layout, navbar included). */
function PageLoading() {
  return <Spinner text="Loading..." />;
}

/**
 * The heavy screens (clan management with its tabs, the board and live game, the profile) are
 * loaded on first visit, so the landing, onboarding and dashboard come down small; until then
 * they show PageLoading (their HydrateFallback).
 */
const lazyPage = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: load, HydrateFallback: PageLoading });

/**
 * The route table of product-spec section 2: the logged-in layout (loader while the session is
 * checked, redirect to / when signed out) and the public layout; any other path redirects to /.
 */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: '/', element: <LoginPage /> },
      { path: '/auth-callback', element: <AuthCallbackPage /> },
      { path: '/loading', element: <LoadingPage /> },
      { path: '/onboarding', element: <OnboardingPage /> },
      { path: '/games/spectate', element: <SpectateListPage /> },
      { path: '/games/spectate/:gameId', ...lazyPage(async () => ({ Component: (await import('../features/spectate/SpectatorViewPage')).SpectatorViewPage })) },
      // verifyPath (src/app/paths.ts) builds links to it.
      { path: '/games/:gameId/verify', ...lazyPage(async () => ({ Component: (await import('../features/verify/VerifyDicePage')).VerifyDicePage })) },
      { path: '/games/:gameId/results', ...lazyPage(async () => ({ Component: (await import('../features/results/ResultsPage')).ResultsPage })) },
    ],
  },
  {
    element: <LoggedInLayout />,
    children: [
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/profile', ...lazyPage(async () => ({ Component: (await import('../features/profile/ProfilePage')).ProfilePage })) },
      {
        path: '/games',
        element: <GamesLobbyPage />,
        children: [{ path: 'spectate-auth', element: <SpectateListPage /> }],
      },
      { path: '/games/clan/:clanId/events/:eventId/game/:gameId', ...lazyPage(async () => ({ Component: (await import('../features/play/GamePlayPage')).GamePlayPage })) },
      { path: '/clans/manage/:clanId/*', ...lazyPage(async () => ({ Component: (await import('../features/clan/ClanManagePage')).ClanManagePage })) },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];
