import { Navigate, type RouteObject } from 'react-router-dom';
import { LoggedInLayout } from '../features/layout/LoggedInLayout';
import { PublicLayout } from '../features/layout/PublicLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { AuthCallbackPage } from '../features/auth/AuthCallbackPage';
import { LoadingPage } from '../features/auth/LoadingPage';
import { OnboardingPage } from '../features/onboarding/OnboardingPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { GamesLobbyPage } from '../features/lobby/GamesLobbyPage';
import { SpectateListPage } from '../features/spectate/SpectateListPage';
import { SpectatorViewPage } from '../features/spectate/SpectatorViewPage';
import { GamePlayPage } from '../features/play/GamePlayPage';
import { ClanManagePage } from '../features/clan/ClanManagePage';

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
      { path: '/games/spectate/:gameId', element: <SpectatorViewPage /> },
    ],
  },
  {
    element: <LoggedInLayout />,
    children: [
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/profile', element: <ProfilePage /> },
      {
        path: '/games',
        element: <GamesLobbyPage />,
        children: [{ path: 'spectate-auth', element: <SpectateListPage /> }],
      },
      { path: '/games/clan/:clanId/events/:eventId/game/:gameId', element: <GamePlayPage /> },
      { path: '/clans/manage/:clanId', element: <ClanManagePage /> },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];
