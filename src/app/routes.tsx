import { Navigate, type RouteObject } from 'react-router-dom';
import { PublicLayout } from '../features/layout/PublicLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { OnboardingPage } from '../features/onboarding/OnboardingPage';

/**
 * Every screen but the landing (sign-in) page and onboarding is loaded on first visit (the
 * logged-in layout with its menu, the dashboard and lobbies, the board and live game, clan
 * management, the profile), so the landing page and a spectator's game page each download only
 * what they show (issue #14: at most 150 KiB of JavaScript on the wire).
 */
const lazyPage = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: load });

/** The other lazily loaded screens. */
const authCallbackPage = () => import('../features/auth/AuthCallbackPage').then((m) => ({ Component: m.AuthCallbackPage }));
const loadingPage = () => import('../features/auth/LoadingPage').then((m) => ({ Component: m.LoadingPage }));
const spectatorViewPage = () => import('../features/spectate/SpectatorViewPage').then((m) => ({ Component: m.SpectatorViewPage }));
const dashboardPage = () => import('../features/dashboard/DashboardPage').then((m) => ({ Component: m.DashboardPage }));
const profilePage = () => import('../features/profile/ProfilePage').then((m) => ({ Component: m.ProfilePage }));
const gamesLobbyPage = () => import('../features/lobby/GamesLobbyPage').then((m) => ({ Component: m.GamesLobbyPage }));
const gamePlayPage = () => import('../features/play/GamePlayPage').then((m) => ({ Component: m.GamePlayPage }));
const clanManagePage = () => import('../features/clan/ClanManagePage').then((m) => ({ Component: m.ClanManagePage }));

/** The logged-in layout (navbar with the avatar menu, session guard). */
const loggedInLayout = () => import('../features/layout/LoggedInLayout').then((m) => ({ Component: m.LoggedInLayout }));

/** The spectate list, shown in both layouts. */
const spectateList = () => import('../features/spectate/SpectateListPage').then((m) => ({ Component: m.SpectateListPage }));

/**
 * The route table of product-spec section 2: the logged-in layout (loader while the session is
 * checked, redirect to / when signed out) and the public layout; any other path redirects to /.
 */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: '/', element: <LoginPage /> },
      { path: '/auth-callback', ...lazyPage(authCallbackPage) },
      { path: '/loading', ...lazyPage(loadingPage) },
      { path: '/onboarding', element: <OnboardingPage /> },
      { path: '/games/spectate', ...lazyPage(spectateList) },
      { path: '/games/spectate/:gameId', ...lazyPage(spectatorViewPage) },
    ],
  },
  {
    ...lazyPage(loggedInLayout),
    children: [
      { path: '/dashboard', ...lazyPage(dashboardPage) },
      { path: '/profile', ...lazyPage(profilePage) },
      {
        path: '/games',
        ...lazyPage(gamesLobbyPage),
        children: [{ path: 'spectate-auth', ...lazyPage(spectateList) }],
      },
      { path: '/games/clan/:clanId/events/:eventId/game/:gameId', ...lazyPage(gamePlayPage) },
      { path: '/clans/manage/:clanId/*', ...lazyPage(clanManagePage) },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];
